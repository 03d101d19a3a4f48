"""The shape of journal records: what a line must hold, beyond a valid hash chain.

The chain proves a file is intact, not who wrote it: anybody can write a
journal whose hashes check. Every record is therefore also validated against
these models before it is replayed, so a well-chained file of the wrong shape
is reported with its record number instead of crashing the referee.
"""

from typing import Annotated, Literal

import msgspec

from ..base.errors import JournalError
from ..data.paths import GAME_NAME
from ..data.scenariomodels import Scenario
from ..engine.events import Event
from ..engine.events_base import Secret

Die = Annotated[int, msgspec.Meta(ge=1, le=6)]


class DiceCommitment(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    mode: Literal["committed", "manual"]
    commitment: Annotated[str, msgspec.Meta(pattern="^[0-9a-f]{64}$")]


class JournalHeader(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """Record 0 of a journal."""

    seq: Literal[0]
    kind: Literal["header"]
    prev: None
    hash: str
    schema_version: int
    game_id: Annotated[str, msgspec.Meta(min_length=1, max_length=200)]
    game: Annotated[str, msgspec.Meta(pattern=GAME_NAME.pattern)]
    game_name: str
    data_digest: str
    engine_version: str
    rules_version: Annotated[int, msgspec.Meta(ge=1)] = 1    # absent: before versions were kept
    scenario: str
    scenario_data: Scenario
    options: dict[str, bool]
    dice: DiceCommitment
    created_at: str


# What a secret part's `data` holds, by the event that carries it: replaying puts it into
# the state (hands, the draw pile, army templates), so its shape is checked like the rest.
class _DeckOrder(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    order: list[str]


class _CardList(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    cards: list[str]


class _SealedOrder(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    order: str | None = None                    # one sealed order (journals before plans)
    orders: list[str] | None = None             # one sealed plan: every order of a submission


class _MoveDetails(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    unit: str
    kind: str | None
    nation: str | None
    from_army: str | None
    into: str | None
    new_id: str | None
    taking: list[str]


class _RetreatDetails(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    unit: str
    new_id: str | None
    into: str | None


class _OrderText(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    text: str


class _MailData(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    message_id: str
    sha256: str
    body_sha256: str | None = None


class _Player(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    side: str
    address: str
    key_no: int | None = None
    key_digest: str | None = None


class _Roster(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    players: list[_Player]


# Hidden army templates (option 1.4): what entered or left a template outside a battle.
class _PlaceDetails(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    unit: str
    area: str
    into: str


class _BuildDetails(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    unit: str
    area: str
    into: str
    cost: int


class _UnitRef(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    unit: str


class _OrderList(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    orders: list[str]


class _UnitLost(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    unit: str
    nation: str
    kind: str


class _UnitRemoved(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    unit: str
    nation: str
    kind: str
    area: str


class _Elimination(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    unit: str
    nation: str
    kind: str
    area: str
    reason: str
    rule: str


class _BoxValue(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    bp: int


class _SwapDetails(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    replaced: str
    area: str
    new_id: str | None


class _JoinedArmy(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    into: str


class _StandingEntry(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    text: str
    turn: int | None = None


class _StandingSet(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    orders: list[_StandingEntry]


SECRET_DATA: dict[str, type] = {
    "DeckShuffled": _DeckOrder, "CardsStacked": _CardList, "CardsDrawn": _CardList,
    "ProductionOrdered": _SealedOrder, "UnitMoved": _MoveDetails,
    "UnitPlaced": _PlaceDetails, "UnitBuilt": _BuildDetails, "InfantryUpgraded": _UnitRef,
    "ProductionRevealed": _OrderList, "AttritionTaken": _UnitLost, "EftUnitLost": _UnitLost,
    "CrisisUnitRemoved": _UnitRemoved, "PieceEliminated": _Elimination,
    "EftLossesDue": _BoxValue, "CommonwealthSwapped": _SwapDetails,
    "ArmySuppressed": _JoinedArmy, "UnitRetreated": _RetreatDetails,
    "PlanSealed": _OrderList, "PlanRevealed": _OrderList,
}


class JournalRecord(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """Every record after the header: one accepted order and its events."""

    seq: int
    prev: str
    hash: str
    at: str
    # A side of the game or the moderator: apply_record checks it against the game's sides
    # (a length bound here, not a pattern, costs nothing per record).
    actor: Annotated[str, msgspec.Meta(min_length=1, max_length=32)]
    order: str
    events: list[Event]
    dice: list[Die] = []
    private_order: Secret | None = None
    mail: Secret | None = None          # the message the order came in (moderator only)
    players: Secret | None = None       # a roster record: addresses, key digests (moderator)
    standing: Secret | None = None      # the actor's standing orders (his eyes only)


def header_of(rec: dict, name: str) -> JournalHeader:
    """The header record, validated (JournalError names record 0 when it is malformed)."""
    try:
        return msgspec.convert(rec, JournalHeader)
    except msgspec.ValidationError as exc:
        raise JournalError(f"{name}: record 0 (the header) is malformed: {exc}",
                           record=0) from None


def record_of(rec: dict, name: str) -> JournalRecord:
    """A record after the header, validated with its events and the secret data they carry
    (JournalError names it)."""
    n = rec.get("seq")
    try:
        typed = msgspec.convert(rec, JournalRecord)
        for i, ev in enumerate(typed.events):
            shape = SECRET_DATA.get(ev.type)
            secret = getattr(ev, "secret", None)
            if shape is not None and isinstance(secret, Secret) and secret.data is not None:
                _convert_at(secret.data, shape, f"$.events[{i}].secret.data")
        private = typed.private_order
        if private is not None and private.data is not None:
            _convert_at(private.data, _OrderText, "$.private_order.data")
        standing = typed.standing
        # Whose part it is (the actor's own) verify checks; replaying needs none of it.
        if standing is not None:
            if standing.data is not None:
                _convert_at(standing.data, _StandingSet, "$.standing.data")
        for field, shape in (("mail", _MailData), ("players", _Roster)):
            part = getattr(typed, field)
            if part is None:
                continue
            if part.to != "moderator":
                raise msgspec.ValidationError(f"this part is for the moderator only - at "
                                              f"`$.{field}.to`")
            if part.data is not None:
                _convert_at(part.data, shape, f"$.{field}.data")
    except msgspec.ValidationError as exc:
        raise JournalError(f"{name}: record {n} is malformed: {exc}", record=n) from None
    return typed


def _convert_at(data: dict, shape: type, where: str) -> None:
    """Validate a nested payload; its errors name where it sits in the record."""
    try:
        msgspec.convert(data, shape)
    except msgspec.ValidationError as exc:
        message, _, at = str(exc).partition(" - at `$")
        raise msgspec.ValidationError(f"{message} - at `{where}{at or '`'}") from None
