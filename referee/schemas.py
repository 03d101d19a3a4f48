"""JSON Schemas of everything the referee reads or writes, generated from its models.

`schemas/*.json` in the repository are these, checked in; a test fails when
one is stale (`make schemas` rewrites them). `referee schema NAME` prints one.
"""

import json
from typing import Any, Literal

import msgspec

from . import gamedata as gd
from .engine.events import Event
from .engine.orders import Order
from .records import JournalHeader, JournalRecord


class UnitView(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    id: str
    side: str
    nation: str
    type: str
    name: str | None = None
    entrenched: bool = False
    strength: int | None = None
    contents: dict[str, int] | None = None
    summary: str | None = None


class AreaView(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    name: str
    control: Literal["german", "entente", "disputed", "neutral"]
    vp: int
    units: list[UnitView]


class CardView(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    id: str
    key: str
    title: str


class VpLine(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    label: str
    vp: int


class VpView(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    total: int
    level: str
    level_name: str
    breakdown: list[VpLine]


class DeckView(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    draw_pile: int
    discard: list[CardView]
    removed: list[CardView]


class StateView(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """What `show --format json` prints."""

    game_id: str
    scenario: str
    seq: int
    reader: Literal["german", "entente", "moderator"]
    turn: int
    season: str
    year: int
    label: str
    phase: str
    player: str | None
    waiting_on: Literal["german", "entente"] | None
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


class StatusView(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """What `status --format json` prints."""

    game_id: str
    seq: int
    turn: int
    label: str
    phase: str
    waiting_on: Literal["german", "entente"] | None
    waiting_on_all: list[Literal["german", "entente"]]
    decision: str | None
    prompt: str
    legal_for: str | None
    legal: list[str]
    game_over: bool
    result: dict[str, Any] | None


SCHEMAS: dict[str, Any] = {
    "orders": Order,
    "events": Event,
    "journal-header": JournalHeader,
    "journal-record": JournalRecord,
    "state-view": StateView,
    "status-view": StatusView,
    "game": gd.GameInfo,
    "map": gd.MapData,
    "units": gd.UnitsData,
    "deck": gd.DeckData,
    "charts": gd.Charts,
    "game-events": gd.EventsData,
    "scenario": gd.Scenario,
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
