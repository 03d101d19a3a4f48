"""What a production order costs and the rules it is checked against (7.0-7.6, 8.1).

A side's production plan is sealed until both sides are done (production.py):
each order is checked against the plan so far, after the plan's moves into and
out of armies (8.1), and against the Build Points it leaves.
"""

from __future__ import annotations

import re
from collections import Counter

import msgspec

from ..base.lazyre import LazyPattern
from ..base.plurals import a_or_an
from ..contracts.orders import Build, Buy, Entrench, Move, Ord, Rebuild, Upgrade
from ..data.gamedata import GameData
from . import sealed
from .armies import join_violation, template_violation
from .core import Ctx, Violation, and_list
from .movement import apply_reorganise, reorganise_violation
from .state import State, nation_of
from .supply import supplied_areas
from .unit_bp import build_cost


def plan(s: State, d: GameData, side: str) -> tuple[Ord, ...]:
    """The orders of side's sealed production plan so far (7.0)."""
    return sealed.parsed(s, d, ("plan", side), s.production["plans"][side])


def plan_cost(s: State, d: GameData, orders: list[Ord]) -> int:
    """The Build Points orders cost: cards, units, armies, upgrades; entrenchments by groups
    of the data's entrench_units per BP (7.1-7.6, charts.yaml build_points.costs)."""
    costs = d.charts.build_points.costs
    cost = 0
    entrench = 0
    for o in orders:
        if isinstance(o, Buy):
            cost += o.count * costs.card
        elif isinstance(o, Build):
            cost += build_cost(d, o.unit)
        elif isinstance(o, Rebuild):
            cost += d.units.cost("army")          # an empty army (7.3, 8.1)
        elif isinstance(o, Upgrade):
            cost += costs.upgrade
        elif isinstance(o, Entrench):
            entrench += len(o.units)
    return cost + -(-entrench // costs.entrench_units)


def order_costs(s: State, d: GameData, orders: list[Ord]) -> list[int]:
    """What each order adds to the cost of the plan before it (7.6): an entrenchment costs
    its BP when it starts a new group of entrench_units units, nothing within one (7.4)."""
    out: list[int] = []
    before = 0
    for i in range(len(orders)):
        now = plan_cost(s, d, orders[:i + 1])
        out.append(now - before)
        before = now
    return out


def cost_menu(s: State, d: GameData, side: str) -> list[tuple[str, str, int, str]]:
    """What each kind of production order costs side now, from the game data (7.6): (verb,
    what it buys, BP, rule); for 'entrench', what is bought is a number of units for the BP.
    Only the unit types side may build this turn are listed (7.2, 8.x dates)."""
    costs = d.charts.build_points.costs
    out = [("buy", "card", costs.card, "7.1")]
    for kind in d.units.unit_types:
        if kind in ("army", "fort") or d.units.unit_types[kind].cost_bp is None:
            continue
        if any(kind in d.units.mix.get(n, {}) and available(s, d, f"{n}:{kind}") is None
               for n in d.units.sides[side]):
            out.append(("build", kind, d.units.cost(kind), "7.2"))
    out.append(("rebuild", "army", d.units.cost("army"), "7.3"))
    out.append(("entrench", str(costs.entrench_units), 1, "7.4"))
    if may_upgrade(s, d, side):
        out.append(("upgrade", "infantry", costs.upgrade, "7.5"))
    return out


def may_upgrade(s: State, d: GameData, side: str) -> bool:
    """Whether side may upgrade infantry to Stoßtruppen this turn by the game's data alone
    (7.5: the Stoßtruppen nation's side, from its date), whatever units it holds."""
    when = d.events.build_dates.upgrades.get("stosstruppen")
    return d.stoss_nation is not None and d.nation_side[d.stoss_nation] == side and \
        when is not None and s.turn >= when.from_turn


def entrench_limit(s: State, d: GameData) -> int | None:
    """The most BP a side may spend on entrenchment this turn, if the data limits it (7.4)."""
    return d.events.availability.get("entrenchment_bp_limit", {}).get(f"turn_{s.turn}")


def left(s: State, d: GameData, side: str, extra: Ord | None = None) -> int:
    """BPs side has not yet committed (counting extra, an order being checked)."""
    orders = [*plan(s, d, side), *([extra] if extra else [])]
    return s.production["bp"][side] - plan_cost(s, d, orders)


def unpaid(s: State, d: GameData, side: str, o: Ord) -> Violation | None:
    """7.0: an order the Build Points side has left do not pay for (None when they do)."""
    have = left(s, d, side)
    cost = have - left(s, d, side, o)
    if cost <= have:
        return None
    return Violation("7.0", f"not enough Build Points: {have} left, this costs {cost}")


# A part of a data note naming a file, for whoever edits the data: "(units.yaml)".
_FILE_PART = LazyPattern(r"[\w./-]+\.(?:yaml|yml|json)")
_BRACKETS = LazyPattern(r" ?\(([^()]*)\)")


def unfiled(note: str) -> str:
    """A data note as a player reads it: without the files it names for the data's editor
    ('... printed on it (units.yaml)' -> '... printed on it'; '(units.yaml, reconstructed)'
    -> '(reconstructed)')."""
    def kept(m: re.Match) -> str:
        parts = [x for x in m[1].split(", ") if not _FILE_PART.fullmatch(x.strip())]
        return f" ({', '.join(parts)})" if parts else ""
    return _BRACKETS.sub(kept, note)


def available(s: State, d: GameData, unit: str) -> Violation | None:
    """Availability dates and counter limits of a unit to build (7.6, 8.x)."""
    nation, kind = unit.split(":")
    ut = d.units.unit_types.get(kind)
    if ut is None:
        side = d.nation_side[nation]
        return Violation("7.6", f"{kind} is not a unit type of this game; the "
                                f"{d.side_name(side)} player builds "
                                f"{and_list(buildable_kinds(d, side))}")
    if ut.class_ == "army":         # 7.6's empty army is the price of one rebuilt (8.1)
        return Violation("7.3", f"armies are not built: only an eliminated army comes back, "
                                f"empty, with 'rebuild ARMY AREA' (rules 7.3, {ut.rule})")
    if ut.class_ == "fort":
        return Violation(ut.rule, "forts are never built, nor rebuilt once destroyed")
    if nation not in ut.nations:
        return Violation("7.6", f"{nation.upper()} has no {kind.replace('_', ' ')} units")
    when = d.build_date(nation, kind)
    if when is None:
        return Violation("7.6", f"{nation.upper()} {kind.replace('_', ' ')} units are never "
                                f"built (no build date in the game data)")
    if s.turn < when.from_turn:
        why = ", ".join(x for x in (when.source if when.source != "core" else "",
                                    unfiled(when.note)) if x)
        return Violation(when.rule, f"{nation.upper()} {kind.replace('_', ' ')} units may be "
                                    f"built from {d.label(when.from_turn)}"
                                    f"{f' ({why})' if why else ''}; this is {d.label(s.turn)}")
    if kind == d.units.dated_kind:
        year = d.year(s.turn)
        usable = sum(1 for y in d.units.biplane_counter_years.get(nation, []) if y <= year)
        in_play = s.counters_in_play()[(nation, kind)]
        if in_play >= usable:
            return Violation("8.3.4", f"every {nation.upper()} {kind.replace('_', ' ').title()} "
                                      f"counter marked {year} or earlier is already in play")
    return None


def buildable_kinds(d: GameData, side: str) -> list[str]:
    """The unit types side's nations build with 'build', by the names an order gives them, in
    the order units.yaml lists them, whatever their dates (7.2, 7.6: their cost_bp)."""
    return [k for k, ut in d.units.unit_types.items()
            if ut.class_ not in ("army", "fort") and ut.cost_bp is not None and
            any(n in ut.nations and k in d.units.mix.get(n, {}) and
                d.build_date(n, k) is not None for n in d.units.sides[side])]


def _commonwealth_violation(s: State, d: GameData, orders: list[Ord],
                            unit: str = "uk:commonwealth") -> Violation | None:
    """8.2.3: only a Commonwealth unit once swapped into play, and gone since, is rebuilt
    (a unit type with rebuilt_only_after_swap in units.yaml)."""
    planned = sum(1 for x in orders if isinstance(x, Build) and x.unit == unit)
    if s.counters_in_play()[tuple(unit.split(":"))] + planned >= len(s.swapped):
        nation, kind = unit.split(":")
        when = [d.label(t.turn) for t in d.events.turns
                if any(sw.nation == nation for sw in t.swaps)]          # events.yaml swaps
        return Violation("8.2.3", f"{kind.replace('_', ' ').title()} units enter play by the "
                                  f"swaps of {and_list(when)}; only one swapped in and eliminated "
                                  f"since may be rebuilt")
    return None


def _build_violation(s: State, d: GameData, o: Build, side: str) -> Violation | None:
    if ":" not in o.unit or o.unit.split(":")[0] not in d.nation_side:
        return Violation("7.2", "say the nation and the unit type, e.g. 'fr infantry'")
    nation, kind = o.unit.split(":")
    if d.nation_side[nation] != side:
        return Violation("7.2", f"{nation.upper()} units are built by the other side")
    v = available(s, d, o.unit)
    if v:
        return v
    orders = plan(s, d, side)
    if d.units.has(kind, "rebuilt_only_after_swap"):
        v = _commonwealth_violation(s, d, orders, o.unit)
        if v:
            return v
    same = sum(1 for x in orders if isinstance(x, Build) and x.unit == o.unit)
    if o.unit == f"{d.stoss_nation}:stosstruppen":
        same += sum(1 for x in orders if isinstance(x, Upgrade))
    if s.pool.get(nation, {}).get(kind, 0) - same <= 0:
        return Violation("11.1", f"no {nation.upper()} {kind.replace('_', ' ')} counter is "
                                 f"left in the force pool: the counter mix is a hard limit")
    if o.area not in d.areas:
        return Violation("4.2", f"{o.area} is not a playable area")
    if d.areas[o.area].kind == "sea_only" and nation not in d.sea_nations:
        return Violation("4.6", f"only {'/'.join(n.upper() for n in sorted(d.sea_nations))} "
                                f"units stand in {d.areas[o.area].name}")
    v = _where_violation(s, d, side, o.area, ("friendly", "disputed"), "7.2",
                         "units are built in supplied Friendly or Disputed areas")
    if v:
        return v
    count = s.stack_count(o.area, side, d) + _new_stack(s, d, orders, o.area)
    if o.into is not None:
        planned = [x.unit for x in orders if isinstance(x, Build) and x.into == o.into]
        again = next((x for x in orders if isinstance(x, Rebuild) and x.army == o.into), None)
        v = join_violation(s, d, side, o.area, o.into, [*planned, o.unit], "7.2",
                           "newly built unit") if again is None else \
            _into_rebuilt(s, d, o, again, planned)
        if v:
            return v
        full = again is None and s.armies[o.into].strength
        count += 0 if full or planned else 1        # an empty army fills
    else:
        count += 1
    if count > d.units.stacking_limit:
        return Violation("1.2.2", f"{d.areas[o.area].name} would hold {count} "
                                  f"{d.side_name(side)} units; the stacking limit is "
                                  f"{d.units.stacking_limit}")
    return unpaid(s, d, side, o)


def _into_rebuilt(s: State, d: GameData, o: Build, rebuild: Rebuild, planned: list[str]
                  ) -> Violation | None:
    """A unit built into an army rebuilt earlier in the same plan: units built go into any
    army (7.2), a rebuilt army comes back empty (8.1) and army contents may be altered
    during Production (8.1); so it takes them in the area it is rebuilt in, within its
    template (1.4)."""
    if rebuild.area != o.area:
        return Violation("7.2", f"army {o.into} is rebuilt in {d.areas[rebuild.area].name} "
                                f"in this plan, not in {d.areas[o.area].name}")
    army = msgspec.structs.replace(s.armies[o.into], status="map", area=o.area, contents={})
    return template_violation(s, d, army, dict(Counter([*planned, o.unit])))


def _new_stack(s: State, d: GameData, orders: list[Ord], area: str) -> int:
    """Stacking added in an area by the plan so far (new stand-alone units, filled armies)."""
    n = 0
    filled = set()
    for x in orders:
        if isinstance(x, Build) and x.area == area:
            if x.into is None:
                n += 1
            elif s.armies[x.into].strength == 0 and x.into not in filled:
                filled.add(x.into)
                n += 1
    return n


def _rebuild_violation(s: State, d: GameData, o: Rebuild, side: str) -> Violation | None:
    army = s.armies.get(o.army)
    if army is None or d.nation_side[army.nation] != side:
        return Violation("7.3", f"{o.army} is not one of the {d.side_name(side)} armies")
    if army.status not in ("eliminated", "suppressed"):
        return Violation("7.3", f"army {o.army} is not eliminated")
    if any(isinstance(x, Rebuild) and x.army == o.army for x in plan(s, d, side)):
        return Violation("7.3", f"army {o.army} is already being rebuilt")
    nation = d.units.nations[army.nation]
    home = nation.rebuild_area
    if o.area not in d.areas:
        return Violation("4.2", f"{o.area} is not a playable area")
    a = d.areas[o.area]
    if home and o.area != home:
        return Violation("4.6", f"{army.nation.upper()} armies are rebuilt in "
                                f"{d.areas[home].name}")
    if not home and a.country != nation.home_country:
        return Violation("7.3", f"army {o.army} is rebuilt in its home country, "
                                f"{d.country_name(nation.home_country)}")
    v = _where_violation(s, d, side, o.area, ("friendly",), "7.3",
                         "rebuilt armies go to a supplied Friendly area")
    return v or unpaid(s, d, side, o)


def _where_violation(s: State, d: GameData, side: str, area: str, statuses: tuple[str, ...],
                     rule: str, where: str) -> Violation | None:
    """Why production may not put a unit in area: which of its two conditions fails, the
    area's status (rule) or its supply (6.4: areas in supply receive new units; 6.5)."""
    status, name = s.status(area, side, d), d.areas[area].name
    if status not in statuses:
        return Violation(rule, f"{where}; {name} is {a_or_an(status.title())} area")
    if area not in supplied_areas(s, d, side):
        return Violation(rule, f"{where}; {name} is {status.title()} but out of supply "
                               f"(rules {rule}, 6.4, 6.5)")
    return None



def _entrench_violation(s: State, d: GameData, o: Entrench, side: str) -> Violation | None:
    if len(o.units) != 1:
        return Violation("7.4", f"name one unit per entrench order "
                                f"({d.charts.build_points.costs.entrench_units} cost 1 BP)")
    ref = o.units[0]
    orders = plan(s, d, side)
    done = {u for x in orders if isinstance(x, Entrench) for u in x.units}
    if ref in done:
        return Violation("7.4", f"{ref} is already being entrenched")
    if ref in s.armies:
        a = s.armies[ref]
        ok = a.status == "map" and d.nation_side[a.nation] == side
        already = a.entrenched
    elif ref in s.pieces:
        p = s.pieces[ref]
        ok = p.area in d.areas and d.nation_side[p.nation] == side and \
            p.kind in d.units.entrenching
        already = p.entrenched
    else:
        ok, already = False, False
    if not ok and ref in s.pieces and s.pieces[ref].area in d.areas and \
            d.nation_side[s.pieces[ref].nation] == side:
        return _never_entrenches(d, ref, s.pieces[ref].kind)
    if not ok:
        return Violation("7.4", f"{ref} is not {a_or_an(d.side_name(side))} army or infantry "
                                f"unit on the map")
    if already:
        return Violation("7.4", f"{ref} is already entrenched")
    if any(isinstance(x, Upgrade) and x.unit == ref for x in orders):
        return Violation("8.2.2", f"{ref} is being upgraded to Stoßtruppen, which never "
                                  f"entrench")
    units = len(done) + 1
    per_bp = d.charts.build_points.costs.entrench_units
    limit = entrench_limit(s, d)
    if limit is not None and -(-units // per_bp) > limit:
        return Violation("7.4", f"at most {limit} BP of entrenchment ({per_bp * limit} units) "
                                f"in {d.label(s.turn)}")
    return unpaid(s, d, side, o)


def _never_entrenches(d: GameData, ref: str, kind: str) -> Violation:
    """Why a unit of side's on the map may not entrench: its type is an auxiliary, or one of
    the infantry types that never entrench, each citing the rules that say so."""
    ut = d.units.unit_types[kind]
    what = f"{ref} is {a_or_an(kind.replace('_', ' '))} unit"
    if ut.class_ == "infantry":             # Stoßtruppen (8.2.2: its type's rule)
        return Violation(ut.rule, f"{what}, and {kind.replace('_', ' ')} units never entrench")
    return Violation("7.4", f"{what}: only armies and infantry units entrench, never "
                            f"{a_or_an(ut.class_)} unit (rules 2.0 V.2, 6.4, 7.4)")


def _upgrade_violation(s: State, d: GameData, o: Upgrade, side: str) -> Violation | None:
    stoss = d.stoss_nation
    if stoss is None or d.nation_side[stoss] != side:
        who = d.side_name(d.nation_side[stoss]) if stoss else "no"
        return Violation("8.2.2", f"only {who} infantry is upgraded to Stoßtruppen")
    when = d.events.build_dates.upgrades.get("stosstruppen")
    if when is None or s.turn < when.from_turn:
        since = f"begin in {d.label(when.from_turn)}" if when else "are not in this game's data"
        # The date is 8.2.2's (the Stoßtruppen type's rule): from SUMMER 1917 they are built
        # and, besides, one infantry a phase upgraded; 7.5, the data's rule for the upgrade,
        # says only how the counters are swapped.
        return Violation(_stoss_rule(d) if when else "7.5",
                         f"upgrades to Stoßtruppen {since}; this is {d.label(s.turn)}")
    if any(isinstance(x, Upgrade) for x in plan(s, d, side)):
        return Violation(_stoss_rule(d), "one infantry unit per production phase may be "
                                         "upgraded")
    if any(isinstance(x, Entrench) and o.unit in x.units for x in plan(s, d, side)):
        return Violation("8.2.2", f"{o.unit} is being entrenched; Stoßtruppen never entrench")
    builds = sum(1 for x in plan(s, d, side) if isinstance(x, Build) and
                 x.unit == f"{stoss}:stosstruppen")
    if s.pool[stoss].get("stosstruppen", 0) - builds <= 0:
        return Violation("11.1", "no Stoßtruppen counter is left in the force pool")
    return _upgraded_unit_violation(s, d, o, side) or unpaid(s, d, side, o)


def _stoss_rule(d: GameData) -> str:
    """The rule of the Stoßtruppen type (8.2.2), which dates the upgrade to it and allows
    one a Production phase."""
    ut = d.units.unit_types.get("stosstruppen")
    return ut.rule if ut else "8.2.2"


def _upgraded_unit_violation(s: State, d: GameData, o: Upgrade, side: str) -> Violation | None:
    """7.5: the unit upgraded is an infantry of the upgrading nation in an area or on an army
    template on the map; the Stoßtruppen unit takes its place there."""
    stoss = d.stoss_nation
    if o.unit in s.pieces:
        p = s.pieces[o.unit]
        if p.area not in d.areas:           # the EFT box is a box, not an area
            box = d.boxes[p.area].name if p.area in d.boxes else p.area
            return Violation("7.5", f"{o.unit} stands in the {box}, not in an area or on an "
                                    f"army template on the map")
        ok = p.kind == "infantry" and p.nation == stoss
        other = p.kind == "infantry" and p.nation != stoss and d.nation_side[p.nation] == side
    elif ":" in o.unit and o.unit.split(":")[0] in s.armies:
        army = s.armies[o.unit.split(":")[0]]
        ok = army.status == "map" and bool(army.contents.get(f"{stoss}:infantry")) and \
            o.unit.endswith(":infantry") and army.nation == stoss
        other = army.status == "map" and o.unit.endswith(":infantry") and \
            army.nation != stoss and d.nation_side[army.nation] == side and \
            bool(army.contents.get(f"{army.nation}:infantry"))
    else:
        ok = other = False
    if other:       # a side of several nations (AT ALL COSTS!'s German player's)
        nations = d.units.nations
        return Violation("AAC 7.6", f"only {nations[stoss].name} infantry is upgraded to "
                                    f"Stoßtruppen; {o.unit} is "
                                    f"{nations[nation_of(s, o.unit)].name}'s")
    if not ok:
        return Violation("7.5", f"{o.unit} is not {a_or_an(d.side_name(side))} infantry unit "
                                f"on the "
                                f"map")
    return None


def _buy_violation(s: State, d: GameData, o: Buy, side: str) -> Violation | None:
    if any(isinstance(x, Buy) for x in plan(s, d, side)):
        return Violation("7.1", "cards are bought once per production phase, the number "
                                "announced first; a second purchase would fish for a card")
    return unpaid(s, d, side, o)


class _NoDice:
    """Stands in for the dice while a plan's reorganisations are worked out ahead (no roll)."""

    def salt(self) -> None:
        """No salt: the worked-out state is never written anywhere."""
        return None


def reorganised(s: State, d: GameData, side: str) -> State:
    """The state once side's planned reorganisations are made (8.1): the plan's other orders
    are checked against it, as they are applied after them."""
    moves = [o for o in plan(s, d, side) if isinstance(o, Move)]
    if not moves:
        return s
    key = ("reorganised", side)
    got = s._cache.get(key)
    if got is None:
        ctx = Ctx(s.clone(), d, _NoDice())
        for o in moves:
            apply_reorganise(ctx, o, side)
        got = s._cache[key] = ctx.state
    return got


def _reorganise_violation(s: State, d: GameData, o: Move, side: str) -> Violation | None:
    if any(not isinstance(x, Move) for x in plan(s, d, side)):
        return Violation("8.1", "army contents are altered before the plan's other orders: "
                                "give the moves into and out of armies first")
    return reorganise_violation(s, d, o, side, "Production")


CHECKS = {"move": _reorganise_violation, "buy": _buy_violation, "build": _build_violation,
          "rebuild": _rebuild_violation,
          "entrench": _entrench_violation, "upgrade": _upgrade_violation}


def production_violation(s: State, d: GameData, o: Ord, side: str) -> Violation | None:
    """Why a production order is illegal now, or None (7.0-7.6)."""
    if side in s.production["done"]:
        return Violation("7.0", f"the {d.side_name(side)} production orders are already in")
    if o.kind == "done":
        return None
    return CHECKS[o.kind](reorganised(s, d, side), d, o, side)

