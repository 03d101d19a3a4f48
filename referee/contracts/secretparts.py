"""What the secret parts of journal records hold: the data of an event's secret (a drawn
card, a sealed order, a hidden template's change) and of a record's parts (a private or
standing order, the mail it came in, the players' roster, the mail route).

Replaying puts a secret's data into the state, so its shape is checked like the rest of a
record; but only that check reads them (game/records.parts_checked), and a cold read runs it
beside, in a process of its own (store/checking.py): the read's own process never makes
these classes.
"""

from typing import Annotated

from msgspec import Meta

from .base import Contract


class DeckOrder(Contract):
    order: list[str]


class CardList(Contract):
    cards: list[str]


class SealedOrder(Contract):
    order: str | None = None                    # one sealed order (journals before plans)
    orders: list[str] | None = None             # one sealed plan: every order of a submission


class MoveDetails(Contract):
    unit: str
    kind: str | None
    nation: str | None
    from_army: str | None
    into: str | None
    new_id: str | None
    taking: list[str]


class RetreatDetails(Contract):
    unit: str
    new_id: str | None
    into: str | None


class OrderText(Contract):
    text: str


class MailData(Contract):
    message_id: str
    sha256: str
    body_sha256: str | None = None
    # Of its Date, Subject and text: the same mail sent again under a new Message-ID.
    content_sha256: str | None = None


class Player(Contract):
    """A side's registered player: the address its mail comes from, and the number and keyed
    digest of its order key (the key itself is never kept)."""

    side: str
    address: str
    key_no: int | None = None
    key_digest: str | None = None


class Roster(Contract):
    """The players' registration, as a roster record keeps it for the moderator's eyes; the
    observers' addresses, who are sent the public report and never order (absent: none).
    `mail_entropy`: written by a referee that mixes the digest of each mail's order lines
    into the dice of the records the mail makes; verify requires it of every such record
    after this one (absent: an older roster, whose mail records need not)."""

    players: list[Player]
    observers: Annotated[list[str], Meta(max_length=50)] = []
    mail_entropy: bool = False


class MailRoute(Contract):
    """Where a game's mail comes from (an mbox file, a Maildir, an imap:// or imaps://
    folder) and where the referee's mail goes (outbox:DIR, smtp://, smtps://, route:NAME of
    the moderator's mail settings; sendmail:COMMAND in games begun before routes were
    named, which nothing runs), as a mail route record keeps them for the moderator's eyes,
    and the address the referee's mails come from (`--from`; absent: the moderator's); no
    password is ever part of them (absent: not set)."""

    source: Annotated[str, Meta(max_length=4200)] | None = None
    target: Annotated[str, Meta(max_length=4200)] | None = None
    sender: Annotated[str, Meta(max_length=254)] | None = None


# Hidden army templates (option 1.4): what entered or left a template outside a battle.
class PlaceDetails(Contract):
    unit: str
    area: str
    into: str


class BuildDetails(Contract):
    unit: str
    area: str
    into: str
    cost: int


class UnitRef(Contract):
    unit: str


class TemplateChange(Contract):
    """A hidden change to an army's template (TemplateChanged): a build or an upgrade."""

    build: BuildDetails | None = None
    upgrade: str | None = None          # the template unit upgraded (ARMY:nation:kind)


class RevealedPlan(Contract):
    """A revealed production plan as its owner sees it (ProductionRevealed, 1.4): every
    order, and the totals (absent in records made before they were kept there)."""

    orders: list[str]
    spent: int | None = None
    lost: int | None = None


class OrderList(Contract):
    orders: list[str]


class UnitLost(Contract):
    unit: str
    nation: str
    kind: str


class UnitRemoved(Contract):
    unit: str
    nation: str
    kind: str
    area: str


class Elimination(Contract):
    unit: str
    nation: str
    kind: str
    area: str
    reason: str
    rule: str


class BoxValue(Contract):
    bp: int


class SwapDetails(Contract):
    replaced: str
    area: str
    new_id: str | None


class JoinedArmy(Contract):
    into: str


class StandingEntry(Contract):
    text: str
    turn: int | None = None


class StandingSet(Contract):
    orders: list[StandingEntry]


# What a secret part's `data` holds, by the event that carries it.
SECRET_DATA: dict[str, type[Contract]] = {
    "DeckShuffled": DeckOrder, "CardsStacked": CardList, "CardsDrawn": CardList,
    "ProductionOrdered": SealedOrder, "UnitMoved": MoveDetails,
    "UnitPlaced": PlaceDetails, "UnitBuilt": BuildDetails, "InfantryUpgraded": UnitRef,
    "ProductionRevealed": RevealedPlan, "TemplateChanged": TemplateChange,
    "AttritionTaken": UnitLost, "EftUnitLost": UnitLost,
    "CrisisUnitRemoved": UnitRemoved, "PieceEliminated": Elimination,
    "EftLossesDue": BoxValue, "CommonwealthSwapped": SwapDetails,
    "ArmySuppressed": JoinedArmy, "UnitRetreated": RetreatDetails,
    "PlanSealed": OrderList, "PlanRevealed": OrderList,
}
