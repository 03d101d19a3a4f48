"""The models of events.yaml: reinforcements, swaps and build dates, turn by turn."""

from typing import Annotated, Any, Literal

from msgspec import Meta, field

from .modelbase import Model, NationId, Turn, UnitKind, Version


class Reinforcement(Model):
    nation: NationId
    type: UnitKind
    count: Annotated[int, Meta(ge=1, le=99)] = 1
    id: str | None = None
    name: str | None = None
    placement: str      # any | an area id (ENGLAND, 4.6) | a country (France, 7.3)
    substitute: UnitKind | None = None


class Swap(Model):
    rule: str
    nation: NationId
    unit: str
    name: str
    replaces: str


class RuleNote(Model):
    rule: str
    text: str


class EventTurn(Model):
    turn: Turn
    label: str
    reinforcements: list[Reinforcement] = []
    swaps: list[Swap] = []
    rules: list[RuleNote] = []


class BuildDate(Model):
    """The first turn whose Production Phase may build a unit type, and the rule (7.6, 8.x)."""

    from_turn: Turn
    rule: str
    source: Literal["core", "reconstructed", "reading"] = "core"
    note: str = ""


class BuildDates(Model):
    """Build dates per nation and unit type, and of upgrades (7.2, 7.5, 7.6)."""

    units: dict[NationId, dict[UnitKind, BuildDate]] = {}
    upgrades: dict[UnitKind, BuildDate] = {}


class EventsData(Model):
    version: Version
    placement_codes: dict[str, str] = {}
    turns: list[EventTurn]
    build_dates: BuildDates = field(default_factory=BuildDates)
    availability: dict[str, Any] = {}
    commonwealth_swaps: dict[str, Any] = {}
    stosstruppen_1918: dict[str, Any] = {}
    neutrals: dict[str, Any] = {}
