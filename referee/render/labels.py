"""Where the labels of the map picture go: no label over another, over an area's circle or
across a line joining two neighbours (4.1), so that every name and unit reads on a phone.

Each label is a box placed beside its area's circle: tried in rings of growing distance and,
within a ring, in directions from the one it prefers (a name above its area, units below),
the first free place wins. A label that is not touching its circle gets a thin leader to
it, itself clear of every label and circle. What is already drawn is kept in buckets of the
picture, so a place is checked against the few things near it only.
"""

from __future__ import annotations

import functools
import math

Box = tuple[float, float, float, float]          # x0, y0, x1, y1

GAP = 1.5              # the least room between a label and anything else
BUCKET = 40.0
RINGS = (2.0, 3.5, 6.0, 10.0, 15.0, 21.0, 28.0, 36.0, 45.0, 55.0)
LEADER = 5.0           # a label further than this from its circle gets a leader
DIRECTIONS = 32
STEP = 5.0             # the grid of places tried last
CELL = 4.0             # the cells that reject most places at once


def segment_meets_box(x0: float, y0: float, x1: float, y1: float, box: Box) -> bool:
    """Whether a segment enters a box (Liang-Barsky clipping)."""
    lo, hi = 0.0, 1.0
    for p, q in ((x0 - x1, x0 - box[0]), (x1 - x0, box[2] - x0),
                 (y0 - y1, y0 - box[1]), (y1 - y0, box[3] - y0)):
        if p == 0:
            if q < 0:
                return False
        elif p < 0:
            lo = max(lo, q / p)
        else:
            hi = min(hi, q / p)
    return lo <= hi


def box_to_point(box: Box, x: float, y: float) -> float:
    return math.hypot(max(box[0] - x, 0.0, x - box[2]), max(box[1] - y, 0.0, y - box[3]))


def _segment_to_point(x0, y0, x1, y1, px, py) -> float:
    dx, dy = x1 - x0, y1 - y0
    t = max(0.0, min(1.0, ((px - x0) * dx + (py - y0) * dy) / (dx * dx + dy * dy or 1.0)))
    return math.hypot(x0 + t * dx - px, y0 + t * dy - py)


def grow(box: Box, by: float) -> Box:
    return box[0] - by, box[1] - by, box[2] + by, box[3] + by


class Space:
    """What is drawn on the map part of the picture so far: boxes, segments and circles, each
    kept in the buckets it touches."""

    def __init__(self, bounds: Box):
        self.bounds = bounds
        self.buckets: dict[tuple[int, int], list[tuple]] = {}
        self.rows: dict[int, int] = {}      # by row, a bit for each cell something is in

    def _keys(self, box: Box):
        for i in range(int(box[0] // BUCKET), int(box[2] // BUCKET) + 1):
            for j in range(int(box[1] // BUCKET), int(box[3] // BUCKET) + 1):
                yield i, j

    def _add(self, item: tuple, extent: Box) -> None:
        for k in self._keys(extent):
            self.buckets.setdefault(k, []).append(item)

    def add_box(self, box: Box, owner: str = "") -> None:
        self._add(("box", box, owner), box)
        self._take(box[0], box[1], box[2], box[3])

    def add_segment(self, x0: float, y0: float, x1: float, y1: float, owner: str = "") -> None:
        self._add(("seg", (x0, y0, x1, y1), owner),
                  (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)))
        n = max(1, int(math.hypot(x1 - x0, y1 - y0) / (CELL / 2)))
        for k in range(n + 1):
            i, j = int((x0 + (x1 - x0) * k / n) // CELL), int((y0 + (y1 - y0) * k / n) // CELL)
            if i >= 0:
                self.rows[j] = self.rows.get(j, 0) | (1 << i)

    def add_circle(self, x: float, y: float, r: float, owner: str = "") -> None:
        self._add(("circle", (x, y, r), owner), (x - r, y - r, x + r, y + r))
        self._take(x - r * 0.7, y - r * 0.7, x + r * 0.7, y + r * 0.7)

    def _take(self, x0: float, y0: float, x1: float, y1: float) -> None:
        """Mark the cells whose centre is in this box (inside what was drawn)."""
        i0, i1 = max(math.ceil(x0 / CELL - 0.5), 0), math.floor(x1 / CELL - 0.5) + 1
        if i1 <= i0:
            return
        bits = ((1 << (i1 - i0)) - 1) << i0
        for j in range(math.ceil(y0 / CELL - 0.5), math.floor(y1 / CELL - 0.5) + 1):
            self.rows[j] = self.rows.get(j, 0) | bits

    def surely_taken(self, box: Box) -> bool:
        """Whether a cell wholly inside the box is marked: then something meets it."""
        i0, i1 = max(math.ceil(box[0] / CELL), 0), math.floor(box[2] / CELL)
        if i1 <= i0:
            return False
        bits = ((1 << (i1 - i0)) - 1) << i0
        rows = self.rows
        return any(rows.get(j, 0) & bits for j in range(math.ceil(box[1] / CELL),
                                                        math.floor(box[3] / CELL)))

    def _near(self, box: Box):
        seen = set()
        for k in self._keys(box):
            for item in self.buckets.get(k, ()):
                if id(item) not in seen:
                    seen.add(id(item))
                    yield item

    def free(self, box: Box) -> bool:
        """Whether a label box is inside the bounds and meets nothing drawn, with room."""
        b = self.bounds
        if box[0] < b[0] or box[1] < b[1] or box[2] > b[2] or box[3] > b[3] or \
                self.surely_taken(box):
            return False
        room = grow(box, GAP)
        for kind, g, _ in self._near(room):
            if kind == "box":
                if room[0] < g[2] and g[0] < room[2] and room[1] < g[3] and g[1] < room[3]:
                    return False
            elif kind == "seg":
                if segment_meets_box(*g, room):
                    return False
            elif box_to_point(room, g[0], g[1]) < g[2]:
                return False
        return True

    def clear_path(self, x0: float, y0: float, x1: float, y1: float, owner: str) -> bool:
        """Whether a leader from an area's circle to its label meets no label and no circle
        but its own area's."""
        ext = (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
        for kind, g, who in self._near(ext):
            if kind == "box" and segment_meets_box(x0, y0, x1, y1, grow(g, 1.0)):
                return False
            if kind == "circle" and who != owner and \
                    _segment_to_point(x0, y0, x1, y1, g[0], g[1]) < g[2] + 1.0:
                return False
        return True


def _reach(c: float, s: float, a: float, b: float, d: float) -> float:
    """How far along a direction (|cos|, |sin|) = (c, s) the centre of a box of half sizes
    (a, b) goes so that the box is d away from the start."""
    if c > 1e-9:
        t = (a + d) / c
        if t * s <= b:
            return t
    if s > 1e-9:
        t = (b + d) / s
        if t * c <= a:
            return t
    p = a * c + b * s
    return p + math.sqrt(max(p * p - (a * a + b * b - d * d), 0.0))


def _angles(prefer: float) -> list[float]:
    """Every direction, the preferred one first and then by how far they turn from it."""
    step = 2 * math.pi / DIRECTIONS
    out = [prefer]
    for i in range(1, DIRECTIONS // 2 + 1):
        out += [prefer + i * step, prefer - i * step]
    return out[:DIRECTIONS]


def place(space: Space, owner: str, x: float, y: float, r: float, w: float, h: float,
          prefer: float, rings: tuple[float, ...] = RINGS
          ) -> tuple[Box, tuple[float, float, float, float] | None] | None:
    """The first free box w x h beside the circle (x, y, r), and its leader when it stands off
    (None: no room within the rings). The box and leader are added to the space. The boxes
    tried first touch a ring round the circle in a direction from it; then every box on a
    grid within the last ring, nearest first, so that a gap between two lines is found even
    where no direction from the circle leads into it."""
    for box, ring in _candidates(x, y, r, w, h, prefer, rings):
        if not space.free(box):
            continue
        leader = None
        if ring > LEADER:
            ex, ey = _nearest_edge(box, x, y)
            d = math.hypot(ex - x, ey - y)
            sx, sy = x + (ex - x) * r / d, y + (ey - y) * r / d
            if not space.clear_path(sx, sy, ex, ey, owner):
                continue
            leader = (sx, sy, ex, ey)
        space.add_box(box, owner)
        if leader:
            space.add_segment(*leader, owner)
        return box, leader
    return None


def _candidates(x: float, y: float, r: float, w: float, h: float, prefer: float,
                rings: tuple[float, ...]):
    a, b = w / 2, h / 2
    for ring in rings:
        for ang in _angles(prefer):
            c, s = math.cos(ang), math.sin(ang)
            t = _reach(abs(c), abs(s), a, b, r + ring)
            cx, cy = x + c * t, y + s * t
            yield (cx - a, cy - b, cx + a, cy + b), ring
    a, b = math.ceil(a / 2) * 2.0, math.ceil(b / 2) * 2.0      # a few sizes: each grid made once
    for x0, y0, x1, y1, ring in _grid(a, b, r, r + rings[-1]):
        yield (x + x0, y + y0, x + x1, y + y1), ring


@functools.lru_cache(maxsize=256)
def _grid(a: float, b: float, r: float, far: float) -> tuple[tuple[float, ...], ...]:
    """The boxes of half sizes (a, b) on a grid round a circle of radius r at the origin,
    reaching at most `far` from its centre, nearest first (and the ring each is in)."""
    n, m = int((far + a) / STEP) + 1, int((far + b) / STEP) + 1
    grid = []
    for i in range(-n, n + 1):
        for j in range(-m, m + 1):
            box = (i * STEP - a, j * STEP - b, i * STEP + a, j * STEP + b)
            d = box_to_point(box, 0.0, 0.0)
            if r + 1.0 < d <= far:
                grid.append((d, box))
    grid.sort()
    return tuple((*box, d - r) for d, box in grid)


def _nearest_edge(box: Box, x: float, y: float) -> tuple[float, float]:
    return min(max(x, box[0]), box[2]), min(max(y, box[1]), box[3])
