"""Cross-file checks of a game data directory and of scenario files.

Each check returns problem lines ('file: where: what (rule)') instead of
stopping at the first, so an owner correcting the reconstructed data sees
everything that is wrong in one run (`referee games check DIR`).
"""

from __future__ import annotations

from collections import Counter, deque

from ..base.readers import MODERATOR, PUBLIC
from .gamedata import GameData
from .scenariomodels import Scenario
from .unitmodels import FIRE_KEYS

SEASON_CYCLE = ["SUMMER", "AUTUMN", "WINTER", "SPRING"]
# Card keys whose effects the engine implements by key (9.1-9.7); the deck may not rename them.
# Special Offensives (a bonus) and Military Crisis! cards (type crisis) are read from the deck.
KNOWN_CARD_KEYS = {
    "offensive", "limited_offensive", "ersatz_2", "ersatz_3", "poison_gas",
    "advanced_artillery_barrage", "bad_weather", "strategic_reserves", "surprise_attack",
}


def check_game(data: GameData) -> list[str]:
    """Every cross-file problem of a loaded game directory: every check runs, skipping only
    what depends on a name the game does not declare (reported once, by _check_names)."""
    return [*_check_names(data), *_check_map(data), *_check_units(data), *_check_charts(data),
            *_check_deck(data), *_check_events(data)]


class _Known:
    """The names a game declares, for the checks to skip what depends on one it does not:
    that name is reported once, where it is written, and not again as a cascade."""

    def __init__(self, data: GameData):
        u = data.units
        self.sides = frozenset(u.sides)
        self.nations = frozenset(u.nations)
        self.kinds = frozenset(u.unit_types)
        self.countries = data.countries
        # The sides in the order of play (2.0); units.yaml's `sides` when side_order is wrong.
        self.order = tuple(data.sides) if sorted(u.side_order) == sorted(u.sides) \
            else tuple(u.sides)
        self.nation_side = {n: x.side for n, x in u.nations.items() if x.side in self.sides}
        self._rows = u.counter_mix
        self._mix_unsure = self.unsure(u.counter_mix, self.nations, ("source",)) or any(
            not isinstance(r, dict) for n, r in u.counter_mix.items() if n != "source")

    @staticmethod
    def unsure(table: object, declared: frozenset[str], also: tuple[str, ...] = ()) -> bool:
        """Whether a mapping keyed by names has a key the game does not declare: an entry it
        lacks may then be that misspelt one, not missing."""
        return isinstance(table, dict) and any(k not in declared and k not in also
                                               for k in table)

    def mix(self, nation: str | None, kind: str) -> int | None:
        """How many counters of a kind a nation has (11.1), or None when a name the game does
        not declare leaves it in doubt."""
        if nation not in self.nations:
            return None
        row = self._rows.get(nation)
        if not isinstance(row, dict):
            return None if self._mix_unsure else 0
        if kind not in row and self.unsure(row, self.kinds):
            return None
        n = row.get(kind, 0)
        return n if isinstance(n, int) else None


class _Names:
    """The sides, nations, unit kinds and countries a game declares, and a checker of names."""

    def __init__(self, data: GameData, out: list[str]):
        self.out = out
        self.known = {"side": list(data.units.sides), "nation": list(data.units.nations),
                      "unit kind": list(data.units.unit_types),
                      "country": sorted(data.countries)}

    def __call__(self, what: str, name: object, where: str, also: tuple[str, ...] = ()) -> bool:
        """Whether name is a declared `what`; if not, a problem line names where and the choice."""
        if name in self.known[what] or name in also:
            return True
        choice = ", ".join([*also, *self.known[what]])
        self.out.append(f"{where}: unknown {what} {name!r} (the game declares {choice})")
        return False


def _check_names(data: GameData) -> list[str]:
    """Every side, nation, unit kind and country the files name is one the game declares
    (sides, nations and unit_types in units.yaml; countries in map.yaml and home countries)."""
    out: list[str] = []
    known = _Names(data, out)
    fm, fu, fc, fd, fe = (data.info.files.map, data.info.files.units, data.info.files.charts,
                          data.info.files.deck, data.info.files.events)
    u = data.units
    if len(u.sides) != 2:
        out.append(f"{fu}: sides: a game has two sides, {len(u.sides)} are listed (2.0)")
    for side in u.sides:
        if side in (PUBLIC, MODERATOR):
            out.append(f"{fu}: sides.{side}: {side!r} names a reader (--as {side}), "
                       "not a side: that reader would see the side's secrets")
    order_known = [known("side", side, f"{fu}: side_order") for side in u.side_order]
    if all(order_known) and sorted(u.side_order) != sorted(u.sides):
        out.append(f"{fu}: side_order: must list each side of `sides` once "
                   f"({', '.join(u.sides)})")
    for side, nats in u.sides.items():
        for nat in nats:
            known("nation", nat, f"{fu}: sides.{side}")
    for nat, nation in u.nations.items():
        known("side", nation.side, f"{fu}: nations.{nat}.side")
        if nation.reinforcements_in is not None:
            known("country", nation.reinforcements_in, f"{fu}: nations.{nat}.reinforcements_in")
    for side in u.side_colours:
        known("side", side, f"{fu}: side_colours.{side}")
    for nat, row in u.counter_mix.items():
        if nat == "source":
            if not isinstance(row, str):
                out.append(f"{fu}: counter_mix.source: a note (text), not a mapping")
        elif not isinstance(row, dict):
            out.append(f"{fu}: counter_mix.{nat}: a mapping of unit kind to count, not text")
        elif known("nation", nat, f"{fu}: counter_mix.{nat}"):
            for kind in row:
                known("unit kind", kind, f"{fu}: counter_mix.{nat}.{kind}")
    for nat in u.biplane_counter_years:
        known("nation", nat, f"{fu}: biplane_counter_years.{nat}")
    for kind, ut in u.unit_types.items():
        for nat in ut.nations:
            known("nation", nat, f"{fu}: unit_types.{kind}.nations")
    for a in data.map.areas:
        where = f"{fm}: areas.{a.id}"
        known("country", a.country, f"{where}.country")
        for key in ("supply_source", "conditional_supply_source"):
            if getattr(a, key) is not None:
                known("side", getattr(a, key), f"{where}.{key}")
        if a.fort:
            known("nation", a.fort.nation, f"{where}.fort.nation")
    for b in data.map.boxes:
        known("side", b.owner, f"{fm}: boxes.{b.id}.owner")
    mv = data.info.movement
    if mv.strategic is not None:
        for side in mv.strategic.sides:
            known("side", side, "game.yaml: movement.strategic.sides")
    if mv.sea is not None:
        for nat in mv.sea.nations:
            known("nation", nat, "game.yaml: movement.sea.nations")
    for t in data.events.turns:
        for j, r in enumerate(t.reinforcements):
            if r.placement != "any" and r.placement not in data.areas and \
                    r.placement not in data.countries:
                out.append(f"{fe}: turns[{t.turn}].reinforcements[{j}].placement: "
                           f"{r.placement!r} is neither any, an area id nor a country")
    if data.charts.victory.counts_for is not None:
        known("side", data.charts.victory.counts_for, f"{fc}: victory.counts_for")
    for m in data.charts.victory.modifiers.items:
        where = f"{fc}: victory.modifiers.{m.id}"
        if (m.unit is None) != (m.near_area is None):
            out.append(f"{where}: unit and near_area go together (8.3.6)")
        if m.unit is not None:
            known("unit kind", m.unit, f"{where}.unit")
        if m.near_area is not None and m.near_area not in data.areas:
            out.append(f"{where}.near_area: unknown area id {m.near_area!r} (8.3.6)")
    c = data.charts
    for i, row in enumerate(c.build_points.turns):
        where = f"{fc}: build_points.turns[{i}]"
        if not isinstance(row.get("turn"), int) or not 1 <= row["turn"] <= 99:
            out.append(f"{where}.turn: a turn number from 1 to 99 is required (7.0)")
        for key, value in row.items():
            if key == "turn":
                continue
            if key.endswith("_parts") and key.removesuffix("_parts") in u.sides:
                if not isinstance(value, dict):
                    out.append(f"{where}.{key}: a mapping of nation to Build Points")
                    continue
                for nat in value:
                    known("nation", nat, f"{where}.{key}.{nat}")
                side = key.removesuffix("_parts")
                if isinstance(row.get(side), int) and \
                        all(isinstance(v, int) for v in value.values()) and \
                        sum(value.values()) != row[side]:
                    out.append(f"{where}.{key}: the parts add up to {sum(value.values())}, "
                               f"{side} says {row[side]} (7.0)")
            elif known("side", key, f"{where}.{key}", ("turn",)) and not isinstance(value, int):
                out.append(f"{where}.{key}: a number of Build Points, not a mapping")
        unsure = any(k != "turn" and k not in u.sides and k.removesuffix("_parts") not in u.sides
                     for k in row)
        for side in u.sides if not unsure else ():    # else a misspelt side is the missing one
            if side not in row:
                out.append(f"{where}: no Build Points for the {side} side (7.0)")
    for name, chart, what in (("card_limit", c.card_limit.by_year, "side"),
                              ("artillery_per_army", c.artillery_per_army.by_year, "nation")):
        for i, row in enumerate(chart):
            where = f"{fc}: {name}.by_year[{i}]"
            if not 1900 <= row.get("year", 0) <= 1999:
                out.append(f"{where}.year: a year from 1900 to 1999 is required")
            for key, value in row.items():
                if key != "year" and known(what, key, f"{where}.{key}", ("year",)) and \
                        value > (55 if what == "side" else 999):
                    out.append(f"{where}.{key}: {value} is too large")
            if what == "side" and not _Known.unsure(row, frozenset(u.sides), ("year",)):
                for side in u.sides:
                    if side not in row:
                        out.append(f"{where}: no card limit for the {side} side (7.1)")
    for nat in c.army_templates.capacity:
        known("nation", nat, f"{fc}: army_templates.capacity.{nat}")
    for card in data.deck.cards:
        where = f"{fd}: cards.{card.key}"
        if card.event_side is not None:
            known("side", card.event_side, f"{where}.event_side", ("any",))
        known("side", card.ersatz_use, f"{where}.ersatz_use", ("any",))
        for j, crisis in enumerate(card.crises):
            nats = crisis.remove.get("nations") or []
            kinds = crisis.remove.get("kinds") or []
            for nat in nats if isinstance(nats, list) else [nats]:
                known("nation", nat, f"{where}.crises[{j}].remove.nations")
            for kind in kinds if isinstance(kinds, list) else [kinds]:
                known("unit kind", kind, f"{where}.crises[{j}].remove.kinds")
    ev = data.events
    for t in ev.turns:
        where = f"{fe}: turns[{t.turn}]"
        for j, r in enumerate(t.reinforcements):
            known("nation", r.nation, f"{where}.reinforcements[{j}].nation")
            known("unit kind", r.type, f"{where}.reinforcements[{j}].type")
            if r.substitute is not None:
                known("unit kind", r.substitute, f"{where}.reinforcements[{j}].substitute")
        for j, sw in enumerate(t.swaps):
            known("nation", sw.nation, f"{where}.swaps[{j}].nation")
    for nat, row in ev.build_dates.units.items():
        if known("nation", nat, f"{fe}: build_dates.units.{nat}"):
            for kind in row:
                known("unit kind", kind, f"{fe}: build_dates.units.{nat}.{kind}")
    for kind in ev.build_dates.upgrades:
        known("unit kind", kind, f"{fe}: build_dates.upgrades.{kind}")
    return out


def _check_map(data: GameData) -> list[str]:
    out: list[str] = []
    f = data.info.files.map
    seen: set[str] = set()
    for i, a in enumerate(data.map.areas):
        if a.id in seen:
            out.append(f"{f}: areas[{i}]({a.id}): duplicate area id")
        seen.add(a.id)
    impassable = {r.id: r for r in data.map.impassable}
    for a in data.map.areas:
        where = f"{f}: areas.{a.id}"
        if len(a.neighbours) != len(set(a.neighbours)):
            out.append(f"{where}.neighbours: a neighbour is listed twice")
        for n in a.neighbours:
            if n == a.id:
                out.append(f"{where}.neighbours: lists itself")
            elif n not in data.areas:
                hint = " (an impassable region: list it under borders)" if n in impassable else ""
                out.append(f"{where}.neighbours: unknown area id {n!r}{hint}")
            elif a.id not in data.areas[n].neighbours:
                out.append(f"{where}.neighbours: adjacency not symmetric: {a.id} lists {n} "
                           f"but {n} does not list {a.id}")
        for b in a.borders:
            if b not in impassable:
                out.append(f"{where}.borders: unknown impassable region {b!r}")
        if a.kind == "sea_only" and a.neighbours:
            out.append(f"{where}: a sea-movement box has no land neighbours (4.6)")
        if a.enemy_may_enter != (a.kind != "sea_only"):
            # The engine keeps a side's units out of an area only as a sea-movement box that
            # only the sea nations stand in (4.6): the flag must say so, and nothing else.
            why = "a sea-movement box is closed to the enemy" if a.kind == "sea_only" else \
                "only a sea-movement box (kind sea_only) is closed to the enemy"
            out.append(f"{where}.enemy_may_enter: {str(a.enemy_may_enter).lower()}, but {why} "
                       f"(4.6)")
    for r in data.map.impassable:
        for t in r.touches:
            if t not in data.areas:
                out.append(f"{f}: impassable.{r.id}.touches: unknown area id {t!r}")
    if data.sea_home is not None and data.sea_home not in data.areas:
        out.append(f"game.yaml: movement.sea.home: unknown area id {data.sea_home!r} (4.6)")
    front = [a.id for a in data.map.areas if a.kind == "front"]
    if front:
        reached = {front[0]}
        todo = deque([front[0]])
        while todo:
            for n in data.areas[todo.popleft()].neighbours:
                if n in data.areas and n not in reached:
                    reached.add(n)
                    todo.append(n)
        cut = sorted(set(front) - reached)
        if cut:
            out.append(f"{f}: areas: the land map is not connected; cut off: {', '.join(cut)}")
    known = _Known(data)
    for side in known.order:
        if not any(a.supply_source == side for a in data.map.areas):
            out.append(f"{f}: areas: no {side} supply source (6.1)")
    fort_ids: Counter[str] = Counter()
    per_nation: Counter[str] = Counter()
    for a in data.map.areas:
        if a.fort:
            fort_ids[a.fort.id] += 1
            per_nation[a.fort.nation] += 1
            if a.fort.strength > 4 and a.fort.name not in ("Paris", "Nancy"):
                out.append(f"{f}: areas.{a.id}.fort: only the Paris and Nancy counters are "
                           f"double-sided, so other forts are 4 or less (8.4)")
    for fid, n in fort_ids.items():
        if n > 1:
            out.append(f"{f}: fort id {fid!r} used {n} times")
    for nat, n in per_nation.items():
        want = known.mix(nat, "fort")
        if want is not None and n > want:
            out.append(f"{f}: {n} {nat} forts on the map, the counter mix has {want} (11.1)")
    return out


def _check_units(data: GameData) -> list[str]:
    out: list[str] = []
    f = data.info.files.units
    u = data.units
    known = _Known(data)
    for side, nats in u.sides.items():
        for nat in nats:         # an unknown nation or side: reported by _check_names
            if nat in u.nations and u.nations[nat].side in u.sides and \
                    u.nations[nat].side != side:
                out.append(f"{f}: nations.{nat}.side is {u.nations[nat].side}, sides lists it "
                           f"under {side}")
    for nat, row in u.mix.items():
        if nat not in u.nations:        # reported by _check_names, as an unknown kind is
            continue
        for kind, n in row.items():
            if kind in u.unit_types and (not isinstance(n, int) or n < 0):
                out.append(f"{f}: counter_mix.{nat}.{kind}: must be a whole number >= 0")
    cw = known.mix(data.commonwealth_nation, "commonwealth") \
        if data.commonwealth_nation is not None else 0
    if cw is not None and len(u.commonwealth_units) != cw:
        out.append(f"{f}: commonwealth_units: {len(u.commonwealth_units)} named, "
                   f"counter mix has {cw} (8.2.3)")
    dated = u.dated_kind
    if len([k for k, t in u.unit_types.items() if t.counter_years_from is not None]) > 1:
        out.append(f"{f}: unit_types: only one type may have counter_years_from (8.3.4)")
    if u.biplane_counter_years and dated is None:
        out.append(f"{f}: biplane_counter_years: no unit type has counter_years_from (8.3.4)")
    for nat, years in u.biplane_counter_years.items() if dated else ():
        want = known.mix(nat, dated)
        if want is not None and len(years) != want:
            out.append(f"{f}: biplane_counter_years.{nat}: {len(years)} years for {want} "
                       f"counters (8.3.4)")
        since = u.unit_types[dated].counter_years_from
        if any(y < since for y in years):
            out.append(f"{f}: biplane_counter_years.{nat}: no "
                       f"{dated.replace('_', ' ').title()} before {since} (8.3.4)")
    for nat, nation in u.nations.items():
        if nation.rebuild_area and nation.rebuild_area not in data.areas:
            out.append(f"{f}: nations.{nat}.rebuild_area: unknown area id {nation.rebuild_area!r}")
        if nation.evacuation_area and nation.evacuation_area not in data.areas:
            out.append(f"{f}: nations.{nat}.evacuation_area: unknown area id "
                       f"{nation.evacuation_area!r} (14.2.4)")
    return out + _check_unit_types(data)


def _check_unit_types(data: GameData) -> list[str]:
    """What each unit type says it does is something the engine knows (5.2.1, 8.x)."""
    out: list[str] = []
    f = data.info.files.units
    u = data.units
    for i, kind in enumerate(u.roll_order):
        if kind not in u.unit_types:
            out.append(f"{f}: roll_order[{i}]: unknown unit type {kind!r}")
    if len(set(u.roll_order)) != len(u.roll_order):
        out.append(f"{f}: roll_order: a unit type is listed twice")
    for kind, t in u.unit_types.items():
        where = f"{f}: unit_types.{kind}"
        fires = [("fire", t.fire or {})]
        if t.materiel_superiority:
            ms = t.materiel_superiority
            fires.append(("materiel_superiority.fire", ms.fire))
            if ms.option not in data.info.options:
                out.append(f"{where}.materiel_superiority.option: unknown option "
                           f"{ms.option!r} (game.yaml options)")
            for nat in ms.nations:
                if nat not in u.nations:
                    out.append(f"{where}.materiel_superiority.nations: unknown nation {nat!r}")
        for path, fire in fires:
            for key in fire:
                if key not in FIRE_KEYS:
                    out.append(f"{where}.{path}.{key}: unknown firepower key (one of "
                               f"{', '.join(FIRE_KEYS)})")
        if t.class_ in ("army", "fort") and (t.aircraft or t.fires_in_artillery_step
                                              or t.alone_lost_to or t.max_per_army):
            out.append(f"{where}: a{'n' if t.class_ == 'army' else ''} {t.class_} is not "
                       f"a unit on a template (1.4)")
        if t.aircraft and "dogfight" not in (t.fire or {}):
            out.append(f"{where}.fire: an aircraft needs a dogfight firepower (8.3.4)")
        if t.class_ in ("infantry", "auxiliary") and t.cost_bp is None:
            out.append(f"{where}.cost_bp: a unit built or rebuilt needs a cost (7.2)")
        if t.class_ in ("infantry", "auxiliary") and not t.code:
            out.append(f"{where}.code: a unit on a template needs a code (its letter)")
        elif t.code and [k for k, x in u.unit_types.items() if x.code == t.code][0] != kind:
            out.append(f"{where}.code: {t.code!r} is already another unit type's code")
        if t.class_ in ("army", "fort") and t.code:
            out.append(f"{where}.code: a{'n' if t.class_ == 'army' else ''} {t.class_} has "
                       f"no letter in army contents (1.4)")
    for nat, row in u.mix.items():
        for kind, n in row.items():
            t = u.unit_types.get(kind)
            if n and t is not None and t.nations and nat not in t.nations and \
                    nat in u.nations and all(x in u.nations for x in t.nations):
                out.append(f"{f}: counter_mix.{nat}.{kind}: unit_types.{kind}.nations does not "
                           f"list {nat}")
    chart = data.charts.artillery_per_army.unit_type
    if chart not in u.unit_types:
        out.append(f"{data.info.files.charts}: artillery_per_army.unit_type: unknown unit "
                   f"type {chart!r}")
    return out


def _check_charts(data: GameData) -> list[str]:
    out: list[str] = []
    f = data.info.files.charts
    c = data.charts
    turns = c.turn_track.turns
    if [t.turn for t in turns] != list(range(1, 24)):
        out.append(f"{f}: turn_track.turns: must list turns 1 to 23 in order (2.0 VI)")
    for i, t in enumerate(turns):
        if t.season != SEASON_CYCLE[i % 4]:
            out.append(f"{f}: turn_track.turns[{i}]: season {t.season}, expected "
                       f"{SEASON_CYCLE[i % 4]} (2.0 VI)")
    if sorted(b.get("turn") for b in c.build_points.turns if isinstance(b.get("turn"), int)) \
            != list(range(1, 24)):
        out.append(f"{f}: build_points.turns: must list turns 1 to 23 once each (7.0)")
    years = {t.year for t in turns}
    for name, chart in (("card_limit", c.card_limit.by_year),
                        ("total_blockade", c.total_blockade.by_year),
                        ("artillery_per_army", c.artillery_per_army.by_year)):
        have = {row.get("year") if isinstance(row, dict) else row.year for row in chart}
        if not years <= have:
            out.append(f"{f}: {name}.by_year: years {sorted(years - have)} missing")
    prev = None
    for i, lv in enumerate(c.victory.levels):
        if i == 0 and lv.min is not None:
            out.append(f"{f}: victory.levels[0]: the first level must be open below (no min)")
        if i == len(c.victory.levels) - 1 and lv.max is not None:
            out.append(f"{f}: victory.levels[{i}]: the last level must be open above (no max)")
        if prev is not None and lv.min != prev + 1:
            out.append(f"{f}: victory.levels[{i}]({lv.id}): should start at {prev + 1}")
        if lv.min is not None and lv.max is not None and lv.min > lv.max:
            out.append(f"{f}: victory.levels[{i}]({lv.id}): min is above max")
        prev = lv.max
    ids = {lv.id for lv in c.victory.levels}
    for g in c.victory.game_ends_on:
        if g not in ids:
            out.append(f"{f}: victory.game_ends_on: unknown level {g!r}")
    known = _Known(data)
    unsure = known.unsure(c.army_templates.capacity, known.nations)   # a misspelt nation
    for nat in data.units.nations:
        if known.mix(nat, "army") and nat not in c.army_templates.capacity and not unsure:
            out.append(f"{f}: army_templates.capacity: {nat} has armies but no template (1.4)")
    return out


def _check_card_fields(data: GameData, c, where: str) -> list[str]:
    """A card's special dice, stand-ins, combat-card links and crisis fields (9.1-9.9)."""
    out: list[str] = []
    keys = data.card_types
    b = c.bonus
    if b is not None:
        if not c.offensive:
            out.append(f"{where}.bonus: only an Offensive-type card adds dice (9.1.3-9.1.6)")
        if b.army_nation not in data.nation_side:
            out.append(f"{where}.bonus.army_nation: unknown nation {b.army_nation!r}")
        if b.fires_as not in data.units.unit_types:
            out.append(f"{where}.bonus.fires_as: unknown unit kind {b.fires_as!r}")
        if not b.phases:
            out.append(f"{where}.bonus.phases: name at least one fire phase (9.1.3-9.1.6)")
    for name in ("other_side_plays_as", "before_that"):
        v = getattr(c, name)
        if v is not None and (v not in keys or not keys[v].offensive):
            out.append(f"{where}.{name}: {v!r} is not an Offensive-type card key (9.1)")
    if c.from_turn is not None and c.offensive and c.before_that is None and c.bonus:
        out.append(f"{where}: before_that missing: what it counts as before from_turn (9.1)")
    for name in ("not_with", "cancelled_by"):
        for v in getattr(c, name):
            if v not in keys:
                out.append(f"{where}.{name}: unknown card key {v!r}")
    if c.type == "crisis":
        if c.unpaid_vp is None:
            out.append(f"{where}: unpaid_vp missing: the VP of a crisis not answered (3.1)")
        for j, e in enumerate(c.crises):
            if not e.remove.get("kinds") and not c.unit_kinds:
                out.append(f"{where}.crises[{j}]: no kinds and no unit_kinds to remove (9.8)")
    for k in c.unit_kinds:
        if k not in data.units.unit_types:
            out.append(f"{where}.unit_kinds: unknown unit kind {k!r}")
    return out


def _check_deck(data: GameData) -> list[str]:
    out: list[str] = []
    f = data.info.files.deck
    d = data.deck
    total = sum(c.count for c in d.cards)
    if total != d.total:
        out.append(f"{f}: cards: counts add up to {total}, total says {d.total} (9.0)")
    off = sum(c.count for c in d.cards if c.offensive)
    if off != d.offensive_type_total:
        out.append(f"{f}: cards: {off} Offensive-type cards, offensive_type_total says "
                   f"{d.offensive_type_total} (9.1)")
    seen: set[str] = set()
    for c in d.cards:
        if len(c.ids) != c.count:
            out.append(f"{f}: cards.{c.key}: {len(c.ids)} ids for count {c.count}")
        for i in c.ids:
            if i in seen:
                out.append(f"{f}: cards.{c.key}: card id {i!r} used twice")
            seen.add(i)
        out.extend(_check_card_fields(data, c, f"{f}: cards.{c.key}"))
        if c.key not in KNOWN_CARD_KEYS and c.bonus is None and c.type != "crisis":
            out.append(f"{f}: cards.{c.key}: the referee knows no card of this key "
                       f"({', '.join(sorted(KNOWN_CARD_KEYS))})")
    # A deck may leave out a card the referee knows (AT ALL COSTS! has no UK or French
    # special offensive), not the two every card falls back to (9.1, 9.5) nor one it names.
    needed = {"offensive", "limited_offensive"}
    for c in d.cards:
        needed |= {k for k in (c.bad_weather, c.before_that, c.other_side_plays_as,
                               *c.not_with, *c.cancelled_by) if k in KNOWN_CARD_KEYS}
    for k in sorted(needed - set(data.card_types)):
        out.append(f"{f}: cards: card {k!r} missing (9.x)")
    return out


def _check_duplicates(data: GameData) -> list[str]:
    """Values events.yaml repeats from elsewhere agree with them: the card dates of
    `availability.cards` with the deck (9.1, 9.4, 9.5), the placement codes with the
    reinforcements (2.0 I, 4.6, 7.3), `stosstruppen_1918` with the 1918 Stoßtruppen
    reinforcements (8.2.2) and `commonwealth_swaps` with the turns' swaps (8.2.3)."""
    out: list[str] = []
    f = data.info.files.events
    ev = data.events
    cards = ev.availability.get("cards") if isinstance(ev.availability, dict) else None
    for key, value in (cards or {}).items():
        ct = data.card_types.get(key)
        if key == "bad_weather_not_on_turns":
            ct = data.card_types.get("bad_weather")
            if ct is not None and list(value or []) != ct.not_on_turns:
                out.append(f"{f}: availability.cards.{key}: {value}, the deck says "
                           f"{ct.not_on_turns} (9.5)")
        elif ct is None:
            out.append(f"{f}: availability.cards.{key}: no such card in the deck")
        elif ct.from_turn != value:
            out.append(f"{f}: availability.cards.{key}: turn {value}, the deck says "
                       f"{ct.from_turn} ({ct.rule})")
    placed = {"any", *data.areas, *data.countries}      # any other is reported by _check_names
    used = {r.placement for t in ev.turns for r in t.reinforcements
            if r.placement in placed and (r.placement not in data.areas
                                          or r.placement in ev.placement_codes)}
    if ev.placement_codes:
        for code in sorted(used - set(ev.placement_codes)):
            out.append(f"{f}: turns: placement {code!r} is not one of placement_codes")
        for code in sorted(set(ev.placement_codes) - used - set(data.areas)):
            out.append(f"{f}: placement_codes.{code}: no reinforcement is placed so")
    sched = ev.stosstruppen_1918.get("schedule") if ev.stosstruppen_1918 else None
    if isinstance(sched, dict) and all(r.type in data.units.unit_types
                                       for t in ev.turns for r in t.reinforcements):
        kind = "stosstruppen"            # the unit kind the key is named for (8.2.2)
        came = Counter()
        for t in ev.turns:
            for r in t.reinforcements:
                if r.type == kind:
                    came[t.turn] += r.count
        if {int(k): v for k, v in sched.items()} != dict(came):
            out.append(f"{f}: stosstruppen_1918.schedule: {dict(sched)}, the turns' "
                       f"reinforcements say {dict(came)} (8.2.2)")
        if ev.stosstruppen_1918.get("total") != sum(came.values()):
            out.append(f"{f}: stosstruppen_1918.total: {ev.stosstruppen_1918.get('total')}, "
                       f"the turns' reinforcements add up to {sum(came.values())} (8.2.2)")
    listed = ev.commonwealth_swaps.get("swaps") if ev.commonwealth_swaps else None
    if isinstance(listed, list):
        want = sorted((x.get("turn"), x.get("unit")) for x in listed if isinstance(x, dict))
        have = sorted((t.turn, s.unit) for t in ev.turns for s in t.swaps)
        if want != have:
            out.append(f"{f}: commonwealth_swaps.swaps: {want}, the turns' swaps say {have} "
                       f"(8.2.3)")
    return out


def _check_events(data: GameData) -> list[str]:
    out: list[str] = _check_duplicates(data)
    f = data.info.files.events
    known = _Known(data)
    placed = {"any", *data.areas, *known.countries}     # any other is reported by _check_names
    if sorted(t.turn for t in data.events.turns) != list(range(1, 24)):
        out.append(f"{f}: turns: must list turns 1 to 23 once each (2.0 I)")
    arrived: Counter[str] = Counter()
    for t in data.events.turns:
        where = f"{f}: turns[{t.turn}]"
        if t.turn in data.turns and t.label != data.label(t.turn):
            out.append(f"{where}: label {t.label!r}, turn track says {data.label(t.turn)!r}")
        for j, r in enumerate(t.reinforcements):
            loc = f"{where}.reinforcements[{j}]"
            if r.type in known.kinds and known.mix(r.nation, r.type) == 0:
                out.append(f"{loc}: {r.nation} has no {r.type} counters (11.1)")
            if r.type == "army":
                if not r.id:
                    out.append(f"{loc}: an arriving army needs an id")
                elif r.count != 1:
                    out.append(f"{loc}: list arriving armies one by one")
                else:
                    arrived[r.id] += 1
                if r.nation in data.sea_nations and r.placement != data.sea_home and \
                        data.sea_home in data.areas:
                    out.append(f"{loc}: {r.nation.upper()} reinforcement armies appear in "
                               f"{data.areas[data.sea_home].name} (4.6)")
            nat = data.units.nations.get(r.nation)
            if nat and nat.reinforcements_in in known.countries and \
                    r.placement != nat.reinforcements_in and r.placement in placed:
                out.append(f"{loc}: {r.nation.upper()} units arrive in "
                           f"{nat.reinforcements_in.title()} (7.3)")
        for s in t.swaps:
            if s.unit not in {c.id for c in data.units.commonwealth_units}:
                out.append(f"{where}.swaps: unknown Commonwealth unit {s.unit!r}")
    for aid, n in arrived.items():
        if n > 1:
            out.append(f"{f}: turns: army {aid} arrives {n} times")
    out.extend(_check_build_dates(data))
    return out


def _check_build_dates(data: GameData) -> list[str]:
    """Every counter a nation builds has a build date, and each date is possible (7.6, 8.x)."""
    out: list[str] = []
    f = data.info.files.events
    bd = data.events.build_dates
    last = max(data.turns) if data.turns else 0
    known = _Known(data)
    swapped = {s.nation for t in data.events.turns for s in t.swaps}
    for nat, row in data.units.mix.items():
        # A nation or kind misspelt in build_dates: that one is reported, not its absence.
        unsure = known.unsure(bd.units, known.nations) if nat not in bd.units else \
            known.unsure(bd.units[nat], known.kinds)
        for kind, n in row.items():
            if n and kind not in ("army", "fort") and kind in data.units.unit_types and \
                    nat in known.nations and not unsure and data.build_date(nat, kind) is None:
                out.append(f"{f}: build_dates.units.{nat}: no build date for {nat} {kind} "
                           f"(7.6)")
    for nat, row in bd.units.items():
        for kind, when in row.items():
            loc = f"{f}: build_dates.units.{nat}.{kind}"
            if kind in ("army", "fort"):
                out.append(f"{loc}: {kind}s are never built (armies are rebuilt, 7.3; forts "
                           f"never, 8.4)")
            elif kind in known.kinds and known.mix(nat, kind) == 0:
                out.append(f"{loc}: {nat} has no {kind} counters (11.1)")
            if when.from_turn > last:
                out.append(f"{loc}: turn {when.from_turn} is not on the turn track (2.0 VI)")
                continue
            if kind == data.units.dated_kind:
                since = data.units.unit_types[kind].counter_years_from
                first = _first_turn_of(data, since) if since in _years(data) else 1
                years = data.units.biplane_counter_years.get(nat, [])
                if years and min(years) in _years(data):
                    first = max(first, _first_turn_of(data, min(years)))
                if when.from_turn < first:
                    out.append(f"{loc}: turn {when.from_turn} is before {_label(data, first)}: "
                               f"no {kind.replace('_', ' ').title()} before {since} nor before "
                               f"the year on its counters (8.3.4)")
            if data.units.has(kind, "rebuilt_only_after_swap") and swapped <= known.nations:
                swaps = [t.turn for t in data.events.turns for s in t.swaps
                         if s.nation == nat]
                if swaps and when.from_turn < min(swaps):
                    out.append(f"{loc}: turn {when.from_turn} is before the first swap "
                               f"(turn {min(swaps)}): Commonwealth units are only rebuilt "
                               f"(8.2.3)")
    for kind, when in bd.upgrades.items():
        loc = f"{f}: build_dates.upgrades.{kind}"
        if kind != "stosstruppen" and kind in known.kinds:
            out.append(f"{loc}: only Infantry is upgraded, to Stoßtruppen (7.5)")
        elif when.from_turn > last:
            out.append(f"{loc}: turn {when.from_turn} is not on the turn track (2.0 VI)")
    return out


def _years(data: GameData) -> set[int]:
    return {t.year for t in data.charts.turn_track.turns}


def _label(data: GameData, turn: int) -> str:
    """A turn's label, or its number when the turn track lacks it (reported by _check_charts)."""
    return data.label(turn) if turn in data.turns else f"turn {turn}"


# ---------------------------------------------------------------- scenarios

def army_limits_problems(data: GameData, nation: str, contents: Counter, year: int, *,
                         unsure: frozenset[str] = frozenset()) -> list[str]:
    """What is wrong with an army's contents: nationality, template, artillery (1.4, 8.1-8.3);
    `unsure` names the charts ('template', 'artillery') whose entry for the nation a misspelt
    name leaves in doubt, not checked."""
    out: list[str] = []
    cap = data.charts.army_templates.capacity.get(nation)
    inf = aux = 0
    for (cnat, kind), n in contents.items():
        cls = data.units.unit_types[kind].class_ if kind in data.units.unit_types else None
        if cls not in ("infantry", "auxiliary") or kind == "army":
            out.append(f"a {kind} cannot go on an army template (1.4)")
            continue
        anywhere = [n for n, x in data.units.nations.items() if x.infantry_in_any_army]
        if cnat != nation and not (cnat in anywhere and kind == "infantry"
                                   and data.nation_side.get(nation) == data.nation_side[cnat]):
            but = "".join(f", except {n.upper()} infantry in any "
                          f"{data.side_name(data.nation_side[n])} army" for n in anywhere)
            out.append(f"a {cnat} {kind} in a {nation} army: an army holds only its own "
                       f"nationality{but} (8.1)")
        if cls == "infantry":
            inf += n
        else:
            aux += n
    if cap is None:
        if "template" not in unsure:
            out.append(f"{nation} has no army template (1.4)")
        return out
    if inf > cap.infantry:
        out.append(f"{inf} infantry-type units, the {nation} template holds {cap.infantry} (1.4)")
    if aux > cap.auxiliary:
        out.append(f"{aux} auxiliary units, the {nation} template holds {cap.auxiliary} (1.4)")
    chart = data.charts.artillery_per_army
    art = sum(n for (_, k), n in contents.items() if k == chart.unit_type)
    limit = data.artillery_limit(year, nation) if "artillery" not in unsure else art
    if art > limit:
        out.append(f"{art} {chart.unit_type.replace('_', ' ')}, the {year} limit for a "
                   f"{nation} army is {limit} (8.3.2)")
    for kind, t in data.units.unit_types.items():
        most = t.max_per_army
        if most is not None and sum(n for (_, k), n in contents.items() if k == kind) > most:
            out.append(f"more than {'one' if most == 1 else most} "
                       f"{kind.replace('_', ' ').title()} in one army ({t.rule})")
    return out


def check_scenario(data: GameData, sc: Scenario) -> list[str]:
    """Every problem of a scenario (built-in or a what-if position) against the game data;
    a check skips only what depends on a name the game does not declare (reported once)."""
    out: list[str] = []
    known = _Known(data)
    start = sc.start.turn
    year = data.year(start) if start in data.turns else None     # year-bound checks need it
    if year is None:
        out.append(f"start.turn: {start} is not on the turn track")
    elif sc.start.label != data.label(start):
        out.append(f"start.label: turn {start} is {data.label(start)!r}, not {sc.start.label!r}")
    if not start <= sc.last_turn <= 23:
        out.append("last_turn: must be between the start turn and 23 (2.0 VI)")

    out.extend(_check_scenario_names(data, sc))
    # The undeclared nations it writes: reported by _check_scenario_names, not counted again.
    written = {x.nation for x in (*sc.units, *sc.eft_box, *sc.forts,
                                  *(c for u in sc.units for c in u.contents))
               if x.nation is not None} - known.nations
    control: dict[str, str] = {}
    for side in [*known.order, *(s for s in sc.control if s not in known.order)]:
        for a in sc.control.get(side, []):
            if a not in data.areas:
                out.append(f"control.{side}: unknown area id {a!r}")
            elif a in control:
                out.append(f"control.{side}: area {a} is listed twice")
            control[a] = side
    for a in sc.neutral:
        if a not in data.areas:
            out.append(f"neutral: unknown area id {a!r}")
        elif a in control:
            out.append(f"neutral: area {a} is also listed under control")
        control[a] = "neutral"
    missing = sorted(set(data.areas) - set(control))
    if missing:
        out.append(f"control: areas with no status: {', '.join(missing)} (4.1)")
    settled = {a for a, s in control.items() if s in known.sides or s == "neutral"}

    placed: set[str] = set()
    for i, fo in enumerate(sc.forts):
        loc = f"forts[{i}]({fo.id})"
        if fo.id not in data.forts:
            out.append(f"{loc}: unknown fort id")
            continue
        area, spec = data.forts[fo.id]
        if fo.area != area or (fo.nation != spec.nation and
                               {fo.nation, spec.nation} <= known.nations):
            out.append(f"{loc}: the {spec.nation} fort {fo.id} stands in {area} (map)")
        if fo.strength > spec.strength:
            out.append(f"{loc}: strength {fo.strength} above its printed {spec.strength} (8.4)")
        if fo.strength == 0 and spec.strength > 0:
            out.append(f"{loc}: a fort reduced to 0 is out of the game (5.3.1); "
                       f"list it under forts_out_of_play")
        if fo.id in placed:
            out.append(f"{loc}: placed twice")
        placed.add(fo.id)
    for fid in sc.forts_out_of_play:
        if fid not in data.forts:
            out.append(f"forts_out_of_play: unknown fort id {fid!r}")
        elif fid in placed:
            out.append(f"forts_out_of_play: {fid} is also placed")
    for fid in set(data.forts) - placed - set(sc.forts_out_of_play):
        out.append(f"forts: fort {fid} is neither placed nor listed out of play")

    ids: set[str] = set()
    in_play: Counter = Counter()   # (nation, kind) -> counters set up
    stack: Counter = Counter()     # (area, side) -> units counting for stacking
    presence: dict[str, set[str]] = {}
    for i, u in enumerate(sc.units):
        loc = f"units[{i}]({u.id})"
        if u.id in ids:
            out.append(f"{loc}: duplicate unit id")
        ids.add(u.id)
        # Its side, where it stands and stacks; None when a name or the area is unknown.
        side = known.nation_side.get(u.nation) if u.area in data.areas else None
        if u.type == "fort":
            out.append(f"{loc}: forts go under forts:, not units:")
            continue
        if u.type in known.kinds and known.mix(u.nation, u.type) == 0:
            out.append(f"{loc}: {u.nation} has no {u.type} counters (11.1)")
        area = data.areas.get(u.area)
        if area is None:           # only what depends on the area is skipped
            out.append(f"{loc}: unknown area id {u.area!r}")
        elif area.kind == "sea_only" and u.nation not in data.sea_nations and \
                u.nation in known.nations and data.sea_nations <= known.nations:
            out.append(f"{loc}: only {'/'.join(n.upper() for n in sorted(data.sea_nations))} "
                       f"units may be in {area.name} (4.6)")
        if u.entrenched and u.type != "army" and u.type not in data.units.entrenching and \
                u.type in known.kinds:
            out.append(f"{loc}: only armies and infantry entrench (7.4, 8.2.2)")
        if side is not None:
            presence.setdefault(u.area, set()).add(side)
        in_play[(u.nation, u.type)] += 1
        if u.type == "army":
            contents: Counter = Counter()
            for c in u.contents:
                contents[(c.nation or u.nation, c.type)] += c.count
            for (cnat, kind), n in contents.items():
                in_play[(cnat, kind)] += n
            sure = Counter({(cnat, kind): n for (cnat, kind), n in contents.items()
                            if cnat in known.nation_side and kind in known.kinds})
            for p in army_limits_problems(data, u.nation, sure, year or 0,
                                          unsure=_army_unsure(data, known, u.nation, year)) \
                    if u.nation in known.nation_side else ():
                out.append(f"{loc}: contents: {p}")
            if contents and side is not None:
                stack[(u.area, side)] += 1
        else:
            if u.contents and u.type in known.kinds:
                out.append(f"{loc}: only armies have contents")
            if side is not None:
                stack[(u.area, side)] += 1
        if u.keep_apart_from and u.keep_apart_from not in {x.id for x in sc.units}:
            out.append(f"{loc}: keep_apart_from names unknown unit {u.keep_apart_from!r}")
        for kind, nat in [(u.type, u.nation)] + [(c.type, c.nation or u.nation)
                                                  for c in u.contents]:
            when = data.build_date(nat, kind)
            first = when.from_turn if when else None
            came = [t.turn for t in data.events.turns if t.turn < start or (
                t.turn == start and sc.position.phase != "reinforcements")
                for r in t.reinforcements if (r.nation, r.type) == (nat, kind)]
            if first is not None and first > 1 and start <= first and not came and \
                    sc.position.phase != "production":
                out.append(f"{loc}: a {nat} {kind} cannot be in play before turn "
                           f"{first} ({_label(data, first)}) ({when.rule})")
        dated = data.units.dated_kind
        bip = dated and sum(c.count for c in u.contents if c.type == dated) + (u.type == dated)
        years = data.units.biplane_counter_years
        if bip and year is not None and u.nation in known.nations and (
                u.nation in years or not known.unsure(years, known.nations)):
            counters = years.get(u.nation, [])
            if not any(y < year or (y == year and start > _first_turn_of(data, y))
                       for y in counters):
                out.append(f"{loc}: no {u.nation} {dated.replace('_', ' ').title()} counter could "
                           f"have been built before "
                           f"{data.label(start)} (8.3.4)")
    for fo in sc.forts:
        if fo.strength >= 2 and fo.area in presence and fo.nation in known.nation_side:
            presence[fo.area].add(known.nation_side[fo.nation])
    for a, sides in presence.items():
        for side in sides:
            if control.get(a) != side and not (sides - {side}) and a in settled:
                out.append(f"units: {side} units stand in {a}, which is "
                           f"{control.get(a)} and holds no other side's units (4.1)")
    for (a, side), n in stack.items():
        if n > data.units.stacking_limit:
            out.append(f"units: {n} {side} units in {a}, the stacking limit is "
                       f"{data.units.stacking_limit} (1.2.2)")
    for fo in sc.forts:
        if fo.id in data.forts and fo.strength > 1 and fo.nation in known.nation_side and \
                fo.area in settled:
            side = known.nation_side[fo.nation]
            if control.get(fo.area) != side and not presence.get(fo.area, set()) - {side}:
                out.append(f"forts: {fo.id} stands in {fo.area}, which is {control.get(fo.area)} "
                           f"with no unit there (4.1)")
    for aid in sc.eliminated_armies:
        if aid in ids:
            out.append(f"eliminated_armies: {aid} is also set up")
    eft = data.boxes.get("eft")
    owners = (data.units.sides.get(eft.owner) or []) if eft else []
    if sc.eft_box and eft is None:
        out.append("eft_box: the game has no EFT box (map.yaml boxes)")
    for e in sc.eft_box:
        if e.nation or owners:
            in_play[(e.nation or owners[0], e.type)] += e.count
    for aid in sc.eliminated_armies:
        nat = aid.split("-")[0]
        in_play[(nat, "army")] += 1
    later: Counter = Counter()
    for t in data.events.turns:
        if t.turn >= start and not (t.turn == start and sc.position.phase != "reinforcements"):
            for r in t.reinforcements:
                later[(r.nation, r.type)] += r.count
    for (nat, kind), n in sorted(in_play.items()):
        have = known.mix(nat, kind)
        if kind not in known.kinds or nat in written or have is None and nat in known.nations:
            continue            # a name reported where it is written, or the mix in doubt
        have = have or 0
        if n > have:
            out.append(f"units: {n} {nat} {kind} set up, the counter mix has {have} (11.1)")
        elif n + later[(nat, kind)] > have and kind != "stosstruppen":
            out.append(f"units: {n} {nat} {kind} set up and {later[(nat, kind)]} still to "
                       f"arrive, the counter mix has {have} (11.1)")
    out.extend(_check_cards(data, sc, year))
    if sc.position.phase == "player_turn" and sc.position.player is None:
        out.append("position.player: say whose player turn it is")
    if sc.expected_start and set(sc.control) <= known.sides:
        out.extend(_check_expected_vp(data, sc, control, known))
    return out


def _army_unsure(data: GameData, known: _Known, nation: str, year: int | None) -> frozenset[str]:
    """The charts whose entry for an army's nation a misspelt name (or a start off the turn
    track) leaves in doubt: its template (1.4) and its artillery limit (8.3.2)."""
    c = data.charts
    unsure = set()
    if nation not in c.army_templates.capacity and known.unsure(c.army_templates.capacity,
                                                                known.nations):
        unsure.add("template")
    rows = c.artillery_per_army.by_year
    row = next((r for r in rows if r.get("year") == year), {})
    if year is None or not all(isinstance(r.get("year"), int) for r in rows) or \
            nation not in row and known.unsure(row, known.nations, ("year",)):
        unsure.add("artillery")
    return frozenset(unsure)


def _check_scenario_names(data: GameData, sc: Scenario) -> list[str]:
    """Every side, nation and unit kind a scenario names is one the game declares (units.yaml)."""
    out: list[str] = []
    known = _Names(data, out)
    for side in sc.control:
        known("side", side, f"control.{side}")
    for key, side in (("first_player", sc.first_player), ("position.player", sc.position.player)):
        if side is not None:
            known("side", side, key)
    for side in sc.cards.draw_order or ():
        known("side", side, "cards.draw_order")
    for side in sc.cards.hand:
        known("side", side, f"cards.hand.{side}")
    for side in sc.cards.hands or {}:
        known("side", side, f"cards.hands.{side}")
    for i, e in enumerate(sc.eft_box):
        known("unit kind", e.type, f"eft_box[{i}].type")
        if e.nation is not None:
            known("nation", e.nation, f"eft_box[{i}].nation")
    for i, fo in enumerate(sc.forts):
        known("nation", fo.nation, f"forts[{i}]({fo.id}).nation")
    for i, u in enumerate(sc.units):
        loc = f"units[{i}]({u.id})"
        known("nation", u.nation, f"{loc}.nation")
        known("unit kind", u.type, f"{loc}.type")
        for j, e in enumerate(u.contents):
            known("unit kind", e.type, f"{loc}.contents[{j}].type")
            if e.nation is not None:
                known("nation", e.nation, f"{loc}.contents[{j}].nation")
    return out


def _first_turn_of(data: GameData, year: int) -> int:
    return min(t.turn for t in data.charts.turn_track.turns if t.year == year)


def _check_cards(data: GameData, sc: Scenario, year: int | None) -> list[str]:
    out: list[str] = []
    cards = sc.cards
    limits = data._card_limits.get(year, {})      # a row without its year: _check_charts
    named: Counter[str] = Counter()
    if cards.hands is not None:
        for side, hand in cards.hands.items():
            named.update(hand)
            if side in limits and len(hand) > limits[side]:
                out.append(f"cards.hands.{side}: {len(hand)} cards, the {year} card limit is "
                           f"{limits[side]} (7.1)")
    else:
        for side, n in cards.hand.items():
            if side in limits and n > limits[side]:
                out.append(f"cards.hand.{side}: {n} cards, the {year} card limit is "
                           f"{limits[side]} (7.1)")
        if sum(cards.hand.values()) > data.deck.total:
            out.append("cards.hand: more cards dealt than the deck holds")
    for name, lst in (("draw_pile", cards.draw_pile or []), ("discard", cards.discard),
                      ("removed", cards.removed)):
        named.update(lst)
        for c in lst:
            if c not in data.cards:
                out.append(f"cards.{name}: unknown card id {c!r}")
    if cards.hands:
        for side, hand in cards.hands.items():
            for c in hand:
                if c not in data.cards:
                    out.append(f"cards.hands.{side}: unknown card id {c!r}")
    for c, n in named.items():
        if n > 1:
            out.append(f"cards: card {c!r} is named {n} times")
    return out


def _check_expected_vp(data: GameData, sc: Scenario, control: dict[str, str],
                       known: _Known) -> list[str]:
    exp = sc.expected_start or {}
    side = data.charts.victory.counts_for or (known.order or ("",))[0]    # GameData.vp_side
    vp = sum(data.areas[a].vp for a, s in control.items() if s == side and a in data.areas)
    out = []
    if "area_vp" in exp and exp["area_vp"] != vp and side in known.sides:
        out.append(f"expected_start.area_vp: the {data.side_name(side)}-Friendly areas "
                   f"are worth {vp}, "
                   f"not {exp['area_vp']} (3.1)")
    return out
