"""The close-up of a decision: the areas the decision asked now concerns (the battle's area,
the areas of this player turn's moves: focus.py) and their neighbours, drawn alone across
the picture's whole width with writing at least 24 pixels high (svgparts.CLOSE), so that a
phone shows the counters that matter without zooming. A mail that asks a decision carries it
before the whole map; a decision that concerns no area (a card to play, production) has
none.

The same drawing as the whole map (svgmap.py): the same counters, marks and checked places,
at a larger Scale, of fewer areas; only the lines between the areas drawn are drawn.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

from ..data.gamedata import GameData
from ..engine.state import State
from . import mapbase, mapkeys, svgmap
from .focus import decision_areas
from .svgparts import CLOSE

MOST = 12              # the areas of a close-up, at most


def closeup_areas(state: State, data: GameData) -> tuple[str, ...]:
    """The areas a close-up of the decision asked now shows, in the map's order: those the
    decision concerns and their neighbours (4.1), the nearest first when they are too many;
    none when it concerns no area on the map."""
    front = {a.id: a for a in mapbase.front(data)}
    focus = [a for a in decision_areas(state, data) if a in front][:MOST]
    if not focus:
        return ()
    near = {n for a in focus for n in data.areas[a].neighbours if n in front} - set(focus)
    lat = sum(front[a].at[0] for a in focus) / len(focus)
    lon = sum(front[a].at[1] for a in focus) / len(focus)
    k = math.cos(math.radians(lat))
    nearest = sorted(near, key=lambda n: (math.hypot(front[n].at[0] - lat,
                                                     (front[n].at[1] - lon) * k), n))
    keep = set(focus) | set(nearest[:MOST - len(focus)])
    return tuple(a.id for a in data.map.areas if a.id in keep)


def closeup_svg(state: State, data: GameData, reader: str, game_id: str = "",
                seq: int | None = None) -> str | None:
    """The close-up of the decision asked now for one reader, as an SVG document (1.4
    through state_view), or None when the decision concerns no area."""
    svg = closeup_tree(state, data, reader, game_id, seq)
    return None if svg is None else svgmap.as_text(svg)


def closeup_tree(state: State, data: GameData, reader: str, game_id: str = "",
                 seq: int | None = None) -> ET.Element | None:
    """The close-up as a finished SVG element (closeup_svg), or None."""
    ids = closeup_areas(state, data)
    if not ids:
        return None
    scene = svgmap.scene_of(state, data, reader, game_id, seq, CLOSE)
    svg, ground = svgmap.start(scene, "close-up")
    top = mapkeys.header_height(CLOSE)
    b, placed = svgmap.layout(scene, top, ids)
    svgmap.draw_base(svg, b, data)
    legend = ET.SubElement(svg, "g", {"id": "legend"})
    mapkeys.header(legend, scene.view, CLOSE, svgmap.WIDTH, "close-up")
    layer = ET.SubElement(svg, "g", {"id": "areas"})
    for a in data.map.areas:
        if a.id in b.pos:
            svgmap.draw_area(layer, a, scene, *b.pos[a.id])
    svgmap.draw_stacks(svg, placed, scene, b.pos)
    note = mapkeys.Column(legend, mapkeys.EDGE, b.bottom, svgmap.WIDTH - 2 * mapkeys.EDGE,
                          CLOSE)
    note.write("Gold ring: the areas the decision concerns; around them their neighbours, "
               "with only the lines between the areas shown. The whole map and its key "
               "follow.")
    height = note.y + CLOSE.font
    ground.set("height", f"{height:.0f}")
    return svgmap.finish(svg, svgmap.WIDTH, height)


def closeup_png(state: State, data: GameData, reader: str, game_id: str = "") -> bytes | None:
    """The close-up as PNG bytes (png.py; OSError if it cannot be drawn), or None."""
    svg = closeup_tree(state, data, reader, game_id)
    if svg is None:
        return None
    from .png import to_png  # start-up: the renderer is loaded only to draw a PNG

    return to_png(svg)
