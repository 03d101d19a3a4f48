"""The map as one SVG picture for one reader: areas, links, control, units, legend.

A schematic, not the printed board: each area is one circle at its `at`
position in map.yaml (latitude, longitude; equirectangular projection scaled
by the cosine of the mean latitude), and a line joins every pair of
neighbours and no other pair (4.1), so the picture shows the adjacency the
rules use and nothing else. Off-front boxes (ENGLAND, kind `sea_only`, and
the boxes of map.yaml such as the EFT box) are drawn in the left margin.

What a unit shows comes from `views.state_view`, which is already made for
the reader (army contents on another side's hidden template stay hidden,
1.4). The document is built with `xml.etree.ElementTree`, which escapes every
text and attribute; characters XML cannot hold are dropped first. Nothing in
it is executable or refers outside the file.
"""

from __future__ import annotations

import importlib.util
import math
import shutil
import subprocess
import xml.etree.ElementTree as ET

from ..data.gamedata import GameData
from ..data.mapmodels import Area
from ..engine.state import State
from ..game.views import state_view
from . import impassable
from .documents import phase_name, player_turn, side_name
from .svgparts import LINE, RADIUS, clean

# Fill of an area by its control and ink of a side's units: the game's (units.yaml
# side_colours; TTLM: the German green and the Entente blue of the printed map); a side the
# data gives no colour takes the next free one, in the order of GameData.sides.
MORE_COLOURS = ("#e0c07a", "#c9a3d6", "#8fd0c8", "#d8a0a0")
INK = "#333333"
DISPUTED = "#f0a35e"
NEUTRAL = "#dcdcdc"
BATTLE = "#c0141c"

SCALE = 300.0          # pixels per degree of latitude
MARGIN = 240.0         # left column: legend and off-front boxes
PAD = 50.0
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


def positions(data: GameData) -> tuple[dict[str, tuple[float, float]], float, float]:
    """Where each front area is drawn (map.yaml `at`), and the width and height of the map
    part: equirectangular, x scaled by the cosine of the mean latitude."""
    placed = [a for a in data.map.areas if a.kind != "sea_only" and a.at is not None]
    if not placed:
        return {}, 400.0, 400.0
    lats = [a.at[0] for a in placed]
    lons = [a.at[1] for a in placed]
    k = math.cos(math.radians(sum(lats) / len(lats)))
    top, west = max(lats), min(lons)
    pos = {a.id: (MARGIN + PAD + (a.at[1] - west) * k * SCALE,
                  PAD + 20 + (top - a.at[0]) * SCALE) for a in placed}
    width = MARGIN + 2 * PAD + (max(lons) - west) * k * SCALE + 120
    height = 2 * PAD + 20 + (top - min(lats)) * SCALE + 60
    return pos, width, height


def links(data: GameData, pos: dict) -> list[tuple[str, str]]:
    """Every pair of neighbours (4.1) whose two areas are drawn on the map, each once."""
    pairs = {tuple(sorted((a.id, b))) for a in data.map.areas for b in a.neighbours
             if a.id in pos and b in pos}
    return sorted(pairs)


def _text(parent: ET.Element, x: float, y: float, text: str, size: float = 9,
          halo: bool = False, **attrs) -> ET.Element:
    el = ET.SubElement(parent, "text", {"x": f"{x:.1f}", "y": f"{y:.1f}",
                                        "font-size": f"{size:g}", **attrs})
    if halo:                                 # legible over the link lines: a pale ground
        w = len(text) * size * 0.58 + 4
        parent.insert(len(parent) - 1, ET.Element("rect", {
            "x": f"{x - w / 2:.1f}", "y": f"{y - size * 0.9:.1f}", "width": f"{w:.1f}",
            "height": f"{size * 1.15:.1f}", "fill": "#fbfaf5", "fill-opacity": "0.8"}))
    el.text = clean(text)
    return el


def unit_label(u: dict) -> str:
    """A unit in a few characters, as the reader may see it ('ge-1 [3I+1A]', 'ge-1 [hidden]',
    'ge-c-01 cavalry')."""
    ent = " E" if u.get("entrenched") else ""
    ent += " OoS" if u.get("oos") else ""         # the Out of Supply marker (1.2.3)
    if u["type"] == "army":
        return f"{u['id']}{ent} [{u.get('summary') or 'hidden'}]"
    return f"{u['id']} {str(u['type']).replace('_', ' ')}{ent}"


def _unit_lines(units: list[dict], data: GameData) -> list[tuple[str, str]]:
    """(label, colour) of each unit but forts, in the order the view lists them."""
    return [(unit_label(u), ink(u["side"], data)) for u in units
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
            parts.append(f"{u.get('name') or u['id']} fort {u['strength']}")
        elif u["type"] == "army":
            parts.append(f"{u['id']} {u.get('name') or ''} [{u.get('summary') or 'hidden'}]")
        else:
            parts.append(unit_label(u))
    return "; ".join(parts)


def _draw_area(parent: ET.Element, area: Area, info: dict, data: GameData, x: float,
               y: float, battle: bool) -> None:
    """One area as one <g>: its circle filled by control, badges, name and units."""
    control = info["control"]
    g = ET.SubElement(parent, "g", {"id": f"area-{area.id}", "class": "area",
                                    "data-control": control})
    if battle:
        g.set("data-battle", "true")
    ET.SubElement(g, "title").text = clean(_area_title(area, info, data, battle))
    if battle:
        ET.SubElement(g, "circle", {"cx": f"{x:.1f}", "cy": f"{y:.1f}",
                                    "r": f"{RADIUS + 5:g}", "fill": "none", "stroke": BATTLE,
                                    "stroke-width": "3", "stroke-dasharray": "5 3",
                                    "class": "battle"})
    ET.SubElement(g, "circle", {
        "cx": f"{x:.1f}", "cy": f"{y:.1f}", "r": f"{RADIUS:g}", "class": "shape",
        "fill": control_colour(control, data),
        "stroke": "#555555" if area.terrain == "clear" else "#6b4a1f",
        "stroke-width": "1" if area.terrain == "clear" else "2.5"})
    if area.vp:
        _text(g, x, y + 4, str(area.vp), 11, **{"text-anchor": "middle",
                                                "font-weight": "bold", "class": "vp"})
    _text(g, x, y - RADIUS - 4, area.name, 10, True, **{"text-anchor": "middle",
                                                   "font-weight": "bold", "class": "name"})
    if area.supply_source or area.conditional_supply_source:
        side = area.supply_source or area.conditional_supply_source
        sx, sy = x - RADIUS - 9, y
        ET.SubElement(g, "rect", {
            "x": f"{sx - 6:.1f}", "y": f"{sy - 6:.1f}", "width": "12", "height": "12",
            "fill": control_colour(side, data) if area.supply_source else "#ffffff",
            "stroke": "#333333", "class": "supply", "data-side": side})
        _text(g, sx, sy + 3.5, "S", 9, **{"text-anchor": "middle", "font-weight": "bold"})
    forts = [u for u in info["units"] if u["type"] == "fort"]
    for f in forts:
        fx, fy = x + RADIUS + 10, y
        ET.SubElement(g, "rect", {"x": f"{fx - 8:.1f}", "y": f"{fy - 6:.1f}", "width": "16",
                                  "height": "12", "fill": "#f4f0e0", "stroke": "#333333",
                                  "class": "fort", "data-strength": str(f["strength"])})
        _text(g, fx, fy + 3.5, f"F{f['strength']}", 8, **{"text-anchor": "middle"})
    for i, (label, colour) in enumerate(_unit_lines(info["units"], data)):
        _text(g, x, y + RADIUS + 9 + i * LINE, label, 8, True,
              **{"text-anchor": "middle", "fill": colour, "class": "unit"})


def _box(parent: ET.Element, x: float, y: float, w: float, title: str,
         lines: list[tuple[str, str]], attrs: dict, fill: str) -> float:
    """A margin box with a title and lines; returns its bottom."""
    h = 22 + LINE * 1.2 * max(1, len(lines))
    g = ET.SubElement(parent, "g", attrs)
    ET.SubElement(g, "rect", {"x": f"{x:g}", "y": f"{y:g}", "width": f"{w:g}",
                              "height": f"{h:.1f}", "rx": "6", "fill": fill,
                              "stroke": "#555555", "class": "shape"})
    _text(g, x + 8, y + 14, title, 10, **{"font-weight": "bold"})
    for i, (line, colour) in enumerate(lines or [("empty", "#333333")]):
        _text(g, x + 8, y + 27 + i * LINE * 1.2, line, 8, fill=colour)
    return y + h


def _legend(parent: ET.Element, view: dict, data: GameData, x: float, y: float) -> float:
    """Game, record, reader, turn and season, VP total and level, and the keys (3.1)."""
    g = ET.SubElement(parent, "g", {"id": "legend"})
    lines = [
        (f"{view.get('game_name') or 'Game'}", 12, "bold"),
        (f"game {view['game_id']}, record {view['seq']}", 9, "normal"),
        (f"as {view['reader']} may see it", 9, "normal"),
        (f"Turn {view['turn']} of {view.get('last_turn', view['turn'])}: {view['label']}", 10,
         "bold"),
        (f"{phase_name(view)}" + (f", {side_name(view['player'])} {player_turn(view)}"
                                  if view.get("player") else ""), 9, "normal"),
        (f"VP {view['vp']['total']}: {view['vp']['level_name']}", 11, "bold"),
    ]
    for text, size, weight in lines:
        y += size + 5
        _text(g, x, y, text, size, **{"font-weight": weight})
    y += 10
    keys = [(control_colour(s, data), f"{side_name(s)} control") for s in data.sides]
    keys += [(DISPUTED, "Disputed"), (NEUTRAL, "Neutral")]
    for colour, label in keys:
        y += 16
        ET.SubElement(g, "circle", {"cx": f"{x + 7:g}", "cy": f"{y - 4:g}", "r": "7",
                                    "fill": colour, "stroke": "#555555"})
        _text(g, x + 20, y, label, 9)
    y += 18
    ET.SubElement(g, "circle", {"cx": f"{x + 7:g}", "cy": f"{y - 4:g}", "r": "8",
                                "fill": "none", "stroke": BATTLE, "stroke-width": "3",
                                "stroke-dasharray": "5 3"})
    _text(g, x + 20, y, "battle area (5.1.1)", 9)
    for text in ("number in a circle: VP (3.1)", "thick brown ring: rough terrain",
                 "F n: fort and its strength now (8.4)",
                 "S: supply source, filled in its side's colour; white: only in some cases (6.1)",
                 "a line joins two neighbouring areas (4.1)",
                 "[..]: army contents (I inf, C cav, A art, G siege gun ...)",
                 "E: entrenched (4.3)",
                 "positions are schematic: map.yaml `at`"):
        y += 13
        _text(g, x, y, text, 8)
    return y


def map_svg(state: State, data: GameData, reader: str, game_id: str = "",
            seq: int | None = None) -> str:
    """The whole map for one reader as an SVG document (4.1 adjacency, 1.2 control, 1.4
    hidden templates through state_view)."""

    view = state_view(state, data, reader, game_id, seq)
    pos, width, height = positions(data)
    battles = battle_areas(state, data)
    svg = ET.Element("svg", {
        "xmlns": "http://www.w3.org/2000/svg", "version": "1.1",
        "width": f"{width:.0f}", "height": f"{height:.0f}",
        "viewBox": f"0 0 {width:.0f} {height:.0f}", "font-family": "sans-serif"})
    ET.SubElement(svg, "title").text = clean(
        f"{view.get('game_name') or 'Game'}: game {view['game_id']}, record {view['seq']}, "
        f"for {reader}")
    ET.SubElement(svg, "rect", {"x": "0", "y": "0", "width": f"{width:.0f}",
                                "height": f"{height:.0f}", "fill": "#fbfaf5"})
    ET.SubElement(svg, "rect", {"x": f"{MARGIN - 10:g}", "y": "0", "width": "1",
                                "height": f"{height:.0f}", "fill": "#bbbbbb"})
    drawn = ET.SubElement(svg, "g", {"id": "links", "stroke": "#777777", "stroke-width": "1.5"})
    for a, b in links(data, pos):
        (x1, y1), (x2, y2) = pos[a], pos[b]
        ET.SubElement(drawn, "line", {"x1": f"{x1:.1f}", "y1": f"{y1:.1f}", "x2": f"{x2:.1f}",
                                      "y2": f"{y2:.1f}", "class": "link", "data-from": a,
                                      "data-to": b})
    legend = ET.Element("g")                  # where the legend will be: no region over it
    _legend(legend, view, data, 14, 4)
    regions, unplaced = impassable.place(data, pos, width, height, MARGIN,
                                         impassable.text_boxes(legend))
    impassable.draw(svg, regions)            # seas and neutral countries (4.1, 4.2)
    areas = ET.SubElement(svg, "g", {"id": "areas"})
    for area in data.map.areas:
        if area.id in pos:
            x, y = pos[area.id]
            _draw_area(areas, area, view["areas"][area.id], data, x, y, area.id in battles)
    y = _legend(svg, view, data, 14, 4)
    for area in data.map.areas:              # off-front areas (ENGLAND): one element each
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
        y = _box(svg, 14, y + 14, MARGIN - 40, area.name, lines, attrs,
                 control_colour(control, data))
        svg[-1].insert(0, ET.Element("title"))
        svg[-1][0].text = clean(_area_title(area, info, data, area.id in battles))
    for box in data.map.boxes:               # the EFT box and the like (no control)
        inside = (view.get("eft_box") or []) if box.id == "eft" else []
        attrs = {"id": f"box-{box.id}", "class": "box", "data-owner": box.owner}
        y = _box(svg, 14, y + 14, MARGIN - 40, box.name,
                 [(u, ink(box.owner, data)) for u in inside], attrs, "#f4f0e0")
    y = impassable.legend(svg, unplaced, data, 14, y)
    if y + 20 > height:                      # the margin column is the taller
        height = y + 20
        svg.set("height", f"{height:.0f}")
        svg.set("viewBox", f"0 0 {width:.0f} {height:.0f}")
        svg[1].set("height", f"{height:.0f}")
        svg[2].set("height", f"{height:.0f}")
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


def png_renderer() -> str | None:
    """The SVG renderer installed here: 'cairosvg' (the Python package) or 'rsvg-convert'
    (librsvg's command), or None."""
    try:
        if importlib.util.find_spec("cairosvg") is not None:
            return "cairosvg"
    except (ImportError, ValueError):
        pass
    return "rsvg-convert" if shutil.which("rsvg-convert") else None


def to_png(svg: str, renderer: str) -> bytes:
    """The picture as PNG through the renderer png_renderer named (OSError if it failed)."""
    if renderer == "cairosvg":
        try:
            # An optional package, loaded only to write a PNG: it may be missing or broken.
            import cairosvg

            return cairosvg.svg2png(bytestring=svg.encode("utf-8"), unsafe=False)
        except Exception as exc:  # noqa: BLE001 - a broken install (no libcairo) and the like
            raise OSError(f"cairosvg failed: {type(exc).__name__}: {exc}") from None
    exe = shutil.which(renderer)
    if exe is None:
        raise OSError(f"{renderer} is not on PATH")
    try:
        done = subprocess.run([exe, "--format", "png"], input=svg.encode("utf-8"),
                              capture_output=True, timeout=120, check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        raise OSError(f"{renderer} failed: {exc}") from None
    if done.returncode != 0 or not done.stdout.startswith(b"\x89PNG"):
        err = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise OSError(f"{renderer} failed (exit {done.returncode}"
                      f"{': ' + err[-1] if err else ''})")
    return done.stdout
