"""The model of a scenario file: a start position, built-in or a what-if.

The fast msgspec twin of referee/contracts/scenariomodels.py."""

# Generated from referee/contracts/scenariomodels.py (make schemas): edit that, not this.
# ruff: noqa: E501

from typing import Annotated, Any, Literal

import msgspec

from .modelbase import Model

__all__ = [
    'ContentEntry',
    'ScenarioUnit',
    'ScenarioFort',
    'ScenarioCards',
    'ScenarioStart',
    'Position',
    'Scenario',
]


class ContentEntry(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    type: Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')]
    count: Annotated[int, msgspec.Meta(ge=1, le=99)] = 1
    nation: Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')] | None = None
    name: str | None = None


class ScenarioUnit(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    id: str
    nation: Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')]
    type: Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')]
    name: str | None = None
    area: str
    entrenched: bool = False
    contents: list[ContentEntry] = []
    keep_apart_from: str | None = None


class ScenarioFort(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    id: str
    nation: Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')]
    area: str
    strength: Annotated[int, msgspec.Meta(ge=0, le=8)]


class ScenarioCards(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    draw_order: list[Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')]] | None = None
    hand: dict[Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')], Annotated[int, msgspec.Meta(ge=0, le=55)]] = {}
    hands: dict[Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')], list[str]] | None = None
    draw_pile: list[str] | None = None
    discard: list[str] = []
    removed: list[str] = []


class ScenarioStart(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    turn: Annotated[int, msgspec.Meta(ge=1, le=23)]
    label: str


class Position(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Where in the sequence of play a what-if scenario starts (rule 2.0)."""

    phase: Literal['reinforcements', 'player_turn', 'production'] = 'reinforcements'
    player: Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')] | None = None
    consecutive_passes: Annotated[int, msgspec.Meta(ge=0, le=1)] = 0


class Scenario(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    id: str
    title: str
    provenance: str = 'custom'
    start: ScenarioStart
    last_turn: Annotated[int, msgspec.Meta(ge=1, le=99)] = 23
    first_player: Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')] | None = None
    cards: ScenarioCards = msgspec.field(default_factory=ScenarioCards)
    status: dict[str, Any] = {}
    control: dict[Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')], list[str]]
    neutral: list[str] = []
    eft_box: list[ContentEntry] = []
    forts: list[ScenarioFort] = []
    forts_out_of_play: list[str] = []
    units: list[ScenarioUnit] = []
    eliminated_armies: list[str] = []
    position: Position = msgspec.field(default_factory=Position)
    expected_start: dict[str, Any] | None = None
    notes: list[str] = []
