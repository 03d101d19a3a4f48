"""The name a stack of counters carries when it stands where it could be read as another
area's: its area's name as the first line of its box, in the map's own name style (the
smallest letter of the picture, bold, on the ground's colour), framed in the ink of the
stack's leader so that it reads as the stack's, not as the name of a circle near it.

A stack carries it when its box is not NAMED letters nearer the edge of its own area's
circle than the edge of any other area's (labels.owns, the same measure that gives a stack
touching its circle a leader all the same, stacks.TIE): a reader who takes a stack for the
nearest circle's would then be wrong, or could be, and a leader is easily missed on a
phone. A set distance from the circle is not the test: a stack far below Paris with nothing
else near is still read as Paris's, and naming it would only crowd the map. A stack as near
its own circle keeps no name, and is drawn exactly as before (stacks.py looks for such a
place first).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from . import mapkeys
from .svgparts import Scale, text_width

NAMED = 0.2            # a stack not this many letters nearer its circle than others' is named
NAME_INK = "#222222"   # the areas' names' ink (svgmap.py)
FRAME = 1.5            # the frame's width, in pixels


def size(name: str, scale: Scale) -> tuple[float, float]:
    """How wide and high the name line is drawn at the top of a stack's box."""
    return round(text_width(name, scale.font, True) + 2 * scale.pad + 2, 1), \
        round(scale.font * 1.2 + 2, 1)


def draw(parent: ET.Element, name: str, area: str, x: float, y: float, scale: Scale,
         ink: str, ground: str) -> None:
    """The name line with its top left corner at (x, y), on the map's ground as the areas'
    names are, framed in the leader's ink."""
    w, h = size(name, scale)
    half = FRAME / 2
    ET.SubElement(parent, "rect", {
        "x": f"{x + half:.1f}", "y": f"{y + half:.1f}", "width": f"{w - FRAME:.1f}",
        "height": f"{h - FRAME:.1f}", "fill": ground, "stroke": ink,
        "stroke-width": f"{FRAME:g}", "class": "stack-name-ground", "data-area": area})
    mapkeys.text(parent, x + w / 2, y + 1 + scale.font * 0.95, name, scale.font,
                 **{"text-anchor": "middle", "font-weight": "bold", "fill": NAME_INK,
                    "class": "stack-name", "data-area": area})
