"""The cross-file checks of a game data directory: its map, units, charts, deck and events
against each other and against what the engine knows (datacheck.py says how they report)."""

from __future__ import annotations

from collections import Counter, deque

from .datacheck import Known, first_turn_of, placements, turn_label, turn_years
from .gamedata import GameData
from .mapmodels import Area
from .namecheck import check_names
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
    what depends on a name the game does not declare (reported once, by check_names)."""
    return [*check_names(data), *_check_map(data), *_check_units(data), *_check_charts(data),
            *_check_deck(data), *_check_events(data)]


def _check_map(data: GameData) -> list[str]:
    """The map: its areas and their links, one land mass, supply sources and forts."""
    return [*_check_areas(data), *_check_land_connected(data), *_check_map_forts(data)]


def _check_areas(data: GameData) -> list[str]:
    """Area ids are unique, each area's links hold, impassable regions touch known areas, and
    sea movement starts in a known area (4.6)."""
    out: list[str] = []
    f = data.info.files.map
    seen: set[str] = set()
    for i, a in enumerate(data.map.areas):
        if a.id in seen:
            out.append(f"{f}: areas[{i}]({a.id}): duplicate area id")
        seen.add(a.id)
    for a in data.map.areas:
        out.extend(_check_area(data, a, f"{f}: areas.{a.id}"))
    for r in data.map.impassable:
        for t in r.touches:
            if t not in data.areas:
                out.append(f"{f}: impassable.{r.id}.touches: unknown area id {t!r}")
    if data.sea_home is not None and data.sea_home not in data.areas:
        out.append(f"game.yaml: movement.sea.home: unknown area id {data.sea_home!r} (4.6)")
    return out


def _check_area(data: GameData, a: Area, where: str) -> list[str]:
    """One area's neighbours (each known, once, and listing it back), its borders, and what
    makes it a sea-movement box (4.6)."""
    out: list[str] = []
    if len(a.neighbours) != len(set(a.neighbours)):
        out.append(f"{where}.neighbours: a neighbour is listed twice")
    for n in a.neighbours:
        if n == a.id:
            out.append(f"{where}.neighbours: lists itself")
        elif n not in data.areas:
            hint = " (an impassable region: list it under borders)" if n in data.impassable \
                else ""
            out.append(f"{where}.neighbours: unknown area id {n!r}{hint}")
        elif a.id not in data.areas[n].neighbours:
            out.append(f"{where}.neighbours: adjacency not symmetric: {a.id} lists {n} "
                       f"but {n} does not list {a.id}")
    for b in a.borders:
        if b not in data.impassable:
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
    return out


def _check_land_connected(data: GameData) -> list[str]:
    """Every front area can be reached from every other over land."""
    front = [a.id for a in data.map.areas if a.kind == "front"]
    if not front:
        return []
    reached = {front[0]}
    todo = deque([front[0]])
    while todo:
        for n in data.areas[todo.popleft()].neighbours:
            if n in data.areas and n not in reached:
                reached.add(n)
                todo.append(n)
    cut = sorted(set(front) - reached)
    if cut:
        return [f"{data.info.files.map}: areas: the land map is not connected; cut off: "
                f"{', '.join(cut)}"]
    return []


def _check_map_forts(data: GameData) -> list[str]:
    """Each side has a supply source (6.1); forts have a printed strength a counter can have,
    ids used once, and no more per nation than the counter mix (8.4, 11.1)."""
    out: list[str] = []
    f = data.info.files.map
    known = Known(data)
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
    """Sides and nations agree, the counter mix holds counts, the named Commonwealth units and
    the dated counters match it (8.2.3, 8.3.4), and rebuild and evacuation areas are known."""
    out: list[str] = []
    f = data.info.files.units
    u = data.units
    known = Known(data)
    for side, nats in u.sides.items():
        for nat in nats:         # an unknown nation or side: reported by check_names
            if nat in u.nations and u.nations[nat].side in u.sides and \
                    u.nations[nat].side != side:
                out.append(f"{f}: nations.{nat}.side is {u.nations[nat].side}, sides lists it "
                           f"under {side}")
    for nat, row in u.mix.items():
        if nat not in u.nations:        # reported by check_names, as an unknown kind is
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
    """The turn track and the charts by turn and year cover the game (2.0 VI, 7.0), the
    victory levels follow each other, and each nation with armies has a template (1.4)."""
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
    years = turn_years(data)
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
    known = Known(data)
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
    """The deck's totals, each card's ids and fields, and the cards the referee needs (9.x)."""
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
    placed = placements(data)       # any other is reported by check_names
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
    """What events.yaml repeats agrees with its source; every turn has its events, whose
    reinforcements the counter mix has, placed where their rules say (4.6, 7.3), armies
    arriving once, swaps of known units (8.2.3); and the build dates (7.6)."""
    out: list[str] = _check_duplicates(data)
    f = data.info.files.events
    known = Known(data)
    placed = placements(data)       # any other is reported by check_names
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
    known = Known(data)
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
                first = first_turn_of(data, since) if since in turn_years(data) else 1
                years = data.units.biplane_counter_years.get(nat, [])
                if years and min(years) in turn_years(data):
                    first = max(first, first_turn_of(data, min(years)))
                if when.from_turn < first:
                    out.append(f"{loc}: turn {when.from_turn} is before {turn_label(data, first)}: "
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
