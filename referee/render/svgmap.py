"""The map as one SVG picture for one reader: areas, links, control, units, legend.

A schematic, not the printed board: each area is one circle at its `at` position in
map.yaml (latitude, longitude; equirectangular projection scaled by the cosine of the mean
latitude), and a line joins every pair of neighbours and no other pair (4.1), so the picture
shows the adjacency the rules use and nothing else. The picture is WIDTH pixels wide, the
size a phone shows a mailed PNG at (png.py), and drawn upright: who it is for, the record
and the turn on top, the map across the whole width (longer north-south than the globe has
it, STRETCH), and under it a panel of three columns: the keys, the off-front boxes (ENGLAND,
kind `sea_only`, and the boxes of map.yaml such as the EFT box) with the regions never
entered, and the units that found no room beside their area. Every label on the map (an
area's name, its fort and supply marks, its units) is placed where it meets no other label,
no circle and no line (labels.py).

What a unit shows comes from `views.state_view`, which is already made for the reader (army
contents on another side's hidden template stay hidden, 1.4). The document is built with
`xml.etree.ElementTree`, which escapes every text and attribute; characters XML cannot hold
are dropped first. Nothing in it is executable or refers outside the file.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

from ..contracts.mapmodels import Area
from ..data.gamedata import GameData
from ..engine.state import State
from ..game.views import state_view
from . import impassable, labels
from .documents import phase_name, player_turn, side_name
from .svgparts import LINE, NAME_SIZE, RADIUS, UNIT_SIZE, clean, text_width

# Fill of an area by its control and ink of a side's units: the game's (units.yaml
# side_colours; TTLM: the German green and the Entente blue of the printed map); a side the
# data gives no colour takes the next free one, in the order of GameData.sides.
MORE_COLOURS = ("#e0c07a", "#c9a3d6", "#8fd0c8", "#d8a0a0")
INK = "#333333"
DISPUTED = "#f0a35e"
NEUTRAL = "#dcdcdc"
BATTLE = "#c0141c"
GROUND = "#fbfaf5"

WIDTH = 1000.0         # the picture, in pixels
EDGE = 14.0            # the room at the picture's edges
COLUMN_GAP = 16.0      # between two columns of the panel under the map
PAD = 30.0             # around the map part
STRETCH = 1.6          # north-south distances grow by this much: a phone is held upright
NAME_CHARS = 28        # a longer area name from the data is clipped on the map
FONT = "DejaVu Sans Condensed, DejaVu Sans, sans-serif"   # png.py ships these files
UP, DOWN = -math.pi / 2, math.pi / 2
MARK_RINGS = (2.0, 3.0, 4.5)        # a fort or supply mark stays against its circle
NAME_RINGS = (2.0, 3.0, 4.5, 6.5, 9.0, 12.0, 16.0, 21.0, 27.0, 34.0, 42.0, 52.0, 64.0)


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
    """The colour of a side's unit text (units.yaml side_colours)."""
    colours = data.units.side_colours.get(side)
    return colours.ink if colours else INK


def battle_areas(state: State, data: GameData) -> set[str]:
    """Areas where a battle must be or is being fought now: Enemy areas made Disputed by this
    movement phase, before battles are declared (5.1.1), declared and not yet resolved battles
    (2.0 II.3), and the battle being fought."""
    out: set[str] = set()
    ts = state.turn_state
    if ts is not None and state.combat is None and state.pending is not None and \
            state.pending.kind in ("movement", "crisis"):
        out |= {a for a in ts.became_disputed if state.area_state(a, data) == "disputed"}
    if state.combat:
        out |= set(state.combat.get("declared", [])) - set(state.combat.get("resolved", []))
    if state.battle:
        out.add(state.battle["area"])
    return out


def positions(data: GameData, top_edge: float = 0.0
              ) -> tuple[dict[str, tuple[float, float]], float, float]:
    """Where each front area is drawn (map.yaml `at`), and the width of the picture and the
    bottom of the map part, which starts at `top_edge`: equirectangular, x scaled by the
    cosine of the mean latitude, the whole map fitted into the WIDTH and drawn longer
    north-south (STRETCH)."""
    placed = [a for a in data.map.areas if a.kind != "sea_only" and a.at is not None]
    if not placed:
        return {}, WIDTH, top_edge + 400.0
    lats = [a.at[0] for a in placed]
    lons = [a.at[1] for a in placed]
    k = math.cos(math.radians(sum(lats) / len(lats)))
    top, west = max(lats), min(lons)
    span = max((max(lons) - west) * k, (top - min(lats)) * 0.4, 1e-6)
    scale = (WIDTH - 2 * PAD - 90) / span             # pixels per degree
    pos = {a.id: (PAD + 45 + (a.at[1] - west) * k * scale,
                  top_edge + PAD + (top - a.at[0]) * scale * STRETCH) for a in placed}
    height = top_edge + 2 * PAD + (top - min(lats)) * scale * STRETCH
    return pos, WIDTH, height


def links(data: GameData, pos: dict) -> list[tuple[str, str]]:
    """Every pair of neighbours (4.1) whose two areas are drawn on the map, each once."""
    pairs = {tuple(sorted((a.id, b))) for a in data.map.areas for b in a.neighbours
             if a.id in pos and b in pos}
    return sorted(pairs)


def _text(parent: ET.Element, x: float, y: float, text: str, size: float = 9,
          halo: bool = False, **attrs) -> ET.Element:
    el = ET.SubElement(parent, "text", {"x": f"{x:.1f}", "y": f"{y:.1f}",
                                        "font-size": f"{size:g}", **attrs})
    if halo:                                 # a pale ground under the name
        bold = attrs.get("font-weight") == "bold"
        w = text_width(clean(text), size, bold) + 2
        x0 = {"middle": x - w / 2, "end": x - w}.get(attrs.get("text-anchor", ""), x - 1)
        parent.insert(len(parent) - 1, ET.Element("rect", {
            "x": f"{x0:.1f}", "y": f"{y - size * 0.95:.1f}", "width": f"{w:.1f}",
            "height": f"{size * 1.2:.1f}", "fill": GROUND, "fill-opacity": "0.8"}))
    el.text = clean(text)
    return el


def unit_label(u: dict, data: GameData | None = None) -> str:
    """A unit in a few characters, as the reader may see it ('ge-1 [3I+1A]', 'ge-1 [hidden]',
    'ge-c-01': a piece whose id carries its type's letter (units.yaml `code`) is named by
    its id alone, another by its id and type, 'uk-canadian commonwealth')."""
    ent = " E" if u.get("entrenched") else ""
    ent += " OoS" if u.get("oos") else ""         # the Out of Supply marker (1.2.3)
    if u["type"] == "army":
        return f"{u['id']}{ent} [{u.get('summary') or 'hidden'}]"
    kind = data.units.unit_types.get(u["type"]) if data is not None else None
    code = (getattr(kind, "code", None) or "").lower()
    if code and f"-{code}-" in f"{u['id']}-":
        return f"{u['id']}{ent}"
    return f"{u['id']} {str(u['type']).replace('_', ' ')}{ent}"


def _unit_lines(units: list[dict], data: GameData) -> list[tuple[str, str]]:
    """(label, colour) of each unit but forts, in the order the view lists them."""
    return [(unit_label(u, data), ink(u["side"], data)) for u in units
            if u["type"] != "fort"]


def _area_title(area: Area, info: dict, data: GameData, battle: bool) -> str:
    """The hover text of an area: name, control, terrain, VP, supply, fort, units."""
    control = info["control"]
    parts = [f"{area.name}: {side_name(control) if control in data.sides else control}",
             f"terrain {area.terrain}"]
    if area.vp:
        parts.append(f"{area.vp} VP")
    if area.supply_source:
        parts.append(f"{side_name(area.supply_source)} supply source")
    if area.conditional_supply_source:
        parts.append(f"{side_name(area.conditional_supply_source)} supply source in some cases")
    if battle:
        parts.append("battle area")
    for u in info["units"]:
        if u["type"] == "fort":
            parts.append(f"{u.get('name') or u['id']} fort {u['strength']} "
                         f"({side_name(u['side'])})")
        elif u["type"] == "army":
            parts.append(f"{u['id']} {u.get('name') or ''} [{u.get('summary') or 'hidden'}]")
        else:
            parts.append(unit_label(u, data))
    return "; ".join(parts)


# ---------------------------------------------------------------- the areas on the map

def _mark(g: ET.Element, box: labels.Box, text: str, fill: str, attrs: dict,
          colour: str = INK) -> None:
    """A small box with a letter or two against an area's circle (supply, fort)."""
    x0, y0, x1, y1 = box
    ET.SubElement(g, "rect", {"x": f"{x0:.1f}", "y": f"{y0:.1f}", "width": f"{x1 - x0:.1f}",
                              "height": f"{y1 - y0:.1f}", "fill": fill, "stroke": "#333333",
                              **attrs})
    _text(g, (x0 + x1) / 2, y1 - 3, text, 9.5, **{"text-anchor": "middle",
                                                  "font-weight": "bold", "fill": colour})


def _leader(g: ET.Element, leader, colour: str) -> None:
    if leader:
        x0, y0, x1, y1 = leader
        ET.SubElement(g, "line", {"x1": f"{x0:.1f}", "y1": f"{y0:.1f}", "x2": f"{x1:.1f}",
                                  "y2": f"{y1:.1f}", "stroke": colour, "stroke-width": "1",
                                  "stroke-dasharray": "2 2", "class": "leader"})


def _block(g: ET.Element, box: labels.Box, lines: list[tuple[str, str]], size: float,
           cls: str, bold: bool = False) -> None:
    """Lines of text centred in a placed box, one under the other."""
    x = (box[0] + box[2]) / 2
    for i, (line, colour) in enumerate(lines):
        attrs = {"text-anchor": "middle", "fill": colour, "class": cls}
        if bold:
            attrs["font-weight"] = "bold"
        _text(g, x, box[1] + size * 0.95 + i * LINE, line, size, cls == "name", **attrs)


def _ring(area: Area, battle: bool) -> float:
    return RADIUS + (5.0 if battle else 1.5 if area.terrain != "clear" else 0.5)


def _draw_area(parent: ET.Element, area: Area, info: dict, data: GameData, x: float,
               y: float, battle: bool) -> ET.Element:
    """One area as one <g>: its circle filled by control and its VP; the labels come after."""
    control = info["control"]
    g = ET.SubElement(parent, "g", {"id": f"area-{area.id}", "class": "area",
                                    "data-control": control})
    if battle:
        g.set("data-battle", "true")
    ET.SubElement(g, "title").text = clean(_area_title(area, info, data, battle))
    if battle:
        ET.SubElement(g, "circle", {"cx": f"{x:.1f}", "cy": f"{y:.1f}",
                                    "r": f"{RADIUS + 4:g}", "fill": "none", "stroke": BATTLE,
                                    "stroke-width": "2.5", "stroke-dasharray": "4 2",
                                    "class": "battle"})
    ET.SubElement(g, "circle", {
        "cx": f"{x:.1f}", "cy": f"{y:.1f}", "r": f"{RADIUS:g}", "class": "shape",
        "fill": control_colour(control, data),
        "stroke": "#555555" if area.terrain == "clear" else "#6b4a1f",
        "stroke-width": "1" if area.terrain == "clear" else "2.5"})
    if area.vp:
        _text(g, x, y + 3.5, str(area.vp), 10, **{"text-anchor": "middle",
                                                  "font-weight": "bold", "class": "vp"})
    return g


def _label_area(g: ET.Element, space: labels.Space, area: Area, info: dict, data: GameData,
                x: float, y: float, battle: bool) -> None:
    """The marks of an area against its circle: supply source (6.1) and forts in their
    side's colour with their strength (8.4); a mark with no room there joins the units."""
    r = _ring(area, battle)
    if area.supply_source or area.conditional_supply_source:
        side = area.supply_source or area.conditional_supply_source
        got = labels.place(space, area.id, x, y, r, 13, 13, math.pi, MARK_RINGS)
        if got:
            _mark(g, got[0], "S", control_colour(side, data) if area.supply_source
                  else "#ffffff", {"class": "supply", "data-side": side})
        else:
            info.setdefault("_more", []).append((f"S: {side_name(side)} supply", INK))
    for f in (u for u in info["units"] if u["type"] == "fort"):
        text = f"F{f['strength']}"
        got = labels.place(space, area.id, x, y, r, text_width(text, 9.5, True) + 7, 13, 0.0,
                           MARK_RINGS)
        if got:
            _mark(g, got[0], text, control_colour(f["side"], data),
                  {"class": "fort", "data-strength": str(f["strength"]),
                   "data-side": f["side"]}, ink(f["side"], data))
        else:
            info.setdefault("_more", []).append(
                (f"fort {f['strength']} ({side_name(f['side'])})", ink(f["side"], data)))


def _name_area(g: ET.Element, space: labels.Space, area: Area, x: float, y: float,
               battle: bool) -> bool:
    name = impassable.clip(clean(area.name), NAME_CHARS)
    w, h = text_width(name, NAME_SIZE, True) + 2, NAME_SIZE * 1.2
    got = labels.place(space, area.id, x, y, _ring(area, battle), w, h, UP, NAME_RINGS)
    if got is None:
        return False
    _leader(g, got[1], "#777777")
    _block(g, got[0], [(name, "#222222")], NAME_SIZE, "name", bold=True)
    return True


def _units_area(g: ET.Element, space: labels.Space, area: Area, lines: list, x: float,
                y: float, battle: bool) -> list:
    """The units of an area beside it: all in one block, or else line by line; returns the
    lines that found no room."""
    if _unit_block(g, space, area, lines, x, y, battle):
        return []
    if len(lines) == 1:
        return lines
    return [line for line in lines if not _unit_block(g, space, area, [line], x, y, battle)]


def _unit_block(g: ET.Element, space: labels.Space, area: Area, lines: list, x: float,
                y: float, battle: bool) -> bool:
    w = max(text_width(t, UNIT_SIZE) for t, _ in lines) + 2
    got = labels.place(space, area.id, x, y, _ring(area, battle), w, LINE * len(lines) + 1,
                       DOWN)
    if got is None:
        return False
    _leader(g, got[1], lines[0][1])
    _block(g, got[0], lines, UNIT_SIZE, "unit")
    return True


def _draw_map(svg: ET.Element, view: dict, data: GameData, pos: dict, battles: set[str],
              bounds: labels.Box, regions: list) -> list[tuple[ET.Element, Area, list]]:
    """The links, and each area with its labels; returns the areas whose units (or marks)
    found no room on the map, with their element and lines."""
    space = labels.Space(bounds)
    drawn = ET.SubElement(svg, "g", {"id": "links", "stroke": "#777777", "stroke-width": "1.5"})
    for a, b in links(data, pos):
        (x1, y1), (x2, y2) = pos[a], pos[b]
        ET.SubElement(drawn, "line", {"x1": f"{x1:.1f}", "y1": f"{y1:.1f}", "x2": f"{x2:.1f}",
                                      "y2": f"{y2:.1f}", "class": "link", "data-from": a,
                                      "data-to": b})
        space.add_segment(x1, y1, x2, y2)
    impassable.draw(svg, regions)            # seas and neutral countries (4.1, 4.2)
    for p in regions:
        space.add_box(p.box)
        for _, x, y in p.ticks:
            space.add_segment(*p.centre, x, y)
    front = [a for a in data.map.areas if a.id in pos]
    for a in front:
        x, y = pos[a.id]
        space.add_circle(x, y, _ring(a, a.id in battles) + 1.0, a.id)
    layer = ET.SubElement(svg, "g", {"id": "areas"})
    groups = {}
    for a in front:
        x, y = pos[a.id]
        groups[a.id] = _draw_area(layer, a, view["areas"][a.id], data, x, y, a.id in battles)
    crowd = {a.id: sum(math.dist(pos[a.id], p) < 90 for p in pos.values()) for a in front}
    unnamed = [a for a in sorted(front, key=lambda a: -crowd[a.id])
               if not _name_area(groups[a.id], space, a, *pos[a.id], a.id in battles)]
    for a in front:
        _label_area(groups[a.id], space, a, view["areas"][a.id], data, *pos[a.id],
                    a.id in battles)
    blocks = [(a, _unit_lines(view["areas"][a.id]["units"], data)
               + view["areas"][a.id].pop("_more", [])) for a in front]
    blocks.sort(key=lambda b: -len(b[1]))
    no_room = []
    for a, lines in blocks:
        left = _units_area(groups[a.id], space, a, lines, *pos[a.id], a.id in battles) \
            if lines else []
        if left:
            no_room.append((groups[a.id], a, left))
    for a in unnamed:                       # a name with no room beside its circle at all
        no_room.append((groups[a.id], a, []))
    return no_room


# ---------------------------------------------------------------- the panel

def _wrap(text: str, size: float, width: float, bold: bool = False) -> list[str]:
    """A text cut into lines no wider than `width` at this size, at spaces where it can."""
    out, line = [], ""
    for word in text.split(" "):
        cand = f"{line} {word}" if line else word
        if not line or text_width(cand, size, bold) <= width:
            line = cand
        else:
            out.append(line)
            line = word
        while text_width(line, size, bold) > width and len(line) > 1:
            cut = len(line) - 1
            while cut > 1 and text_width(line[:cut], size, bold) > width:
                cut -= 1
            out.append(line[:cut])
            line = line[cut:]
    return out + [line]


class Column:
    """One column of the panel under the map, written top to bottom."""

    def __init__(self, parent: ET.Element, x: float, y: float, width: float):
        self.parent, self.x, self.y, self.width = parent, x, y, width

    def write(self, text: str, size: float, parent: ET.Element | None = None,
              indent: float = 0.0, **attrs) -> None:
        bold = attrs.get("font-weight") == "bold"
        for line in _wrap(clean(text), size, self.width - indent, bold):
            self.y += size * 1.25
            _text(self.parent if parent is None else parent, self.x + indent, self.y, line,
                  size, **attrs)

    def gap(self, h: float) -> None:
        self.y += h


def _header(g: ET.Element, view: dict) -> float:
    """Who the picture is for, of which game, record and turn, at the top; returns its
    bottom."""
    col = Column(g, EDGE, 4.0, WIDTH - 2 * EDGE)
    col.write(f"{view.get('game_name') or 'Game'} \u2014 map for {view['reader']}", 18, g,
              **{"font-weight": "bold", "class": "reader"})
    col.write(f"game {view['game_id']}, record {view['seq']} \u00b7 Turn {view['turn']} of "
              f"{view.get('last_turn', view['turn'])}: {view['label']}", 14, g,
              **{"font-weight": "bold", "class": "turn"})
    col.write(f"{phase_name(view)}" + (f", {side_name(view['player'])} {player_turn(view)}"
                                       if view.get("player") else "")
              + f" \u00b7 VP {view['vp']['total']}: {view['vp']['level_name']}", 13, g)
    return col.y + 8


def _keys(col: Column, g: ET.Element, data: GameData) -> None:
    """What the colours and marks mean (1.2, 3.1, 4.1, 5.1.1, 6.1, 8.4)."""
    keys = [(control_colour(s, data), f"{side_name(s)} control") for s in data.sides]
    keys += [(DISPUTED, "Disputed"), (NEUTRAL, "Neutral")]
    for colour, label in keys:
        ET.SubElement(g, "circle", {"cx": f"{col.x + 7:.1f}", "cy": f"{col.y + 9:.1f}",
                                    "r": "7", "fill": colour, "stroke": "#555555"})
        col.write(label, 13, g, indent=20)
        col.gap(2)
    ET.SubElement(g, "circle", {"cx": f"{col.x + 7:.1f}", "cy": f"{col.y + 9:.1f}",
                                "r": "7", "fill": "none", "stroke": BATTLE,
                                "stroke-width": "2.5", "stroke-dasharray": "4 2"})
    col.write("battle area (5.1.1)", 13, g, indent=20)
    col.gap(4)
    for text in ("number in a circle: VP (3.1)", "thick brown ring: rough terrain",
                 "F n: fort in its side's colour, its strength now (8.4)",
                 "S: supply source in its side's colour; white: only in some cases (6.1)",
                 "a line joins two neighbouring areas (4.1)",
                 "[..]: army contents (I inf, C cav, A art, G siege gun ...)",
                 "E: entrenched (4.3)", "dots lead from an area to its label",
                 "positions are schematic (map.yaml `at`)"):
        col.write(text, 12, g)
        col.gap(2)


def _box(col: Column, title: str, lines: list[tuple[str, str]], attrs: dict,
         fill: str) -> ET.Element:
    """A panel box with a title and lines."""
    g = ET.SubElement(col.parent, "g", attrs)
    top = col.y + 6
    rect = ET.SubElement(g, "rect", {"x": f"{col.x:g}", "y": f"{top:.1f}",
                                     "width": f"{col.width:g}", "rx": "6",
                                     "fill": fill, "stroke": "#555555", "class": "shape"})
    col.gap(4)
    col.write(title, 13, g, indent=6, **{"font-weight": "bold"})
    for line, colour in lines or [("empty", "#333333")]:
        col.write(line, 12, g, indent=10, fill=colour)
    col.gap(6)
    rect.set("height", f"{col.y - top:.1f}")
    col.gap(4)
    return g


def _offmap(col: Column, view: dict, data: GameData, pos: dict, battles: set[str]) -> None:
    """ENGLAND and the boxes of map.yaml (the EFT box): one panel box each."""
    for area in data.map.areas:
        if area.id in pos:
            continue
        info = view["areas"][area.id]
        control = info["control"]
        lines = _unit_lines(info["units"], data)
        if area.kind == "sea_only":
            lines.append(("sea movement only (4.6)", "#555555"))
        attrs = {"id": f"area-{area.id}", "class": "area offmap", "data-control": control}
        if area.id in battles:
            attrs["data-battle"] = "true"
        g = _box(col, area.name, lines, attrs, control_colour(control, data))
        g.insert(0, ET.Element("title"))
        g[0].text = clean(_area_title(area, info, data, area.id in battles))
    for box in data.map.boxes:               # the EFT box and the like (no control)
        inside = (view.get("eft_box") or []) if box is data.eft_box else []
        attrs = {"id": f"box-{box.id}", "class": "box", "data-owner": box.owner}
        _box(col, box.name, [(u, ink(box.owner, data)) for u in inside], attrs, "#f4f0e0")


def _no_room(col: Column, no_room: list) -> None:
    """Each area whose units (or name) found no room on the map: its name and its units, in
    its own element."""
    if not no_room:
        return
    col.write("No room beside the area on the map:", 12, **{"font-weight": "bold"})
    for g, area, lines in no_room:
        col.write(clean(area.name), 12, g, **{"font-weight": "bold", "class": "name listed"})
        for line, colour in lines:
            col.write(line, 12, g, indent=10, fill=colour, **{"class": "unit listed"})


def _panel(svg: ET.Element, legend: ET.Element, view: dict, data: GameData, pos: dict,
           battles: set[str], no_room: list, unplaced: list, top: float) -> float:
    """The panel under the map in three columns: the keys; the off-front boxes and the
    regions never entered; the units with no room on the map. Returns its bottom."""
    ET.SubElement(svg, "rect", {"x": f"{EDGE:g}", "y": f"{top - 6:.1f}",
                                "width": f"{WIDTH - 2 * EDGE:g}", "height": "1",
                                "fill": "#bbbbbb"})
    width = (WIDTH - 2 * EDGE - 2 * COLUMN_GAP) / 3
    cols = [Column(svg, EDGE + i * (width + COLUMN_GAP), top, width) for i in range(3)]
    _keys(cols[0], legend, data)
    _offmap(cols[1], view, data, pos, battles)
    cols[1].y = impassable.legend(svg, unplaced, data, cols[1].x, cols[1].y + 4, 1.25)
    _no_room(cols[2], no_room)
    return max(c.y for c in cols)


# ---------------------------------------------------------------- the picture

def map_svg(state: State, data: GameData, reader: str, game_id: str = "",
            seq: int | None = None) -> str:
    """The whole map for one reader as an SVG document (4.1 adjacency, 1.2 control, 1.4
    hidden templates through state_view)."""

    view = state_view(state, data, reader, game_id, seq)
    battles = battle_areas(state, data)
    svg = ET.Element("svg", {
        "xmlns": "http://www.w3.org/2000/svg", "version": "1.1", "font-family": FONT})
    ET.SubElement(svg, "title").text = clean(
        f"{view.get('game_name') or 'Game'}: game {view['game_id']}, record {view['seq']}, "
        f"for {reader}")
    ground = ET.SubElement(svg, "rect", {"x": "0", "y": "0", "width": f"{WIDTH:.0f}",
                                         "fill": GROUND})
    legend = ET.SubElement(svg, "g", {"id": "legend"})
    top = _header(legend, view)
    pos, width, height = positions(data, top)
    regions, unplaced = impassable.place(data, pos, width, height, 0.0,
                                         [(0.0, 0.0, width, top)])
    no_room = _draw_map(svg, view, data, pos, battles, (2, top, width - 2, height - 2),
                        regions)
    height = _panel(svg, legend, view, data, pos, battles, no_room, unplaced, height + 6) + 16
    svg.set("width", f"{width:.0f}")
    svg.set("height", f"{height:.0f}")
    svg.set("viewBox", f"0 0 {width:.0f} {height:.0f}")
    ground.set("height", f"{height:.0f}")
    for el in svg.iter():                    # ids and names from the data: XML-safe text
        if el.text:
            el.text = clean(el.text)
        for k, v in el.attrib.items():
            el.set(k, clean(v))
    ET.indent(svg, space=" ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(svg, encoding="unicode") \
        + "\n"


def map_facts(state: State, data: GameData, reader: str, game_id: str = "") -> list[dict]:
    """What map_svg draws of each area, for scripts: its control (1.2), whether it is a Battle
    Area (5.1), and the units the reader may see there (1.4)."""
    view = state_view(state, data, reader, game_id)
    battles = battle_areas(state, data)
    return [{"id": a.id, "name": a.name, "control": view["areas"][a.id]["control"],
             "battle": a.id in battles, "units": [u["id"] for u in view["areas"][a.id]["units"]]}
            for a in data.map.areas]


def map_png(state: State, data: GameData, reader: str, game_id: str = "") -> bytes:
    """The map for one reader as PNG bytes, WIDTH pixels wide (png.py; OSError if it cannot
    be drawn)."""
    from .png import to_png  # start-up: the renderer is loaded only to draw a PNG

    return to_png(map_svg(state, data, reader, game_id))
