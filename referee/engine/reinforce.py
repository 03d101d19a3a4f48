"""Phase I: reinforcements from the Game Events chart, and the Commonwealth swaps (2.0 I, 8.2.3).

Arriving units come out of the force pool: the counter mix is a hard limit
(11.1), so a unit the pool no longer holds does not arrive. The 1918
Stoßtruppen are replaced by infantry when the pool is short of them, and what
is short of both is lost (8.2.2). Each player places his own arrivals in
supplied Friendly or Disputed areas within the stacking limit (UK units in
ENGLAND, US units in France), into armies there if he likes (8.1). While he
places them he may also alter his armies' contents, moving units into or out of
armies within their areas (8.1).
"""

from __future__ import annotations

from ..contracts.events_map import (
    CommonwealthSwapped,
    ReinforcementLost,
    ReinforcementsDue,
    UnitPlaced,
)
from ..contracts.orders import Done, Move, Ord, Place, Swap
from ..data.gamedata import GameData
from . import hidden_room, sealed
from .armies import hidden_templates, join_violation
from .core import Ctx, DecisionSpec, Violation, finish, plans_kept, register
from .movement import (
    apply_reorganise,
    reorganise_candidates,
    reorganise_violation,
    settle,
    template_ref,
)
from .room import room_in, room_moves
from .state import State, piece_key, template_key
from .supply import supplied_areas


def arrivals(ctx: Ctx) -> None:
    """Work out each side's arrivals this turn against the force pool (2.0 I, 8.2.2, 11.1)."""
    s, d = ctx.state, ctx.data
    ev = d.event_turns.get(s.turn)
    if ev is None:
        return
    pool = {n: dict(row) for n, row in s.pool.items()}
    due: dict[str, list[dict]] = {x: [] for x in d.sides}
    lost: list[tuple[str, str, str]] = []
    for r in ev.reinforcements:
        side = d.nation_side[r.nation]
        for _ in range(r.count):
            if r.type == "army":
                army = s.armies.get(r.id)
                if army is None or army.status != "pool":
                    lost.append((side, r.id, "the army counter is not in the force pool (11.1)"))
                else:
                    due[side].append({"unit": r.id, "placement": r.placement})
                continue
            kind = r.type
            if pool.get(r.nation, {}).get(kind, 0) <= 0 and r.substitute:
                kind = r.substitute          # 8.2.2: infantry stand in for missing Stoßtruppen
            if pool.get(r.nation, {}).get(kind, 0) <= 0:
                lost.append((side, f"{r.nation}:{r.type}",
                             "none left in the force pool: the counter mix is a hard limit "
                             "(11.1, 8.2.2)"))
                continue
            pool[r.nation][kind] -= 1
            due[side].append({"unit": f"{r.nation}:{kind}", "placement": r.placement})
    swaps: dict[str, list[dict]] = {x: [] for x in d.sides}
    for sw in ev.swaps:
        if pool.get(sw.nation, {}).get("commonwealth", 0) <= 0:
            lost.append((d.nation_side[sw.nation], sw.unit,
                         "no Commonwealth counter is left in the force pool (11.1)"))
            continue
        pool[sw.nation]["commonwealth"] -= 1
        swaps[d.nation_side[sw.nation]].append(
            {"unit": sw.unit, "name": sw.name, "nation": sw.nation})
    for side, unit, reason in lost:
        ctx.emit(ReinforcementLost(side=side, unit=unit, reason=reason))
    for side in d.sides:
        if due[side] or swaps[side]:
            ctx.emit(ReinforcementsDue(side=side, items=due[side], swaps=swaps[side]))


def next_placement(ctx: Ctx) -> bool:
    """Ask every side with arrivals to place for a sealed plan, both at once (2.0 I: both
    players place); False when no side has anything to place."""
    s, d = ctx.state, ctx.data
    asked = []
    for side in d.sides:
        if s.arrivals.get(side) or s.swaps_due.get(side):
            if _to_decide(s, d, side):
                asked.append(side)
                continue
            _drop_all(ctx, side)
    if not asked:
        return False
    sealed.open_plans(ctx, "reinforce", asked)
    return True


def _drop_all(ctx: Ctx, side: str) -> None:
    """What is left unplaced stays in the force pool, saying why: no room even with units
    moved into armies (8.1), or a plan ended by 'done' before the room it could make; under
    hidden templates neither, which would tell what armies hold (1.4)."""
    if hidden_templates(ctx.state):
        # Which of the two it is rests on what the side's armies hold, which every reader of
        # this public reason but their owner may not see (1.4): one wording for all, the
        # owner having been told by his own plan's prompt whether room could be made.
        why = ("it was not placed within the stacking limit (2.0 I, 1.2.2, 8.1; what armies "
               "hold is hidden, 1.4, so whether units moved into armies could have made room "
               "is not said)")
    elif _room_to_make(ctx.state, ctx.data, side):
        why = ("the plan ended without placing it, though units moved into armies could have "
               "made room within the stacking limit (1.2.2, 8.1)")
    else:
        why = ("no supplied Friendly or Disputed area within the stacking limit can take it, "
               "even with units moved into armies (1.2.2, 8.1)")
    for item in list(ctx.state.arrivals.get(side, [])):
        ctx.emit(ReinforcementLost(side=side, unit=item["unit"], reason=(
            f"{why}; it stays in the force pool")))
    for sw in list(ctx.state.swaps_due.get(side, [])):
        ctx.emit(CommonwealthSwapped(side=side, unit=sw["unit"], name=sw["name"], replaced=None,
                                     area=None))


def place_areas(s: State, d: GameData, side: str, item: dict, supplied: set[str]) -> list[str]:
    """Areas where an arriving unit may be placed (2.0 I; ENGLAND for UK armies, 4.6; a
    country when its Game Events entry names one)."""
    code = item["placement"]
    nation = item["unit"].split(":")[0] if ":" in item["unit"] else \
        s.armies[item["unit"]].nation
    out = []
    for a in d.map.areas:
        if code in d.areas and a.id != code:        # an area (ENGLAND, 4.6)
            continue
        if code != "any" and code not in d.areas and a.country != code:   # a country
            continue
        if a.kind == "sea_only" and nation not in d.sea_nations:
            continue
        if a.id not in supplied or s.status(a.id, side, d) not in ("friendly", "disputed"):
            continue
        out.append(a.id)
    return out


def _placeable(s: State, d: GameData, side: str) -> bool:
    """Whether some arrival of side's has a legal place as the board stands (2.0 I)."""
    return any(True for _ in _place_orders(s, d, side))


def _room_to_make(s: State, d: GameData, side: str) -> bool:
    """Whether some arrival of side's has a legal place, or would have one once units went into
    armies within an area it may arrive in (8.1: army contents may be altered while
    reinforcements are placed; 1.2.2: how that frees a place, room.py). What the plan's own
    later orders could still place keeps it open. Counted, not played: asked at every step of
    a plan, it looks at the areas and units beyond the board as it stands only when nothing
    is placeable there."""
    if _placeable(s, d, side):
        return True
    if not s.arrivals.get(side):
        return False
    return any(room_in(s, d, side, area, units)
               for area, units in _arriving(s, d, side).items())


def _to_decide_openly(s: State, d: GameData, side: str) -> bool:
    """Whether side has an arrival to place, room to make for one (8.1) or a swap to make
    (8.2.3), counted from what his armies hold."""
    return _room_to_make(s, d, side) or bool(_swap_options(s, d, side))


def _to_decide(s: State, d: GameData, side: str) -> bool:
    """Whether side has something to decide in his plan: an arrival with a place, or room to
    make for one (8.1), or a swap to make (8.2.3); under hidden templates (1.4) also wherever
    what his armies hold could decide that, so that his being asked, and his plan's staying
    open, tell nothing of it (hidden_room.py)."""
    if _to_decide_openly(s, d, side):
        return True
    return hidden_templates(s) and hidden_room.unsettled(
        s, d, side, list(_arriving(s, d, side)) if s.arrivals.get(side) else [])


def _arriving(s: State, d: GameData, side: str, only: list[str] | None = None) -> dict:
    """Each area side's arrivals (those of only, if given) may be placed in: the arrivals
    (2.0 I), as room.py asks for them."""
    supplied = supplied_areas(s, d, side)
    arriving: dict[str, list[str]] = {}
    for item in s.arrivals.get(side, []):
        if only is None or item["unit"] in only:
            for area in place_areas(s, d, side, item, supplied):
                arriving.setdefault(area, []).append(item["unit"])
    return arriving


def _room_plan(s: State, d: GameData, side: str) -> tuple[list[Ord], str]:
    """For side's sealed plan when none of his arrivals has a place as the board stands: the
    moves into armies that make room for one (8.1, 1.2.2; room.py), and the arrivals a
    'done' now would leave in the force pool (2.0 I); ([], '') when something is placeable
    or no moves make room."""
    s = _own(s, d, side)
    if not s.arrivals.get(side) or _placeable(s, d, side):
        return [], ""
    moves = next((got for area, units in _arriving(s, d, side).items()
                  for got in [room_moves(s, d, side, area, units)] if got), [])
    return list(moves), arrival_words([i["unit"] for i in s.arrivals[side]]) if moves else ""


def _plan_ids(s: State, d: GameData, side: str) -> list[str]:
    """The id each order of side's sealed plan so far gives the unit it sets on its own (an
    arrival placed alone, a Commonwealth unit swapped in, a unit out of its army), in the
    plan's order; '' for the others. His own plan only: told to him alone (2.0 I)."""
    ctx = Ctx(s.clone(), d, sealed.NoDice())
    out = []
    for o in sealed.own_plan(s, d, side):
        start = len(ctx.events)
        _effect(ctx, o, side)
        out.append(next((e.new_id for e in ctx.events[start:]
                         if getattr(e, "new_id", None)), ""))
    return out


def _place_orders(s: State, d: GameData, side: str):
    if not s.arrivals.get(side):
        return              # nothing to place: no need to work out supply (6.2) for it
    supplied = supplied_areas(s, d, side)
    seen = set()
    for item in s.arrivals.get(side, []):
        key = (item["unit"], item["placement"])
        if key in seen:
            continue
        seen.add(key)
        for area in place_areas(s, d, side, item, supplied):
            o = Place(unit=item["unit"], area=area)
            if _place_violation(s, d, o, side) is None:
                yield o
            if ":" in item["unit"]:
                for army in s.armies_in(area, side, d):
                    o = Place(unit=item["unit"], area=area, into=army.id)
                    if _place_violation(s, d, o, side) is None:
                        yield o


def _misplaced(d: GameData, o: Place, code: str) -> Violation:
    """Why an arrival may not go to o.area, citing where its arrival area comes from: 2.0 I
    for any area, 4.6 for a UK army in ENGLAND, else the Game Events chart, which is
    reconstructed (games/ttlm/events.yaml `placement`)."""
    what, name = o.unit.replace(":", " "), d.areas[o.area].name
    if code == "any":
        return Violation("2.0 I", f"{what} arrives in a supplied Friendly or Disputed area "
                                  f"(2.0 I); {name} is not one")
    if code in d.areas:
        home = d.areas[code].name
        if code == d.sea_home and ":" not in o.unit:        # an army: a UK army (4.6)
            return Violation("4.6", f"{what} arrives in {home} (4.6); {name} is not {home}")
        return Violation("Game Events chart", f"{what} arrives in {home} (reconstructed); "
                                              f"{name} is not {home}")
    return Violation("Game Events chart", f"{what} arrives in a supplied Friendly or Disputed "
                                          f"area of {d.country_name(code)} (reconstructed); "
                                          f"{name} is not one")


def _place_violation(s: State, d: GameData, o: Place, side: str) -> Violation | None:
    item = next((i for i in s.arrivals.get(side, []) if i["unit"] == o.unit), None)
    if item is None:
        return Violation("2.0 I", f"no {o.unit.replace(':', ' ')} is arriving for the "
                                  f"{d.side_name(side)} player this turn")
    if o.area not in d.areas:
        return Violation("4.2", f"{o.area} is not a playable area")
    if o.area not in place_areas(s, d, side, item, supplied_areas(s, d, side)):
        return _misplaced(d, o, item["placement"])
    count = s.stack_count(o.area, side, d)
    if o.into is not None:
        if ":" not in o.unit:
            return Violation("8.1", "an army cannot go into another army")
        v = join_violation(s, d, side, o.area, o.into, [o.unit], "8.1", "reinforcement")
        if v:
            return v
        count += 0 if s.armies[o.into].strength else 1               # an empty army fills
    elif ":" in o.unit:
        count += 1
    if count > d.units.stacking_limit:
        # 8.1: army contents may be altered while placing; say so where an army could help.
        room = "; units moved into an army there first make room (8.1)" \
            if s.armies_in(o.area, side, d) else ""
        return Violation("1.2.2", f"{d.areas[o.area].name} would hold {count} "
                                  f"{d.side_name(side)} units; the stacking limit is "
                                  f"{d.units.stacking_limit} (1.2.2){room}")
    return None


def _swap_options(s: State, d: GameData, side: str) -> list[str]:
    """UK infantry on the map that the Commonwealth unit may replace (8.2.3)."""
    if not s.swaps_due.get(side):
        return []
    nation = d.commonwealth_nation
    out = [p.id for p in sorted(s.pieces.values(), key=lambda p: p.id)
           if p.nation == nation and p.kind == "infantry" and p.area in d.areas]
    for a in sorted(s.armies.values(), key=lambda a: a.id):
        if a.status == "map" and a.contents.get(f"{nation}:infantry"):
            out.append(template_ref(a, f"{nation}:infantry"))
    return out


def _prompt(s: State, d: GameData) -> str:
    b = plans_kept(s, "reinforce")
    sides = [x for x in b["plans"] if x not in b["done"]] if b else [s.pending.side]
    # Nothing here may tell one side what the other has planned: the plans are sealed. A
    # side is named (by its name) only where two owe: the waiting side is named before it.
    parts = []
    for side in sides:
        items = arrival_words([i["unit"] for i in s.arrivals.get(side, [])])
        swap = " and the Commonwealth swap (8.2.3)" if s.swaps_due.get(side) else ""
        who = f"{d.side_name(side)} places" if len(sides) > 1 else "place"
        parts.append(f"{who} {items or 'no units'}{swap}")
    seal = ", sealed until both are in" if b and len(b["plans"]) > 1 else ""
    return (f"reinforcements: {'; '.join(parts)} in supplied Friendly or Disputed areas "
            f"(2.0 I){seal}; units may also go into or out of armies within their areas (8.1)")


def _reader_prompt(s: State, d: GameData, reader: str) -> str:
    """The prompt for a side asked to place (2.0 I): his own arrivals first, those his own
    plan so far has not placed (the other side's plan is never looked at), then the other
    side's, as the public prompt tells them."""
    b = plans_kept(s, "reinforce")
    own = _own(s, d, reader)
    items = arrival_words([i["unit"] for i in own.arrivals.get(reader, [])])
    swap = " and the Commonwealth swap (8.2.3)" if own.swaps_due.get(reader) else ""
    begun = "still to place in your plan:" if b and b["plans"].get(reader) else "place"
    parts = [f"{begun} {items or 'no units'}{swap} in supplied Friendly or Disputed areas "
             f"(2.0 I){_no_room(own, d, reader)}"]
    for side in [x for x in b["plans"] if x not in b["done"] and x != reader] if b else []:
        theirs = arrival_words([i["unit"] for i in s.arrivals.get(side, [])])
        swap = " and the Commonwealth swap" if s.swaps_due.get(side) else ""
        parts.append(f"{d.side_name(side)} places {theirs or 'no units'}{swap}")
    seal = "; sealed until both are in" if b and len(b["plans"]) > 1 else ""
    return (f"reinforcements: {'; '.join(parts)}{seal}; units may also go into or out of "
            f"armies within their areas (8.1)")


def _no_room(s: State, d: GameData, side: str) -> str:
    """The words warning side of his arrivals no area can take as the board stands (none
    where each may arrive is supplied, his, and under the stacking limit): told before his
    plan is in, when he may still make room by moving units into armies (8.1); else ''."""
    placeable = {o.unit for o in _place_orders(s, d, side)}
    stuck = [i["unit"] for i in s.arrivals.get(side, []) if i["unit"] not in placeable]
    if not stuck:
        return ""
    # Where moves into armies would free a place for one of them (room.py), as named.
    where = [d.areas[a].name for a, units in _arriving(s, d, side, stuck).items()
             if room_moves(s, d, side, a, units)]
    if not where:
        # Under hidden templates he may be asked with nothing to decide (hidden_room.py).
        asked = "; send 'done' (asked all the same: what armies hold is hidden, 1.4)" \
            if hidden_templates(s) and not _to_decide_openly(s, d, side) else ""
        return (f"; no area can take {arrival_words(stuck)} as the board stands, and no "
                f"units moved into armies make room for it (1.2.2, 8.1): it stays in the "
                f"force pool{asked}")
    return (f"; no area can take {arrival_words(stuck)} as the board stands: make room in "
            f"{' or '.join(where)} within the stacking limit (units into armies there, 8.1), "
            f"or it stays in the force pool")


def arrival_words(units: list[str]) -> str:
    """Arrivals as a prompt lists them, as the orders that place them name them: armies by
    id, units of one nation and kind counted ('ru-9, 3 ru infantry, ru imperial_guard'), in
    the order they arrive."""
    counts: dict[str, int] = {}
    for unit in units:
        counts[unit] = counts.get(unit, 0) + 1
    return ", ".join(f"{n} {u}" if n > 1 else u for u, n in (
        (unit.replace(":", " "), n) for unit, n in counts.items()))


def own_position(s: State, d: GameData, side: str) -> State:
    """The state side's own sealed placements so far leave (2.0 I: each places his own units;
    the other side's plan is never looked at)."""
    b = plans_kept(s, "reinforce")
    return sealed.planned(s, d, side, _effect) if b and side in b["plans"] else s


_own = own_position


def _candidates(s: State, d: GameData, side: str):
    s = _own(s, d, side)
    yield from _place_orders(s, d, side)
    for ref in _swap_options(s, d, side):
        yield Swap(unit=ref)
    yield from reorganise_candidates(s, d, side)
    yield Done()


def _placed_already(before: State, s: State, d: GameData, o: Place,
                    side: str) -> Violation | None:
    """A unit that arrives this turn but that side's own sealed plan has placed already
    (2.0 I): said so, naming the orders that placed it, rather than that none arrives."""
    if s is before or any(i["unit"] == o.unit for i in s.arrivals.get(side, [])):
        return None
    arriving = sum(1 for i in before.arrivals.get(side, []) if i["unit"] == o.unit)
    if not arriving:
        return None
    plan = plans_kept(before, "reinforce")["plans"][side]
    earlier = [f"'{t}' (order {n} of the plan)" for n, (t, p) in enumerate(
        zip(plan, sealed.own_plan(before, d, side)), 1)
        if isinstance(p, Place) and p.unit == o.unit]
    what = o.unit.replace(":", " ")
    told = "it" if arriving == 1 else f"all {arriving}"
    return Violation("2.0 I", f"{what} arrives this turn, but your sealed plan places {told} "
                              f"already: {'; '.join(earlier)}")


def _check(s: State, d: GameData, o: Ord, side: str) -> Violation | None:
    before, s = s, _own(s, d, side)
    if isinstance(o, Place):
        return _placed_already(before, s, d, o, side) or _place_violation(s, d, o, side)
    if isinstance(o, Move):
        return reorganise_violation(s, d, o, side, "Reinforcement")
    if isinstance(o, Swap):
        if o.unit not in _swap_options(s, d, side):
            return Violation("8.2.3", f"{o.unit} is not a "
                                      f"{(d.commonwealth_nation or '').upper()} infantry unit "
                                      f"on the map for a Commonwealth unit to replace")
        return None
    if _placeable(s, d, side) or _swap_options(s, d, side):
        return Violation("2.0 I", "reinforcements must be placed while a legal place exists")
    return None


def _effect(ctx: Ctx, o: Ord, side: str) -> None:
    """What one placement, swap or move into or out of an army does (2.0 I, 8.1, 8.2.3)."""
    s = ctx.state
    if isinstance(o, Place):
        if ":" in o.unit and o.into is not None and hidden_templates(s):
            # 1.4: what goes into which army, and where, is the owner's secret.
            ctx.emit(UnitPlaced(side=side, secret=ctx.secret(side, {
                "unit": o.unit, "area": o.area, "into": o.into})))
        elif ":" in o.unit:
            nation, kind = o.unit.split(":")
            new_id = None if o.into else s.new_piece_id(nation, kind, ctx.data)
            ctx.emit(UnitPlaced(side=side, unit=o.unit, area=o.area, into=o.into,
                                new_id=new_id))
        else:
            ctx.emit(UnitPlaced(side=side, unit=o.unit, area=o.area))
    elif isinstance(o, Move):
        apply_reorganise(ctx, o, side)
    elif isinstance(o, Swap):
        sw = s.swaps_due[side][0]
        if o.unit in s.pieces:
            area = s.pieces[o.unit].area
        else:
            area = s.armies[template_key(s, o.unit)[0]].area
        if o.unit not in s.pieces and hidden_templates(s):
            # 1.4: the swap on an army template is the owner's secret.
            ctx.emit(CommonwealthSwapped(side=side, unit=sw["unit"], name=sw["name"],
                                         secret=ctx.secret(side, {
                                             "replaced": o.unit, "area": area,
                                             "new_id": None})))
        else:
            ctx.emit(CommonwealthSwapped(side=side, unit=sw["unit"], name=sw["name"],
                                         replaced=o.unit, area=area,
                                         new_id=None if o.unit not in s.pieces else
                                         s.new_piece_id(ctx.data.commonwealth_nation,
                                                        "commonwealth", ctx.data)))


def _apply(ctx: Ctx, o: Ord, side: str) -> None:
    if plans_kept(ctx.state, "reinforce") is not None:
        if isinstance(o, Done):
            sealed.close_plan(ctx, side)
        else:
            sealed.seal_one(ctx, o, side)
        return
    # One side at a time (journals from before sealed placement).
    if isinstance(o, Done):
        _drop_all(ctx, side)
    else:
        _effect(ctx, o, side)
    if not next_placement(ctx):
        _after(ctx)


def _after(ctx: Ctx) -> None:
    settle_empty_armies(ctx)
    finish(ctx, "reinforcements")


def _complete(s: State, d: GameData, side: str, orders: list) -> bool:
    """Whether side's plan (with orders) leaves nothing to place or swap: it closes unasked."""
    try:
        s = sealed.planned(s, d, side, _effect, orders)
    except (KeyError, IndexError, ValueError):
        return False                # an order that cannot be made: its check will say why
    return not _to_decide(s, d, side)


def _reveal(ctx: Ctx, plans: dict) -> None:
    """Both plans are in: German then Entente, each in its order; what could not be placed
    stays in the pool; then empty armies are settled (2.0 I, 8.1)."""
    for side in ctx.data.sides:
        for o in plans[side]:
            _effect(ctx, o, side)
        if ctx.state.arrivals.get(side) or ctx.state.swaps_due.get(side):
            _drop_all(ctx, side)
    _after(ctx)


def settle_empty_armies(ctx: Ctx) -> None:
    """8.1: once placing (or building) is over, an empty army in a Disputed area without
    Friendly infantry-type units is eliminated; an accompanied one leaves when it can."""
    s = ctx.state
    settle(ctx, sorted({a.area for a in s.armies.values()
                        if a.status == "map" and a.strength == 0 and a.area in ctx.data.areas}))


register(DecisionSpec(
    kind="reinforce", rule="2.0 I", prompt=_prompt, accepts=("place", "swap", "move", "done"),
    candidates=_candidates, check=_check, apply=_apply, extra={"sealed": sealed.generic(
        "reinforce", "2.0 I", "reinforcements placed", _reveal, _complete),
        "reader_prompt": _reader_prompt, "room": _room_plan,
        "ids": _plan_ids}))

__all__ = ["arrivals", "next_placement", "own_position", "piece_key", "settle_empty_armies"]
