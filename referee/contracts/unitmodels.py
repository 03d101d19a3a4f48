"""The models of units.yaml: sides, nations, the counter mix and the unit types."""

from typing import Annotated, Literal

from pydantic import Field

from .modelbase import Count, Country, Model, NationId, Side, Turn, UnitKind, Version, Year


class Nation(Model):
    name: str
    side: Side
    home_country: Country
    rebuild_area: str | None = None
    # AAC 5.4.2 note: only a nation whose forces are Modern may retreat after combat. In
    # TTLM every nation is Modern; in AAC only the German.
    modern: bool = True
    stosstruppen_upgrade: bool = False     # its infantry may be upgraded to Stoßtruppen (7.5)
    # The area from which this nation's army may be evacuated by sea under the optional
    # rule (14.2.4: the Belgian army from Antwerp); None: never.
    evacuation_area: str | None = None
    # Where the nation's reinforcements are placed, a country (7.3: the US's in France);
    # None: the general rule for reinforcements.
    reinforcements_in: Country | None = None
    # Its infantry may go on any army template of its side, not only its own nation's
    # (8.1: US infantry in any Entente army).
    infantry_in_any_army: bool = False


class CommonwealthUnit(Model):
    id: str
    name: str


# Firepower "F2" hits on a roll of 1-2; null does not fire (5.2.1).
Firepower = Annotated[str, Field(pattern="^F[1-6]$")] | None
# When each firepower applies (5.2.1, 8.x, 9.3, 9.4): the only keys of a `fire` mapping (gamecheck).
__fast_constants__ = ("FIRE_KEYS",)
FIRE_KEYS = ("offense", "defense", "defense_entrenched", "raiding", "pursuit", "dogfight",
             "offense_vs_fort", "in_rough", "poison_gas", "advanced_artillery_barrage")


class MaterielSuperiority(Model):
    """An optional rule raising some nations' defensive fire of a unit type (8.3.2)."""

    option: str
    nations: list[NationId]
    fire: dict[str, Firepower]
    from_turn: Turn                        # 8.3.2: from SPRING 1918 in TTLM


class UnitType(Model):
    __fast__ = {"dict": True, "mixin": ".unitmethods:UnitTypeMethods"}
    class_: Literal["army", "infantry", "auxiliary", "fort"] = Field(alias="class")
    code: Annotated[str, Field(pattern="^[A-Z]{1,3}$")] | None = None
    nations: list[NationId] = []
    move: Annotated[int, Field(ge=0, le=9)] = 0
    cost_bp: Count | None = None
    fire: dict[str, Firepower] | None = None
    materiel_superiority: MaterielSuperiority | None = None
    entrench: bool = False
    holds_area: bool = True
    never_retreats: bool = False
    never_a_loss: bool = False
    forced_retreat_on_hit: bool = False
    retreat_before_combat: bool = False
    fires_in_artillery_step: bool = False
    aircraft: bool = False
    alone_lost_to: Literal["enemy_infantry", "enemy_units"] | None = None
    rebuilt_only_after_swap: bool = False
    max_per_army: Count | None = None
    stacking: bool = True
    # Each counter of this type bears the year it becomes available, none before this year
    # (8.3.4: Biplanes, from 1916); the years are units.yaml `biplane_counter_years`.
    counter_years_from: Year | None = None
    rule: str
    notes: str = ""


# How many counters of each kind a nation has (theatre rulebook 11.1), a hard limit: nation ->
# unit kind -> count, beside one `source` note (text). UnitsData.mix gives the counts alone.
CounterMix = dict[str, dict[UnitKind, Count] | str]


Colour = Annotated[str, Field(pattern=r"^#[0-9a-fA-F]{6}$")]


class SideColours(Model):
    """How a side is drawn on the map: the fill of its areas and the ink of its units."""

    fill: Colour
    ink: Colour
    # The colour of its name in a forum post (BBCode), to read on a forum's light background;
    # the ink when not given.
    forum: Colour | None = None


class UnitsData(Model):
    __fast__ = {"dict": True, "mixin": ".unitmethods:UnitsMethods"}
    version: Version
    sides: dict[Side, list[NationId]]
    # The two sides in the order the rules take them when both act (the first asked, revealed
    # and dealt first): a list, since a stored copy of the data sorts mapping keys.
    side_order: list[Side]
    side_colours: dict[Side, SideColours] = {}
    nations: dict[NationId, Nation]
    counter_mix: CounterMix
    commonwealth_units: list[CommonwealthUnit] = []
    biplane_counter_years: dict[NationId, list[Year]] = {}
    stacking_limit: Annotated[int, Field(ge=1, le=99)] = 3
    roll_order: list[UnitKind]
    unit_types: dict[UnitKind, UnitType]
