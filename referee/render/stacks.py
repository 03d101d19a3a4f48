"""Where each area's counters go on the map picture: together in a small grid beside the
area's circle (one column, or two or three side by side), a leader to the circle when the
grid stands off, or when it stands within a letter as near another area's circle (TIE), so
that a reader on a phone sees which circle every stack belongs to; where no grid of them has
room, each counter on its own with its own leader. A stack whose place is not nearer its
own circle than any other area's is placed anew carrying its area's name (stackname.py), so
that no stack reads as another area's even where its leader is missed. Every place is checked
against everything drawn (labels.Space): no counter over another, over a name, a mark, a circle or a
leader, and over a line joining two neighbours only where no place clear of the lines is
near. An area whose counters find no place at all makes the whole picture grow (svgmap.py):
no unit is ever left off.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from . import counters as cnt
from . import labels, stackname
from .mapbase import Base
from .memo import remembered
from .svgparts import Scale

DOWN = math.pi / 2
REACH = 8.0            # how far from its circle a stack may stand, in letters of the writing
FAR = 14.0             # how far when no place is that near
TIE = 1.0              # a stack not this many letters nearer its circle than any other's: a leader
LEAD = 3.0             # the width of a stack's leader, in pixels (svgmap.py draws it)
RETRIES = 3            # the times an area that found no place is tried first again
ALONE = 2048           # the answers of fits_alone kept with a base, the least used go
REFUSED = 4 * ALONE    # the failed searches those leave on the base's own space, then dropped


@dataclass(frozen=True)
class Stack:
    """Counters of one area placed together: their grid's box, its leader, and each
    counter with its top left corner; the area's name when the box carries it on its first
    line (stackname.py), else None."""

    area: str
    box: labels.Box
    leader: tuple[float, float, float, float] | None
    cells: tuple[tuple[cnt.Counter, float, float], ...]
    name: str | None = None


def grid(cs: list[cnt.Counter], scale: Scale, columns: int
         ) -> tuple[float, float, list[tuple[float, float]]]:
    """Counters in rows of `columns`: the grid's width and height, and each counter's offset
    from its top left corner."""
    sizes = [cnt.size(c, scale) for c in cs]
    gap = scale.pad
    widths = [max(sizes[i][0] for i in range(k, len(cs), columns))
              for k in range(min(columns, len(cs)))]
    heights = [max(s[1] for s in sizes[r:r + columns]) for r in range(0, len(cs), columns)]
    offsets = []
    for i in range(len(cs)):
        col, row = i % columns, i // columns
        offsets.append((sum(widths[:col]) + gap * col, sum(heights[:row]) + gap * row))
    return sum(widths) + gap * (len(widths) - 1), sum(heights) + gap * (len(heights) - 1), \
        offsets


def _shapes(n: int) -> tuple[int, ...]:
    """The numbers of columns tried for n counters, the one that reads best first."""
    if n <= 2:
        return (1, 2)
    if n <= 4:
        return (1, 2) if n == 3 else (2, 1)
    return (2, 3, 1)


def _try(space: labels.Space, base: Base, area: str, cs: list[cnt.Counter],
         columns: int, strict: bool | None, reach: float = REACH, keep: bool = True,
         name: str = "") -> Stack | None:
    """A place for the grid, as near its circle as there is one. Where that place does not
    read as its own area's (not NAMED letters nearer its circle than any other area's:
    labels.owns), the grid is placed anew with the area's `name` as its first line
    (stackname.py), the taller box clear of every label as any is; None: no place."""
    w, h, offsets = grid(cs, base.scale, columns)
    x, y = base.pos[area]
    f, r = base.scale.font, base.ring(area)
    got = labels.place(space, area, x, y, r, w, h, DOWN, reach * f, strict, f, False,
                       lead=LEAD, tie=TIE * f)
    if got is None:
        return None
    top, named = 0.0, None
    apart = stackname.NAMED * f
    if not labels.owns(space, area, got[0], x, y, r, apart):
        wide, high = stackname.size(name, base.scale)
        named_at = labels.place(space, area, x, y, r, max(w, wide), h + high, DOWN,
                                reach * f, strict, f, False, lead=LEAD, tie=TIE * f)
        if named_at is not None:
            got, top, named = named_at, high, name
        else:
            got = labels.place(space, area, x, y, r, w, h, DOWN, reach * f, strict, f,
                               False, apart, lead=LEAD, tie=TIE * f)
            if got is None:
                return None
    box, leader = got
    if keep:
        labels.keep_place(space, area, box, leader, LEAD)
    cells = tuple((c, box[0] + dx, box[1] + top + dy) for c, (dx, dy) in zip(cs, offsets))
    return Stack(area, box, leader, cells, named)


def place_area(space: labels.Space, base: Base, area: str, cs: list[cnt.Counter],
               name: str | None = None) -> list[Stack] | None:
    """The stacks of one area's counters, added to the space: one grid clear of the lines if
    one fits, else one over them, else each counter alone; None when one finds no place.
    Each stack stands where it reads as its area's, or carries the area's `name` (its id
    when none is given)."""
    name = area if name is None else name
    got = _as_grid(space, base, area, cs, name)
    return [got] if got is not None else _each_alone(space, base, area, cs, name)


def _as_grid(space: labels.Space, base: Base, area: str, cs: list[cnt.Counter], name: str,
             keep: bool = True) -> Stack | None:
    """The area's counters as one grid (added to the space when keep), or None."""
    for reach in (REACH, FAR):
        for columns in _shapes(len(cs)):
            got = _try(space, base, area, cs, columns, None, reach, keep, name)
            if got is not None:
                return got
    return None


def _each_alone(space: labels.Space, base: Base, area: str, cs: list[cnt.Counter],
                name: str) -> list[Stack] | None:
    out = []
    for c in cs:
        got = _try(space, base, area, [c], 1, None, FAR, name=name)
        if got is None:
            return None
        out.append(got)
    return out


def fits_alone(base: Base, area: str, cs: list[cnt.Counter],
               sizes: tuple[tuple[float, float], ...] | None = None,
               name: str | None = None) -> bool:
    """Whether an area's counters find a place on the map with the map to themselves (no
    other area's counters placed yet), as place_area puts them: the answer depends on the
    base, the area and its counters' sizes only (given, or worked out), and is kept with
    the base under these (the same area holding counters of the same sizes is met again
    and again, in every game of a data; its name, which a stack may carry, is the same in
    all of them)."""
    if sizes is None:
        sizes = tuple(cnt.size(c, base.scale) for c in cs)
    name = area if name is None else name
    return remembered(base.alone, (area, sizes), lambda: _alone(base, area, cs, name), ALONE)


def _alone(base: Base, area: str, cs: list[cnt.Counter], name: str) -> bool:
    """fits_alone worked out: a grid only looked for on the base's own space (nothing is
    added to it), counters one by one on a copy of it. The searches that failed are kept
    on that space (labels.Space.refused), which lives as long as the base: past REFUSED
    they are dropped, as the answers are past ALONE (the same searches are made again)."""
    if len(base.space.refused) > REFUSED:
        base.space.refused.clear()
    return _as_grid(base.space, base, area, cs, name, keep=False) is not None or \
        _each_alone(base.space.copy(), base, area, cs, name) is not None


def _too_short(base: Base, order: list[str], by_area: dict[str, list[cnt.Counter]],
               sizes: dict[str, tuple], names: dict[str, str]) -> bool:
    """Whether an area's counters find no place even with the map to themselves (fits_alone):
    the answers kept with the base are looked at before any is worked out."""
    if any(base.alone.get((a, sizes[a])) is False for a in order):
        return True
    return not all(fits_alone(base, a, by_area[a], sizes[a], names.get(a)) for a in order)


def place_all(base: Base, by_area: dict[str, list[cnt.Counter]],
              names: dict[str, str] | None = None) -> list[Stack] | None:
    """Every area's stacks on the space the base leaves free, the areas with the most to
    place first; an area that finds no place is tried first again, a few times; None when
    one still finds none (the picture must grow). For the whole map, None at once when an
    area finds no place even with the map to itself (_too_short), before any counter is
    placed: in a 1914 game most levels that fail, fail so, and placing would find it out
    only after most of the map. (Others' counters could, in principle, offer such an area
    a corner that the bare map does not; that level is given up all the same, and the map
    drawn a level taller. No layout of the tests, of the benchmark or of random games of
    either game and every scenario has met this: docs/design.md.) A close-up, of a few
    areas, hardly ever fails and its base is seldom met again: there, looking first would
    cost more than it saves. A stack that carries its area's name carries it as `names`
    writes it (the area's id when it does not)."""
    names = names or {}
    sizes = {a: tuple(cnt.size(c, base.scale) for c in cs) for a, cs in by_area.items() if cs}
    order = sorted(sizes, key=lambda a: (-sum(w * h for w, h in sizes[a]), a))
    if base.whole and _too_short(base, order, by_area, sizes, names):
        return None
    for _ in range(RETRIES):
        room, out, failed = base.space.copy(), [], None
        for area in order:
            got = place_area(room, base, area, by_area[area], names.get(area))
            if got is None:
                failed = area
                break
            out += got
        if failed is None:
            return out
        if failed == order[0]:           # it had the map to itself: it would fail again
            return None
        order.remove(failed)
        order.insert(0, failed)
    return None
