"""The models of charts.yaml: the turn track, Build Points, card limits, victory and the

The fast msgspec twin of referee/contracts/chartmodels.py."""

# Generated from referee/contracts/chartmodels.py (make schemas): edit that, not this.
# ruff: noqa: E501

from typing import Annotated, Literal

import msgspec

from .modelbase import Model

__all__ = [
    'TurnInfo',
    'TurnTrack',
    'OrderCosts',
    'BuildPoints',
    'CardLimit',
    'VictoryLevel',
    'VpModifier',
    'VpModifiers',
    'Victory',
    'BlockadeYear',
    'Blockade',
    'ArtilleryChart',
    'TemplateCapacity',
    'ArmyTemplates',
    'Charts',
]


class TurnInfo(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    turn: Annotated[int, msgspec.Meta(ge=1, le=99)]
    season: Literal['SUMMER', 'AUTUMN', 'WINTER', 'SPRING']
    label: str
    year: Annotated[int, msgspec.Meta(ge=1900, le=1999)]


class TurnTrack(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    source: str
    turns: list[TurnInfo]
    notes: list[str] = []


class OrderCosts(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """What the production orders that build no unit cost (7.6); a unit's own cost is its
    type's cost_bp in units.yaml, a rebuilt army the army type's (7.3).
    """

    card: Annotated[int, msgspec.Meta(ge=1, le=99)] = 1
    upgrade: Annotated[int, msgspec.Meta(ge=1, le=99)] = 1
    entrench_units: Annotated[int, msgspec.Meta(ge=1, le=99)] = 4


class BuildPoints(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    source: str
    reasoning: str = ''
    turns: list[dict[str, Annotated[int, msgspec.Meta(ge=0, le=999)] | dict[Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')], Annotated[int, msgspec.Meta(ge=0, le=999)]]]]
    costs: OrderCosts = msgspec.field(default_factory=OrderCosts)


class CardLimit(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    source: str
    reasoning: str = ''
    by_year: list[dict[str, Annotated[int, msgspec.Meta(ge=1, le=1999)]]]


class VictoryLevel(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    id: str
    name: str
    min: Annotated[int, msgspec.Meta(ge=-99, le=99)] | None = None
    max: Annotated[int, msgspec.Meta(ge=-99, le=99)] | None = None


class VpModifier(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    id: str
    vp: Annotated[int, msgspec.Meta(ge=-99, le=99)] | None
    per: str
    years: list[Annotated[int, msgspec.Meta(ge=1900, le=1999)]] = []
    not_when_linked_with: str | None = None
    unit: Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')] | None = None
    near_area: str | None = None
    rule: str | None = None


class VpModifiers(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    source: str
    items: list[VpModifier]
    notes: list[str] = []


class Victory(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    source: str
    counts_for: Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')] | None = None
    anchors: str = ''
    levels: list[VictoryLevel]
    game_ends_on: list[str]
    surrender_shift: Annotated[int, msgspec.Meta(ge=-99, le=99)] = 1
    reasoning: str = ''
    modifiers: VpModifiers


class BlockadeYear(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    year: Annotated[int, msgspec.Meta(ge=1900, le=1999)]
    vp: Annotated[int, msgspec.Meta(ge=-99, le=99)]
    from_: str | None = msgspec.field(default=None, name='from')
    to: str | None = None


class Blockade(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    source: str
    by_year: list[BlockadeYear]


class ArtilleryChart(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    source: str
    unit_type: Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')]
    by_year: list[dict[str, Annotated[int, msgspec.Meta(ge=0, le=1999)]]]
    notes: list[str] = []


class TemplateCapacity(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    infantry: Annotated[int, msgspec.Meta(ge=0, le=20)]
    auxiliary: Annotated[int, msgspec.Meta(ge=0, le=20)]


class ArmyTemplates(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    source: str
    capacity: dict[Annotated[str, msgspec.Meta(pattern='^[a-z][a-z0-9_]{0,31}$')], TemplateCapacity]
    reasoning: str = ''


class Charts(Model, frozen=True, forbid_unknown_fields=True, kw_only=True):
    version: Annotated[int, msgspec.Meta(ge=1, le=999)]
    turn_track: TurnTrack
    build_points: BuildPoints
    card_limit: CardLimit
    victory: Victory
    total_blockade: Blockade
    artillery_per_army: ArtilleryChart
    army_templates: ArmyTemplates
