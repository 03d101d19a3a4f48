"""Phase V, production: supply, build points, excess cards, EFT box losses (2.0 V, 6.0, 7.0).

V.1 Supply and attrition are in supply.py.
V.2 Both sides spend their Build Points "at the same time": each side's
orders (led by any moves into or out of armies within an area, 8.1) are
sealed (secret to him) until both have said 'done'; then the plans are
revealed and applied in a fixed order: every German order, then every Entente
order, cards last, German cards first. Unused BPs are lost.
V.3 Cards over the card limit are discarded by their owner.
V.4 The EFT box loss roll.
"""

from __future__ import annotations

import itertools
from collections import Counter

from ..data.gamedata import GameData
from . import sealed
from .armies import hidden_templates, template_violation
from .cards import draw, pick
from .core import Ctx, DecisionSpec, SealedPlans, Violation, and_list, finish, prompt, register
from .events import (
    ArmyEliminated,
    ArmyRebuilt,
    CardsDiscarded,
    EftLossesDue,
    EftUnitLost,
    InfantryUpgraded,
    ProductionBegan,
    ProductionDone,
    ProductionEnded,
    ProductionOrdered,
    ProductionRevealed,
    UnitBuilt,
    UnitEntrenched,
)
from .events_base import Secret
from .movement import (
    apply_reorganise,
    reorganise_candidates,
    reorganise_violation,
    template_ref,
)
from .orders import (
    Build,
    Buy,
    Discard,
    Done,
    Entrench,
    Lose,
    Move,
    Ord,
    Rebuild,
    Upgrade,
    format_order,
)
from .reinforce import settle_empty_armies
from .state import State
from .supply import marked, supplied_areas

EFT = "eft"


# ---------------------------------------------------------------- V.2 build points (7.0)

def begin_spending(ctx: Ctx) -> None:
    """Both sides' Build Points from the chart; both are asked at once, sealed (7.0)."""
    s, d = ctx.state, ctx.data
    ctx.emit(ProductionBegan(bp=d.build_points(s.turn)))
    prompt(ctx, "production", d.sides[0])


def plan(s: State, d: GameData, side: str) -> tuple[Ord, ...]:
    """The orders of side's sealed production plan so far (7.0)."""
    return sealed.parsed(s, d, ("plan", side), s.production["plans"][side])


def _spent(s: State, d: GameData, orders: list[Ord]) -> int:
    cost = 0
    entrench = 0
    for o in orders:
        if isinstance(o, Buy):
            cost += o.count
        elif isinstance(o, Build):
            cost += build_cost(d, o.unit)
        elif isinstance(o, Rebuild):
            cost += d.units.cost("army")          # an empty army (7.3, 8.1)
        elif isinstance(o, Upgrade):
            cost += 1
        elif isinstance(o, Entrench):
            entrench += len(o.units)
    return cost + -(-entrench // 4)


def build_cost(d: GameData, unit: str) -> int:
    """BP cost of a unit (7.6): its type's cost_bp in units.yaml (TTLM: tanks and Stoßtruppen
    2, Commonwealth rebuilt 2, others 1)."""
    nation, kind = unit.split(":")
    return d.units.cost(kind)


def left(s: State, d: GameData, side: str, extra: Ord | None = None) -> int:
    """BPs side has not yet committed (counting extra, an order being checked)."""
    orders = [*plan(s, d, side), *([extra] if extra else [])]
    return s.production["bp"][side] - _spent(s, d, orders)


def _available(s: State, d: GameData, unit: str) -> Violation | None:
    """Availability dates and counter limits of a unit to build (7.6, 8.x)."""
    nation, kind = unit.split(":")
    ut = d.units.unit_types.get(kind)
    if ut is None or kind in ("army", "fort"):
        return Violation("7.6", f"{kind.replace('_', ' ')} is not bought this way (armies are "
                                f"rebuilt with 'rebuild', forts never)")
    if nation not in ut.nations:
        return Violation("7.6", f"{nation.upper()} has no {kind.replace('_', ' ')} units")
    when = d.build_date(nation, kind)
    if when is None:
        return Violation("7.6", f"{nation.upper()} {kind.replace('_', ' ')} units are never "
                                f"built (no build date in the game data)")
    if s.turn < when.from_turn:
        why = ", ".join(x for x in (when.source if when.source != "core" else "", when.note)
                        if x)
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
    v = _available(s, d, o.unit)
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
    if o.area not in supplied_areas(s, d, side) or \
            s.status(o.area, side, d) not in ("friendly", "disputed"):
        return Violation("7.2", f"units are built in supplied Friendly or Disputed areas; "
                                f"{d.areas[o.area].name} is not one")
    count = s.stack_count(o.area, side, d) + _new_stack(s, d, orders, o.area)
    if o.into is not None:
        t = s.armies.get(o.into)
        if t is None or t.status != "map" or t.area != o.area or \
                d.nation_side[t.nation] != side:
            return Violation("7.2", f"{o.into} is not a {side} army in {d.areas[o.area].name}")
        if marked(s, d, o.into):
            return Violation("AAC 1.2.3", f"army {o.into} in {d.areas[o.area].name} carries an "
                                          f"Out of Supply marker: it receives no newly built "
                                          f"unit until a Check Supply Status phase finds it in "
                                          f"supply (6.5)")
        contents = Counter(t.contents)
        for x in orders:
            if isinstance(x, Build) and x.into == o.into:
                contents[x.unit] += 1
        grew = sum(contents.values()) > 0
        contents[o.unit] += 1
        v = template_violation(s, d, t, dict(contents))
        if v:
            return v
        count += 0 if grew else 1
    else:
        count += 1
    if count > d.units.stacking_limit:
        return Violation("1.2.2", f"{d.areas[o.area].name} would hold {count} {side} units; "
                                  f"the stacking limit is {d.units.stacking_limit}")
    if left(s, d, side, o) < 0:
        return Violation("7.0", f"not enough Build Points: {left(s, d, side)} left, this costs "
                                f"{build_cost(d, o.unit)}")
    return None


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
        return Violation("7.3", f"{o.army} is not one of the {side} armies")
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
        return Violation("7.3", f"army {o.army} is rebuilt in its home country "
                                f"({nation.home_country})")
    if s.status(o.area, side, d) != "friendly" or o.area not in supplied_areas(s, d, side):
        return Violation("7.3", f"rebuilt armies go to a supplied Friendly area; "
                                f"{a.name} is not one")
    if left(s, d, side, o) < 0:
        return Violation("7.0", "not enough Build Points")
    return None


def _entrench_violation(s: State, d: GameData, o: Entrench, side: str) -> Violation | None:
    if len(o.units) != 1:
        return Violation("7.4", "name one unit per entrench order (four cost 1 BP)")
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
    if not ok:
        return Violation("7.4", f"{ref} is not a {side} army or infantry unit on the map "
                                f"(Stoßtruppen and auxiliaries never entrench, 8.2.2)")
    if already:
        return Violation("7.4", f"{ref} is already entrenched")
    if any(isinstance(x, Upgrade) and x.unit == ref for x in orders):
        return Violation("8.2.2", f"{ref} is being upgraded to Stoßtruppen, which never "
                                  f"entrench")
    units = len(done) + 1
    limit = d.events.availability.get("entrenchment_bp_limit", {}).get(f"turn_{s.turn}")
    if limit is not None and -(-units // 4) > limit:
        return Violation("7.4", f"at most {limit} BP of entrenchment ({4 * limit} units) in "
                                f"{d.label(s.turn)}")
    if left(s, d, side, o) < 0:
        return Violation("7.0", "not enough Build Points")
    return None


def _upgrade_violation(s: State, d: GameData, o: Upgrade, side: str) -> Violation | None:
    stoss = d.stoss_nation
    if stoss is None or d.nation_side[stoss] != side:
        who = d.side_name(d.nation_side[stoss]) if stoss else "no"
        return Violation("7.5", f"only {who} infantry is upgraded to Stoßtruppen")
    when = d.events.build_dates.upgrades.get("stosstruppen")
    if when is None or s.turn < when.from_turn:
        since = f"begin in {d.label(when.from_turn)}" if when else "are not in this game's data"
        return Violation(when.rule if when else "7.5",
                         f"upgrades to Stoßtruppen {since}; this is {d.label(s.turn)}")
    if any(isinstance(x, Upgrade) for x in plan(s, d, side)):
        return Violation("7.5", "one infantry unit per production phase may be upgraded")
    if any(isinstance(x, Entrench) and o.unit in x.units for x in plan(s, d, side)):
        return Violation("8.2.2", f"{o.unit} is being entrenched; Stoßtruppen never entrench")
    builds = sum(1 for x in plan(s, d, side) if isinstance(x, Build) and
                 x.unit == f"{stoss}:stosstruppen")
    if s.pool[stoss].get("stosstruppen", 0) - builds <= 0:
        return Violation("11.1", "no Stoßtruppen counter is left in the force pool")
    if o.unit in s.pieces:
        ok = s.pieces[o.unit].kind == "infantry" and s.pieces[o.unit].nation == stoss
    elif ":" in o.unit and o.unit.split(":")[0] in s.armies:
        army = s.armies[o.unit.split(":")[0]]
        ok = army.status == "map" and bool(army.contents.get(f"{stoss}:infantry")) and \
            o.unit.endswith(":infantry") and army.nation == stoss
    else:
        ok = False
    if not ok:
        return Violation("7.5", f"{o.unit} is not a German infantry unit on the map")
    if left(s, d, side, o) < 0:
        return Violation("7.0", "not enough Build Points")
    return None


def _buy_violation(s: State, d: GameData, o: Buy, side: str) -> Violation | None:
    if any(isinstance(x, Buy) for x in plan(s, d, side)):
        return Violation("7.1", "cards are bought once per production phase, the number "
                                "announced first; a second purchase would fish for a card")
    if left(s, d, side, o) < 0:
        return Violation("7.0", f"not enough Build Points: {left(s, d, side)} left")
    return None


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
        return Violation("7.0", f"the {side} production orders are already in")
    if o.kind == "done":
        return None
    return CHECKS[o.kind](reorganised(s, d, side), d, o, side)


def production_candidates(s: State, d: GameData, side: str):
    """Every production order worth checking for side."""
    if side in s.production["done"]:
        return
    s = reorganised(s, d, side)
    if all(isinstance(x, Move) for x in plan(s, d, side)):
        yield from reorganise_candidates(s, d, side)
    bp = left(s, d, side)
    for n in range(1, bp + 1):
        yield Buy(count=n)
    supplied = supplied_areas(s, d, side)
    areas = [a for a in d.areas if a in supplied and s.status(a, side, d) in
             ("friendly", "disputed")]
    for nation in d.units.sides[side]:
        for kind in sorted(d.units.mix.get(nation, {})):
            if kind in ("army", "fort"):
                continue
            unit = f"{nation}:{kind}"
            if _available(s, d, unit) or s.pool.get(nation, {}).get(kind, 0) <= 0:
                continue
            for a in areas:
                yield Build(unit=unit, area=a)
                for army in s.armies_in(a, side, d):
                    yield Build(unit=unit, area=a, into=army.id)
    for army in sorted(s.armies.values(), key=lambda a: a.id):
        if army.status in ("eliminated", "suppressed") and d.nation_side[army.nation] == side:
            for a in areas:
                yield Rebuild(army=army.id, area=a)
    for army in sorted(s.armies.values(), key=lambda a: a.id):
        if army.status == "map" and d.nation_side[army.nation] == side:
            yield Entrench(units=(army.id,))
    for p in sorted(s.pieces.values(), key=lambda p: p.id):
        if d.nation_side[p.nation] == side and p.kind in d.units.entrenching:
            yield Entrench(units=(p.id,))
    stoss = d.stoss_nation
    if stoss is not None and d.nation_side[stoss] == side:
        for p in sorted(s.pieces.values(), key=lambda p: p.id):
            if p.kind == "infantry" and p.nation == stoss and p.area in d.areas:
                yield Upgrade(unit=p.id)
        for army in sorted(s.armies.values(), key=lambda a: a.id):
            if army.status == "map" and army.contents.get(f"{stoss}:infantry"):
                yield Upgrade(unit=f"{army.id}:infantry")
    yield Done()


def _production_prompt(s: State, d: GameData) -> str:
    # Nothing here may tell one side what the other has ordered: the plans are sealed.
    others = [x for x in d.sides if x not in s.production["done"]]
    bp = s.production["bp"]
    return (f"production: {' and '.join(others)} give sealed orders (units into or out of "
            f"armies first, then buy N cards, build, "
            f"rebuild, entrench, upgrade), then 'done'; Build Points this turn: " +
            ", ".join(f"{d.side_name(x)} {bp[x]}" for x in d.sides) + " (7.0)")


def production_apply(ctx: Ctx, o: Ord, side: str) -> None:
    """Seal one production order; when both sides are done, reveal and apply both plans."""
    if o.kind != "done":
        ctx.emit(ProductionOrdered(side=side, secret=ctx.secret(side, {
            "order": format_order(o)})))
        return
    ctx.emit(ProductionDone(side=side))
    waiting = [x for x in ctx.data.sides if x not in ctx.state.production["done"]]
    if waiting:
        prompt(ctx, "production", waiting[0])
    else:
        apply_plans(ctx)


def _seal_production(ctx: Ctx, side: str, orders: list[str], final: bool) -> ProductionOrdered:
    if final:
        return ProductionOrdered(side=side, secret=ctx.secret(side, {"orders": orders}))
    return ProductionOrdered(side=side, secret=Secret(to=side, data={"order": orders[0]}))


register(DecisionSpec(
    kind="production", rule="7.0", prompt=_production_prompt,
    accepts=("move", "buy", "build", "rebuild", "entrench", "upgrade", "done"),
    candidates=production_candidates, check=production_violation, apply=production_apply,
    extra={"sealed": SealedPlans(
        label="a sealed production plan (7.0)", book=lambda s: s.production,
        seal=_seal_production, close=lambda ctx, side: production_apply(ctx, Done(), side),
        complete=lambda s, d, side, orders: False)}))


def apply_plans(ctx: Ctx) -> None:
    """Reveal both plans and apply them: German, then Entente; cards last, German first."""
    s, d = ctx.state, ctx.data
    hide = hidden_templates(s)
    plans = {side: plan(s, d, side) for side in d.sides}
    for side in d.sides:
        spent = _spent(s, d, plans[side])
        texts = [format_order(o) for o in plans[side]]
        ctx.emit(ProductionRevealed(side=side, spent=spent,
                                    lost=s.production["bp"][side] - spent,
                                    **sealed.revealed(ctx, side, plans[side], texts)))
    for side in ctx.data.sides:
        for o in plans[side]:
            st = ctx.state
            if isinstance(o, Move):
                apply_reorganise(ctx, o, side)
            elif isinstance(o, Build) and o.into is not None and hide:
                ctx.emit(UnitBuilt(side=side, secret=ctx.secret(side, {
                    "unit": o.unit, "area": o.area, "into": o.into,
                    "cost": build_cost(d, o.unit)})))
            elif isinstance(o, Build):
                nation, kind = o.unit.split(":")
                ctx.emit(UnitBuilt(side=side, unit=o.unit, area=o.area, into=o.into,
                                   cost=build_cost(d, o.unit),
                                   new_id=None if o.into else st.new_piece_id(nation, kind, d)))
            elif isinstance(o, Rebuild):
                ctx.emit(ArmyRebuilt(side=side, army=o.army, area=o.area))
            elif isinstance(o, Entrench):
                ctx.emit(UnitEntrenched(side=side, unit=o.units[0]))
            elif isinstance(o, Upgrade) and o.unit not in st.pieces and hide:
                ctx.emit(InfantryUpgraded(side=side, secret=ctx.secret(side, {"unit": o.unit})))
            elif isinstance(o, Upgrade):
                new_id = st.new_piece_id(d.stoss_nation, "stosstruppen", d) \
                    if o.unit in st.pieces else None
                ctx.emit(InfantryUpgraded(side=side, unit=o.unit, new_id=new_id))
    settle_empty_armies(ctx)        # 8.1: as after the Reinforcement Phase's placements
    for side in ctx.data.sides:
        for o in plans[side]:
            if isinstance(o, Buy):
                draw(ctx, side, o.count, f"{o.count} card(s) bought (7.1)")
    finish(ctx, "build_points")


# ---------------------------------------------------------------- V.3 excess cards (7.1)

def card_limit(s: State, d: GameData, side: str) -> int:
    """The Maximum Number of Held Cards for side this year (Card Limit chart)."""
    return d.card_limit(d.year(s.turn), side)


def discard_excess(ctx: Ctx) -> None:
    """Each side over its card limit discards the excess, his choice (2.0 V.3, 7.1): both
    sides at once, each sealed until both are done; a side whose choice cannot differ (every
    card alike) is not asked."""
    s, d = ctx.state, ctx.data
    asked = []
    for side in d.sides:
        extra = len(s.hands.get(side, [])) - card_limit(s, d, side)
        if extra > 0:
            if len({d.cards[c].key for c in s.hands[side]}) == 1:
                ctx.emit(CardsDiscarded(side=side, cards=list(s.hands[side][:extra]),
                                        reason="over the card limit (7.1)"))
                continue
            asked.append(side)
    if asked:
        sealed.open_plans(ctx, "discard_excess", asked)
        return
    finish(ctx, "excess_cards")


def _excess_candidates(s: State, d: GameData, side: str):
    extra = len(s.hands[side]) - card_limit(s, d, side)
    counts = Counter(d.cards[c].key for c in s.hands[side])
    keys = sorted(counts, key=lambda k: d.card_order.index(d.card_types[k].ids[0]))
    for combo in itertools.product(*(range(counts[k] + 1) for k in keys)):
        if sum(combo) == extra:
            yield Discard(cards=tuple(k for k, n in zip(keys, combo) for _ in range(n)))


def _excess_check(s: State, d: GameData, o: Discard, side: str) -> Violation | None:
    extra = len(s.hands[side]) - card_limit(s, d, side)
    if len(o.cards) != extra:
        return Violation("7.1", f"discard exactly {extra} card(s): the {side} hand holds "
                                f"{len(s.hands[side])}, the limit is {card_limit(s, d, side)}")
    if pick(s, d, side, o.cards) is None:
        return Violation("1.3", "the hand does not hold those cards")
    return None


def _excess_apply(ctx: Ctx, o: Discard, side: str) -> None:
    if sealed.book(ctx.state, "discard_excess") is not None:
        sealed.seal_one(ctx, o, side)
        return
    # A discard asked of one side at a time (journals from before sealed discards).
    ids = pick(ctx.state, ctx.data, side, o.cards)
    ctx.emit(CardsDiscarded(side=side, cards=ids, reason="over the card limit (7.1)"))
    discard_excess(ctx)


def _reveal_discards(ctx: Ctx, plans: dict) -> None:
    """Both discards are in: each is applied, German first (2.0 V.3, 7.1); then V.4."""
    for side in ctx.data.sides:
        for o in plans[side]:
            ids = pick(ctx.state, ctx.data, side, o.cards)
            ctx.emit(CardsDiscarded(side=side, cards=ids, reason="over the card limit (7.1)"))
    finish(ctx, "excess_cards")


def _excess_prompt(s: State, d: GameData) -> str:
    b = sealed.book(s, "discard_excess")
    sides = [x for x in b["plans"] if x not in b["done"]] if b else [s.pending.side]
    # Nothing here may tell one side what the other has discarded: the plans are sealed.
    return "; ".join(f"{x} holds {len(s.hands[x])} cards, the limit is "
                     f"{card_limit(s, d, x)}" for x in sides) + \
        (": discard the excess, sealed until both are in (2.0 V.3, 7.1)" if b else
         ": discard the excess (2.0 V.3, 7.1)")


register(DecisionSpec(
    kind="discard_excess", rule="7.1", prompt=_excess_prompt,
    accepts=("discard",), candidates=_excess_candidates, check=_excess_check,
    apply=_excess_apply, extra={"sealed": sealed.generic(
        "discard_excess", "2.0 V.3", "cards over the limit discarded", _reveal_discards,
        lambda s, d, side, orders: bool(orders) or bool(sealed.own_plan(s, d, side)))}))


# ---------------------------------------------------------------- V.4 EFT box losses

def eft_units(s: State) -> list[tuple[str, str, str]]:
    """(ref, nation, kind) of every unit in the EFT box, army contents included."""
    out = []
    for p in sorted(s.pieces.values(), key=lambda p: p.id):
        if p.area == EFT:
            out.append((p.id, p.nation, p.kind))
    for a in sorted(s.armies.values(), key=lambda a: a.id):
        if a.status == "eft":
            for key, n in sorted(a.contents.items()):
                nation, kind = key.split(":")
                out += [(template_ref(a, key), nation, kind)] * n
    return out


def eft_bp(s: State, d: GameData) -> int:
    """The BP value of the units in the EFT box (build costs, an army 1 BP) (2.0 V.4, 3.1)."""
    # Summed directly: the decisive-victory check asks after every order (3.1, 3.2).
    bp = sum(build_cost(d, f"{p.nation}:{p.kind}") for p in s.pieces.values() if p.area == EFT)
    for a in s.armies.values():
        if a.status == "eft":
            bp += d.units.cost("army") + sum(build_cost(d, key) * n
                                             for key, n in a.contents.items())
    return bp


def eft_losses_off(s: State, d: GameData) -> bool:
    """Whether the EFT box loss phase is skipped: the game is linked with the game the box's
    data names (2.0 V.4: not when playing with AT ALL COSTS!, option linked_with_aac)."""
    box = next((b for b in d.map.boxes if b.id == EFT), None)
    return box is not None and box.losses_not_when_linked_with in d.linked_with(s.options)


def eft_losses(ctx: Ctx) -> None:
    """Roll one die per 5 BP of EFT units (or part); each 1 eliminates a unit (2.0 V.4)."""
    s, d = ctx.state, ctx.data
    bp = 0 if eft_losses_off(s, d) else eft_bp(s, d)
    if bp:
        dice = ctx.dice.roll(-(-bp // 5), "EFT box losses (2.0 V.4)")
        losses = sum(1 for x in dice if x == 1)
        if hidden_templates(s) and any(a.status == EFT for a in s.armies.values()):
            # 1.4: the BP value counts what the armies in the box hold.
            ctx.emit(EftLossesDue(dice=dice, losses=losses,
                                  secret=ctx.secret(d.boxes[EFT].owner, {"bp": bp})))
        else:
            ctx.emit(EftLossesDue(bp=bp, dice=dice, losses=losses))
    next_eft_loss(ctx)


def next_eft_loss(ctx: Ctx) -> None:
    """Take each EFT loss, asking the German where he has a choice."""
    s = ctx.state
    while s.production.get("eft_losses"):
        units = eft_units(s)
        if not units:
            break
        same = len({(n, k) for _, n, k in units}) == 1
        if same and (len({r for r, _, _ in units}) == 1 or all(r in s.pieces for r, _, _ in units)):
            ref, nation, kind = units[0]
            _eft_loss(ctx, ref, nation, kind)
            s = ctx.state
            continue
        prompt(ctx, "eft_losses", ctx.data.boxes[EFT].owner)
        return
    ctx.emit(ProductionEnded())
    finish(ctx, "eft_losses")


def _eft_loss(ctx: Ctx, ref: str, nation: str, kind: str) -> None:
    army = ref.split(":")[0] if ":" in ref else None
    if army and hidden_templates(ctx.state):
        # 1.4: which unit an army in the box loses is the German's secret.
        ctx.emit(EftUnitLost(secret=ctx.secret(ctx.data.boxes[EFT].owner, {
            "unit": ref, "nation": nation, "kind": kind})))
    else:
        ctx.emit(EftUnitLost(unit=ref, nation=nation, kind=kind))
    if army and not ctx.state.armies[army].contents:
        ctx.emit(ArmyEliminated(side=ctx.data.boxes[EFT].owner, army=army, area=EFT,
                                rule="2.0 V.4",
                                reason="it lost its last unit in the EFT box"))


def _eft_candidates(s: State, d: GameData, side: str):
    for ref in dict.fromkeys(r for r, _, _ in eft_units(s)):
        yield Lose(unit=ref)


def _eft_check(s: State, d: GameData, o: Lose, side: str) -> Violation | None:
    if o.unit not in {r for r, _, _ in eft_units(s)}:
        return Violation("2.0 V.4", f"{o.unit} is not a unit in the EFT box")
    return None


def _eft_apply(ctx: Ctx, o: Lose, side: str) -> None:
    ref, nation, kind = next(u for u in eft_units(ctx.state) if u[0] == o.unit)
    _eft_loss(ctx, ref, nation, kind)
    next_eft_loss(ctx)


register(DecisionSpec(
    kind="eft_losses", rule="2.0 V.4",
    prompt=lambda s, d: (f"german: eliminate {s.production['eft_losses']} unit(s) in the EFT "
                         f"box, your choice (2.0 V.4)"),
    accepts=("lose",), candidates=_eft_candidates, check=_eft_check, apply=_eft_apply))

