"""The regions no unit may enter, drawn on the map picture: seas and neutral countries.

TTLM 4.1 and 4.2 and AAC 4.2 name seas (the North Sea, the Strait of Dover, the Baltic...)
and neutral countries (Holland) that are never playable; map.yaml lists them under
`impassable`, each with the areas it `touches`. They are not areas (no control, no
adjacency), so the picture shows each as a label in a soft box -- sea blue and rounded for a
sea, grey with a dashed edge for a neutral country -- with a dashed tick from the label to
each area it touches. The label is placed by a search over the free part of the map: never
on an area's circle, name, supply or fort mark or unit lines, never on a link or another
region's label, inside the picture, and as close to its areas and as far out from the
centre of the map as that allows. A region with no area drawn on the map (AAC's Black Sea),
or for which no free place exists, is listed in the margin only, never drawn at a made-up
place. Placement reads the data (and the legend lines that run out of the margin) and not
the position, so a region stays where it is from record to record.
"""

from __future__ import annotations

import heapq
import math
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from dataclasses import dataclass
from weakref import WeakKeyDictionary

from ..contracts.mapmodels import Impassable
from ..data.gamedata import GameData
from .memo import remembered
from .svgparts import Scale, clean, text_width

SEA = {"fill": "#d6e7f5", "edge": "#7ba7cc", "ink": "#2f6690", "dash": "2 3", "rx": "8"}
NEUTRAL = {"fill": "#ebebeb", "edge": "#8c8c8c", "ink": "#4d4d4d", "dash": "4 3", "rx": "1"}
LABEL_CHARS = 26       # a longer name from the data is clipped on the map
LEGEND_CHARS = 24      # and in the margin
MOST_DRAWN = 24        # regions placed on the map; more (hostile data) go to the margin
MOST_TICKS = 12        # and so does a region touching more areas than a label can point to
CELL = 5.0             # the occupancy grid's cell, in pixels
STEP = 10.0            # the distance between two candidate places of a label
REACH = 320.0          # how far from its areas a label may be placed
ROW_CELLS = 1024       # the cells of a row kept as bits (5,120 pixels: wider than a picture)


def style(region: Impassable) -> dict[str, str]:
    """How a region looks: a sea or a neutral country (4.1, 4.2)."""
    return SEA if region.kind == "sea" else NEUTRAL


def clip(text: str, most: int) -> str:
    """The text cut to `most` characters, an ellipsis saying so."""
    return text if len(text) <= most else text[:most - 1] + "\u2026"


Box = tuple[float, float, float, float]          # x0, y0, x1, y1
# Where the regions of one game's data go depends on that data only (and the legend beside
# it): placed once per process for each loaded GameData, as game.game_data loads it once.
_PLACED: WeakKeyDictionary = WeakKeyDictionary()
KEPT = 12              # the placings kept for one game's data, the least used go


@dataclass(frozen=True)
class Placed:
    """A region drawn on the map: its label box and centre and the ticks to its areas."""
    region: Impassable
    label: str
    box: Box
    centre: tuple[float, float]
    ticks: tuple[tuple[str, float, float], ...]        # area id, x, y


def _name_box(name: str, x: float, y: float, scale: Scale) -> Box:
    """Where an area's name is drawn when it sits right above its circle, with room."""
    w = text_width(name, scale.font, True) + 4
    base = y - scale.radius - 4
    return (x - w / 2 - 2, base - scale.font - 2, x + w / 2 + 2, base + scale.font * 0.3 + 2)


def _area_boxes(name: str, x: float, y: float, scale: Scale) -> tuple[list[Box], list[Box]]:
    """The boxes an area's drawing may fill: (the circle with its rings, the name, the
    supply mark), and its counters below it (two rows reserved)."""
    r, f = scale.radius + scale.font * 0.6, scale.font
    marks = [(x - r, y - r, x + r, y + r), _name_box(name, x, y, scale),
             (x - r - f * 1.2, y - f * 0.6, x + r + f * 1.2, y + f * 0.6)]
    units = [(x - f * 2.75, y + r, x + f * 2.75, y + r + 2.2 * scale.line)]
    return marks, units


def _cells(box: Box) -> list[tuple[int, int]]:
    x0, y0, x1, y1 = box
    js = range(int(y0 // CELL), int(y1 // CELL) + 1)
    return [(i, j) for i in range(int(x0 // CELL), int(x1 // CELL) + 1) for j in js]


class _Taken:
    """Cells taken: those of the picture's width as one integer a row (bit i: cell i of
    the row), any other (left of the picture, or far right of it: only a caller's own
    positions put one there) in a set apart, so that each answer is the one a set of
    every cell would give, and a row's integer stays as short as the picture is wide."""

    __slots__ = ("rows", "apart")

    def __init__(self, rows: dict[int, int] | None = None,
                 apart: set[tuple[int, int]] | None = None):
        self.rows: dict[int, int] = dict(rows or {})
        self.apart: set[tuple[int, int]] = set(apart or ())

    def __or__(self, other: _Taken) -> _Taken:
        out = _Taken(self.rows, self.apart | other.apart)
        for j, bits in other.rows.items():
            out.rows[j] = out.rows.get(j, 0) | bits
        return out

    def add_box(self, box: Box) -> None:
        """Take every cell the box touches."""
        js, bits, outside = _parts(box)
        if bits:
            for j in js:
                self.rows[j] = self.rows.get(j, 0) | bits
        self.apart.update((i, j) for i in outside for j in js)

    def add_cells(self, cells: Iterable[tuple[int, int]]) -> None:
        for i, j in cells:
            if 0 <= i < ROW_CELLS:
                self.rows[j] = self.rows.get(j, 0) | 1 << i
            else:
                self.apart.add((i, j))

    def has(self, i: int, j: int) -> bool:
        if 0 <= i < ROW_CELLS:
            return (self.rows.get(j, 0) >> i) & 1 == 1
        return (i, j) in self.apart

    def free(self, box: Box) -> bool:
        """Whether the box touches no taken cell."""
        js, bits, outside = _parts(box)
        rows = self.rows
        if bits and any(rows.get(j, 0) & bits for j in js):
            return False
        return not (outside and self.apart and
                    any((i, j) in self.apart for i in outside for j in js))


def _parts(box: Box) -> tuple[range, int, list[int]]:
    """The rows of cells a box touches, the bits of its columns a row's integer holds, and
    its columns kept apart (left of the picture, or beyond ROW_CELLS)."""
    i0, i1 = int(box[0] // CELL), int(box[2] // CELL)
    lo, hi = max(i0, 0), min(i1, ROW_CELLS - 1)
    bits = ((1 << (hi - lo + 1)) - 1) << lo if lo <= hi else 0
    outside = [*range(i0, min(i1 + 1, 0)), *range(max(i0, ROW_CELLS), i1 + 1)] \
        if i0 < 0 or i1 >= ROW_CELLS else []
    return range(int(box[1] // CELL), int(box[3] // CELL) + 1), bits, outside


def _segment(x0: float, y0: float, x1: float, y1: float, step: float = 3.0
             ) -> set[tuple[int, int]]:
    """The cells a segment crosses, sampled every `step` pixels, both ends included."""
    n = max(1, int(math.hypot(x1 - x0, y1 - y0) / step))
    sx, sy = (x1 - x0) / n, (y1 - y0) / n
    return {(int((x0 + sx * t) // CELL), int((y0 + sy * t) // CELL)) for t in range(n + 1)}


def _inside(x: float, y: float, boxes: list[Box]) -> bool:
    return any(b[0] <= x <= b[2] and b[1] <= y <= b[3] for b in boxes)


def _tick_end(cx: float, cy: float, lx: float, ly: float, marks: list[Box],
              radius: float) -> tuple[float, float]:
    """Where a tick from a label at (lx, ly) stops short of an area centred at (cx, cy): the
    first point, going out from the area, that is clear of its circle, name and marks."""
    d = math.hypot(lx - cx, ly - cy)
    t = radius + 4
    while t < d:
        x, y = cx + (lx - cx) * t / d, cy + (ly - cy) * t / d
        if not _inside(x, y, marks):
            return x, y
        t += 1.0
    return lx, ly


def place(data: GameData, pos: dict[str, tuple[float, float]], width: float,
          height: float, scale: Scale,
          keep_clear: Iterable[Box] = ()) -> tuple[list[Placed], list[Impassable]]:
    """Where each impassable region of map.yaml (4.1, 4.2) is drawn, and those listed in the
    margin only: no area of theirs on the map, or no free place for them. A name is made
    XML-safe (svgmap.clean) before it is measured; nothing is drawn over `keep_clear`."""
    if not data.map.impassable:
        return [], []
    keep_clear = tuple(keep_clear)
    key = (width, height, scale, keep_clear, tuple(sorted(pos.items())))
    placed, margin = remembered(     # the same data, the same picture: placed once
        _PLACED.setdefault(data, {}), key,
        lambda: _place(data, pos, width, height, scale, keep_clear), KEPT)
    return list(placed), list(margin)


def _place(data: GameData, pos: dict[str, tuple[float, float]], width: float,
           height: float, scale: Scale,
           keep_clear: tuple[Box, ...]) -> tuple[list[Placed], list[Impassable]]:
    regions = list(data.map.impassable)
    label_blocked = _Taken()                         # no label here
    taken = _Taken()                                 # no tick here: a label or the legend
    for b in keep_clear:
        label_blocked.add_box(b)
        taken.add_box(b)
    area_at: dict[tuple[int, int], set[str]] = {}     # no tick here but to this area
    marks_of: dict[str, list[Box]] = {}
    for a in data.map.areas:
        if a.id not in pos:
            continue
        x, y = pos[a.id]
        marks, units = _area_boxes(clean(a.name), x, y, scale)
        marks_of[a.id] = marks
        for b in marks:
            label_blocked.add_box(b)
        for c in _cells(marks[0]):        # a tick crosses no other circle, names it may
            area_at.setdefault(c, set()).add(a.id)
        for b in units:
            label_blocked.add_box(b)
    lines = _Taken()                      # the links (4.1): a label over them only if need be
    for a in data.map.areas:
        for n in a.neighbours:
            if a.id in pos and n in pos and a.id < n:
                (x0, y0), (x1, y1) = pos[a.id], pos[n]
                lines.add_cells(_segment(x0, y0, x1, y1, 2.0))
    everything = list(pos.values())
    mx = sum(p[0] for p in everything) / len(everything) if everything else 0.0
    my = sum(p[1] for p in everything) / len(everything) if everything else 0.0
    placed: list[Placed] = []
    margin: list[Impassable] = []
    order = sorted(range(len(regions)), key=lambda i: (-len(regions[i].touches), i))
    for i in order:
        region = regions[i]
        touched = [t for t in dict.fromkeys(region.touches) if t in pos]
        if not touched or len(touched) > MOST_TICKS or len(placed) >= MOST_DRAWN:
            margin.append(region)
            continue
        label = clip(clean(region.name), LABEL_CHARS)
        got = _place_one(region, label, touched, pos, marks_of, label_blocked | lines,
                         area_at, taken, (mx, my), (width, height), scale) or \
            _place_one(region, label, touched, pos, marks_of, label_blocked, area_at, taken,
                       (mx, my), (width, height), scale)
        if got is None:
            margin.append(region)
            continue
        placed.append(got)
        label_blocked.add_box(got.box)
        taken.add_box(got.box)
        for _, x, y in got.ticks:
            label_blocked.add_cells(_segment(*got.centre, x, y))
    rank = {id(r): i for i, r in enumerate(regions)}
    placed.sort(key=lambda p: rank[id(p.region)])
    margin.sort(key=lambda r: rank[id(r)])
    return placed, margin


def _place_one(region: Impassable, label: str, touched: list[str], pos: dict,
               marks_of: dict, label_blocked: _Taken, area_at: dict, taken: _Taken,
               centre: tuple[float, float], canvas: tuple[float, float], scale: Scale
               ) -> Placed | None:
    """The best free place for one region's label and its ticks, or None."""
    w, h = text_width(label, scale.font) + scale.font * 0.8, scale.font * 1.5
    pts = [pos[t] for t in touched]
    tx, ty = sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)
    dx, dy = tx - centre[0], ty - centre[1]
    norm = math.hypot(dx, dy)
    dx, dy = (dx / norm, dy / norm) if norm > 1e-6 else (0.0, -1.0)
    width, height = canvas
    lo_x, hi_x = 4 + w / 2, width - 4 - w / 2
    lo_y, hi_y = 4 + h / 2, height - 4 - h / 2
    for x, y in _candidates(pts, dx, dy, (lo_x, lo_y, hi_x, hi_y)):
        box = (x - w / 2, y - h / 2, x + w / 2, y + h / 2)
        if not label_blocked.free(box):
            continue
        ticks = []
        for t in touched:
            ex, ey = _tick_end(*pos[t], x, y, marks_of[t], scale.radius)
            if not _clear(x, y, ex, ey, t, area_at, taken):
                break
            ticks.append((t, ex, ey))
        else:
            return Placed(region, label, box, (x, y), tuple(ticks))
    return None


def _candidates(pts: list[tuple[float, float]], dx: float, dy: float, bounds: Box):
    """Places for a label within REACH of its areas' centre, best first: short ticks to its
    areas, and out (along dx, dy) from the centre of the map rather than in (each scored
    once; taken best first as they are asked for)."""
    lo_x, lo_y, hi_x, hi_y = bounds
    tx, ty = sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)
    steps = int(REACH / STEP)
    xs = [tx + i * STEP for i in range(-steps, steps + 1) if lo_x <= tx + i * STEP <= hi_x]
    ys = [ty + j * STEP for j in range(-steps, steps + 1) if lo_y <= ty + j * STEP <= hi_y]
    n = len(pts)
    across = [([x - px for px, _ in pts], (x - tx) * dx, x) for x in xs]
    down = [([y - py for _, py in pts], (y - ty) * dy, y) for y in ys]
    ring = [(sum(map(math.hypot, ax, ay)) / n - 0.8 * (ox + oy), x, y)
            for ax, ox, x in across for ay, oy, y in down]
    heapq.heapify(ring)
    while ring:
        _, x, y = heapq.heappop(ring)
        yield x, y


def _clear(x0: float, y0: float, x1: float, y1: float, target: str, area_at: dict,
           taken: _Taken) -> bool:
    """A tick passes no area's circle, name or marks but its own area's, and no label."""
    for c in _segment(x0, y0, x1, y1):
        if taken.has(*c):
            return False
        near = area_at.get(c)
        if near and (len(near) > 1 or target not in near):
            return False
    return True


def draw(parent: ET.Element, placed: list[Placed], scale: Scale) -> None:
    """Each placed region as one <g>: dashed ticks to its areas, its box and its name."""
    if not placed:
        return
    layer = ET.SubElement(parent, "g", {"id": "impassable"})
    for p in placed:
        s = style(p.region)
        g = ET.SubElement(layer, "g", {
            "id": f"impassable-{p.region.id}", "class": f"impassable {p.region.kind}",
            "data-kind": p.region.kind, "data-touches": " ".join(t for t, _, _ in p.ticks)})
        ET.SubElement(g, "title").text = f"{p.label}: {_kind(p.region)}"
        cx, cy = p.centre
        for area, x, y in p.ticks:
            ET.SubElement(g, "line", {
                "x1": f"{cx:.1f}", "y1": f"{cy:.1f}", "x2": f"{x:.1f}", "y2": f"{y:.1f}",
                "stroke": s["edge"], "stroke-width": "1.5", "stroke-dasharray": s["dash"],
                "class": "touch", "data-area": area})
        x0, y0, x1, y1 = p.box
        rect = {"x": f"{x0:.1f}", "y": f"{y0:.1f}", "width": f"{x1 - x0:.1f}",
                "height": f"{y1 - y0:.1f}", "rx": s["rx"], "fill": s["fill"],
                "stroke": s["edge"], "class": "region"}
        if p.region.kind != "sea":
            rect["stroke-dasharray"] = s["dash"]
        ET.SubElement(g, "rect", rect)
        t = ET.SubElement(g, "text", {
            "x": f"{cx:.1f}", "y": f"{cy + scale.font * 0.36:.1f}",
            "font-size": f"{scale.font:g}",
            "text-anchor": "middle", "fill": s["ink"], "class": "name"})
        if p.region.kind == "sea":
            t.set("font-style", "italic")
        t.text = p.label


def _kind(region: Impassable) -> str:
    """What a region is, with its rule: a sea no unit enters (4.2), or a neutral country no
    unit enters (HOLLAND, 4.1; the Netherlands, 4.2)."""
    return "a sea, not playable: never entered (4.2)" if region.kind == "sea" else \
        "a neutral country: never entered (4.1, 4.2)"


def legend(parent: ET.Element, margin: list[Impassable], data: GameData, x: float,
           y: float, scale: Scale) -> float:
    """The key of the regions (4.1, 4.2) under the map, with each region not drawn on the map
    (no area of it there, or no room) by name; returns its bottom."""
    if not data.map.impassable:
        return y
    g = ET.SubElement(parent, "g", {"id": "impassable-legend"})
    f = scale.font

    def text(into: ET.Element, dx: float, words: str, **attrs) -> ET.Element:
        t = ET.SubElement(into, "text", {"x": f"{x + dx:g}", "y": f"{y:.1f}",
                                         "font-size": f"{f:g}", **attrs})
        t.text = words
        return t

    y += scale.line
    text(g, 0, "Never entered (4.1, 4.2)", **{"font-weight": "bold"})
    y = _kind_keys(g, {r.kind for r in data.map.impassable}, x, y, scale)
    y += scale.line
    text(g, 0, "dashes lead to the areas it borders")
    if margin:
        y += scale.line
        text(g, 0, "not on this map:")
    for region in margin[:MOST_DRAWN]:
        y += scale.line
        row = ET.SubElement(g, "g", {"id": f"impassable-{region.id}",
                                     "class": f"impassable {region.kind} unplaced",
                                     "data-kind": region.kind})
        t = text(row, f * 0.6, clip(clean(region.name), LEGEND_CHARS),
                 fill=style(region)["ink"], **{"class": "name"})
        if region.kind == "sea":
            t.set("font-style", "italic")
    if len(margin) > MOST_DRAWN:
        y += scale.line
        text(g, f * 0.6, f"and {len(margin) - MOST_DRAWN} more")
    return y


def _kind_keys(g: ET.Element, kinds: set[str], x: float, y: float, scale: Scale) -> float:
    """A sample of each kind of region the data has, with what it is (4.1, 4.2)."""
    f = scale.font
    for kind, words in (("sea", "sea, not playable (4.2)"),
                        ("neutral_country", "neutral country (4.1)")):
        if kind not in kinds:
            continue
        s = SEA if kind == "sea" else NEUTRAL
        y += scale.line
        rect = {"x": f"{x:g}", "y": f"{y - f * 0.9:.1f}", "width": f"{f * 2:g}",
                "height": f"{f * 1.1:g}", "rx": s["rx"], "fill": s["fill"],
                "stroke": s["edge"]}
        if kind != "sea":
            rect["stroke-dasharray"] = s["dash"]
        ET.SubElement(g, "rect", rect)
        ET.SubElement(g, "line", {"x1": f"{x + f * 2:g}", "y1": f"{y - f * 0.35:.1f}",
                                  "x2": f"{x + f * 2.8:g}", "y2": f"{y - f * 0.35:.1f}",
                                  "stroke": s["edge"], "stroke-width": "1.5",
                                  "stroke-dasharray": s["dash"]})
        t = ET.SubElement(g, "text", {"x": f"{x + f * 3.2:g}", "y": f"{y:.1f}",
                                      "font-size": f"{f:g}"})
        t.text = words
    return y
