"""Room an arrival may still have once units go into armies within its area (1.2.2, 2.0 I, 8.1).

2.0 I places arrivals within the stacking limit, and 8.1 lets army contents be altered
within their areas while they are placed; an empty army counts no unit toward stacking, an
army holding units one (1.2.2). So in an area at the limit a side frees a place by moving
into an army holding units a unit that counts one and leaves nothing counting behind (a
stand-alone unit, or the only unit of an army), or two such into an empty army; an arrival
goes into an empty army once one such unit is in it; and an army whose template refuses an
arrival, or a stand-alone unit, may take it once one of its units has gone into another army
holding units there; an army holding several units counts none once they have all gone into
armies holding units whose templates take them, and once all but one have, the last may go
into an empty army and an arrival after it.

This is worked out by counting over the side's counters in one area, each move checked as
the order would be (movement.reorganise_violation) and each template as the army would hold
it, without playing any move: the reinforcement plan asks it at every step while nothing
can be placed as the board stands. The moves found are given too, in order (room_moves),
for the example of a plan a mail shows; the mail plays them out before it shows them.
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
    return room_moves(s, d, side, area, arriving) is not None


def room_moves(s: State, d: GameData, side: str, area: str,
               arriving: list[str]) -> list[Move] | None:
    """The moves into armies within area (8.1), in order, that make room there for one of
    arriving (keys 'nation:kind', or army ids) under the stacking limit (1.2.2): none when
    one has room as the board stands; None when no such moves make room."""
    count, limit = s.stack_count(area, side, d), d.units.stacking_limit
    units = [k for k in dict.fromkeys(arriving) if ":" in k]
    # Places to free for a loose arrival: an army counts none as it arrives, a unit one.
    need = min(count + (1 if ":" in k else 0) - limit for k in arriving)
    if need <= 0:
        return []
    armies = s.armies_in(area, side, d)
    held = [a for a in armies if a.strength]
    empty = [a for a in armies if not a.strength]
    # Units that count one where they stand and leave nothing counting when they go into an
    # army: stand-alone units, and the only unit of an army (which is then empty).
    ones = [(p.id, piece_key(p.nation, p.kind), None) for p in s.pieces_in(area, side, d)]
    ones += [(template_ref(a, k), k, a) for a in held if a.strength == 1
             for k, n in a.contents.items() if n]
    into_held = [(m, a) for m in ones for a in [next(
        (a for a in held if a is not m[2] and _joins(s, d, side, m[0], a)), None)] if a]
    if need > 1:
        # Not in a legal position (stacking holds at all times, 1.2.2): counted one place a
        # unit into an army holding units, one for each two others that may join an empty one.
        taken = [m for m, _ in into_held]
        rest = [(m, e) for m in ones if m not in taken for e in [next(
            (e for e in empty if _joins(s, d, side, m[0], e)), None)] if e]
        if len(into_held) + len(rest) // 2 < need:
            return None
        return [_move(m, a) for m, a in into_held] + [_move(m, e) for m, e in rest]
    if into_held:
        return [_move(*into_held[0])]
    for e in empty:
        joining = [m for m in ones if _joins(s, d, side, m[0], e)]
        for i, m in enumerate(joining):
            if not marked(s, d, e.id) and any(_holds(s, d, e, [m[1], k]) for k in units):
                return [_move(m, e)]                    # one into it, and the arrival after it
            other = next((o for o in joining[i + 1:] if _holds(s, d, e, [m[1], o[1]])), None)
            if other is not None:
                return [_move(m, e), _move(other, e)]   # two into an empty army free a place
            # One into it, then a unit of a fuller army, whose template then takes one.
            for x in held:
                key = _refilled(s, d, e, m, x, units) if x.strength > 1 else None
                if key is not None:
                    return [_move(m, e), Move(unit=template_ref(x, key), into=e.id)]
    return next((got for x in held if x.strength > 1
                 for got in [_freed_template(s, d, side, x, held, ones, units)] if got),
                None) or _emptied(s, d, side, held, empty, units)


def _move(m: tuple, army: Army) -> Move:
    return Move(unit=m[0], into=army.id)


def _freed_template(s: State, d: GameData, side: str, x: Army, held: list[Army],
                    ones: list, units: list[str]) -> list[Move] | None:
    """The moves by which a unit of x gone into another army holding units there (the count
    unchanged) leaves x's template room for an arrival, or for a unit counting one, whose
    move then frees a place; None if none do."""
    for key, n in x.contents.items():
        into = [y for y in held if y is not x and _joins(s, d, side, template_ref(x, key), y)]
        if not n or not into:
            continue
        left = Counter(x.contents)
        left[key] -= 1
        if not marked(s, d, x.id) and any(_holds(s, d, x, [k], left) for k in units):
            return [Move(unit=template_ref(x, key), into=into[0].id)]
        # A unit counting one frees its place going into x only if what it leaves behind
        # counts none: not the army the unit of x went into.
        for ref, k, source in ones:
            y = next((y for y in into if y is not source), None)
            if _holds(s, d, x, [k], left) and not _kept_apart(s, d, ref, x) and y is not None:
                return [Move(unit=template_ref(x, key), into=y.id), Move(unit=ref, into=x.id)]
    return None


def _emptied(s: State, d: GameData, side: str, held: list[Army], empty: list[Army],
             units: list[str]) -> list[Move] | None:
    """The moves by which an army x holding two units or more is emptied: all but one of them
    into other armies holding units (the count unchanged), each template taking what goes
    into it; then the last, x's only unit by then, into one of them too (x counting none, a
    place freed), or into an empty army the arrival then goes into beside it (the count
    unchanged again); None if x is none such. At the limit no unit of x may go into an empty
    army before the last (it would count one more, 1.2.2)."""
    for x in (x for x in held if x.strength > 1):
        keys = sorted(k for k, n in x.contents.items() for _ in range(n))
        into = {k: [y for y in held if y is not x and _joins(s, d, side, template_ref(x, k), y)]
                for k in set(keys)}
        added: dict[str, list[str]] = {y.id: [] for y in held}
        if _spread(s, d, keys, into, added):
            return _moves_out(x, added)
        for last in dict.fromkeys(keys):
            ref = template_ref(x, last)
            e = next((e for e in empty if not marked(s, d, e.id) and
                      not _kept_apart(s, d, ref, e) and
                      any(_holds(s, d, e, [last, k]) for k in units)), None)
            rest = list(keys)
            rest.remove(last)
            added = {y.id: [] for y in held}
            if e is not None and _spread(s, d, rest, into, added):
                return _moves_out(x, added) + [Move(unit=ref, into=e.id)]
    return None


def _spread(s: State, d: GameData, keys: list[str], into: dict[str, list[Army]],
            added: dict[str, list[str]], low: int = 0) -> bool:
    """Whether the units keys (sorted) may each go into one of the armies into[key] holding
    units, each template taking all that goes into it beside what it holds (1.4); what goes
    where is then in added. Units of one kind take the armies in order (low: the first the
    next may take), so that no split is tried twice."""
    if not keys:
        return True
    key, rest = keys[0], keys[1:]
    for i, y in enumerate(into[key][low:], low):
        if _holds(s, d, y, added[y.id] + [key]):
            added[y.id].append(key)
            if _spread(s, d, rest, into, added, i if rest and rest[0] == key else 0):
                return True
            added[y.id].pop()
    return False


def _moves_out(x: Army, added: dict[str, list[str]]) -> list[Move]:
    return [Move(unit=template_ref(x, k), into=y) for y, ks in added.items() for k in ks]


def _refilled(s: State, d: GameData, e: Army, m: tuple, x: Army,
              units: list[str]) -> str | None:
    """The unit of x (its key) that, once m is in the empty army e (the count unchanged), may
    follow it there (the count unchanged again) and leave x's template room for an arrival;
    None if none may."""
    if marked(s, d, x.id):
        return None
    for key, n in x.contents.items():
        if not n or not _holds(s, d, e, [m[1], key]):
            continue
        left = Counter(x.contents)
        left[key] -= 1
        if any(_holds(s, d, x, [k], left) for k in units):
            return key
    return None


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
