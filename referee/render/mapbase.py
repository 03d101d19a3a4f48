"""The part of the map picture that is the same at every record: where each area is drawn,
the lines joining neighbours (4.1), the seas and neutral countries (impassable.py), each
area's name and its supply mark (6.1), and what is left free for the units.

A schematic, not the printed board: each area is one circle at its `at` position in
map.yaml (latitude, longitude; equirectangular projection scaled by the cosine of the mean
latitude), the whole fitted into the picture's width and drawn longer north-south (a phone
is held upright); areas drawn too close together for their labels are then pushed apart a
little, so a crowded front still has room beside each area. The picture grows taller by
steps (`level`) until every unit of a position finds its place (svgmap.py).

An area's name and its supply mark are put where they read as its own: nearer its circle
than any other area's (labels.owns); for a name, a place that does is looked for in a
wider reach before one that does not is taken (which keeps its leader).

What is placed here depends on the data, the size of the writing and the level only, so it
is worked out once for each and kept while the data is loaded (as game.game_data keeps it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from weakref import WeakKeyDictionary

from ..contracts.mapmodels import Area
from ..data.gamedata import GameData
from . import impassable, labels, stored
from .memo import remembered
from .svgparts import Scale, clean, text_width

WIDTH = 1000.0         # the picture, in pixels
PAD = 1.9              # the room at the map's edges, in letters of the writing
STRETCH = 1.2          # north-south distances grow by this much at level 0 ...
GROWTH = 1.12          # ... and by this much more at each level
NAME_CHARS = 28        # a longer area name from the data is clipped on the map
UP = -math.pi / 2
MARK_REACH = 2.5       # how far from its circle a supply mark may stand, in letters
NAME_REACH = 5.0       # and a name
FAR = 8.0              # and a name when no place that near reads as its own area's
APART = 0.2            # a name or mark is this many letters nearer its circle than others'
LEAD = 3.0             # the width of a name's or mark's leader, in pixels (svgmap.py)
KEEP = (5.5, 2.2)      # the room kept under a circle for its units: letters wide, lines high
EVEN = 0.85            # how much of a position is its rank rather than its place
SPREAD = 5.0           # areas closer than this many letters of the writing are pushed apart
_KEPT: WeakKeyDictionary = WeakKeyDictionary()
KEPT = 24              # the static parts kept for one game's data, the least used go


@dataclass
class Base:
    """The static part of a map picture and the space it leaves free."""

    scale: Scale
    top: float                                   # where the map part starts
    bottom: float                                # and ends
    pos: dict[str, tuple[float, float]]
    links: list[tuple[str, str]]
    regions: list                                # impassable.Placed
    unplaced: list                               # regions with no place on the map
    names: dict[str, tuple] = field(default_factory=dict)    # area -> (box, leader)
    supply: dict[str, tuple] = field(default_factory=dict)   # area -> box
    space: labels.Space | None = None
    whole: bool = True                           # every area on the front, not a close-up's
    # What tells this Base from any other for as long as a picture of it is kept: the same
    # mark, the same static layer (memo.drawn_from, png._base).
    mark: object = field(default_factory=object, init=False, compare=False, repr=False)
    # Whether an area's counters find a place on it alone, by the area and the counters'
    # sizes: kept for its layouts (stacks.fits_alone), never written with it.
    alone: dict = field(default_factory=dict, init=False, compare=False, repr=False)

    def ring(self, area: str) -> float:
        """The radius round an area's circle that its battle and decision rings may fill."""
        return self.scale.radius + self.scale.font * 0.6


def front(data: GameData) -> list[Area]:
    """The areas drawn on the map: every area but those reached by sea only (ENGLAND)."""
    return [a for a in data.map.areas if a.kind != "sea_only" and a.at is not None]


def project(areas: list[Area], scale: Scale, top: float, stretch: float,
            width: float = WIDTH) -> tuple[dict[str, tuple[float, float]], float]:
    """Where each area is drawn and the bottom of the map part, which starts at `top`."""
    if not areas:
        return {}, top + 400.0
    lats = [a.at[0] for a in areas]
    lons = [a.at[1] for a in areas]
    k = math.cos(math.radians(sum(lats) / len(lats)))
    north, west = max(lats), min(lons)
    margin = PAD * scale.font * 2.2
    span = max((max(lons) - west) * k, (north - min(lats)) * 0.4, 1e-6)
    per = (width - 2 * margin) / span                   # pixels per degree
    xs = even({a.id: (a.at[1] - west) * k * per for a in areas})
    ys = even({a.id: (north - a.at[0]) * per * stretch for a in areas})
    above = margin + scale.font * 2        # room for a sea's or a country's label too
    pos = {a.id: (margin + xs[a.id], top + above + ys[a.id]) for a in areas}
    pos = spread(pos, scale.font * SPREAD, (margin, width - margin))
    return pos, max(y for _, y in pos.values()) + above


def even(at: dict[str, float]) -> dict[str, float]:
    """Coordinates along one axis drawn half by their distance and half by their rank, over
    the same length: a crowded stretch of the front gets more room, an empty one less, and
    no area changes places with another along the axis."""
    if len(at) < 2:
        return dict(at)
    lo, hi = min(at.values()), max(at.values())
    order = sorted(at, key=lambda i: (at[i], i))
    rank = {i: n * (hi - lo) / (len(order) - 1) for n, i in enumerate(order)}
    return {i: lo + (at[i] - lo) * (1 - EVEN) + rank[i] * EVEN for i in at}


def spread(pos: dict[str, tuple[float, float]], least: float,
           across: tuple[float, float]) -> dict[str, tuple[float, float]]:
    """The positions with every two areas at least `least` apart where a few small pushes
    can do it, each area kept within `across` from west to east."""
    ids = sorted(pos)
    at = {i: list(pos[i]) for i in ids}
    for _ in range(40):
        moved = False
        for n, a in enumerate(ids):
            for b in ids[n + 1:]:
                dx, dy = at[b][0] - at[a][0], at[b][1] - at[a][1]
                d = math.hypot(dx, dy)
                if d >= least:
                    continue
                moved = True
                ux, uy = (dx / d, dy / d) if d > 1e-6 else (0.0, 1.0)
                push = (least - d) / 2 + 0.5
                at[a][0] -= ux * push
                at[a][1] -= uy * push
                at[b][0] += ux * push
                at[b][1] += uy * push
        for p in at.values():
            p[0] = min(max(p[0], across[0]), across[1])
        if not moved:
            break
    top = min(p[1] for p in at.values())
    shift = min(pos[i][1] for i in ids) - top
    return {i: (round(at[i][0], 1), round(at[i][1] + shift, 1)) for i in ids}


def links(data: GameData, pos: dict) -> list[tuple[str, str]]:
    """Every pair of neighbours (4.1) whose two areas are drawn on the map, each once."""
    pairs = {tuple(sorted((a.id, b))) for a in data.map.areas for b in a.neighbours
             if a.id in pos and b in pos}
    return sorted(pairs)


def area_name(area: Area) -> str:
    """An area's name as the map writes it."""
    return impassable.clip(clean(area.name), NAME_CHARS)


def base(data: GameData, scale: Scale, top: float, level: int,
         ids: tuple[str, ...] | None = None) -> Base:
    """The static part of the map picture for this data, writing and level, of every area
    on the front or of `ids` only (a close-up); kept."""
    return remembered(_KEPT.setdefault(data, {}), (scale, top, level, ids),
                      lambda: _kept_or_made(data, scale, top, level, ids), KEPT)


def _kept_or_made(data: GameData, scale: Scale, top: float, level: int,
                  ids: tuple[str, ...] | None) -> Base:
    """The Base kept by an earlier run (stored.py), else made and kept; marked by the name
    it is kept under, which tells its static layer too (png._base). A close-up's is kept
    as its own kind, and so is its layer (the decisions of a front come back to the same
    few areas, and each costs about as much to make as a whole map's level)."""
    name = stored.key(data.source, scale.font, top, level, ids)
    if name is None:
        return _base(data, scale, top, level, ids)
    kind = "base" if ids is None else "closeup"
    b = _from_payload(stored.read_base(name, kind), data, scale, ids)
    if b is None:
        b = _base(data, scale, top, level, ids)
        stored.write_base(name, _payload(b, data), kind)
    b.mark = name if ids is None else ("close-up", name)
    return b


def _payload(b: Base, data: GameData) -> dict:
    """A Base in JSON's types; a sea or neutral country by its place in map.yaml."""
    rank = {id(r): n for n, r in enumerate(data.map.impassable)}
    return {"top": b.top, "bottom": b.bottom, "pos": b.pos, "links": b.links,
            "regions": [[rank[id(p.region)], p.label, p.box, p.centre, p.ticks]
                        for p in b.regions],
            "unplaced": [rank[id(r)] for r in b.unplaced], "names": b.names,
            "supply": b.supply, "space": b.space.payload(), "whole": b.whole}


def _from_payload(p: dict | None, data: GameData, scale: Scale,
                  ids: tuple[str, ...] | None = None) -> Base | None:
    """The Base _payload wrote (of the whole map, or of the areas of ids), or None when p
    is not one."""
    if p is None:
        return None
    seas = {n: sea for n, sea in enumerate(data.map.impassable)}
    try:
        b = Base(
            scale, p["top"], p["bottom"], {a: tuple(xy) for a, xy in p["pos"].items()},
            [tuple(link) for link in p["links"]],
            [impassable.Placed(seas[n], label, tuple(box), tuple(centre),
                               tuple(tuple(t) for t in ticks))
             for n, label, box, centre, ticks in p["regions"]],
            [seas[n] for n in p["unplaced"]], _placed(p["names"]), _placed(p["supply"]),
            labels.Space.from_payload(p["space"]), bool(p["whole"]))
        return b if _sound(b, data, ids) else None
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, ArithmeticError,
            MemoryError):
        return None


def _sound(b: Base, data: GameData, ids: tuple[str, ...] | None = None) -> bool:
    """Whether a Base read back has the shape of one made for this data: every area of the
    front (or of ids) at a point and no other, lines only between them, each label a
    box."""
    def numbers(xs, n: int) -> bool:
        return len(xs) == n and all(type(x) in (int, float) for x in xs)

    areas = {a.id for a in front(data) if ids is None or a.id in ids}
    return numbers((b.top, b.bottom), 2) and set(b.pos) == areas and b.whole == (ids is None) \
        and all(numbers(xy, 2) for xy in b.pos.values()) \
        and all(a in b.pos and c in b.pos for a, c in b.links) \
        and all(a in b.pos and numbers(box, 4) and (leader is None or numbers(leader, 4))
                for kept in (b.names, b.supply) for a, (box, leader) in kept.items())


def _placed(p: dict) -> dict[str, tuple]:
    """Labels as labels.place gives them: a box and its leader (None when it touches)."""
    return {a: (tuple(box), tuple(leader) if leader else None) for a, (box, leader) in p.items()}


def _base(data: GameData, scale: Scale, top: float, level: int,
          ids: tuple[str, ...] | None) -> Base:
    areas = [a for a in front(data) if ids is None or a.id in ids]
    pos, bottom = project(areas, scale, top, STRETCH * GROWTH ** level)
    b = Base(scale, top, bottom, pos, links(data, pos), [], [], whole=ids is None)
    b.regions, b.unplaced = impassable.place(data, pos, WIDTH, bottom, scale,
                                             [(0.0, 0.0, WIDTH, top)])
    space = labels.Space((2.0, top, WIDTH - 2.0, bottom - 2.0))
    for a, c in b.links:
        space.add_segment(*pos[a], *pos[c], soft=True)
    for p in b.regions:
        space.add_box(p.box)
    for a in areas:
        space.add_circle(*pos[a.id], b.ring(a.id) + 1.0, a.id)
    named = space.copy()               # a name keeps off the ticks, a counter may hide one
    for p in b.regions:
        for _, x, y in p.ticks:
            space.add_segment(*p.centre, x, y, soft=True)
            named.add_segment(*p.centre, x, y)
    kept = named.copy()                # the room under each circle is kept for its units
    for a in areas:
        x, y = pos[a.id]
        half, below = scale.font * KEEP[0] / 2, y + b.ring(a.id) + 2
        kept.add_box((x - half, below, x + half, below + scale.line * KEEP[1]))
    crowd = {a.id: sum(math.dist(pos[a.id], p) < scale.font * 6 for p in pos.values())
             for a in areas}
    spaces = (kept, named, space)
    for a in sorted(areas, key=lambda a: -crowd[a.id]):
        _label(b.names, spaces, a, _name_size(a, scale), UP, NAME_REACH, b, (NAME_REACH, FAR))
    for a in areas:
        if a.supply_source or a.conditional_supply_source:
            _label(b.supply, spaces, a, (scale.font * 1.05, scale.font * 1.3), math.pi,
                   MARK_REACH, b, (MARK_REACH,))
    b.space = space
    return b


def _name_size(area: Area, scale: Scale) -> tuple[float, float]:
    return text_width(area_name(area), scale.font, True) + 2, scale.font * 1.2


def _label(into: dict, spaces: tuple[labels.Space, ...], area: Area,
           size: tuple[float, float], prefer: float, reach: float, b: Base,
           own: tuple[float, ...] = ()) -> None:
    """An area's name or mark where it can be: clear of the room kept for the units and of
    the lines joining neighbours, else over the lines, else in the room kept (never over a
    region's tick: the first two spaces); placed in every space. None found: the picture
    must grow (svgmap.py). A place that reads as its own area's (labels.owns) is looked for
    first, in each space within each reach of `own` in turn."""
    f = b.scale.font
    x, y = b.pos[area.id]
    tries = ((0, True), (0, False), (1, False))
    asks = [(f * APART, far, t) for far in own for t in tries] + \
        [(None, reach, t) for t in tries]
    for apart, far, (n, strict) in asks:
        got = labels.place(spaces[n], area.id, x, y, b.ring(area.id), *size, prefer, far * f,
                           strict, f, apart=apart, lead=LEAD)
        if got is not None:
            into[area.id] = got
            for other in spaces:
                if other is not spaces[n]:
                    other.add_box(got[0], area.id)
                    if got[1]:
                        other.add_segment(*got[1], area.id, width=LEAD)
            return
