"""Journal records: the header (record 0) and every record after it, with the secret parts' data.

The fast msgspec twin of referee/contracts/records.py."""

# Generated from referee/contracts/records.py (make schemas): edit that, not this.
# ruff: noqa: E501

from typing import Annotated, Literal

import msgspec

from ..data.scenariomodels import Scenario
from ..engine.event_union import Event
from ..engine.events_base import Secret

__all__ = [
    'DiceCommitment',
    'Signing',
    'JournalHeader',
    'DeckOrder',
    'CardList',
    'SealedOrder',
    'MoveDetails',
    'RetreatDetails',
    'OrderText',
    'MailData',
    'SheetTip',
    'SheetLink',
    'DiceSource',
    'Player',
    'Roster',
    'MailRoute',
    'PlaceDetails',
    'BuildDetails',
    'UnitRef',
    'OrderList',
    'UnitLost',
    'UnitRemoved',
    'Elimination',
    'BoxValue',
    'SwapDetails',
    'JoinedArmy',
    'StandingEntry',
    'StandingSet',
    'ClockFact',
    'JournalRecord',
    'SECRET_DATA',
]


class DiceCommitment(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    mode: Literal['committed', 'manual']
    commitment: Annotated[str, msgspec.Meta(pattern='^[0-9a-f]{64}$')]


class Signing(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A game's signing key as a header, an adoption or a key change names it: its public
    half (32 bytes, base64url without padding) and fingerprint.
    """

    alg: Literal['ed25519']
    public: Annotated[str, msgspec.Meta(pattern='^[A-Za-z0-9_-]{43}$')]
    fingerprint: Annotated[str, msgspec.Meta(pattern='^[0-9A-HJKMNP-TV-Z]{16}$')]


class JournalHeader(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """Record 0 of a journal."""

    seq: Literal[0]
    kind: Literal['header']
    prev: None
    hash: str
    schema_version: int
    game_id: Annotated[str, msgspec.Meta(min_length=1, max_length=200)]
    game: Annotated[str, msgspec.Meta(pattern='^[a-z0-9][a-z0-9_-]{0,39}$')]
    game_name: str
    data_digest: str
    engine_version: str
    rules_version: Annotated[int, msgspec.Meta(ge=1)] = 1
    scenario: str
    scenario_data: Scenario
    options: dict[str, bool]
    dice: DiceCommitment
    created_at: str
    signing: Signing | None = None
    sig: Annotated[str, msgspec.Meta(min_length=103, max_length=103)] | None = None


class DeckOrder(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    order: list[str]


class CardList(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    cards: list[str]


class SealedOrder(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    order: str | None = None
    orders: list[str] | None = None


class MoveDetails(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    unit: str
    kind: str | None
    nation: str | None
    from_army: str | None
    into: str | None
    new_id: str | None
    taking: list[str]


class RetreatDetails(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    unit: str
    new_id: str | None
    into: str | None


class OrderText(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    text: str


class MailData(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    message_id: str
    sha256: str
    body_sha256: str | None = None
    content_sha256: str | None = None


class SheetTip(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A player's dice sheet registered for his side: its tip (store/sheets.py)."""

    side: str
    tip: Annotated[str, msgspec.Meta(pattern='^[0-9a-f]{64}$')]


class SheetLink(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A link of a side's dice sheet: its number (the tip is 0) and value."""

    side: str
    no: Annotated[int, msgspec.Meta(ge=0)]
    value: Annotated[str, msgspec.Meta(pattern='^[0-9a-f]{64}$')]


class DiceSource(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """What a record's dice and draws mix in besides the secret: the latest revealed link of
    every side holding a sheet, and the SHA-256 of the order lines of the mail it came in
    (a side without a sheet).
    """

    links: list[SheetLink] = []
    mail: Annotated[str, msgspec.Meta(pattern='^[0-9a-f]{64}$')] | None = None


class Player(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A side's registered player: the address its mail comes from, and the number and keyed
    digest of its order key (the key itself is never kept).
    """

    side: str
    address: str
    key_no: int | None = None
    key_digest: str | None = None


class Roster(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """The players' registration, as a roster record keeps it for the moderator's eyes; the
    observers' addresses, who are sent the public report and never order (absent: none).
    `mail_entropy`: written by a referee that mixes the digest of each mail's order lines
    into the dice of the records the mail makes; verify requires it of every such record
    after this one (absent: an older roster, whose mail records need not).
    """

    players: list[Player]
    observers: Annotated[list[str], msgspec.Meta(max_length=50)] = []
    mail_entropy: bool = False


class MailRoute(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """Where a game's mail comes from (an mbox file, a Maildir, an imap:// or imaps://
    folder) and where the referee's mail goes (outbox:DIR, smtp://, smtps://, route:NAME of
    the moderator's mail settings; sendmail:COMMAND in games begun before routes were
    named, which nothing runs), as a mail route record keeps them for the moderator's eyes;
    no password is ever part of either (absent: not set).
    """

    source: Annotated[str, msgspec.Meta(max_length=4200)] | None = None
    target: Annotated[str, msgspec.Meta(max_length=4200)] | None = None


class PlaceDetails(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    unit: str
    area: str
    into: str


class BuildDetails(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    unit: str
    area: str
    into: str
    cost: int


class UnitRef(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    unit: str


class OrderList(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    orders: list[str]


class UnitLost(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    unit: str
    nation: str
    kind: str


class UnitRemoved(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    unit: str
    nation: str
    kind: str
    area: str


class Elimination(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    unit: str
    nation: str
    kind: str
    area: str
    reason: str
    rule: str


class BoxValue(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    bp: int


class SwapDetails(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    replaced: str
    area: str
    new_id: str | None


class JoinedArmy(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    into: str


class StandingEntry(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    text: str
    turn: int | None = None


class StandingSet(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    orders: list[StandingEntry]


class ClockFact(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A fact about the game's time (mail/deadlines.py): the deadline settings, a deadline
    extended, a reminder sent, a deadline missed, the game paused or resumed.

    `settings`: the duration of a hand-off's deadline (`deadline`; for one decision kind only
    with `decision`), the reminders before it, the missed-order policy, the extensions each
    side may ask for and whether a deadline skips the weekend; an absent member keeps the
    value before. `extend`: `side`'s deadline for the hand-off made by record `handoff` is
    `by` later. `reminded`: `side` was reminded `before` its deadline `due` (of `handoff`).
    `missed`: `side` let its deadline `due` pass; the policy `missed` was applied (with
    `default`, the record also holds the answer the referee gave for him, rule `rule`).
    `pause`, `resume`: no deadline runs while the game is paused; a resumed hand-off's
    deadline counts from the resume.
    """

    kind: Literal['settings', 'extend', 'reminded', 'missed', 'pause', 'resume']
    deadline: Annotated[str, msgspec.Meta(pattern='^[0-9]{1,5}h([0-9]{1,2}m)?$|^[0-9]{1,2}m$')] | None = None
    decision: Annotated[str, msgspec.Meta(pattern='^[a-z_]{1,40}$')] | None = None
    reminders: Annotated[list[Annotated[str, msgspec.Meta(pattern='^[0-9]{1,5}h([0-9]{1,2}m)?$|^[0-9]{1,2}m$')]], msgspec.Meta(max_length=10)] | None = None
    missed: Literal['default', 'wait', 'pause'] | None = None
    extensions: Annotated[int, msgspec.Meta(ge=0, le=100)] | None = None
    skip_weekends: bool | None = None
    side: Annotated[str, msgspec.Meta(min_length=1, max_length=32)] | None = None
    handoff: Annotated[int, msgspec.Meta(ge=1)] | None = None
    by: Annotated[str, msgspec.Meta(pattern='^[0-9]{1,5}h([0-9]{1,2}m)?$|^[0-9]{1,2}m$')] | None = None
    before: Annotated[str, msgspec.Meta(pattern='^[0-9]{1,5}h([0-9]{1,2}m)?$|^[0-9]{1,2}m$')] | None = None
    due: Annotated[str, msgspec.Meta(pattern='^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$')] | None = None
    rule: Annotated[str, msgspec.Meta(max_length=40)] | None = None


class JournalRecord(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """Every record after the header: one accepted order and its events."""

    seq: int
    prev: str
    hash: str
    at: str
    actor: Annotated[str, msgspec.Meta(min_length=1, max_length=32)]
    order: str
    events: list[Event]
    dice: list[Annotated[int, msgspec.Meta(ge=1, le=6)]] = []
    private_order: Secret | None = None
    mail: Secret | None = None
    players: Secret | None = None
    mail_route: Secret | None = None
    standing: Secret | None = None
    sheet: SheetTip | None = None
    link: SheetLink | None = None
    dice_from: DiceSource | None = None
    clock: ClockFact | None = None
    by: Literal['mail', 'hand', 'deadline'] | None = None
    signing: Signing | None = None
    sig: Annotated[str, msgspec.Meta(min_length=103, max_length=103)] | None = None


SECRET_DATA = {
    'DeckShuffled': DeckOrder,
    'CardsStacked': CardList,
    'CardsDrawn': CardList,
    'ProductionOrdered': SealedOrder,
    'UnitMoved': MoveDetails,
    'UnitPlaced': PlaceDetails,
    'UnitBuilt': BuildDetails,
    'InfantryUpgraded': UnitRef,
    'ProductionRevealed': OrderList,
    'AttritionTaken': UnitLost,
    'EftUnitLost': UnitLost,
    'CrisisUnitRemoved': UnitRemoved,
    'PieceEliminated': Elimination,
    'EftLossesDue': BoxValue,
    'CommonwealthSwapped': SwapDetails,
    'ArmySuppressed': JoinedArmy,
    'UnitRetreated': RetreatDetails,
    'PlanSealed': OrderList,
    'PlanRevealed': OrderList,
}
