"""The cross-file checks of a game data directory: its map, units, charts, deck and events
against each other and against what the engine knows (datacheck.py says how they report)."""

from __future__ import annotations

from collections import Counter, deque

from ..contracts.deckmodels import CardType
from ..contracts.eventmodels import Reinforcement
from ..contracts.mapmodels import Area
from ..contracts.unitmodels import FIRE_KEYS, UnitType
from .colourcheck import check_colours
from .datacheck import Known, first_turn_of, placements, turn_label, turn_years
from .gamedata import GameData
from .namecheck import check_names
from .problems import At, Nth, named, turn_at

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
            *_check_deck(data), *_check_events(data), *check_colours(data)]


def _check_map(data: GameData) -> list[str]:
    """The map: its areas and their links, one land mass, supply sources and forts."""
    return [*_check_areas(data), *_check_land_connected(data), *_check_map_forts(data)]


def _check_areas(data: GameData) -> list[str]:
    """Area ids are unique, each area's links hold, impassable regions touch known areas, and
    sea movement starts in a known area (4.6)."""
    out: list[str] = []
    f = At(data.info.files.map)
    seen: set[str] = set()
    for i, a in enumerate(data.map.areas):
        if a.id in seen:
            out.append(f.at("areas", named(i, a.id)).says("duplicate area id"))
        seen.add(a.id)
    for a in data.map.areas:
        out.extend(_check_area(data, a, f.at("areas", a.id)))
    for r in data.map.impassable:
        for t in r.touches:
            if t not in data.areas:
                out.append(f.at("impassable", r.id, "touches").says(f"unknown area id {t!r}", t))
    if data.sea_home is not None and data.sea_home not in data.areas:
        out.append(At("game.yaml", ("movement", "sea", "home")).says(
            f"unknown area id {data.sea_home!r} (4.6)"))
    return out


def _check_area(data: GameData, a: Area, where: At) -> list[str]:
    """One area's neighbours (each known, once, and listing it back), its borders, and what
    makes it a sea-movement box (4.6)."""
    out: list[str] = []
    neighbours = where.at("neighbours")
    twice = [i for i, n in enumerate(a.neighbours) if n in a.neighbours[:i]]
    if twice:
        out.append(neighbours.says("a neighbour is listed twice", Nth(twice[0], "")))
    for n in a.neighbours:
        if n == a.id:
            out.append(neighbours.says("lists itself", n))
        elif n not in data.areas:
            hint = " (an impassable region: list it under borders)" if n in data.impassable \
                else ""
            out.append(neighbours.says(f"unknown area id {n!r}{hint}", n))
        elif a.id not in data.areas[n].neighbours:
            out.append(neighbours.says(f"adjacency not symmetric: {a.id} lists {n} "
                                       f"but {n} does not list {a.id}", n))
    for b in a.borders:
        if b not in data.impassable:
            out.append(where.at("borders").says(f"unknown impassable region {b!r}", b))
    if a.kind == "sea_only" and a.neighbours:
        out.append(where.says("a sea-movement box has no land neighbours (4.6)"))
    if a.enemy_may_enter != (a.kind != "sea_only"):
        # The engine keeps a side's units out of an area only as a sea-movement box that
        # only the sea nations stand in (4.6): the flag must say so, and nothing else.
        why = "a sea-movement box is closed to the enemy" if a.kind == "sea_only" else \
            "only a sea-movement box (kind sea_only) is closed to the enemy"
        out.append(where.at("enemy_may_enter").says(
            f"{str(a.enemy_may_enter).lower()}, but {why} (4.6)"))
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
        return [At(data.info.files.map, ("areas",)).says(
            f"the land map is not connected; cut off: {', '.join(cut)}", cut[0])]
    return []


def _check_map_forts(data: GameData) -> list[str]:
    """Each side has a supply source (6.1); forts have a printed strength a counter can have,
    ids used once, and no more per nation than the counter mix (8.4, 11.1)."""
    out: list[str] = []
    f = At(data.info.files.map)
    known = Known(data)
    for side in known.order:
        if not any(a.supply_source == side for a in data.map.areas):
            out.append(f.at("areas").says(f"no {side} supply source (6.1)"))
    fort_ids: Counter[str] = Counter()
    per_nation: Counter[str] = Counter()
    last_id: dict[str, At] = {}         # the fort of an id, of a nation, seen last
    last_of: dict[str, At] = {}
    for a in data.map.areas:
        if a.fort:
            fort_ids[a.fort.id] += 1
            per_nation[a.fort.nation] += 1
            last_id[a.fort.id] = last_of[a.fort.nation] = f.at("areas", a.id, "fort")
            if a.fort.strength > 4 and a.fort.name not in ("Paris", "Nancy"):
                out.append(f.at("areas", a.id, "fort").says(
                    "only the Paris and Nancy counters are double-sided, so other forts are "
                    "4 or less (8.4)"))
    for fid, n in fort_ids.items():
        if n > 1:
            out.append(last_id[fid].at("id").says(f"fort id {fid!r} used {n} times"))
    for nat, n in per_nation.items():
        want = known.mix(nat, "fort")
        if want is not None and n > want:
            out.append(last_of[nat].at("nation").says(f"{n} {nat} forts on the map, the counter "
                                                   f"mix has {want} (11.1)"))
    return out


def _check_units(data: GameData) -> list[str]:
    """Sides and nations agree, the counter mix holds counts, the named Commonwealth units and
    the dated counters match it (8.2.3, 8.3.4), and rebuild and evacuation areas are known."""
    out: list[str] = []
    f = At(data.info.files.units)
    u = data.units
    known = Known(data)
    for side, nats in u.sides.items():
        for nat in nats:         # an unknown nation or side: reported by check_names
            if nat in u.nations and u.nations[nat].side in u.sides and \
                    u.nations[nat].side != side:
                out.append(f.at("nations", nat, "side").says(
                    f"{u.nations[nat].side}, but sides lists {nat} under {side}"))
    for nat, row in u.mix.items():
        if nat not in u.nations:        # reported by check_names, as an unknown kind is
            continue
        for kind, n in row.items():
            if kind in u.unit_types and (not isinstance(n, int) or n < 0):
                out.append(f.at("counter_mix", nat, kind).says("must be a whole number >= 0"))
    cw = known.mix(data.commonwealth_nation, "commonwealth") \
        if data.commonwealth_nation is not None else 0
    if cw is not None and len(u.commonwealth_units) != cw:
        out.append(f.at("commonwealth_units").says(f"{len(u.commonwealth_units)} named, "
                                                   f"counter mix has {cw} (8.2.3)"))
    dated = u.dated_kind
    dating = [k for k, t in u.unit_types.items() if t.counter_years_from is not None]
    if len(dating) > 1:
        out.append(f.at("unit_types", dating[1], "counter_years_from").says(
            "only one type may have counter_years_from (8.3.4)"))
    if u.biplane_counter_years and dated is None:
        out.append(f.at("biplane_counter_years").says("no unit type has counter_years_from "
                                                      "(8.3.4)"))
    for nat, years in u.biplane_counter_years.items() if dated else ():
        want = known.mix(nat, dated)
        if want is not None and len(years) != want:
            out.append(f.at("biplane_counter_years", nat).says(
                f"{len(years)} years for {want} counters (8.3.4)"))
        since = u.unit_types[dated].counter_years_from
        early = [y for y in years if y < since]
        if early:
            out.append(f.at("biplane_counter_years", nat).says(
                f"no {dated.replace('_', ' ').title()} before {since} (8.3.4)", early[0]))
    for nat, nation in u.nations.items():
        if nation.rebuild_area and nation.rebuild_area not in data.areas:
            out.append(f.at("nations", nat, "rebuild_area").says(
                f"unknown area id {nation.rebuild_area!r}"))
        if nation.evacuation_area and nation.evacuation_area not in data.areas:
            out.append(f.at("nations", nat, "evacuation_area").says(
                f"unknown area id {nation.evacuation_area!r} (14.2.4)"))
    return out + _check_unit_types(data)


def _check_unit_types(data: GameData) -> list[str]:
    """What each unit type says it does is something the engine knows (5.2.1, 8.x)."""
    out: list[str] = []
    f = At(data.info.files.units)
    u = data.units
    for i, kind in enumerate(u.roll_order):
        if kind not in u.unit_types:
            out.append(f.at("roll_order", i).says(f"unknown unit type {kind!r}"))
    twice = [i for i, k in enumerate(u.roll_order) if k in u.roll_order[:i]]
    if twice:
        out.append(f.at("roll_order").says("a unit type is listed twice", Nth(twice[0], "")))
    for kind, t in u.unit_types.items():
        out.extend(_check_unit_type(data, kind, t, f.at("unit_types", kind)))
    for nat, row in u.mix.items():
        for kind, n in row.items():
            t = u.unit_types.get(kind)
            if n and t is not None and t.nations and nat not in t.nations and \
                    nat in u.nations and all(x in u.nations for x in t.nations):
                out.append(f.at("counter_mix", nat, kind).says(
                    f"unit_types.{kind}.nations does not list {nat}"))
    chart = data.charts.artillery_per_army.unit_type
    if chart not in u.unit_types:
        out.append(At(data.info.files.charts, ("artillery_per_army", "unit_type")).says(
            f"unknown unit type {chart!r}"))
    return out


def _check_unit_type(data: GameData, kind: str, t: UnitType, where: At) -> list[str]:
    """One unit type: its materiel superiority, firepower keys, code and what a unit on a
    template may do (1.4, 5.2.1, 7.2, 8.3.4)."""
    out: list[str] = []
    u = data.units
    fires = [(("fire",), t.fire or {})]
    if t.materiel_superiority:
        ms = t.materiel_superiority
        fires.append((("materiel_superiority", "fire"), ms.fire))
        if ms.option not in data.info.options:
            out.append(where.at("materiel_superiority", "option").says(
                f"unknown option {ms.option!r} (game.yaml options)"))
        for nat in ms.nations:
            if nat not in u.nations:
                out.append(where.at("materiel_superiority", "nations").says(
                    f"unknown nation {nat!r}", nat))
    for path, fire in fires:
        for key in fire:
            if key not in FIRE_KEYS:
                out.append(where.at(*path, key).key(f"unknown firepower key (one of "
                                                    f"{', '.join(FIRE_KEYS)})"))
    an = "n" if t.class_ == "army" else ""
    if t.class_ in ("army", "fort") and (t.aircraft or t.fires_in_artillery_step
                                          or t.alone_lost_to or t.max_per_army):
        out.append(where.says(f"a{an} {t.class_} is not a unit on a template (1.4)"))
    if t.aircraft and "dogfight" not in (t.fire or {}):
        out.append(where.at("fire").says("an aircraft needs a dogfight firepower (8.3.4)"))
    if t.class_ in ("infantry", "auxiliary") and t.cost_bp is None:
        out.append(where.at("cost_bp").says("a unit built or rebuilt needs a cost (7.2)"))
    if t.class_ in ("infantry", "auxiliary") and not t.code:
        out.append(where.at("code").says("a unit on a template needs a code (its letter)"))
    elif t.code and [k for k, x in u.unit_types.items() if x.code == t.code][0] != kind:
        out.append(where.at("code").says(f"{t.code!r} is already another unit type's code"))
    if t.class_ in ("army", "fort") and t.code:
        out.append(where.at("code").says(f"a{an} {t.class_} has no letter in army contents "
                                         f"(1.4)"))
    return out


def _check_charts(data: GameData) -> list[str]:
    """The turn track and the charts by turn and year cover the game (2.0 VI, 7.0), the
    victory levels follow each other, and each nation with armies has a template (1.4)."""
    out: list[str] = []
    f = At(data.info.files.charts)
    c = data.charts
    turns = c.turn_track.turns
    if [t.turn for t in turns] != list(range(1, 24)):
        out.append(f.at("turn_track", "turns").says("must list turns 1 to 23 in order "
                                                    "(2.0 VI)"))
    for i, t in enumerate(turns):
        if t.season != SEASON_CYCLE[i % 4]:
            out.append(f.at("turn_track", "turns", i, "season").says(
                f"season {t.season}, expected {SEASON_CYCLE[i % 4]} (2.0 VI)"))
    if sorted(b.get("turn") for b in c.build_points.turns if isinstance(b.get("turn"), int)) \
            != list(range(1, 24)):
        out.append(f.at("build_points", "turns").says("must list turns 1 to 23 once each "
                                                      "(7.0)"))
    years = turn_years(data)
    for name, chart in (("card_limit", c.card_limit.by_year),
                        ("total_blockade", c.total_blockade.by_year),
                        ("artillery_per_army", c.artillery_per_army.by_year)):
        have = {row.get("year") if isinstance(row, dict) else row.year for row in chart}
        if not years <= have:
            out.append(f.at(name, "by_year").says(f"years {sorted(years - have)} missing"))
    out.extend(_check_victory_levels(data, f.at("victory")))
    known = Known(data)
    unsure = known.unsure(c.army_templates.capacity, known.nations)   # a misspelt nation
    for nat in data.units.nations:
        if known.mix(nat, "army") and nat not in c.army_templates.capacity and not unsure:
            out.append(f.at("army_templates", "capacity").says(f"{nat} has armies but no "
                                                               f"template (1.4)"))
    return out


def _check_victory_levels(data: GameData, f: At) -> list[str]:
    """The victory levels follow each other, open at both ends, and the game ends on known
    ones (3.1)."""
    out: list[str] = []
    levels = data.charts.victory.levels
    prev = None
    for i, lv in enumerate(levels):
        if i == 0 and lv.min is not None:
            out.append(f.at("levels", 0, "min").says("the first level must be open below "
                                                     "(no min)"))
        if i == len(levels) - 1 and lv.max is not None:
            out.append(f.at("levels", i, "max").says("the last level must be open above "
                                                     "(no max)"))
        level = f.at("levels", named(i, lv.id))
        if prev is not None and lv.min != prev + 1:
            out.append(level.at("min").says(f"should start at {prev + 1}"))
        if lv.min is not None and lv.max is not None and lv.min > lv.max:
            out.append(level.at("min").says("min is above max"))
        prev = lv.max
    ids = {lv.id for lv in levels}
    for g in data.charts.victory.game_ends_on:
        if g not in ids:
            out.append(f.at("game_ends_on").says(f"unknown level {g!r}", g))
    return out


def _check_card_fields(data: GameData, c: CardType, where: At) -> list[str]:
    """A card's special dice, stand-ins, combat-card links and crisis fields (9.1-9.9)."""
    out: list[str] = []
    keys = data.card_types
    b = c.bonus
    if b is not None:
        bonus = where.at("bonus")
        if not c.offensive:
            out.append(bonus.says("only an Offensive-type card adds dice (9.1.3-9.1.6)"))
        if b.army_nation not in data.nation_side:
            out.append(bonus.at("army_nation").says(f"unknown nation {b.army_nation!r}"))
        if b.fires_as not in data.units.unit_types:
            out.append(bonus.at("fires_as").says(f"unknown unit kind {b.fires_as!r}"))
        if not b.phases:
            out.append(bonus.at("phases").says("name at least one fire phase (9.1.3-9.1.6)"))
    for name in ("other_side_plays_as", "before_that"):
        v = getattr(c, name)
        if v is not None and (v not in keys or not keys[v].offensive):
            out.append(where.at(name).says(f"{v!r} is not an Offensive-type card key (9.1)"))
    if c.from_turn is not None and c.offensive and c.before_that is None and c.bonus:
        out.append(where.says("before_that missing: what it counts as before from_turn (9.1)"))
    for name in ("not_with", "cancelled_by"):
        for v in getattr(c, name):
            if v not in keys:
                out.append(where.at(name).says(f"unknown card key {v!r}", v))
    if c.type == "crisis":
        if c.unpaid_vp is None:
            out.append(where.says("unpaid_vp missing: the VP of a crisis not answered (3.1)"))
        for j, e in enumerate(c.crises):
            if not e.remove.get("kinds") and not c.unit_kinds:
                out.append(where.at("crises", j).says("no kinds and no unit_kinds to remove "
                                                      "(9.8)"))
    for k in c.unit_kinds:
        if k not in data.units.unit_types:
            out.append(where.at("unit_kinds").says(f"unknown unit kind {k!r}", k))
    return out


def _check_deck(data: GameData) -> list[str]:
    """The deck's totals, each card's ids and fields, and the cards the referee needs (9.x)."""
    out: list[str] = []
    f = At(data.info.files.deck)
    d = data.deck
    total = sum(c.count for c in d.cards)
    if total != d.total:
        out.append(f.at("total").says(f"counts add up to {total}, total says {d.total} "
                                      f"(9.0)"))
    off = sum(c.count for c in d.cards if c.offensive)
    if off != d.offensive_type_total:
        out.append(f.at("offensive_type_total").says(
            f"{off} Offensive-type cards, offensive_type_total says {d.offensive_type_total} "
            f"(9.1)"))
    seen: set[str] = set()
    for c in d.cards:
        card = f.at("cards", c.key)
        if len(c.ids) != c.count:
            out.append(card.at("ids").says(f"{len(c.ids)} ids for count {c.count}"))
        for j, i in enumerate(c.ids):
            if i in seen:
                out.append(card.at("ids").says(f"card id {i!r} used twice", Nth(j, "")))
            seen.add(i)
        out.extend(_check_card_fields(data, c, card))
        # An Ersatz card is its fields alone (9.2): any key will do for one.
        if c.key not in KNOWN_CARD_KEYS and c.bonus is None and c.type not in ("crisis",
                                                                            "ersatz"):
            out.append(card.at("key").says(f"the referee knows no card of this key "
                                           f"({', '.join(sorted(KNOWN_CARD_KEYS))})"))
    # A deck may leave out a card the referee knows (AT ALL COSTS! has no UK or French
    # special offensive), not the two every card falls back to (9.1, 9.5) nor one it names.
    needed = {"offensive", "limited_offensive"}
    for c in d.cards:
        needed |= {k for k in (c.bad_weather, c.before_that, c.other_side_plays_as,
                               *c.not_with, *c.cancelled_by) if k in KNOWN_CARD_KEYS}
    for k in sorted(needed - set(data.card_types)):
        out.append(f.at("cards").says(f"card {k!r} missing (9.x)"))
    return out


def _check_duplicates(data: GameData) -> list[str]:
    """Values events.yaml repeats from elsewhere agree with them: the card dates of
    `availability.cards` with the deck (9.1, 9.4, 9.5), the placement codes with the
    reinforcements (2.0 I, 4.6, 7.3), `stosstruppen_1918` with the 1918 Stoßtruppen
    reinforcements (8.2.2) and `commonwealth_swaps` with the turns' swaps (8.2.3)."""
    out: list[str] = []
    f = At(data.info.files.events)
    ev = data.events
    cards = ev.availability.get("cards") if isinstance(ev.availability, dict) else None
    for key, value in (cards or {}).items():
        ct = data.card_types.get(key)
        where = f.at("availability", "cards", key)
        if key == "bad_weather_not_on_turns":
            ct = data.card_types.get("bad_weather")
            if ct is not None and list(value or []) != ct.not_on_turns:
                out.append(where.says(f"{value}, the deck says {ct.not_on_turns} (9.5)"))
        elif ct is None:
            out.append(where.key("no such card in the deck"))
        elif ct.from_turn != value:
            out.append(where.says(f"turn {value}, the deck says {ct.from_turn} ({ct.rule})"))
    placed = placements(data)       # any other is reported by check_names
    first: dict[str, At] = {}       # where each placement is first written
    for i, t in enumerate(ev.turns):
        for j, r in enumerate(t.reinforcements):
            if r.placement in placed and (r.placement not in data.areas
                                          or r.placement in ev.placement_codes):
                first.setdefault(r.placement, turn_at(f, i, t.turn).at(
                    "reinforcements", j, "placement"))
    if ev.placement_codes:
        for code in sorted(set(first) - set(ev.placement_codes)):
            out.append(first[code].says(f"placement {code!r} is not one of placement_codes"))
        for code in sorted(set(ev.placement_codes) - set(first) - set(data.areas)):
            out.append(f.at("placement_codes", code).key("no reinforcement is placed so"))
    return out + _check_repeated_counts(data, f)


def _check_repeated_counts(data: GameData, f: At) -> list[str]:
    """`stosstruppen_1918` agrees with the 1918 Stoßtruppen reinforcements (8.2.2) and
    `commonwealth_swaps` with the turns' swaps (8.2.3)."""
    out: list[str] = []
    ev = data.events
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
            out.append(f.at("stosstruppen_1918", "schedule").says(
                f"{dict(sched)}, the turns' reinforcements say {dict(came)} (8.2.2)"))
        if ev.stosstruppen_1918.get("total") != sum(came.values()):
            out.append(f.at("stosstruppen_1918", "total").says(
                f"{ev.stosstruppen_1918.get('total')}, the turns' reinforcements add up to "
                f"{sum(came.values())} (8.2.2)"))
    listed = ev.commonwealth_swaps.get("swaps") if ev.commonwealth_swaps else None
    if isinstance(listed, list):
        want = sorted((x.get("turn"), x.get("unit")) for x in listed if isinstance(x, dict))
        have = sorted((t.turn, s.unit) for t in ev.turns for s in t.swaps)
        if want != have:
            out.append(f.at("commonwealth_swaps", "swaps").says(
                f"{want}, the turns' swaps say {have} (8.2.3)"))
    return out


def _check_events(data: GameData) -> list[str]:
    """What events.yaml repeats agrees with its source; every turn has its events, whose
    reinforcements the counter mix has, placed where their rules say (4.6, 7.3), armies
    arriving once, swaps of known units (8.2.3); and the build dates (7.6)."""
    out: list[str] = _check_duplicates(data)
    f = At(data.info.files.events)
    known = Known(data)
    if sorted(t.turn for t in data.events.turns) != list(range(1, 24)):
        out.append(f.at("turns").says("must list turns 1 to 23 once each (2.0 I)"))
    arrived: dict[str, list[At]] = {}           # an army's id -> where it arrives
    for i, t in enumerate(data.events.turns):
        where = turn_at(f, i, t.turn)
        if t.turn in data.turns and t.label != data.label(t.turn):
            out.append(where.at("label").says(f"label {t.label!r}, turn track says "
                                              f"{data.label(t.turn)!r}"))
        for j, r in enumerate(t.reinforcements):
            out.extend(_check_reinforcement(data, known, r, where.at("reinforcements", j),
                                            arrived))
        for k, sw in enumerate(t.swaps):
            if sw.unit not in {c.id for c in data.units.commonwealth_units}:
                out.append(where.at("swaps", k, "unit").says(f"unknown Commonwealth unit "
                                                             f"{sw.unit!r}"))
    for aid, places in arrived.items():
        if len(places) > 1:
            out.append(places[1].says(f"army {aid} arrives {len(places)} times"))
    out.extend(_check_build_dates(data))
    return out


def _check_reinforcement(data: GameData, known: Known, r: Reinforcement, loc: At,
                         arrived: dict[str, list[At]]) -> list[str]:
    """One reinforcement: counters its nation has (11.1), an army once and by its id, placed
    where its rules say (4.6, a nation's reinforcements_in); an army's arrival is noted in
    arrived."""
    out: list[str] = []
    if r.type in known.kinds and known.mix(r.nation, r.type) == 0:
        out.append(loc.at("type").says(f"{r.nation} has no {r.type} counters (11.1)"))
    if r.type == "army":
        if not r.id:
            out.append(loc.says("an arriving army needs an id"))
        elif r.count != 1:
            out.append(loc.at("count").says("list arriving armies one by one"))
        else:
            arrived.setdefault(r.id, []).append(loc.at("id"))
        if r.nation in data.sea_nations and r.placement != data.sea_home and \
                data.sea_home in data.areas:
            out.append(loc.at("placement").says(f"{r.nation.upper()} reinforcement armies "
                                                f"appear in {data.areas[data.sea_home].name} "
                                                f"(4.6)"))
    nat = data.units.nations.get(r.nation)
    if nat and nat.reinforcements_in in known.countries and \
            r.placement != nat.reinforcements_in and r.placement in placements(data):
        out.append(loc.at("placement").says(f"{r.nation.upper()} units arrive in "
                                            f"{nat.reinforcements_in.title()} "
                                            f"(units.yaml reinforcements_in)"))
    return out


def _check_build_dates(data: GameData) -> list[str]:
    """Every counter a nation builds has a build date, and each date is possible (7.6, 8.x)."""
    out: list[str] = []
    f = At(data.info.files.events, ("build_dates",))
    bd = data.events.build_dates
    last = max(data.turns) if data.turns else 0
    known = Known(data)
    for nat, row in data.units.mix.items():
        # A nation or kind misspelt in build_dates: that one is reported, not its absence.
        unsure = known.unsure(bd.units, known.nations) if nat not in bd.units else \
            known.unsure(bd.units[nat], known.kinds)
        for kind, n in row.items():
            if n and kind not in ("army", "fort") and kind in data.units.unit_types and \
                    nat in known.nations and not unsure and data.build_date(nat, kind) is None:
                out.append(f.at("units", nat).says(f"no build date for {nat} {kind} (7.6)"))
    for nat, row in bd.units.items():
        for kind, when in row.items():
            loc = f.at("units", nat, kind)
            if kind in ("army", "fort"):
                out.append(loc.key(f"{kind}s are never built (armies are rebuilt, 7.3; forts "
                                   f"never, 8.4)"))
            elif kind in known.kinds and known.mix(nat, kind) == 0:
                out.append(loc.key(f"{nat} has no {kind} counters (11.1)"))
            if when.from_turn > last:
                out.append(loc.at("from_turn").says(f"turn {when.from_turn} is not on the turn "
                                                    f"track (2.0 VI)"))
                continue
            out.extend(_check_build_turn(data, known, nat, kind, when.from_turn,
                                         loc.at("from_turn")))
    for kind, when in bd.upgrades.items():
        loc = f.at("upgrades", kind)
        if kind != "stosstruppen" and kind in known.kinds:
            out.append(loc.key("only Infantry is upgraded, to Stoßtruppen (7.5)"))
        elif when.from_turn > last:
            out.append(loc.at("from_turn").says(f"turn {when.from_turn} is not on the turn "
                                                f"track (2.0 VI)"))
    return out


def _check_build_turn(data: GameData, known: Known, nat: str, kind: str, turn: int,
                      loc: At) -> list[str]:
    """A build date on the turn track is not before the counters exist: a dated counter's
    year (8.3.4), a Commonwealth unit's first swap (8.2.3)."""
    out: list[str] = []
    if kind == data.units.dated_kind:
        since = data.units.unit_types[kind].counter_years_from
        first = first_turn_of(data, since) if since in turn_years(data) else 1
        years = data.units.biplane_counter_years.get(nat, [])
        if years and min(years) in turn_years(data):
            first = max(first, first_turn_of(data, min(years)))
        if turn < first:
            out.append(loc.says(f"turn {turn} is before {turn_label(data, first)}: no "
                                f"{kind.replace('_', ' ').title()} before {since} nor before "
                                f"the year on its counters (8.3.4)"))
    swapped = {s.nation for t in data.events.turns for s in t.swaps}
    if data.units.has(kind, "rebuilt_only_after_swap") and swapped <= known.nations:
        swaps = [t.turn for t in data.events.turns for s in t.swaps if s.nation == nat]
        if swaps and turn < min(swaps):
            out.append(loc.says(f"turn {turn} is before the first swap (turn {min(swaps)}): "
                                f"Commonwealth units are only rebuilt (8.2.3)"))
    return out
