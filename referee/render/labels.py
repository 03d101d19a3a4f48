"""Where the labels of the map picture go: no label over another, over an area's circle or a
leader, and none across a line joining two neighbours (4.1) where a place clear of them is
near, so that every name and counter reads on a phone.

What is drawn is kept as cells of CELL pixels, a cell taken as soon as anything touches it
(each row of cells one integer, a bit a cell), so a label put on free cells meets nothing:
the check is exact by construction, however the placement is searched. A label is put on
the free cells nearest its area's circle, in the direction it prefers (a name above its
area, counters below), within a reach; one that does not touch its circle gets a
leader to it, itself clear of every label and other circle. The lines joining neighbours
are soft: a strict place keeps clear of them, a loose one may lie over them (a counter
hides a stretch of a line, never another label, circle or leader).

A label may also be asked to read as its own area's (`apart`): put only where it is nearer
its area's circle than any other area's circle, by the distance from its box to each
circle's edge (by at least `apart` pixels), so that a reader who looks for the nearest
circle finds the right one without following a leader. A label may instead be asked to be
tied to its own area (`tie`): one that touches its circle still gets a leader where it is not
that much nearer its circle than any other's, so that a reader who looks for the nearest
circle is shown the right one.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterator

Box = tuple[float, float, float, float]          # x0, y0, x1, y1
Segment = tuple[float, float, float, float]

CELL = 4.0             # the side of a cell, in pixels
LEADER = 5.0           # a label further than this from its circle gets a leader
BUCKET = 64.0          # what a leader is checked against is kept in buckets this wide
OVER = 4.0             # letters further a place clear of the lines may be and still win
NEAR = 2.5             # letters from its circle within which a place is looked for first
SLACK = 1e-6           # below a row's distance from a circle, against rounding (_in_order)


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


def segment_to_point(x0, y0, x1, y1, px, py) -> float:
    dx, dy = x1 - x0, y1 - y0
    t = max(0.0, min(1.0, ((px - x0) * dx + (py - y0) * dy) / (dx * dx + dy * dy or 1.0)))
    return math.hypot(x0 + t * dx - px, y0 + t * dy - py)


def grow(box: Box, by: float) -> Box:
    return box[0] - by, box[1] - by, box[2] + by, box[3] + by


def _runs(row: int, k: int) -> int:
    """The bits i of a row such that bits i .. i+k-1 are all set."""
    out, have = row, 1
    while have * 2 <= k:
        out &= out >> have
        have *= 2
    if have < k:
        out &= out >> (k - have)
    return out


class Space:
    """What is drawn on the map part of the picture so far, as taken cells (hard: labels,
    circles, leaders; soft: the lines joining neighbours), and the labels and circles
    themselves for the leaders' check."""

    def __init__(self, bounds: Box):
        self.bounds = bounds
        self.hard: dict[int, int] = {}
        self.soft: dict[int, int] = {}
        self.items: dict[tuple[int, int], list[tuple]] = {}
        self.i0, self.i1 = math.ceil(bounds[0] / CELL), math.floor(bounds[2] / CELL)
        self.j0, self.j1 = math.ceil(bounds[1] / CELL), math.floor(bounds[3] / CELL)
        self.inside = ((1 << (self.i1 - self.i0)) - 1) << self.i0
        self.width = self.i1 // 8 + 1      # bytes a row takes in `packed`, a clear bit above
        self.packed: dict[bool, bytearray] = {}
        self.stale: set[int] = set()
        self.refused: set[tuple] = set()    # the searches that found no place (_place)

    def copy(self) -> Space:
        """A space holding what this one holds, to which more is added apart (with its
        rows packed: a space copied once is often copied again)."""
        self.packed_rows(True)
        out = Space(self.bounds)
        out.hard, out.soft = dict(self.hard), dict(self.soft)
        out.items = {k: list(v) for k, v in self.items.items()}
        out.packed = {clear: bytearray(rows) for clear, rows in self.packed.items()}
        return out

    def payload(self) -> dict:
        """What the space holds, in JSON's types (stored.py keeps it with its Base): each row
        of cells as hex, each item once and each bucket as the places of its items."""
        items: list[tuple] = []
        where: dict[int, int] = {}
        buckets = []
        for (i, j), held in self.items.items():
            for item in held:
                if id(item) not in where:
                    where[id(item)] = len(items)
                    items.append(item)
            buckets.append([i, j, [where[id(item)] for item in held]])
        return {"bounds": self.bounds, "hard": [[j, f"{v:x}"] for j, v in self.hard.items()],
                "soft": [[j, f"{v:x}"] for j, v in self.soft.items()], "items": items,
                "buckets": buckets}

    @classmethod
    def from_payload(cls, p: dict) -> Space:
        """The space payload() wrote (KeyError, TypeError, ValueError, IndexError when it
        is not one)."""
        out = cls(tuple(p["bounds"]))
        out.hard = {int(j): int(v, 16) for j, v in p["hard"]}
        out.soft = {int(j): int(v, 16) for j, v in p["soft"]}
        items = [(str(kind), tuple(g), str(owner)) for kind, g, owner in p["items"]]
        out.items = {(int(i), int(j)): [items[n] for n in held] for i, j, held in p["buckets"]}
        return out

    def _mark(self, rows: dict[int, int], x0: float, y0: float, x1: float, y1: float) -> None:
        """Take every cell the box touches."""
        i0, i1 = max(int(x0 // CELL), 0), int(x1 // CELL)
        if i1 < i0:
            return
        bits = ((1 << (i1 - i0 + 1)) - 1) << i0
        js = range(int(y0 // CELL), int(y1 // CELL) + 1)
        for j in js:
            rows[j] = rows.get(j, 0) | bits
        self.stale.update(js)

    def _keep(self, item: tuple, extent: Box) -> None:
        for i in range(int(extent[0] // BUCKET), int(extent[2] // BUCKET) + 1):
            for j in range(int(extent[1] // BUCKET), int(extent[3] // BUCKET) + 1):
                self.items.setdefault((i, j), []).append(item)

    def add_box(self, box: Box, owner: str = "") -> None:
        self.refused.clear()
        self._mark(self.hard, *box)
        self._keep(("box", box, owner), box)

    def add_circle(self, x: float, y: float, r: float, owner: str = "") -> None:
        self.refused.clear()
        for j in range(int((y - r) // CELL), int((y + r) // CELL) + 1):
            dy = max(j * CELL - y, 0.0, y - (j + 1) * CELL)     # the row's nearest edge
            if dy <= r:
                half = math.sqrt(r * r - dy * dy)
                self._mark(self.hard, x - half, j * CELL, x + half, j * CELL)
        self._keep(("circle", (x, y, r), owner), (x - r, y - r, x + r, y + r))

    def add_segment(self, x0: float, y0: float, x1: float, y1: float, owner: str = "",
                    soft: bool = False, width: float = 1.5) -> None:
        """A line: a soft one (joining two neighbours) only a strict place keeps clear of."""
        self.refused.clear()
        rows = self.soft if soft else self.hard
        half = width / 2 + 0.5
        n = max(1, int(math.hypot(x1 - x0, y1 - y0) / (CELL / 2)))
        dx, dy, step = x1 - x0, y1 - y0, CELL / 2
        taken: dict[int, int] = {}          # the cells of every step's box (_mark's), by row
        for k in range(n + 1):
            px, py = x0 + dx * k / n, y0 + dy * k / n
            i0, i1 = max(int((px - half - step) // CELL), 0), int((px + half + step) // CELL)
            if i1 >= i0:
                bits = ((1 << (i1 - i0 + 1)) - 1) << i0
                for j in range(int((py - half - step) // CELL),
                               int((py + half + step) // CELL) + 1):
                    taken[j] = taken.get(j, 0) | bits
        for j, bits in taken.items():
            rows[j] = rows.get(j, 0) | bits
        self.stale.update(taken)
        if not soft:
            self._keep(("seg", (x0, y0, x1, y1), owner),
                       (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)))

    def free(self, box: Box, strict: bool = True) -> bool:
        """Whether a box is inside the bounds and touches no taken cell (nor a soft one when
        strict)."""
        b = self.bounds
        if box[0] < b[0] or box[1] < b[1] or box[2] > b[2] or box[3] > b[3]:
            return False
        i0, i1 = int(box[0] // CELL), int(box[2] // CELL)
        bits = ((1 << (i1 - i0 + 1)) - 1) << i0
        for j in range(int(box[1] // CELL), int(box[3] // CELL) + 1):
            if (self.hard.get(j, 0) | (self.soft.get(j, 0) if strict else 0)) & bits:
                return False
        return True

    def clear_path(self, x0: float, y0: float, x1: float, y1: float, owner: str,
                   suspects: list[tuple[tuple, int, int]] | None = None) -> bool:
        """Whether a leader from an area's circle to its label meets no label, leader or
        circle but its own area's (of those kept in the buckets it passes through).
        Suspects are what blocked the leaders tried before from the same circle, each with
        a bucket it is kept in, the latest first: the leaders of one circle are mostly
        blocked by the same few, so these are looked at first, and what is found blocking
        goes first among them."""
        seg = (x0, y0, x1, y1)
        ia, ib = int(min(x0, x1) // BUCKET), int(max(x0, x1) // BUCKET)
        ja, jb = int(min(y0, y1) // BUCKET), int(max(y0, y1) // BUCKET)
        for n, (item, i, j) in enumerate(suspects or ()):
            if ia <= i <= ib and ja <= j <= jb and _blocks(item, seg, owner):
                suspects.insert(0, suspects.pop(n))
                return False
        seen = set()
        for i in range(ia, ib + 1):
            for j in range(ja, jb + 1):
                for item in self.items.get((i, j), ()):
                    if id(item) in seen:
                        continue
                    seen.add(id(item))
                    if _blocks(item, seg, owner):
                        if suspects is not None:
                            suspects.insert(0, (item, i, j))
                        return False
        return True

    def packed_rows(self, clear: bool) -> bytearray:
        """The taken cells of rows j0 .. j1 - 1 (with the soft ones when clear) as one run of
        bytes, `width` a row, little-endian: the rows of any window are then read at once.
        Each row has a clear bit above its last column, so that no run of free cells goes
        on into the next row. Rows marked since it was last read are written again first."""
        if not self.packed:
            self.packed = {c: bytearray(self.width * max(self.j1 - self.j0, 0))
                           for c in (True, False)}
            self.stale = set(self.hard) | set(self.soft)
        if self.stale:
            width, hard, soft = self.width, self.hard.get, self.soft.get
            for j in self.stale:
                if self.j0 <= j < self.j1:
                    at = (j - self.j0) * width
                    t = hard(j, 0) & self.inside
                    self.packed[False][at:at + width] = t.to_bytes(width, "little")
                    self.packed[True][at:at + width] = (t | soft(j, 0) & self.inside
                                                        ).to_bytes(width, "little")
            self.stale = set()
        return self.packed[clear]

    def openings(self, w: float, h: float, window: Box, strict: bool | None):
        """The top left corners (in cells) of every free w x h box within the window, by
        row: (j, bits, clear): clear says they keep off the soft lines (strict None: both
        those that do and those that do not)."""
        yield from sorted(self.found(w, h, window, strict), key=lambda o: (o[0], not o[2]))

    def found(self, w: float, h: float, window: Box, strict: bool | None
              ) -> list[tuple[int, int, bool]]:
        """openings' rows, in no particular order. The window's rows are worked on together,
        as one integer read from the packed rows; its rows are read one by one only
        between its first byte set and its last."""
        kw, kh = math.ceil(w / CELL) + 1, math.ceil(h / CELL) + 1
        j_lo, j_hi = max(int(window[1] // CELL), self.j0), min(int(window[3] // CELL),
                                                                   self.j1 - kh)
        lo = max(int(window[0] // CELL), self.i0)
        room = (((1 << (int(window[2] // CELL) + 2)) - 1) >> lo) << lo & self.inside
        kinds = (True,) if strict else (False,) if strict is False else (True, False)
        out: list[tuple[int, int, bool]] = []
        if j_hi < j_lo:
            return out
        width, n = self.width, j_hi + kh - j_lo
        rooms = int.from_bytes(room.to_bytes(width, "little") * n, "little")
        start = (j_lo - self.j0) * width
        seen, size, read = 0, (j_hi - j_lo + 1) * width, int.from_bytes
        for clear in kinds:
            taken = read(self.packed_rows(clear)[start:start + n * width], "little")
            got = _runs_down_packed(_runs(rooms & ~taken, kw), kh, width * 8)
            packed = (got & ~seen).to_bytes(n * width, "little")[:size]
            seen = got
            first = (size - len(packed.lstrip(b"\0"))) // width
            last = len(packed.rstrip(b"\0"))
            for at in range(first * width, last, width):
                bits = read(packed[at:at + width], "little")
                if bits:
                    out.append((j_lo + at // width, bits, clear))
        return out


def _runs_down_packed(rows: int, k: int, stride: int) -> int:
    """For rows packed `stride` bits apart, the bits set in each row and the k - 1 under it."""
    out, have = rows, 1
    while have * 2 <= k:
        out &= out >> (have * stride)
        have *= 2
    if have < k:
        out &= out >> ((k - have) * stride)
    return out


def _blocks(item: tuple, seg: Segment, owner: str) -> bool:
    kind, g, who = item
    if kind == "box":
        return segment_meets_box(*seg, grow(g, 1.0))
    if kind == "circle":
        return who != owner and segment_to_point(*seg, g[0], g[1]) < g[2] + 1.0
    return who != owner and _crosses(seg, g)


def _crosses(a: Segment, b: Segment) -> bool:
    """Whether two segments cross (touching at an end does not count)."""
    def side(p, q, r) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    p1, p2, p3, p4 = a[:2], a[2:], b[:2], b[2:]
    d1, d2, d3, d4 = side(p3, p4, p1), side(p3, p4, p2), side(p1, p2, p3), side(p1, p2, p4)
    return d1 * d2 < 0 and d3 * d4 < 0


def place(space: Space, owner: str, x: float, y: float, r: float, w: float, h: float,
          prefer: float, reach: float, strict: bool | None = True, font: float = 12.0,
          keep: bool = True, apart: float | None = None, lead: float = 1.5,
          tie: float | None = None) -> tuple[Box, Segment | None] | None:
    """The best free box w x h beside the circle (x, y, r) within `reach` of it, and its
    leader when it stands off (None: no room). The box and leader are added to the space
    (unless keep is false: the place is only looked for). A place that is not strict may
    lie over the lines joining neighbours; with strict None, it may when no place clear of
    them is within OVER letters nearer. The places within NEAR letters are looked at first,
    and the others only when none of those will do. With apart, only a place at least that
    much nearer the edge of the owner's circle than the edge of any other circle in the
    space will do (owns). The leader is kept as a line `lead` pixels wide. With tie, a
    place that touches its circle gets a leader all the same when it is not that much nearer
    the owner's circle than any other's (and will do only if that leader is clear)."""
    near = min(reach, NEAR * font)
    got = _place(space, owner, x, y, r, w, h, prefer, near, strict, font, keep, apart, lead,
                 tie)
    if got is None and near < reach:
        got = _place(space, owner, x, y, r, w, h, prefer, reach, strict, font, keep, apart,
                     lead, tie)
    return got


def owns(space: Space, owner: str, box: Box, x: float, y: float, r: float,
         apart: float) -> bool:
    """Whether a box is at least `apart` nearer the edge of its owner's circle (x, y, r)
    than the edge of any other owner's circle kept in the space."""
    mine = box_to_point(box, x, y) - r
    seen = set()
    reach = grow(box, mine + apart + r)
    for i in range(int(reach[0] // BUCKET), int(reach[2] // BUCKET) + 1):
        for j in range(int(reach[1] // BUCKET), int(reach[3] // BUCKET) + 1):
            for kind, g, who in space.items.get((i, j), ()):
                if kind == "circle" and who != owner and g not in seen:
                    seen.add(g)
                    if box_to_point(box, g[0], g[1]) - g[2] < mine + apart:
                        return False
    return True


def _place(space: Space, owner: str, x: float, y: float, r: float, w: float, h: float,
           prefer: float, reach: float, strict: bool | None, font: float, keep: bool,
           apart: float | None = None, lead: float = 1.5, tie: float | None = None
           ) -> tuple[Box, Segment | None] | None:
    """The first place in the order of (score, box) (_in_order) whose leader is clear. A
    search that found none finds none again until something is added to the space (every
    try of stacks.py's for an area asks first for the places near its circle), and is not
    made again."""
    asked = (owner, x, y, r, w, h, prefer, reach, strict, font, apart, lead, tie)
    if asked in space.refused:
        return None
    suspects: list[tuple[tuple, int, int]] = []
    for box in _in_order(space, x, y, r, w, h, prefer, reach, strict, font):
        if apart is not None and not owns(space, owner, box, x, y, r, apart):
            continue
        leader = _leader(space, owner, box, x, y, r, suspects, tie)
        if leader is False:
            continue
        if keep:
            keep_place(space, owner, box, leader, lead)
        return box, leader
    space.refused.add(asked)
    return None


def _in_order(space: Space, x: float, y: float, r: float, w: float, h: float,
              prefer: float, reach: float, strict: bool | None, font: float
              ) -> Iterator[Box]:
    """The places of the window round the circle in the order of (score, box), as far as
    they are asked for. A place is tried in each run of free cells of a row of the window:
    the one that centres the box nearest over the area's column. Its score is its distance
    from the circle, and a little more the further its direction turns from the preferred
    one (px, py), worked out a row at a time (what is the same along a row, once); one over
    the lines joining neighbours scores OVER letters more. No place of a row scores less
    than the row's own distance from the circle (with its OVER): the rows are scored
    nearest first, and a place is given as soon as no row left can score below it, so the
    far rows of a search that ends near its circle are never scored."""
    kw = math.ceil(w / CELL) + 1
    window = (x - r - reach - w, y - r - reach - h, x + r + reach + w, y + r + reach + h)
    px, py = math.cos(prefer), math.sin(prefer)
    dx, dy = (kw * CELL - w) / 2, ((math.ceil(h / CELL) + 1) * CELL - h) / 2
    target, twice, hypot = int(x // CELL) - kw // 2, font * 2, math.hypot
    rows = []
    for j, bits, clear in space.found(w, h, window, strict):
        y0 = j * CELL + dy
        y1 = y0 + h
        gy = max(y0 - y, 0.0, y - y1)
        least = max(gy - r, 0.0) - SLACK     # what no place of the row scores under
        if least - twice <= reach:
            over = 0.0 if clear else OVER * font
            rows.append((least + over, j, bits, y0, y1, gy, over))
    rows.sort()
    tried: list[tuple[float, Box]] = []
    for least, _j, bits, y0, y1, gy, over in rows:
        while tried and tried[0][0] < least:
            yield heapq.heappop(tried)[1]
        cy = (y0 + y1) / 2 - y
        while bits:                         # a run of free cells: its place nearest the column
            start = (bits & -bits).bit_length() - 1
            rest = bits >> start
            end = start + (~rest & (rest + 1)).bit_length() - 2
            i = target if start <= target <= end else start if target < start else end
            bits &= ~(((1 << (end - start + 1)) - 1) << start)
            x0 = i * CELL + dx
            x1 = x0 + w
            cx = (x0 + x1) / 2 - x
            d = hypot(cx, cy) or 1.0
            gx = x0 - x if x0 - x > x - x1 else x - x1
            near = hypot(gx if gx > 0.0 else 0.0, gy) - r
            score = (near if near > 0.0 else 0.0) + (1.0 - (cx * px + cy * py) / d) * font
            if score - twice <= reach:
                heapq.heappush(tried, (score + over, (x0, y0, x1, y1)))
    while tried:
        yield heapq.heappop(tried)[1]


def keep_place(space: Space, owner: str, box: Box, leader: Segment | None,
               lead: float = 1.5) -> None:
    """A place that place() found (with keep false) added to the space, as keep adds it."""
    space.add_box(box, owner)
    if leader:
        space.add_segment(*leader, owner, width=lead)


def _leader(space: Space, owner: str, box: Box, x: float, y: float, r: float,
            suspects: list[tuple[tuple, int, int]] | None = None, tie: float | None = None):
    """The leader from the circle to a box standing off, or touching it but not `tie`
    nearer it than any other circle (None: no leader; False: no clear one; suspects as
    clear_path takes them)."""
    ex, ey = min(max(x, box[0]), box[2]), min(max(y, box[1]), box[3])
    d = math.hypot(ex - x, ey - y)
    if d - r <= LEADER and (tie is None or owns(space, owner, box, x, y, r, tie)):
        return None
    d = d or 1.0
    sx, sy = x + (ex - x) * min(r, d) / d, y + (ey - y) * min(r, d) / d
    if not space.clear_path(sx, sy, ex, ey, owner, suspects):
        return False
    return sx, sy, ex, ey
