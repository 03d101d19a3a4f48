"""The map as one SVG picture for one reader: areas, links, control, every unit as a counter
at its area, and the key to it all.

A schematic, not the printed board (mapbase.py): a circle for each area and a line for each
pair of neighbours (4.1), so the picture shows the adjacency the rules use and nothing else.
The picture is WIDTH pixels wide, the width a phone shows a mailed PNG at (png.py), and drawn
upright: who it is for, the record and the turn on top, the map across the whole width,
under it the areas off the front (ENGLAND, kind `sea_only`, and the boxes of map.yaml such
as the EFT box) as boxes holding their counters, then the key. Every unit stands at its
area as a counter (counters.py), its area's counters together beside the circle
(stacks.py); every place is checked against everything drawn, and when one finds no room
the map is drawn taller (mapbase.py `level`) until all do: no unit is ever left off or
listed aside. The same drawing at a larger Scale, of a few areas only, is the close-up of a
decision (closeup.py).

What a unit shows comes from `views.state_view`, which is already made for the reader (army
contents on another side's hidden template stay hidden, 1.4). The document is built with
`xml.etree.ElementTree`, which escapes every text and attribute; characters XML cannot hold
are dropped first. Nothing in it is executable or refers outside the file. The part that is
the same at every record is one group, `base`, which png.py draws once and keeps.
"""

from __future__ import annotations

import copy
import hashlib
import json
import math
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from ..base.errors import GameDataError
from ..contracts.mapmodels import Area
from ..data.gamedata import GameData
from ..engine.state import State
from ..game.views import box_views, state_view
from . import counters as cnt
from . import impassable, mapbase, mapkeys, stackname, stacks
from .documents import side_colours, side_name
from .focus import battle_areas, decision_areas
from .mapkeys import EDGE
from .memo import drawn_from, remembered
from .svgparts import WHOLE, Scale, clean

# Fill of an area by its control and ink of a side's units: the game's (units.yaml
# side_colours; TTLM: the German green and the Entente blue of the printed map); a side the
# data gives no colour takes the next free one, in the order of GameData.sides.
MORE_COLOURS = ("#e0c07a", "#c9a3d6", "#8fd0c8", "#d8a0a0")
INK = "#333333"
DISPUTED = "#f0a35e"
NEUTRAL = "#dcdcdc"
BATTLE = "#c0141c"
DECISION = "#e0a100"
GROUND = "#fbfaf5"
ROUGH = "#6b4a1f"
WIDTH = mapbase.WIDTH
# The dots from an area to its name or supply mark: in the names' ink, thick and spaced
# enough to be followed on a phone (the picture shown 400 pixels wide), unlike the thin grey
# lines joining neighbours; the line from an area to its counters is as thick and unbroken,
# in their side's ink (the names' when the stack holds several sides).
LEAD_INK, LEAD_DASH = "#222222", "3 4"
LEVELS = 32            # the most times the map is drawn taller to give every unit a place
TALLEST = 8000         # pixels: taller than eight phone screens is no picture to read
FILL_AT_0 = 0.08       # the share of the map its counters cover that is first tried at 0 ...
FILL_PER_LEVEL = 0.025 # ... and each such share more, a level higher (layout)
FIRST_AT_MOST = 8      # the highest level tried first
LAID = 4               # the layouts kept (layout)
TOO_TALL = ("too tall",)   # a level drawn taller than TALLEST (layout)
_LAID: dict[tuple, tuple] = {}
_GROUPS: dict[tuple, ET.Element] = {}     # the static part drawn, by its Base (draw_base)


def control_colour(control: str, data: GameData) -> str:
    """The fill of an area under this control (a side id, disputed or neutral; 1.2)."""
    if control == "disputed":
        return DISPUTED
    if control in data.units.side_colours:
        return data.units.side_colours[control].fill
    if control in data.sides:
        return MORE_COLOURS[data.sides.index(control) % len(MORE_COLOURS)]
    return NEUTRAL


def ink(side: str, data: GameData) -> str:
    """The colour of a side's writing (units.yaml side_colours), the one a post writes the
    side's name in (documents.side_colours)."""
    return side_colours(data).get(side, INK)


def rings() -> dict[str, tuple[str, float, str | None, str]]:
    """The rings round an area's circle and what they mean (5.1.1; the decision asked)."""
    return {"battle": (BATTLE, 2.5, "5 3", "dashed red ring: a battle area (5.1.1)"),
            "decision": (DECISION, 3.5, None, "gold ring: the decision asked now concerns "
                                              "this area"),
            "rough": (ROUGH, 2.5, None, "brown edge: rough terrain")}


@dataclass
class Scene:
    """What one picture shows: the view made for its reader, the areas marked, and the
    units of the EFT box as he sees them (1.4)."""

    view: dict
    data: GameData
    scale: Scale
    battles: set[str]
    decision: set[str]
    box: list[dict]


def _by_area(scene: Scene, ids) -> dict[str, list[cnt.Counter]]:
    return {a: cnt.counters(scene.view["areas"][a]["units"], a, scene.data) for a in ids}


def _no_room() -> GameDataError:
    return GameDataError([
        f"the map has no room for every unit within {TALLEST} pixels of height: an area "
        f"holds more counters than fit beside it, or areas stand too close together "
        f"(map.yaml `at`); the mails go without pictures"])


def layout(scene: Scene, top: float, ids: tuple[str, ...] | None = None
           ) -> tuple[mapbase.Base, list[stacks.Stack]]:
    """The static part of the map and a place for every counter on it: the map is drawn
    taller, level by level, until every name and every counter has a place. The first level
    tried is guessed from how much of the map the counters cover (first_level); from it
    the map is drawn shorter while the level under gives every counter a place too, or
    taller until one does (by doubling steps, then halves), so the same position is always
    drawn at the same level, most often after two tries. The same counters on the same
    areas are laid out once (the map of each player, when neither hides anything from the
    other, or a close-up and its twin): the last LAID layouts are kept."""
    ground = mapbase.base(scene.data, scene.scale, top, 0, ids)
    by_area = _by_area(scene, ground.pos)
    key = (scene.data, scene.scale, top, ids, tuple((a, tuple(cs)) for a, cs in
                                                    by_area.items()))
    return remembered(_LAID, key, lambda: _laid_out(scene, top, ids, ground, by_area), LAID)


def _laid_out(scene: Scene, top: float, ids: tuple[str, ...] | None,
              ground: mapbase.Base, by_area: dict[str, list[cnt.Counter]]
              ) -> tuple[mapbase.Base, list[stacks.Stack]]:
    tried: dict[int, tuple | None] = {}
    names = {a.id: mapbase.area_name(a) for a in scene.data.map.areas if a.id in ground.pos}

    def attempt(level: int):
        """(base, stacks) when every counter has a place at this level, None when one has
        not, TOO_TALL when the map would be taller than a picture may be (and so at every
        level above)."""
        if level not in tried:
            b = mapbase.base(scene.data, scene.scale, top, level, ids) \
                if level < LEVELS else None
            if b is None or b.bottom > TALLEST:
                tried[level] = TOO_TALL
            else:
                got = stacks.place_all(b, by_area, names) \
                    if len(b.names) == len(b.pos) else None
                tried[level] = (b, got) if got is not None else None
        return tried[level]

    level = first_level(ground, by_area)
    got = attempt(level)
    if got is not None and got is not TOO_TALL:
        while level > 0 and _fits(attempt(level - 1)):
            level -= 1
        return attempt(level)
    lo, hi = (0, level) if got is TOO_TALL else (level + 1, level + 1)
    step = 1
    while attempt(hi) is None:          # up by doubling steps to a level that fits or is
        lo, hi, step = hi + 1, hi + step * 2, step * 2      # too tall, then by halves
    while lo < hi:
        mid = (lo + hi) // 2
        if attempt(mid) is None:
            lo = mid + 1
        else:
            hi = mid
    if not _fits(attempt(hi)):
        raise _no_room()
    return attempt(hi)


def _fits(got) -> bool:
    return got is not None and got is not TOO_TALL


def first_level(ground: mapbase.Base, by_area: dict[str, list[cnt.Counter]]) -> int:
    """The level a map is first tried at: the share of the map at level 0 that its counters
    cover, past FILL_AT_0, in steps of FILL_PER_LEVEL (a guess: any level gives the same
    picture of the same position, only the number of tries changes)."""
    bulk = sum(w * h for cs in by_area.values() for w, h in (cnt.size(c, ground.scale)
                                                             for c in cs))
    fill = bulk / max(WIDTH * (ground.bottom - ground.top), 1.0)
    return min(max(round((fill - FILL_AT_0) / FILL_PER_LEVEL), 0), FIRST_AT_MOST)


# ---------------------------------------------------------------- the static part

def _line(parent: ET.Element, box, colour: str, width: float, cls: str,
          dash: str | None = None, **attrs) -> ET.Element:
    x0, y0, x1, y1 = box
    a = {"x1": f"{x0:.1f}", "y1": f"{y0:.1f}", "x2": f"{x1:.1f}", "y2": f"{y1:.1f}",
         "stroke": colour, "stroke-width": f"{width:g}", "class": cls, **attrs}
    if dash:
        a["stroke-dasharray"] = dash
    return ET.SubElement(parent, "line", a)


def from_circle(leader, centre: tuple[float, float], r: float):
    """A leader drawn from the edge of its area's circle (it was placed from the ring round
    it, which only rings fill)."""
    x, y = centre
    ex, ey = leader[2], leader[3]
    d = math.hypot(ex - x, ey - y) or 1.0
    return x + (ex - x) * r / d, y + (ey - y) * r / d, ex, ey


def _rect(parent: ET.Element, box, fill: str, cls: str, **attrs) -> ET.Element:
    x0, y0, x1, y1 = box
    return ET.SubElement(parent, "rect", {
        "x": f"{x0:.1f}", "y": f"{y0:.1f}", "width": f"{x1 - x0:.1f}",
        "height": f"{y1 - y0:.1f}", "fill": fill, "class": cls, **attrs})


def draw_base(svg: ET.Element, b: mapbase.Base, data: GameData) -> None:
    """The part that is the same at every record: the ground of the map, the lines joining
    neighbours (4.1), the seas and neutral countries (4.1, 4.2), each area's name and its
    supply mark (6.1). Built once for each Base (by its mark) and copied into each picture
    of it (each reader's, each record's)."""
    g = copy.deepcopy(remembered(_GROUPS, (b.mark, data), lambda: _base_group(b, data), LAID))
    svg.append(g)
    drawn_from(g, b.mark)


def _base_group(b: mapbase.Base, data: GameData) -> ET.Element:
    g = ET.Element("g", {"id": "base", "class": "whole" if b.whole else "close-up"})
    _rect(g, (0, 0, WIDTH, b.bottom), GROUND, "ground")
    layer = ET.SubElement(g, "g", {"id": "links", "stroke": "#777777", "stroke-width": "1.5"})
    for a, c in b.links:
        (x1, y1), (x2, y2) = b.pos[a], b.pos[c]
        ET.SubElement(layer, "line", {"x1": f"{x1:.1f}", "y1": f"{y1:.1f}", "x2": f"{x2:.1f}",
                                      "y2": f"{y2:.1f}", "class": "link", "data-from": a,
                                      "data-to": c})
    impassable.draw(g, b.regions, b.scale)
    f = b.scale.font
    names = ET.SubElement(g, "g", {"id": "names"})
    for area in data.map.areas:
        if area.id not in b.names:
            continue
        box, leader = b.names[area.id]
        if leader:
            _line(names, from_circle(leader, b.pos[area.id], b.scale.radius), LEAD_INK,
                  mapbase.LEAD, "leader", LEAD_DASH, **{"data-area": area.id})
        _rect(names, box, GROUND, "name-ground", **{"data-area": area.id})
        mapkeys.text(names, (box[0] + box[2]) / 2, box[1] + f * 0.95, mapbase.area_name(area),
                     f, **{"text-anchor": "middle", "font-weight": "bold", "fill": "#222222",
                           "class": "name", "data-area": area.id})
    for area in data.map.areas:
        if area.id in b.supply:
            _supply(names, b, area, data)
    return g


def _supply(g: ET.Element, b: mapbase.Base, area: Area, data: GameData) -> None:
    """The supply source mark of an area in its side's colour; white: only in some cases."""
    side = area.supply_source or area.conditional_supply_source
    box, leader = b.supply[area.id]
    mark = ET.SubElement(g, "g", {"class": "supply", "data-area": area.id, "data-side": side})
    if leader:
        _line(mark, from_circle(leader, b.pos[area.id], b.scale.radius), LEAD_INK,
              mapbase.LEAD, "leader", LEAD_DASH)
    _rect(mark, box, control_colour(side, data) if area.supply_source else "#ffffff", "mark",
          stroke="#333333")
    mapkeys.text(mark, (box[0] + box[2]) / 2, box[3] - b.scale.font * 0.3, "S", b.scale.font,
                 **{"text-anchor": "middle", "font-weight": "bold"})


# ---------------------------------------------------------------- what changes

def _title(area: Area, info: dict, scene: Scene) -> str:
    """The hover text of an area: name, control, terrain, VP, supply, units."""
    data, control = scene.data, info["control"]
    parts = [f"{area.name}: {side_name(control) if control in data.sides else control}",
             f"terrain {area.terrain}"]
    if area.vp:
        parts.append(f"{area.vp} VP")
    if area.supply_source:
        parts.append(f"{side_name(area.supply_source)} supply source")
    if area.conditional_supply_source:
        parts.append(f"{side_name(area.conditional_supply_source)} supply source in some cases")
    if area.id in scene.battles:
        parts.append("battle area")
    if area.id in scene.decision:
        parts.append("the decision asked concerns it")
    parts += [c.title for c in cnt.counters(info["units"], area.id, data)]
    return "; ".join(parts)


def draw_area(parent: ET.Element, area: Area, scene: Scene, x: float, y: float) -> None:
    """One area as one <g>: its rings, its circle filled by control and its VP."""
    info, s = scene.view["areas"][area.id], scene.scale
    g = ET.SubElement(parent, "g", {"id": f"area-{area.id}", "class": "area",
                                    "data-control": info["control"]})
    ET.SubElement(g, "title").text = clean(_title(area, info, scene))
    marks = rings()
    for n, (key, on) in enumerate((("decision", area.id in scene.decision),
                                   ("battle", area.id in scene.battles))):
        if on:
            g.set(f"data-{key}", "true")
            colour, width, dash, _ = marks[key]
            attrs = {"cx": f"{x:.1f}", "cy": f"{y:.1f}", "fill": "none", "stroke": colour,
                     "r": f"{s.radius + s.font * (0.5 - 0.25 * n):.1f}",
                     "stroke-width": f"{width:g}", "class": key}
            if dash:
                attrs["stroke-dasharray"] = dash
            ET.SubElement(g, "circle", attrs)
    rough = area.terrain != "clear"
    ET.SubElement(g, "circle", {
        "cx": f"{x:.1f}", "cy": f"{y:.1f}", "r": f"{s.radius:g}", "class": "shape",
        "fill": control_colour(info["control"], scene.data),
        "stroke": ROUGH if rough else "#555555", "stroke-width": "2.5" if rough else "1"})
    if area.vp:
        mapkeys.text(g, x, y + s.font * 0.36, str(area.vp), s.font,
                     **{"text-anchor": "middle", "font-weight": "bold", "class": "vp"})


def draw_stacks(svg: ET.Element, placed: list[stacks.Stack], scene: Scene, pos: dict) -> None:
    """Each area's counters where stacks.py placed them, with their leader, and the area's
    name over them where the stack carries it (stackname.py)."""
    layer = ET.SubElement(svg, "g", {"id": "units"})
    for st in placed:
        g = ET.SubElement(layer, "g", {"class": "stack", "data-area": st.area})
        sides = {c.side for c, _, _ in st.cells}
        lead = ink(sides.pop(), scene.data) if len(sides) == 1 else LEAD_INK
        if st.leader:
            _line(g, from_circle(st.leader, pos[st.area], scene.scale.radius), lead,
                  stacks.LEAD, "leader")
        if st.name is not None:
            stackname.draw(g, st.name, st.area, st.box[0], st.box[1], scene.scale, lead,
                          GROUND)
        for c, x, y in st.cells:
            cnt.draw(g, c, x, y, scene.scale)


def _box(parent: ET.Element, attrs: dict, title: str, name: str, note: str,
         units: list[cnt.Counter], fill: str, y: float, scale: Scale) -> float:
    """An area off the front (or a box of map.yaml) as a box holding its counters; returns
    its bottom."""
    g = ET.SubElement(parent, "g", attrs)
    ET.SubElement(g, "title").text = clean(title)
    room, f, pad = WIDTH - 2 * EDGE, scale.font, scale.pad
    rect = _rect(g, (EDGE, y, WIDTH - EDGE, y + 1), fill, "shape", stroke="#555555", rx="6")
    y += scale.line
    mapkeys.text(g, EDGE + pad * 2, y, mapkeys.fit(f"{name}{note}", f, room - 4 * pad, True),
                 f, **{"font-weight": "bold", "class": "name"})
    x, y, row = EDGE + pad * 2, y + pad * 2, 0.0
    for c in units:
        w, h = cnt.size(c, scale)
        if x + w > WIDTH - EDGE - pad * 2 and x > EDGE + pad * 2:
            x, y, row = EDGE + pad * 2, y + row + pad, 0.0
        cnt.draw(g, c, x, y, scale)
        x, row = x + w + pad, max(row, h)
    if not units:
        y += scale.line * 0.3
        mapkeys.text(g, EDGE + pad * 2, y + f, "empty", f)
        row = scale.line
    rect.set("height", f"{y + row + pad * 2 - float(rect.get('y')):.1f}")
    return y + row + pad * 2


def draw_offmap(svg: ET.Element, scene: Scene, pos: dict, y: float) -> float:
    """ENGLAND and the boxes of map.yaml (the EFT box) under the map, each a box holding
    its counters; returns their bottom."""
    layer = ET.SubElement(svg, "g", {"id": "offmap"})
    data, s = scene.data, scene.scale
    for area in data.map.areas:
        if area.id in pos:
            continue
        info = scene.view["areas"][area.id]
        attrs = {"id": f"area-{area.id}", "class": "area offmap",
                 "data-control": info["control"]}
        if area.id in scene.battles:
            attrs["data-battle"] = "true"
        note = " (sea movement only, 4.6)" if area.kind == "sea_only" else ""
        y = _box(layer, attrs, _title(area, info, scene), area.name, note,
                 cnt.counters(info["units"], area.id, data),
                 control_colour(info["control"], data), y + s.pad * 2, s)
    for box in data.map.boxes:               # the EFT box and the like (no control)
        units = scene.box if box is data.eft_box else []
        attrs = {"id": f"box-{box.id}", "class": "box", "data-owner": box.owner}
        y = _box(layer, attrs, box.name, box.name, "", cnt.counters(units, box.id, data),
                 "#f4f0e0", y + s.pad * 2, s)
    return y


# ---------------------------------------------------------------- the picture

def scene_of(state: State, data: GameData, reader: str, game_id: str = "",
             seq: int | None = None, scale: Scale = WHOLE) -> Scene:
    """What a picture of this position shows its reader (1.4 through state_view)."""
    view = state_view(state, data, reader, game_id, seq)
    return Scene(view, data, scale, battle_areas(state, data), set(decision_areas(state, data)),
                 box_views(state, data, reader))


def document(svg: ET.Element, width: float, height: float) -> str:
    """The SVG element as a document, its size set and every text XML-safe."""
    return as_text(finish(svg, width, height))


def finish(svg: ET.Element, width: float, height: float) -> ET.Element:
    """The SVG element with its size set and every text XML-safe: what the document says,
    and what png.py draws without writing it out and reading it back."""
    svg.set("width", f"{width:.0f}")
    svg.set("height", f"{height:.0f}")
    svg.set("viewBox", f"0 0 {width:.0f} {height:.0f}")
    for el in svg.iter():                    # ids and names from the data: XML-safe text
        if el.text:
            el.text = clean(el.text)
        if _plain(el.attrib):
            continue
        for k, v in el.attrib.items():
            safe = clean(v)
            if safe is not v:
                el.set(k, safe)
    return svg


def _plain(attrib: dict) -> bool:
    """Whether every value is a string clean() leaves as it is (most: numbers and ids),
    looked at in one go."""
    try:
        values = "".join(attrib.values())
    except TypeError:               # a value that is not a string yet: clean() makes it one
        return False
    return values.isascii() and values.isprintable()


def as_text(svg: ET.Element) -> str:
    """A finished SVG element written out as a document."""
    ET.indent(svg, space=" ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(svg, encoding="unicode") \
        + "\n"


def start(scene: Scene, title: str, shown_to: tuple[str, ...] = ()
          ) -> tuple[ET.Element, ET.Element]:
    """The SVG element with its title and the ground under everything."""
    v = scene.view
    svg = ET.Element("svg", {"xmlns": "http://www.w3.org/2000/svg", "version": "1.1",
                             "font-family": "DejaVu Sans Condensed, DejaVu Sans, sans-serif"})
    ET.SubElement(svg, "title").text = clean(
        f"{v.get('game_name') or 'Game'}: {title}, game {v['game_id']}, record {v['seq']}, "
        f"{mapkeys.for_words(shown_to or (v['reader'],))}")
    ground = _rect(svg, (0, 0, WIDTH, 1), GROUND, "ground")
    return svg, ground


def map_svg(state: State, data: GameData, reader: str, game_id: str = "",
            seq: int | None = None) -> str:
    """The whole map for one reader as an SVG document (4.1 adjacency, 1.2 control, 1.4
    hidden templates through state_view)."""
    return as_text(map_tree(state, data, reader, game_id, seq))


def map_tree(state: State, data: GameData, reader: str, game_id: str = "",
             seq: int | None = None, shown_to: tuple[str, ...] = ()) -> ET.Element:
    """The whole map for one reader as a finished SVG element (map_svg); its top names the
    readers of shown_to instead, who see the very same drawing (SharedMaps)."""
    return scene_map(scene_of(state, data, reader, game_id, seq), shown_to)


def scene_map(scene: Scene, shown_to: tuple[str, ...] = ()) -> ET.Element:
    """map_tree of the scene made for its reader (scene_of): drawn from the scene alone."""
    data = scene.data
    svg, ground = start(scene, "map", shown_to)
    top = mapkeys.header_height(scene.scale)
    b, placed = layout(scene, top)
    draw_base(svg, b, data)
    legend = ET.SubElement(svg, "g", {"id": "legend"})
    mapkeys.header(legend, scene.view, scene.scale, WIDTH, "map", shown_to)
    layer = ET.SubElement(svg, "g", {"id": "areas"})
    for a in data.map.areas:
        if a.id in b.pos:
            draw_area(layer, a, scene, *b.pos[a.id])
    draw_stacks(svg, placed, scene, b.pos)
    y = draw_offmap(svg, scene, b.pos, b.bottom)
    colours = {"control": lambda s: control_colour(s, data), "disputed": DISPUTED,
               "neutral": NEUTRAL}
    cols = mapkeys.legend(legend, data, y + scene.scale.pad * 3, scene.scale, WIDTH, colours,
                          rings(), any(st.name is not None for st in placed))
    y = impassable.legend(svg, b.unplaced, data, cols[0].x, cols[0].y + 4, scene.scale)
    height = max(y, cols[1].y) + 16
    ground.set("height", f"{height:.0f}")
    return finish(svg, WIDTH, height)


def map_facts(state: State, data: GameData, reader: str, game_id: str = "") -> list[dict]:
    """What map_svg draws of each area, for scripts: its control (1.2), whether it is a Battle
    Area (5.1), and the units the reader may see there (1.4)."""
    view = state_view(state, data, reader, game_id)
    battles = battle_areas(state, data)
    return [{"id": a.id, "name": a.name, "control": view["areas"][a.id]["control"],
             "battle": a.id in battles, "units": [u["id"] for u in view["areas"][a.id]["units"]]}
            for a in data.map.areas]


def board_digest(state: State, data: GameData, reader: str) -> str:
    """A digest of what the map shows its reader of the board: each area's control and the
    units there as he may see them (1.4), the EFT box's, and the rings it draws (the battle
    areas, those the decision concerns): a mail that sends no new map says the board is as
    an earlier one shows it, which must then draw it the same; not who must act."""
    view = state_view(state, data, reader)
    facts = [[a, info["control"], [[u["id"], u.get("summary"), u.get("strength"),
                                     bool(u.get("entrenched")), bool(u.get("oos"))]
                                    for u in info["units"]]]
             for a, info in sorted(view["areas"].items())]
    facts.append([u["id"] for u in box_views(state, data, reader)])
    facts.append([sorted(battle_areas(state, data)), sorted(decision_areas(state, data))])
    return hashlib.sha256(json.dumps(facts).encode()).hexdigest()[:24]


def map_png(state: State, data: GameData, reader: str, game_id: str = "") -> bytes:
    """The map for one reader as PNG bytes, WIDTH pixels wide (png.py; OSError if it cannot
    be drawn)."""
    from .png import to_png  # start-up: the renderer is loaded only to draw a PNG

    return to_png(map_tree(state, data, reader, game_id))
