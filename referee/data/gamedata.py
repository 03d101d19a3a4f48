"""A validated game: its data files as models (the *models.py modules) and the lookup tables
built from them once.

The loader (dataload.py) validates every file against its model, then
cross-checks the files against each other (gamecheck.py) and reports every
problem at once, each with its file and path (GameDataError).
"""

from functools import cached_property, lru_cache
from pathlib import Path

from ..base.nearness import fold
from ..contracts.chartmodels import Charts, TurnInfo, VpModifier
from ..contracts.deckmodels import CardBonus, CardType, DeckData
from ..contracts.eventmodels import BuildDate, EventsData, EventTurn
from ..contracts.gamemodels import GameInfo
from ..contracts.mapmodels import Area, Box, MapData
from ..contracts.scenariomodels import Scenario
from ..contracts.unitmodels import UnitsData


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
        self.nation_bit = {n: cell[0] for n, cell in self.nation_cell.items()}    # its side's
        self.kind_cell: dict[str, tuple[bool, bool]] = {
            k: (bool(u.stacking), bool(u.holds_area)) for k, u in units.unit_types.items()}
        self.forts = {a.fort.id: (a.id, a.fort) for a in map.areas if a.fort}
        # The areas worth VP and their VP (3.1): what the VP count reads after every decision.
        self.vp_areas: tuple[tuple[str, int], ...] = tuple(
            (a.id, a.vp) for a in map.areas if a.vp)
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
    def orders_read(self) -> dict:
        """Order texts already read in this game data, and what they read as (engine/reading)."""
        return {}

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

    def rules_of(self, keys) -> str:
        """The rules of card and unit type keys (deck.yaml, units.yaml `rule`), each once, in
        order, joined for a citation: what forced retreats cites (8.2.2, 8.3.5, 9.1.5...)."""
        rules = [self.card_types[k].rule if k in self.card_types else
                 self.units.unit_types[k].rule if k in self.units.unit_types else None
                 for k in keys]
        return ", ".join(dict.fromkeys(r for r in rules if r))

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
    def eft_box(self) -> Box | None:
        """The off-map box whose units the rules count apart (TTLM's Eastern Front Transit box:
        2.0 V.4 losses, 3.1 VP), the one box of map.yaml `boxes`; None in a game without one
        (AAC). Its id is where its units stand, its owner whose they are."""
        return self.map.boxes[0] if self.map.boxes else None

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

    @staticmethod
    def player_words(side: str) -> str:
        """A side's player as a refusal or a note names him: 'the German player'."""
        return f"the {GameData.side_name(side)} player"

    def country_name(self, country: str) -> str:
        """A country as a reader knows it (map.yaml `country_names`: 'Austria-Hungary'), or,
        in data that names it not, its id in words ('austria_hungary' -> 'Austria Hungary')."""
        named = next((c.name for c in self.map.country_names if c.id == country), None)
        return named or country.replace("_", " ").title()

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
    def card_limits_by_year(self) -> dict[int, dict[str, int]]:
        """The Card Limit chart's rows by year."""
        return {r["year"]: r for r in self.charts.card_limit.by_year if "year" in r}

    def card_limit(self, year: int, side: str) -> int:
        """The Maximum Number of Held Cards of a side in a year (7.1 Card Limit chart)."""
        return self.card_limits_by_year[year][side]

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
