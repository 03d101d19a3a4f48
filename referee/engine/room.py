"""Room an arrival may still have once units go into armies within its area (1.2.2, 2.0 I, 8.1).

2.0 I places arrivals within the stacking limit, and 8.1 lets army contents be altered
within their areas while they are placed; an empty army counts no unit toward stacking, an
army holding units one (1.2.2). So in an area at the limit a side frees a place by moving
into an army holding units a unit that counts one and leaves nothing counting behind (a
stand-alone unit, or the only unit of an army), or two such into an empty army; an arrival
goes into an empty army once one such unit is in it; and an army whose template refuses an
arrival, or a stand-alone unit, may take it once one of its units has gone into another army
holding units there.

This is worked out by counting over the side's counters in one area, each move checked as
the order would be (movement.reorganise_violation) and each template as the army would hold
it, without playing any move: the reinforcement plan asks it at every step while nothing
can be placed as the board stands.
"""

from __future__ import annotations

from collections import Counter

from ..contracts.orders import Move
from ..data.gamedata import GameData
from .alone import template_ref
from .armies import marked, template_violation
from .movement import reorganise_violation
from .state import Army, State, piece_key


def room_in(s: State, d: GameData, side: str, area: str, arriving: list[str]) -> bool:
    """Whether moves into armies within area (8.1) make room there for one of arriving (keys
    'nation:kind', or army ids), under the stacking limit (1.2.2)."""
    count, limit = s.stack_count(area, side, d), d.units.stacking_limit
    units = [k for k in dict.fromkeys(arriving) if ":" in k]
    # Places to free for a loose arrival: an army counts none as it arrives, a unit one.
    need = min(count + (1 if ":" in k else 0) - limit for k in arriving)
    if need <= 0:
        return True
    armies = s.armies_in(area, side, d)
    held = [a for a in armies if a.strength]
    empty = [a for a in armies if not a.strength]
    # Units that count one where they stand and leave nothing counting when they go into an
    # army: stand-alone units, and the only unit of an army (which is then empty).
    ones = [(p.id, piece_key(p.nation, p.kind), None) for p in s.pieces_in(area, side, d)]
    ones += [(template_ref(a, k), k, a) for a in held if a.strength == 1
             for k, n in a.contents.items() if n]
    into_held = [m for m in ones if any(_joins(s, d, side, m[0], a) for a in held
                                        if a is not m[2])]
    if need > 1:
        # Not in a legal position (stacking holds at all times, 1.2.2): counted one place a
        # unit into an army holding units, one for each two others that may join an empty one.
        rest = [m for m in ones if m not in into_held and
                any(_joins(s, d, side, m[0], e) for e in empty)]
        return len(into_held) + len(rest) // 2 >= need
    if into_held:
        return True
    for e in empty:
        joining = [m for m in ones if _joins(s, d, side, m[0], e)]
        for i, m in enumerate(joining):
            if any(_holds(s, d, e, [m[1], o[1]]) for o in joining[i + 1:]):
                return True             # two into an empty army free a place
            if not marked(s, d, e.id) and any(_holds(s, d, e, [m[1], k]) for k in units):
                return True             # one into it, and the arrival after it
            if any(_refilled(s, d, e, m, x, units) for x in held if x.strength > 1):
                return True             # one into it, then a unit of a fuller army
    return any(_freed_template(s, d, side, x, held, ones, units) for x in held
               if x.strength > 1)


def _freed_template(s: State, d: GameData, side: str, x: Army, held: list[Army],
                    ones: list, units: list[str]) -> bool:
    """Whether a unit of x gone into another army holding units there (the count unchanged)
    leaves x's template room for an arrival, or for a unit counting one, whose move then
    frees a place."""
    for key, n in x.contents.items():
        into = [y for y in held if y is not x and _joins(s, d, side, template_ref(x, key), y)]
        if not n or not into:
            continue
        left = Counter(x.contents)
        left[key] -= 1
        if not marked(s, d, x.id) and any(_holds(s, d, x, [k], left) for k in units):
            return True
        # A unit counting one frees its place going into x only if what it leaves behind
        # counts none: not the army the unit of x went into.
        for ref, k, source in ones:
            if _holds(s, d, x, [k], left) and not _kept_apart(s, d, ref, x) and \
                    any(y is not source for y in into):
                return True
    return False


def _refilled(s: State, d: GameData, e: Army, m: tuple, x: Army, units: list[str]) -> bool:
    """Whether, once m is in the empty army e (the count unchanged), a unit of x may follow
    it there (the count unchanged again) and leave x's template room for an arrival."""
    if marked(s, d, x.id):
        return False
    for key, n in x.contents.items():
        if not n or not _holds(s, d, e, [m[1], key]):
            continue
        left = Counter(x.contents)
        left[key] -= 1
        if any(_holds(s, d, x, [k], left) for k in units):
            return True
    return False


def _joins(s: State, d: GameData, side: str, ref: str, army: Army) -> bool:
    """Whether 'move ref into army' is legal now (8.1, 1.4, 4.6, 1.2.2)."""
    return reorganise_violation(s, d, Move(unit=ref, into=army.id), side,
                                "Reinforcement") is None


def _holds(s: State, d: GameData, army: Army, keys: list[str],
           contents: Counter | None = None) -> bool:
    """Whether army's template takes keys beside contents (by default what it holds) (1.4)."""
    after = Counter(army.contents if contents is None else contents)
    after.update(keys)
    return template_violation(s, d, army, dict(after)) is None


def _kept_apart(s: State, d: GameData, ref: str, army: Army) -> bool:
    """4.6: a unit and an army kept apart while they are in the sea home area."""
    return army.area == d.sea_home and (s.keep_apart.get(ref) == army.id or
                                        s.keep_apart.get(army.id) == ref)
