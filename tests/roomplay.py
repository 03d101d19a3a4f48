"""The room moves into armies make for an arrival, found by playing the moves out: the
reference the counting of engine/room.py is compared with (1.2.2, 2.0 I, 8.1).

Each legal 'move X into ARMY' within the arrival's area (as the Reinforcement phase checks
it) is applied to a copy of the state, up to two of them, and the arrival is then looked
for a place as an order would be (reinforce._place_orders); and, for an army holding more
units than that, its units are moved one by one into the other armies there until it is
empty (a place for the arrival looked for after each move). Slow, but right by
construction.
"""

from __future__ import annotations

from referee.contracts.orders import Move
from referee.engine import reinforce, room, sealed
from referee.engine.alone import template_ref
from referee.engine.core import Ctx, Violation
from referee.engine.movement import apply_reorganise, movers, reorganise_violation
from referee.engine.supply import supplied_areas

DEPTH = 2


def placeable_in(s, d, side: str, area: str) -> bool:
    """Whether some arrival of side's has a legal place in area as the board stands."""
    return any(o.area == area for o in reinforce._place_orders(s, d, side))


def moves_into_armies(s, d, side: str, area: str):
    """Every legal 'move X into ARMY' of side's within area in the Reinforcement phase."""
    armies = s.armies_in(area, side, d)
    for m in movers(s, d, side):
        if isinstance(m, Violation) or m.army is not None or m.area != area:
            continue
        for a in armies:
            o = Move(unit=m.ref, into=a.id)
            if reorganise_violation(s, d, o, side, "Reinforcement") is None:
                yield o


def played_room(s, d, side: str, area: str, depth: int = DEPTH) -> bool:
    """Whether up to depth moves into armies within area leave a place there for an
    arrival, or the moves emptying an army there, however many (emptied_room)."""
    return _played(s, d, side, area, depth) or emptied_room(s, d, side, area)


def _played(s, d, side: str, area: str, depth: int) -> bool:
    if placeable_in(s, d, side, area):
        return True
    if depth == 0:
        return False
    for o in list(moves_into_armies(s, d, side, area)):
        ctx = Ctx(s.clone(), d, sealed.NoDice())
        apply_reorganise(ctx, o, side)
        if _played(ctx.state, d, side, area, depth - 1):
            return True
    return False


def emptied_room(s, d, side: str, area: str) -> bool:
    """Whether moving the units of one army of side's within area, one by one, into its other
    armies there (any number of moves, each legal as played) leaves a place for an arrival
    on the way. Only armies holding more units than the search above moves are tried."""
    return any(_emptying(s, d, side, area, x.id, set())
               for x in s.armies_in(area, side, d) if x.strength > DEPTH)


def _emptying(s, d, side: str, area: str, x: str, seen: set) -> bool:
    army = s.armies[x]
    for key in [k for k, n in army.contents.items() if n]:
        for a in s.armies_in(area, side, d):
            o = Move(unit=template_ref(army, key), into=a.id)
            if a.id == x or reorganise_violation(s, d, o, side, "Reinforcement") is not None:
                continue
            ctx = Ctx(s.clone(), d, sealed.NoDice())
            apply_reorganise(ctx, o, side)
            t = ctx.state
            held = tuple(sorted((b.id, tuple(sorted(b.contents.items())))
                                for b in t.armies_in(area, side, d)))
            if held in seen:
                continue
            seen.add(held)
            if placeable_in(t, d, side, area) or (
                    x in t.armies and _emptying(t, d, side, area, x, seen)):
                return True
    return False


def moves_make_room(s, d, side: str, area: str, arriving: list[str]) -> bool:
    """Whether the moves room.room_moves gives are each legal in turn and, played out, leave
    a place in area for an arrival."""
    for o in room.room_moves(s, d, side, area, arriving) or []:
        if reorganise_violation(s, d, o, side, "Reinforcement") is not None:
            return False
        ctx = Ctx(s.clone(), d, sealed.NoDice())
        apply_reorganise(ctx, o, side)
        s = ctx.state
    return placeable_in(s, d, side, area)


def arriving_in(s, d, side: str, area: str) -> list[str]:
    """The arrivals of side's that may be placed in area (as _room_to_make gathers them)."""
    supplied = supplied_areas(s, d, side)
    return [i["unit"] for i in s.arrivals.get(side, [])
            if area in reinforce.place_areas(s, d, side, i, supplied)]


def signature(s, d, side: str, area: str, arriving: list[str]) -> tuple:
    """What both answers depend on: side's counters in area, their markers, the year."""
    armies = tuple(sorted((a.id, a.nation, tuple(sorted((k, n) for k, n in a.contents.items()
                                                        if n)), a.id in s.oos)
                          for a in s.armies_in(area, side, d)))
    pieces = tuple(sorted((p.id, p.nation, p.kind, p.id in s.oos)
                          for p in s.pieces_in(area, side, d)))
    apart = tuple(sorted(s.keep_apart.items())) if area == d.sea_home else ()
    return (area, d.year(s.turn), armies, pieces, apart, tuple(sorted(arriving)),
            s.stack_count(area, side, d))


def compare(s, d, side: str, area: str) -> tuple[bool, bool] | None:
    """(counted, played) for side's arrivals in area, when nothing is placeable there as the
    board stands (where the counting is asked); None otherwise."""
    arriving = arriving_in(s, d, side, area)
    if not arriving or placeable_in(s, d, side, area):
        return None
    return room.room_in(s, d, side, area, arriving), played_room(s, d, side, area)


def with_arrivals(s, d, side: str, area: str, units: list[str]):
    """A copy of s in which units (keys 'nation:kind', or army ids) arrive for side in area."""
    t = s.clone()
    t.arrivals = {**t.arrivals, side: [{"unit": u, "placement": area} for u in units]}
    return t


def probes(s, d, side: str) -> list[tuple[str, list[str]]]:
    """Arrivals to try in each area of side's that holds an army, is at the stacking limit
    and may take arrivals: one of each kind of side's units there, and all of them at once."""
    supplied = supplied_areas(s, d, side)
    out = []
    for area in sorted({a.area for a in s.armies.values() if a.status == "map"
                        and a.area in d.areas and d.nation_side[a.nation] == side}):
        if s.stack_count(area, side, d) < d.units.stacking_limit or area not in supplied or \
                s.status(area, side, d) not in ("friendly", "disputed"):
            continue
        keys = {f"{p.nation}:{p.kind}" for p in s.pieces_in(area, side, d)}
        keys |= {k for a in s.armies_in(area, side, d) for k, n in a.contents.items() if n}
        keys = sorted(keys)
        out += [(area, [k]) for k in keys]
        if len(keys) > 1:
            out.append((area, keys))
    return out


class Sweep:
    """The positions compared, and those where the two answers differ or the moves counted
    do not make the room they were counted for."""

    def __init__(self):
        self.seen: set = set()
        self.compared = 0
        self.room = 0
        self.differ: list[str] = []

    def position(self, s, d, side: str) -> None:
        """Compare at side's own arrivals in each area, then at the probes."""
        areas = {a for i in s.arrivals.get(side, []) for a in reinforce.place_areas(
            s, d, side, i, supplied_areas(s, d, side))}
        for area in sorted(areas):
            self._one(s, d, side, area)
        for area, units in probes(s, d, side):
            self._one(with_arrivals(s, d, side, area, units), d, side, area)

    def _one(self, s, d, side: str, area: str) -> None:
        key = signature(s, d, side, area, arriving_in(s, d, side, area))
        if key in self.seen:
            return
        self.seen.add(key)
        got = compare(s, d, side, area)
        if got is None:
            return
        self.compared += 1
        self.room += got[1]
        if got[0] != got[1]:
            self.differ.append(f"record {s.seq} {side} {key}: counted {got[0]}, "
                               f"played {got[1]}")
        elif got[0] and not moves_make_room(s, d, side, area, arriving_in(s, d, side, area)):
            self.differ.append(f"record {s.seq} {side} {key}: the moves counted, "
                               f"{room.room_moves(s, d, side, area, key[5])}, make no room")
