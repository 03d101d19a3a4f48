"""The models of charts.yaml: the turn track, Build Points, card limits, victory and the
other charts."""

from typing import Annotated

from msgspec import Meta, field

from .modelbase import Count, Model, NationId, Season, Side, Turn, UnitKind, Version, Vp, Year


class TurnInfo(Model):
    turn: Turn
    season: Season
    label: str
    year: Year


class TurnTrack(Model):
    source: str
    turns: list[TurnInfo]
    notes: list[str] = []


# One turn of the Build Points chart (7.0): `turn`, each side's Build Points under its own name,
# and optionally `<side>_parts` (nation -> points, a note of how a side's total is made up).
BuildPointsTurn = dict[str, Count | dict[NationId, Count]]


class OrderCosts(Model):
    """What the production orders that build no unit cost (7.6); a unit's own cost is its
    type's cost_bp in units.yaml, a rebuilt army the army type's (7.3)."""

    card: Annotated[int, Meta(ge=1, le=99)] = 1              # BP per card bought (7.1)
    upgrade: Annotated[int, Meta(ge=1, le=99)] = 1           # BP per Stoßtruppen upgrade (7.5)
    entrench_units: Annotated[int, Meta(ge=1, le=99)] = 4    # units entrenched for 1 BP (7.4)


class BuildPoints(Model):
    source: str
    reasoning: str = ""
    turns: list[BuildPointsTurn]
    costs: OrderCosts = field(default_factory=OrderCosts)


# One year of the Card Limit chart (7.1): `year` and each side's limit under its own name.
CardLimitYear = dict[str, Annotated[int, Meta(ge=1, le=1999)]]


class CardLimit(Model):
    source: str
    reasoning: str = ""
    by_year: list[CardLimitYear]


class VictoryLevel(Model):
    id: str
    name: str
    min: Vp | None = None
    max: Vp | None = None


class VpModifier(Model):
    id: str
    vp: Vp | None
    per: str
    years: list[Year] = []
    not_when_linked_with: str | None = None
    # A unit of this type in or adjacent to this area scores `vp`, not cumulative (8.3.6:
    # the Paris Gun and Paris); both or neither.
    unit: UnitKind | None = None
    near_area: str | None = None
    rule: str | None = None


class VpModifiers(Model):
    source: str
    items: list[VpModifier]
    notes: list[str] = []


class Victory(Model):
    source: str
    counts_for: Side | None = None     # whose VP total (3.1); None: the first side
    anchors: str = ""
    levels: list[VictoryLevel]
    game_ends_on: list[str]
    surrender_shift: Vp = 1
    reasoning: str = ""
    modifiers: VpModifiers


class BlockadeYear(Model):
    year: Year
    vp: Vp
    from_: str | None = field(default=None, name="from")
    to: str | None = None


class Blockade(Model):
    source: str
    by_year: list[BlockadeYear]


# One year of the Artillery per army chart (8.3.2): `year` and each nation's limit by its id.
ArtilleryYear = dict[str, Annotated[int, Meta(ge=0, le=1999)]]


class ArtilleryChart(Model):
    source: str
    unit_type: UnitKind
    by_year: list[ArtilleryYear]
    notes: list[str] = []


class TemplateCapacity(Model):
    infantry: Annotated[int, Meta(ge=0, le=20)]
    auxiliary: Annotated[int, Meta(ge=0, le=20)]


class ArmyTemplates(Model):
    source: str
    capacity: dict[NationId, TemplateCapacity]
    reasoning: str = ""


class Charts(Model):
    version: Version
    turn_track: TurnTrack
    build_points: BuildPoints
    card_limit: CardLimit
    victory: Victory
    total_blockade: Blockade
    artillery_per_army: ArtilleryChart
    army_templates: ArmyTemplates
