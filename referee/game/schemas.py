"""JSON Schemas of everything the referee reads or writes, generated from its models.

The documents the commands print (views, reports, lists) carry a
`schema_version` and accept added keys, so a script written against one
version survives new fields; journal records, whose bytes are hashed, do not.

`schemas/*.json` in the repository are these, checked in; a test fails when
one is stale (`make schemas` rewrites them). `referee schema NAME` prints one.
"""

import json
from typing import Any

import msgspec

from ..data.chartmodels import Charts
from ..data.deckmodels import DeckData
from ..data.eventmodels import EventsData
from ..data.gamemodels import GameInfo
from ..data.mapmodels import MapData
from ..data.scenariomodels import Scenario
from ..data.unitmodels import UnitsData
from ..engine.events import Event
from ..engine.order_shapes import Order
from .records import JournalHeader, JournalRecord


class UnitView(msgspec.Struct, kw_only=True):
    id: str
    side: str
    nation: str
    type: str
    name: str | None = None
    entrenched: bool = False
    strength: int | None = None
    contents: dict[str, int] | None = None
    summary: str | None = None
    oos: bool = False             # an Out of Supply marker on it (1.2.3); left out when none


class AreaView(msgspec.Struct, kw_only=True):
    name: str
    control: str                  # a side id, disputed or neutral
    vp: int
    units: list[UnitView]


class CardView(msgspec.Struct, kw_only=True):
    id: str
    key: str
    title: str


class VpLine(msgspec.Struct, kw_only=True):
    label: str
    vp: int


class VpView(msgspec.Struct, kw_only=True):
    total: int
    level: str
    level_name: str
    breakdown: list[VpLine]


class DeckView(msgspec.Struct, kw_only=True):
    draw_pile: int
    discard: list[CardView]
    removed: list[CardView]


class StateView(msgspec.Struct, kw_only=True):
    """What `show --format json` prints."""

    schema_version: int
    game_id: str
    game_name: str
    scenario: str
    seq: int
    reader: str
    turn: int
    last_turn: int
    season: str
    year: int
    label: str
    phase: str
    player: str | None
    waiting_on: str | None
    decision: str | None
    prompt: str
    vp: VpView
    areas: dict[str, AreaView]
    hand: list[CardView]
    hands: dict[str, list[CardView]] | None = None
    locked: list[str] | None = None
    hand_sizes: dict[str, int]
    deck: DeckView
    eliminated_armies: list[str]
    eft_box: list[str]
    force_pool: dict[str, dict[str, int]]
    options: dict[str, bool]
    game_over: bool
    result: dict[str, Any] | None
    terms: dict[str, str] | None = None     # the game's words, when not TTLM's (AAC: impulse)


class StatusView(msgspec.Struct, kw_only=True):
    """What `status --format json` prints (`legal` is empty for the public reader)."""

    schema_version: int
    game_id: str
    seq: int
    reader: str
    game_name: str
    turn: int
    label: str
    phase: str
    waiting_on: str | None
    waiting_on_all: list[str]
    decision: str | None
    prompt: str
    legal_for: str | None
    legal: list[str]
    game_over: bool
    result: dict[str, Any] | None
    terms: dict[str, str] | None = None     # the game's words, when not TTLM's (AAC: impulse)


class PlayerEntry(msgspec.Struct, kw_only=True):
    side: str
    address: str
    key: str | None = None


class PlayersView(msgspec.Struct, kw_only=True):
    """What `players --format json` prints (keys only with --keys)."""

    schema_version: int
    players: list[PlayerEntry]


class Rejection(msgspec.Struct, kw_only=True):
    index: int
    order: str
    error: str
    rule: str | None = None


class AppliedOrder(msgspec.Struct, kw_only=True):
    order: str
    seq: int
    events: list[dict[str, Any]]


class OrderResult(msgspec.Struct, kw_only=True):
    """What `order --format json` prints (`--dry-run`: dry_run, legal, stopped instead)."""

    schema_version: int
    applied: list[AppliedOrder] = []
    rejected: Rejection | None = None
    not_applied: list[str] = []
    status: StatusView | None = None
    dry_run: bool = False
    legal: list[str] = []
    stopped: str | None = None
    not_checked: list[str] = []


class Receipt(msgspec.Struct, kw_only=True):
    seq: int
    hash: str


class ReportVp(msgspec.Struct, kw_only=True):
    total: int
    change: int
    level: str
    level_name: str


class ReportView(msgspec.Struct, kw_only=True):
    """What `report --format json` prints: the facts, and the document the text is made of."""

    schema_version: int
    game_id: str
    reader: str
    since: int
    upto: int
    receipt: Receipt
    vp: ReportVp
    waiting_on: str | None
    decision: str | None
    legal: list[str]
    document: dict[str, Any]


class MessageOutcome(msgspec.Struct, kw_only=True):
    where: str
    message_id: str
    status: str                 # applied | rejected | skipped | stale | held | known
    side: str | None
    reason: str
    records: list[int]
    from_: str = msgspec.field(name="from")


class InboxResult(msgspec.Struct, kw_only=True):
    """What `inbox --format json` prints."""

    schema_version: int
    messages: list[MessageOutcome]
    outbox: list[str]


SCHEMAS: dict[str, Any] = {
    "orders": Order,
    "events": Event,
    "journal-header": JournalHeader,
    "journal-record": JournalRecord,
    "state-view": StateView,
    "status-view": StatusView,
    "order-result": OrderResult,
    "report": ReportView,
    "players": PlayersView,
    "inbox-result": InboxResult,
    "game": GameInfo,
    "map": MapData,
    "units": UnitsData,
    "deck": DeckData,
    "charts": Charts,
    "game-events": EventsData,
    "scenario": Scenario,
}


def schema(name: str) -> dict:
    """The JSON Schema called name."""
    return msgspec.json.schema(SCHEMAS[name])


def schema_text(name: str) -> str:
    """The schema as the text checked in under schemas/NAME.json."""
    return json.dumps(schema(name), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def write_all(folder: str) -> list[str]:
    """Write every schema to folder/NAME.json; returns the names written."""
    from pathlib import Path

    out = Path(folder)
    out.mkdir(exist_ok=True)
    for name in SCHEMAS:
        (out / f"{name}.json").write_text(schema_text(name), encoding="utf-8")
    return list(SCHEMAS)
