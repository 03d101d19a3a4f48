"""The models of a game data directory (games/ttlm/*.yaml) as frozen msgspec Structs.

The loader (dataload.py) validates every file against its model, then
cross-checks the files against each other (datacheck.py) and reports every
problem at once, each with its file and path (GameDataError). Models are
frozen and forbid unknown keys, so a misspelt key in a hand-edited file is
reported, not ignored.
"""

import unicodedata
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta

from .paths import default_games_dir  # noqa: F401  (re-exported)

# Sides, nations, unit kinds and countries are named by the game's own files (units.yaml
# `sides`, `nations` and `unit_types`; map.yaml `countries` and the nations' `home_country`):
# here any short lower-case name, and datacheck reports every one the game does not declare.
Ident = Annotated[str, Meta(pattern=r"^[a-z][a-z0-9_]{0,31}$")]
Side = Ident
NationId = Ident
UnitKind = Ident
Country = Ident
Season = Literal["SUMMER", "AUTUMN", "WINTER", "SPRING"]


# Bounded numbers: a hand-edited file with a negative or absurd value is reported, not played.
Count = Annotated[int, Meta(ge=0, le=999)]
Turn = Annotated[int, Meta(ge=1, le=99)]
Year = Annotated[int, Meta(ge=1900, le=1999)]
Vp = Annotated[int, Meta(ge=-99, le=99)]
Version = Annotated[int, Meta(ge=1, le=999)]
# Map coordinates: a bound check also refuses NaN (it compares false with both ends).
Latitude = Annotated[float, Meta(ge=-90, le=90)]
Longitude = Annotated[float, Meta(ge=-180, le=180)]


class Model(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Base of every data model: frozen, unknown keys rejected."""


# ---------------------------------------------------------------- game.yaml

class OptionSpec(Model, kw_only=True):
    rule: str
    default: bool = False
    description: str = ""
    # The name of the other game this option links the game with (TTLM 2.0 V.4, 3.1:
    # "linked with AT ALL COSTS!"): what a `not_when_linked_with` in the data is matched with.
    links_with: str | None = None


class GameFiles(Model, kw_only=True):
    map: str = "map.yaml"
    units: str = "units.yaml"
    deck: str = "deck.yaml"
    charts: str = "charts.yaml"
    events: str = "events.yaml"


class GameRules(Model, kw_only=True):
    """Rules that differ between the games of one system, as switches; each default is
    TO THE LAST MAN!'s own rule, so a game that names none plays TTLM's core rules."""

    # AAC 1.2.3: an OoS marker stays on a unit until a Check Supply Status phase finds it in
    # supply (2.0 V.1) or the unit is eliminated, and while it is on the unit receives no
    # reinforcement nor newly built unit (6.5). TTLM 1.2.3 and 6.5 only place the marker in
    # the Check Supply Status phase; the referee takes it off at the end of that production
    # phase (false).
    oos_markers_persist: bool = False


class Terms(Model, kw_only=True):
    """Words a game uses for the steps of the sequence of play, in every output."""

    # AAC calls the player turn an "impulse" (AAC 2.0 II.1, 4.5, 5.4.4); TTLM 2.0 II.
    # A few words on one line: the term goes into error messages and every output format.
    player_turn: Annotated[str, Meta(pattern=r"^[A-Za-z][A-Za-z' -]{0,39}$")] = "player turn"


class RailMovement(Model, kw_only=True):
    """Rail movement (4.4): units per player turn."""

    units: Annotated[int, Meta(ge=0, le=99)] = 2


class StrategicMovement(Model, kw_only=True):
    """Strategic movement (4.5): who may use it, and how many units per player turn
    (`default`, or `turn_N` for turn N)."""

    sides: list[Side]
    units: dict[str, Annotated[int, Meta(ge=0, le=99)]] = msgspec.field(
        default_factory=lambda: {"default": 2})


class SeaMovement(Model, kw_only=True):
    """Sea movement (4.6): which nations, their home area, units per movement phase, and
    whether the other end must be a coastal supply source of their side."""

    nations: list[NationId]
    home: str
    units: Annotated[int, Meta(ge=0, le=99)] = 1
    requires_coastal: bool = True


class Movement(Model, kw_only=True):
    """The movement kinds beyond walking that a game has, and for whom (4.4-4.6)."""

    rail: RailMovement = msgspec.field(default_factory=RailMovement)
    strategic: StrategicMovement | None = None
    sea: SeaMovement | None = None


class GameInfo(Model, kw_only=True):
    version: Version
    id: str
    name: str
    ruleset: str = ""
    files: GameFiles = msgspec.field(default_factory=GameFiles)
    scenarios: dict[str, str]
    options: dict[str, OptionSpec] = {}
    rules: GameRules = msgspec.field(default_factory=GameRules)
    terms: Terms = msgspec.field(default_factory=Terms)
    movement: Movement = msgspec.field(default_factory=Movement)


# ---------------------------------------------------------------- map.yaml

class FortSpec(Model, kw_only=True):
    id: str
    name: str
    nation: NationId
    strength: Annotated[int, Meta(ge=0, le=8)]


class Area(Model, kw_only=True):
    id: str
    name: str
    aliases: list[str] = []
    kind: Literal["front", "sea_only"]
    country: Country
    vp: Annotated[int, Meta(ge=0, le=99)]
    terrain: Literal["clear", "rough"]
    coastal: bool
    supply_source: Side | None = None
    conditional_supply_source: Side | None = None
    always_supplied: bool = False
    enemy_may_enter: bool = True
    fort: FortSpec | None = None
    neighbours: list[str]
    borders: list[str] = []
    at: tuple[Latitude, Longitude] | None = None
    covers: str = ""


class Impassable(Model, kw_only=True):
    id: str
    name: str
    kind: Literal["neutral_country", "sea"]
    touches: list[str] = []


class Box(Model, kw_only=True):
    id: str
    name: str
    owner: Side
    rules: str = ""
    access_note: str = ""
    # TTLM 2.0 V.4: the box's loss roll is not made when the game is linked with this game.
    losses_not_when_linked_with: str | None = None


class MapData(Model, kw_only=True):
    version: Version
    provenance: str
    countries: list[Country] = []       # countries of the map besides the nations' home countries
    areas: list[Area]
    impassable: list[Impassable] = []
    boxes: list[Box] = []


# ---------------------------------------------------------------- units.yaml

class Nation(Model, kw_only=True):
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


class CommonwealthUnit(Model, kw_only=True):
    id: str
    name: str


# Firepower "F2" hits on a roll of 1-2; null does not fire (5.2.1).
Firepower = Annotated[str, Meta(pattern="^F[1-6]$")] | None
# When each firepower applies (5.2.1, 8.x, 9.3, 9.4), checked in datacheck.FIRE_KEYS.
FIRE_KEYS = ("offense", "defense", "defense_entrenched", "raiding", "pursuit", "dogfight",
             "offense_vs_fort", "in_rough", "poison_gas", "advanced_artillery_barrage")


class MaterielSuperiority(Model, kw_only=True):
    """An optional rule raising some nations' defensive fire of a unit type (8.3.2)."""

    option: str
    nations: list[NationId]
    fire: dict[str, Firepower]
    from_turn: Turn                        # 8.3.2: from SPRING 1918 in TTLM


class UnitType(Model, dict=True, kw_only=True):
    class_: Literal["army", "infantry", "auxiliary", "fort"] = msgspec.field(name="class")
    code: Annotated[str, Meta(pattern="^[A-Z]{1,3}$")] | None = None
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
    rule: str
    notes: str = ""

    @cached_property
    def firepower(self) -> dict[str, int]:
        """Each firepower as the highest roll that hits (F2 -> 2, null -> 0) (5.2.1)."""
        return {k: int(v[1:]) if v else 0 for k, v in (self.fire or {}).items()}


# How many counters of each kind a nation has (theatre rulebook 11.1), a hard limit: nation ->
# unit kind -> count, beside one `source` note (text). UnitsData.mix gives the counts alone.
CounterMix = dict[str, dict[UnitKind, Count] | str]


Colour = Annotated[str, Meta(pattern=r"^#[0-9a-fA-F]{6}$")]


class SideColours(Model, kw_only=True):
    """How a side is drawn on the map: the fill of its areas and the ink of its units."""

    fill: Colour
    ink: Colour


class UnitsData(Model, dict=True, kw_only=True):
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


# ---------------------------------------------------------------- deck.yaml

class CrisisEntry(Model, kw_only=True):
    year: Year
    name: str
    remove: dict[str, Any]
    removes_card_from_play: bool = False


class CardBonus(Model, kw_only=True):
    """The extra dice a special Offensive adds to its Battle Areas (9.1.3-9.1.6)."""

    army_nation: str                       # a nation whose Army must be in the Battle Area
    battle_areas: Annotated[int, Meta(ge=1, le=9)]
    dice: Annotated[int, Meta(ge=1, le=9)]
    firepower: Annotated[int, Meta(ge=1, le=6)]
    fires_as: str                          # the unit type the dice fire as (units.yaml)
    phases: list[Literal["artillery", "offensive"]]
    hits_force_retreat: bool = False


class CardType(Model, kw_only=True):
    key: str
    title: str
    rule: str
    count: Annotated[int, Meta(ge=1, le=99)]
    ids: list[str]
    type: Literal["offensive", "ersatz", "combat", "bad_weather", "movement", "crisis"]
    offensive: bool
    event_side: str | None = None          # "any" or a side (units.yaml sides)
    other_side_plays_as: str | None = None
    from_turn: Turn | None = None
    from_label: str | None = None
    before_that: str | None = None
    not_with: list[str] = []
    cancelled_by: list[str] = []
    not_on_turns: list[Turn] = []
    bad_weather: str | None = None
    ersatz: Annotated[int, Meta(ge=1, le=3)]
    ersatz_use: str = "any"                # "any" or a side
    crises: list[CrisisEntry] = []
    unit_kinds: list[str] = []             # a crisis entry's kinds when it names none (9.8)
    unpaid_vp: Vp | None = None
    removed_in_scenarios: list[str] = []
    bonus: CardBonus | None = None
    notes: str = ""                        # when it is played and what it does, in words


class DeckData(Model, kw_only=True):
    version: Version
    total: Count
    offensive_type_total: Count
    cards: list[CardType]
    notes: list[str] = []


# ---------------------------------------------------------------- charts.yaml

class TurnInfo(Model, kw_only=True):
    turn: Turn
    season: Season
    label: str
    year: Year


class TurnTrack(Model, kw_only=True):
    source: str
    turns: list[TurnInfo]
    notes: list[str] = []


# One turn of the Build Points chart (7.0): `turn`, each side's Build Points under its own name,
# and optionally `<side>_parts` (nation -> points, a note of how a side's total is made up).
BuildPointsTurn = dict[str, Count | dict[NationId, Count]]


class BuildPoints(Model, kw_only=True):
    source: str
    reasoning: str = ""
    turns: list[BuildPointsTurn]


# One year of the Card Limit chart (7.1): `year` and each side's limit under its own name.
CardLimitYear = dict[str, Annotated[int, Meta(ge=1, le=1999)]]


class CardLimit(Model, kw_only=True):
    source: str
    reasoning: str = ""
    by_year: list[CardLimitYear]


class VictoryLevel(Model, kw_only=True):
    id: str
    name: str
    min: Vp | None = None
    max: Vp | None = None


class VpModifier(Model, kw_only=True):
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


class VpModifiers(Model, kw_only=True):
    source: str
    items: list[VpModifier]
    notes: list[str] = []


class Victory(Model, kw_only=True):
    source: str
    counts_for: Side | None = None     # whose VP total (3.1); None: the first side
    anchors: str = ""
    levels: list[VictoryLevel]
    game_ends_on: list[str]
    surrender_shift: Vp = 1
    reasoning: str = ""
    modifiers: VpModifiers


class BlockadeYear(Model, kw_only=True):
    year: Year
    vp: Vp
    from_: str | None = msgspec.field(default=None, name="from")
    to: str | None = None


class Blockade(Model, kw_only=True):
    source: str
    by_year: list[BlockadeYear]


# One year of the Artillery per army chart (8.3.2): `year` and each nation's limit by its id.
ArtilleryYear = dict[str, Annotated[int, Meta(ge=0, le=1999)]]


class ArtilleryChart(Model, kw_only=True):
    source: str
    unit_type: UnitKind
    by_year: list[ArtilleryYear]
    notes: list[str] = []


class TemplateCapacity(Model, kw_only=True):
    infantry: Annotated[int, Meta(ge=0, le=20)]
    auxiliary: Annotated[int, Meta(ge=0, le=20)]


class ArmyTemplates(Model, kw_only=True):
    source: str
    capacity: dict[NationId, TemplateCapacity]
    reasoning: str = ""


class Charts(Model, kw_only=True):
    version: Version
    turn_track: TurnTrack
    build_points: BuildPoints
    card_limit: CardLimit
    victory: Victory
    total_blockade: Blockade
    artillery_per_army: ArtilleryChart
    army_templates: ArmyTemplates


# ---------------------------------------------------------------- events.yaml

class Reinforcement(Model, kw_only=True):
    nation: NationId
    type: UnitKind
    count: Annotated[int, Meta(ge=1, le=99)] = 1
    id: str | None = None
    name: str | None = None
    placement: str      # any | an area id (ENGLAND, 4.6) | a country (France, 7.3)
    substitute: UnitKind | None = None


class Swap(Model, kw_only=True):
    rule: str
    nation: NationId
    unit: str
    name: str
    replaces: str


class RuleNote(Model, kw_only=True):
    rule: str
    text: str


class EventTurn(Model, kw_only=True):
    turn: Turn
    label: str
    reinforcements: list[Reinforcement] = []
    swaps: list[Swap] = []
    rules: list[RuleNote] = []


class BuildDate(Model, kw_only=True):
    """The first turn whose Production Phase may build a unit type, and the rule (7.6, 8.x)."""

    from_turn: Turn
    rule: str
    source: Literal["core", "reconstructed", "reading"] = "core"
    note: str = ""


class BuildDates(Model, kw_only=True):
    """Build dates per nation and unit type, and of upgrades (7.2, 7.5, 7.6)."""

    units: dict[NationId, dict[UnitKind, BuildDate]] = {}
    upgrades: dict[UnitKind, BuildDate] = {}


class EventsData(Model, kw_only=True):
    version: Version
    placement_codes: dict[str, str] = {}
    turns: list[EventTurn]
    build_dates: BuildDates = msgspec.field(default_factory=BuildDates)
    availability: dict[str, Any] = {}
    commonwealth_swaps: dict[str, Any] = {}
    stosstruppen_1918: dict[str, Any] = {}
    neutrals: dict[str, Any] = {}


# ---------------------------------------------------------------- scenarios

class ContentEntry(Model, kw_only=True):
    type: UnitKind
    count: Annotated[int, Meta(ge=1, le=99)] = 1
    nation: NationId | None = None
    name: str | None = None


class ScenarioUnit(Model, kw_only=True):
    id: str
    nation: NationId
    type: UnitKind
    name: str | None = None
    area: str
    entrenched: bool = False
    contents: list[ContentEntry] = []
    keep_apart_from: str | None = None


class ScenarioFort(Model, kw_only=True):
    id: str
    nation: NationId
    area: str
    strength: Annotated[int, Meta(ge=0, le=8)]


class ScenarioCards(Model, kw_only=True):
    draw_order: list[Side] | None = None       # None: the sides in units.yaml order
    hand: dict[Side, Annotated[int, Meta(ge=0, le=55)]] = {}
    # What-if positions: exact hands, draw pile (top first), discard and
    # removed cards. Cards not named anywhere are shuffled into the draw pile.
    hands: dict[Side, list[str]] | None = None
    draw_pile: list[str] | None = None
    discard: list[str] = []
    removed: list[str] = []


class ScenarioStart(Model, kw_only=True):
    turn: Annotated[int, Meta(ge=1, le=23)]
    label: str


class Position(Model, kw_only=True):
    """Where in the sequence of play a what-if scenario starts (rule 2.0)."""

    phase: Literal["reinforcements", "player_turn", "production"] = "reinforcements"
    player: Side | None = None
    consecutive_passes: Annotated[int, Meta(ge=0, le=1)] = 0


class Scenario(Model, kw_only=True):
    id: str
    title: str
    provenance: str = "custom"
    start: ScenarioStart
    last_turn: Turn = 23
    first_player: Side | None = None           # None: the first side in units.yaml
    cards: ScenarioCards = msgspec.field(default_factory=ScenarioCards)
    status: dict[str, Any] = {}
    control: dict[Side, list[str]]
    neutral: list[str] = []
    eft_box: list[ContentEntry] = []
    forts: list[ScenarioFort] = []
    forts_out_of_play: list[str] = []
    units: list[ScenarioUnit] = []
    eliminated_armies: list[str] = []
    position: Position = msgspec.field(default_factory=Position)
    expected_start: dict[str, Any] | None = None
    notes: list[str] = []


# ---------------------------------------------------------------- the whole game

def fold(name: str) -> str:
    """Fold a name for matching: case, accents, hyphens, spaces and apostrophes ignored."""
    text = unicodedata.normalize("NFKD", name)
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = text.replace("ß", "ss").casefold()
    return "".join(c for c in text if c.isalnum())


class GameData:
    """A validated game: its files as models plus lookup tables built once."""

    def __init__(self, root: Path, info: GameInfo, map: MapData, units: UnitsData,
                 deck: DeckData, charts: Charts, events: EventsData,
                 scenarios: dict[str, Scenario], digest: str):
        self.root = root
        self.info = info
        self.map = map
        self.units = units
        self.deck = deck
        self.charts = charts
        self.events = events
        self.scenarios = scenarios
        self.digest = digest
        self.source = ""             # content digest of the YAML files (paths.source_digest)
        self.areas: dict[str, Area] = {a.id: a for a in map.areas}
        self.neighbours: dict[str, frozenset[str]] = {
            a.id: frozenset(a.neighbours) for a in map.areas}
        self.card_types: dict[str, CardType] = {c.key: c for c in deck.cards}
        self.cards: dict[str, CardType] = {i: c for c in deck.cards for i in c.ids}
        self.card_order: list[str] = [i for c in deck.cards for i in c.ids]
        self.turns: dict[int, TurnInfo] = {t.turn: t for t in charts.turn_track.turns}
        self.event_turns: dict[int, EventTurn] = {t.turn: t for t in events.turns}
        self.nation_side: dict[str, str] = {k: v.side for k, v in units.nations.items()}
        self.sides: tuple[str, ...] = tuple(units.side_order)
        # The two sides, first and second (units.yaml order): the opponent of each, and each
        # side's bit and count slot in State.board.
        pair = (*self.sides, *self.sides)[:2] if self.sides else ("", "")
        self.opponent: dict[str, str] = {pair[0]: pair[1], pair[1]: pair[0]}
        self.side_bit: dict[str, int] = {pair[0]: 1, pair[1]: 2}
        self.count_at: dict[str, int] = {pair[0]: 2, pair[1]: 3}
        # Per nation, its side's bit and count slot; per unit type, whether it counts toward
        # stacking (1.2.2) and holds an area (8.3): what State.board reads for every unit.
        self.nation_cell: dict[str, tuple[int, int]] = {
            n: (self.side_bit.get(s, 0), self.count_at.get(s, 0))
            for n, s in self.nation_side.items()}
        self.kind_cell: dict[str, tuple[bool, bool]] = {
            k: (bool(u.stacking), bool(u.holds_area)) for k, u in units.unit_types.items()}
        self.forts = {a.fort.id: (a.id, a.fort) for a in map.areas if a.fort}
        self.impassable = {r.id: r for r in map.impassable}
        self.boxes: dict[str, Box] = {b.id: b for b in map.boxes}

    # The names an order may use, worked out the first time an order is read (replaying a
    # journal never needs them).
    @cached_property
    def card_names(self) -> dict[str, str]:
        """Folded card key, title or id -> card key (9.0)."""
        names: dict[str, str] = {}
        for c in self.deck.cards:
            for n in (c.key, c.title, *c.ids):
                names.setdefault(fold(n), c.key)
        return names

    @cached_property
    def area_names(self) -> dict[str, list[str]]:
        """Folded area id, name or alias (and impassable region names) -> the ids it names."""
        names: dict[str, list[str]] = {}
        for a in self.map.areas:
            for n in (a.id, a.name, *a.aliases):
                ids = names.setdefault(fold(n), [])
                if a.id not in ids:
                    ids.append(a.id)
        for r in self.map.impassable:
            regions = {r.id, r.name.split("(")[0]}
            if "(" in r.name:
                inner = r.name.split("(", 1)[1].rstrip(")")
                regions |= {inner, inner.removeprefix("the ")}
            for n in regions:
                ids = names.setdefault(fold(n), [])
                if r.id not in ids:
                    ids.append(r.id)
        return names

    def turn(self, n: int) -> TurnInfo:
        """The turn track entry of turn n (2.0 VI)."""
        return self.turns[n]

    def year(self, turn: int) -> int:
        """The game year of a turn; WINTER belongs to the year it starts in (charts note)."""
        return self.turns[turn].year

    def label(self, turn: int) -> str:
        """The season and year label of a turn, e.g. 'SUMMER 1914'."""
        return self.turns[turn].label

    def build_date(self, nation: str, kind: str) -> BuildDate | None:
        """From when nation may build units of kind, or None if it never builds them (7.6)."""
        return self.events.build_dates.units.get(nation, {}).get(kind)

    @cached_property
    def card_bonus(self) -> dict[str, CardBonus]:
        """The special Offensives' extra dice by card key (9.1.3-9.1.6: deck.yaml bonus)."""
        return {c.key: c.bonus for c in self.deck.cards if c.bonus is not None}

    def removed_cards(self, sc: Scenario) -> list[str]:
        """The card ids out of play at a scenario's start: its own list, then every card the
        deck removes in it (deck.yaml removed_in_scenarios; 9.8, 9.9 notes)."""
        extra = [i for c in self.deck.cards if sc.id in c.removed_in_scenarios for i in c.ids]
        return list(dict.fromkeys([*sc.cards.removed, *extra]))

    @cached_property
    def crisis_keys(self) -> tuple[str, ...]:
        """The keys of the Military Crisis! cards, in deck order (9.8, 9.9: type crisis)."""
        return tuple(c.key for c in self.deck.cards if c.type == "crisis")

    def card_title(self, key: str) -> str:
        """The title a card key is printed under (9.0: deck.yaml title), or the key itself."""
        ct = self.card_types.get(key)
        return ct.title if ct else key

    @cached_property
    def combat_card_keys(self) -> tuple[str, ...]:
        """The combat cards played in 2.0 II.3b: type combat, then type bad_weather, each in
        deck order (9.3-9.5, 9.7)."""
        return tuple(c.key for t in ("combat", "bad_weather") for c in self.deck.cards
                     if c.type == t)

    @cached_property
    def sea_home(self) -> str | None:
        """The home area of sea movement (4.6: ENGLAND), or None if the game has none."""
        sea = self.info.movement.sea
        return sea.home if sea else None

    @cached_property
    def stoss_nation(self) -> str | None:
        """The nation whose infantry is upgraded to Stoßtruppen (7.5), if any."""
        return next((n for n, x in self.units.nations.items() if x.stosstruppen_upgrade), None)

    @cached_property
    def commonwealth_nation(self) -> str | None:
        """The nation whose infantry the Commonwealth units replace (8.2.3: its swaps)."""
        return next((sw.nation for t in self.events.turns for sw in t.swaps), None)

    @cached_property
    def sea_nations(self) -> frozenset[str]:
        """The nations that use sea movement and may stand in a sea-only area (4.6)."""
        sea = self.info.movement.sea
        return frozenset(sea.nations) if sea else frozenset()

    def supply_sources(self, side: str, coastal: bool = False) -> list[str]:
        """A side's supply source areas in map order, or only the coastal ones (4.5, 4.6)."""
        key = (side, coastal)
        found = self._sources.get(key)
        if found is None:
            found = self._sources[key] = [a.id for a in self.map.areas if a.supply_source == side
                                          and (a.coastal or not coastal)]
        return found

    @cached_property
    def _sources(self) -> dict:
        return {}

    @cached_property
    def vp_side(self) -> str:
        """The side whose VP total the game counts: its Friendly areas, levels rising toward it
        (3.1, Victory Chart)."""
        return self.charts.victory.counts_for or self.sides[0]

    @staticmethod
    @lru_cache(maxsize=64)
    def side_name(side: str) -> str:
        """A side's name as printed, e.g. 'Entente' (its id capitalised)."""
        return side.replace("_", " ").title()

    @cached_property
    def countries(self) -> frozenset[str]:
        """Every country the game names: map.yaml `countries` and the nations' home countries."""
        return frozenset(self.map.countries) | {n.home_country for n in self.units.nations.values()}

    @cached_property
    def _build_points(self) -> dict[int, dict[str, int]]:
        return {int(r["turn"]): {k: v for k, v in r.items() if k in self.units.sides}
                for r in self.charts.build_points.turns}

    def build_points(self, turn: int) -> dict[str, int]:
        """Each side's Build Points on a turn, in the order of the sides (7.0 chart)."""
        row = self._build_points[turn]
        return {side: int(row[side]) for side in self.sides}

    @cached_property
    def _card_limits(self) -> dict[int, dict[str, int]]:
        return {r["year"]: r for r in self.charts.card_limit.by_year if "year" in r}

    def card_limit(self, year: int, side: str) -> int:
        """The Maximum Number of Held Cards of a side in a year (7.1 Card Limit chart)."""
        return self._card_limits[year][side]

    @cached_property
    def _artillery(self) -> dict[int, dict[str, int]]:
        return {r["year"]: r for r in self.charts.artillery_per_army.by_year if "year" in r}

    def artillery_limit(self, year: int, nation: str) -> int:
        """How many Artillery an army of a nation may hold in a year (8.3.2 chart); 0 unlisted."""
        return self._artillery.get(year, {}).get(nation, 0)

    def option_defaults(self) -> dict[str, bool]:
        """Every optional rule with its default setting."""
        return {k: v.default for k, v in self.info.options.items()}

    def term(self, key: str) -> str:
        """The game's word for a step of the sequence of play (AAC 'impulse', TTLM 'player
        turn', 2.0 II)."""
        return getattr(self.info.terms, key)

    def linked_with(self, options: dict[str, bool]) -> set[str]:
        """The games these options link this game with (TTLM 2.0 V.4, 3.1)."""
        return {game for key, game in self._links if options.get(key)}

    @cached_property
    def _links(self) -> tuple[tuple[str, str], ...]:
        return tuple((key, spec.links_with) for key, spec in self.info.options.items()
                     if spec.links_with)

    @cached_property
    def near_area_modifiers(self) -> tuple[tuple[VpModifier, frozenset[str]], ...]:
        """The VP modifiers scored by a unit type in or next to an area (8.3.6), each with the
        area and its neighbours."""
        return tuple((m, frozenset({m.near_area, *self.neighbours.get(m.near_area, ())}))
                     for m in self.charts.victory.modifiers.items
                     if m.unit and m.near_area and m.vp)
