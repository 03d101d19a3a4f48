"""The model of a scenario file: a start position, built-in or a what-if."""

from typing import Annotated, Any, Literal

from msgspec import Meta, field

from .modelbase import Model, NationId, Side, Turn, UnitKind


class ContentEntry(Model):
    type: UnitKind
    count: Annotated[int, Meta(ge=1, le=99)] = 1
    nation: NationId | None = None
    name: str | None = None


class ScenarioUnit(Model):
    id: str
    nation: NationId
    type: UnitKind
    name: str | None = None
    area: str
    entrenched: bool = False
    contents: list[ContentEntry] = []
    keep_apart_from: str | None = None


class ScenarioFort(Model):
    id: str
    nation: NationId
    area: str
    strength: Annotated[int, Meta(ge=0, le=8)]


class ScenarioCards(Model):
    draw_order: list[Side] | None = None       # None: the sides in units.yaml order
    hand: dict[Side, Annotated[int, Meta(ge=0, le=55)]] = {}
    # What-if positions: exact hands, draw pile (top first), discard and
    # removed cards. Cards not named anywhere are shuffled into the draw pile.
    hands: dict[Side, list[str]] | None = None
    draw_pile: list[str] | None = None
    discard: list[str] = []
    removed: list[str] = []


class ScenarioStart(Model):
    turn: Annotated[int, Meta(ge=1, le=23)]
    label: str


class Position(Model):
    """Where in the sequence of play a what-if scenario starts (rule 2.0)."""

    phase: Literal["reinforcements", "player_turn", "production"] = "reinforcements"
    player: Side | None = None
    consecutive_passes: Annotated[int, Meta(ge=0, le=1)] = 0


class Scenario(Model):
    id: str
    title: str
    provenance: str = "custom"
    start: ScenarioStart
    last_turn: Turn = 23
    first_player: Side | None = None           # None: the first side in units.yaml
    cards: ScenarioCards = field(default_factory=ScenarioCards)
    status: dict[str, Any] = {}
    control: dict[Side, list[str]]
    neutral: list[str] = []
    eft_box: list[ContentEntry] = []
    forts: list[ScenarioFort] = []
    forts_out_of_play: list[str] = []
    units: list[ScenarioUnit] = []
    eliminated_armies: list[str] = []
    position: Position = field(default_factory=Position)
    expected_start: dict[str, Any] | None = None
    notes: list[str] = []
