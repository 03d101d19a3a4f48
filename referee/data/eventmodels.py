"""The models of events.yaml: reinforcements, swaps and build dates, turn by turn.

The fast msgspec twin of referee/contracts/eventmodels.py."""

# Generated from referee/contracts/eventmodels.py (make schemas): edit that, not this.
# ruff: noqa: E501

from typing import Annotated, Any, Literal

import msgspec

from .modelbase import Model

__all__ = [
    'Reinforcement',
    'Swap',
    'RuleNote',
    'EventTurn',
    'BuildDate',
    'BuildDates',
    'EventsData',
]


class Reinforcement(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    nation: Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')]
    type: Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')]
    count: Annotated[int, msgspec.Meta(ge=1, le=99)] = 1
    id: str | None = None
    name: str | None = None
    placement: str
    substitute: Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')] | None = None


class Swap(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    rule: str
    nation: Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')]
    unit: str
    name: str
    replaces: str


class RuleNote(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    rule: str
    text: str


class EventTurn(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    turn: Annotated[int, msgspec.Meta(ge=1, le=99)]
    label: str
    reinforcements: list[Reinforcement] = []
    swaps: list[Swap] = []
    rules: list[RuleNote] = []


class BuildDate(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The first turn whose Production Phase may build a unit type, and the rule (7.6, 8.x)."""

    from_turn: Annotated[int, msgspec.Meta(ge=1, le=99)]
    rule: str
    source: Literal['core', 'reconstructed', 'reading'] = 'core'
    note: str = ''


class BuildDates(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Build dates per nation and unit type, and of upgrades (7.2, 7.5, 7.6)."""

    units: dict[Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')], dict[Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')], BuildDate]] = {}
    upgrades: dict[Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')], BuildDate] = {}


class EventsData(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    version: Annotated[int, msgspec.Meta(ge=1, le=999)]
    placement_codes: dict[str, str] = {}
    turns: list[EventTurn]
    build_dates: BuildDates = msgspec.field(default_factory=BuildDates)
    availability: dict[str, Any] = {}
    commonwealth_swaps: dict[str, Any] = {}
    stosstruppen_1918: dict[str, Any] = {}
    neutrals: dict[str, Any] = {}
