"""The models of units.yaml: sides, nations, the counter mix and the unit types."""

from functools import cached_property
from typing import Annotated, Literal

from msgspec import Meta, field

from .modelbase import Count, Country, Model, NationId, Side, Turn, UnitKind, Version, Year

Colour = Annotated[str, Meta(pattern=r"^#[0-9a-fA-F]{6}\Z")]


class CounterLook(Model):
    """How a nation's counters are drawn on the map picture: the letters that name the nation
    on each of them (GE, A-H) and the colours of the counter and of its writing."""

    letters: Annotated[str, Meta(pattern=r"^[A-Z][A-Za-z-]{0,3}\Z")]
    fill: Colour
    ink: Colour = "#111111"


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
    # A country the nation's reinforcements must be placed in, when the Game Events chart
    # says so; None: the general rule, any supplied Friendly or Disputed area (2.0 I). (7.3
    # gives the US France as its home country for rebuilding armies, not for arrivals.)
    reinforcements_in: Country | None = None
    # Its infantry may go on any army template of its side, not only its own nation's
    # (8.1: US infantry in any Entente army).
    infantry_in_any_army: bool = False
    # Its counters on the map picture; None: the nation id in capitals, in its side's colours.
    counter: CounterLook | None = None


class CommonwealthUnit(Model):
    id: str
    name: str


# Firepower "F2" hits on a roll of 1-2; null does not fire (5.2.1).
Firepower = Annotated[str, Meta(pattern=r"^F[1-6]\Z")] | None
# When each firepower applies (5.2.1, 8.x, 9.3, 9.4): the only keys of a `fire` mapping (gamecheck).
FIRE_KEYS = ("offense", "defense", "defense_entrenched", "raiding", "pursuit", "dogfight",
             "offense_vs_fort", "in_rough", "poison_gas", "advanced_artillery_barrage")


class MaterielSuperiority(Model):
    """An optional rule raising some nations' defensive fire of a unit type (8.3.2)."""

    option: str
    nations: list[NationId]
    fire: dict[str, Firepower]
    from_turn: Turn                        # 8.3.2: from SPRING 1918 in TTLM


class UnitType(Model, dict=True):
    """A unit type of units.yaml and what it can tell beyond its fields, worked out once at
    load (1.2.2, 1.4, 8.x): the engine asks these, never a unit type by name."""

    class_: Literal["army", "infantry", "auxiliary", "fort"] = field(name="class")
    code: Annotated[str, Meta(pattern=r"^[A-Z]{1,3}\Z")] | None = None
    nations: list[NationId] = []
    move: Annotated[int, Meta(ge=0, le=9)] = 0
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
    # What a counter of this type shows on the map picture when the type has no code (a
    # fort: F); None: the code, or else the type's first letter.
    mark: Annotated[str, Meta(pattern=r"^[A-Z]{1,3}\Z")] | None = None
    rule: str
    notes: str = ""

    @cached_property
    def firepower(self) -> dict[str, int]:
        """Each firepower as the highest roll that hits (F2 -> 2, null -> 0) (5.2.1)."""
        return {k: int(v[1:]) if v else 0 for k, v in (self.fire or {}).items()}


# How many counters of each kind a nation has (theatre rulebook 11.1), a hard limit: nation ->
# unit kind -> count, beside one `source` note (text). UnitsData.mix gives the counts alone.
CounterMix = dict[str, dict[UnitKind, Count] | str]


class SideColours(Model):
    """How a side is drawn on the map: the fill of its areas and the ink of its units."""

    fill: Colour
    ink: Colour
    # What older data gave as the colour of its name in a forum post: read by nothing now, a
    # post writing a side in its ink as the map does (render/documents.side_colours).
    forum: Colour | None = None


class UnitsData(Model, dict=True):
    """units.yaml: sides, nations, the counter mix and the unit types."""

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
    stacking_limit: Annotated[int, Meta(ge=1, le=99)] = 3
    roll_order: list[UnitKind]
    unit_types: dict[UnitKind, UnitType]

    @cached_property
    def mix(self) -> dict[str, dict[str, int]]:
        """The counter mix per nation (11.1), without the source note."""
        return {n: dict(row) for n, row in self.counter_mix.items()
                if isinstance(row, dict) and row}

    # Unit types by what they are and do, worked out once at load (1.2.2, 1.4, 8.x): the
    # engine asks these, never a unit type by name.

    @cached_property
    def infantry_types(self) -> frozenset[str]:
        """Types that fill an army's infantry slots and count as infantry (1.4, 8.2)."""
        return frozenset(k for k, u in self.unit_types.items() if u.class_ == "infantry")

    @cached_property
    def non_holding(self) -> frozenset[str]:
        """Types that cannot conquer or hold an area by themselves (8.3.2-8.3.6)."""
        return frozenset(k for k, u in self.unit_types.items() if not u.holds_area)

    @cached_property
    def non_stacking(self) -> frozenset[str]:
        """Types that never count toward the stacking limit (1.2.2, 8.4)."""
        return frozenset(k for k, u in self.unit_types.items() if not u.stacking)

    @cached_property
    def entrenching(self) -> frozenset[str]:
        """Types that entrench and fire entrenched in defence (6.4, 8.2.1, 8.2.2)."""
        return frozenset(k for k, u in self.unit_types.items() if u.entrench)

    @cached_property
    def dated_kind(self) -> str | None:
        """The unit type whose counters bear the year they become available (8.3.4), if any:
        `biplane_counter_years` gives those years."""
        return next((k for k, u in self.unit_types.items()
                     if u.counter_years_from is not None), None)

    @cached_property
    def fort_kind(self) -> str:
        """The unit type of fort counters (8.4): their firepower and place in the roll order."""
        return next((k for k, u in self.unit_types.items() if u.class_ == "fort"), "fort")

    def has(self, kind: str, flag: str) -> bool:
        """Whether unit type kind has a yes/no property of units.yaml (never_retreats, ...)."""
        u = self.unit_types.get(kind)
        return u is not None and getattr(u, flag)

    def kinds_with(self, flag: str) -> frozenset[str]:
        """The unit types with a yes/no property of units.yaml, e.g. 'aircraft' (8.x)."""
        found = self._flags.get(flag)
        if found is None:
            found = self._flags[flag] = frozenset(
                k for k, u in self.unit_types.items() if getattr(u, flag))
        return found

    @cached_property
    def _flags(self) -> dict[str, frozenset[str]]:
        return {}

    def cost(self, kind: str) -> int:
        """Build Points to build one unit of kind (7.2, 7.6, 8.x): its cost_bp."""
        return self.unit_types[kind].cost_bp or 0

    @cached_property
    def roll_rank(self) -> dict[str, int]:
        """Kind -> place in the order dice are rolled: roll_order, then the other types in
        the order they are listed, then card dice ('card')."""
        order = [*self.roll_order, *(k for k in self.unit_types if k not in self.roll_order),
                 "card"]
        return {k: i for i, k in enumerate(order)}

    @cached_property
    def letter(self) -> dict[str, str]:
        """Kind -> its letter in army contents, e.g. '4I+1C' (the code in units.yaml)."""
        return {k: u.code for k, u in self.unit_types.items() if u.code}

    @cached_property
    def kind_words(self) -> dict[str, str]:
        """Words that name a unit type in an order: its name and its code, lower case."""
        words = {u.code.lower(): k for k, u in self.unit_types.items() if u.code}
        return {**words, **{k: k for k in self.unit_types}}

    @cached_property
    def id_code(self) -> dict[str, str]:
        """Kind -> its part of a stand-alone piece id, e.g. 'ge-i-12' (its code, lower case)."""
        return {k: u.code.lower() for k, u in self.unit_types.items() if u.code}
