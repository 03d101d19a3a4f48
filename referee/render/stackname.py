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

import functools
import xml.etree.ElementTree as ET

from . import mapkeys
from .svgparts import MEASURE, Scale, face, text_width

NAMED = 0.2            # a stack not this many letters nearer its circle than others' is named
NAME_INK = "#222222"   # the areas' names' ink (svgmap.py)
FRAME = 1.5            # the frame's width, in pixels
ABOVE = 0.85           # the least room over the baseline, in letters: a capital's and a hair
BELOW = 0.2            # the least under it: a descender's


def size(name: str, scale: Scale) -> tuple[float, float]:
    """How wide and high the name line is drawn at the top of a stack's box: high enough
    for every letter whole inside its frame, an accent over a capital (É, Ö) and a
    descender as the font draws them."""
    above, below = _room(name, scale.font)
    return round(text_width(name, scale.font, True) + 2 * scale.pad + 2, 1), \
        round(2 * FRAME + above + below, 1)


@functools.lru_cache(maxsize=1024)
def _room(name: str, font: float) -> tuple[float, float]:
    """The room over and under the name's baseline inside its frame: the ink of its letters
    as the shipped font draws them (Pillow's box of the text from its baseline), and a
    pixel more each way; at least a capital's and a descender's, so that every name line
    is as high unless its letters reach further."""
    _, top, _, bottom = face(True).getbbox(name, anchor="ls")
    k = font / MEASURE
    return max(-top * k, ABOVE * font) + 1, max(bottom * k, BELOW * font) + 1


def draw(parent: ET.Element, name: str, area: str, x: float, y: float, scale: Scale,
         ink: str, ground: str) -> None:
    """The name line with its top left corner at (x, y), on the map's ground as the areas'
    names are, framed in the leader's ink."""
    w, h = size(name, scale)
    above, _ = _room(name, scale.font)
    half = FRAME / 2
    ET.SubElement(parent, "rect", {
        "x": f"{x + half:.1f}", "y": f"{y + half:.1f}", "width": f"{w - FRAME:.1f}",
        "height": f"{h - FRAME:.1f}", "fill": ground, "stroke": ink,
        "stroke-width": f"{FRAME:g}", "class": "stack-name-ground", "data-area": area})
    mapkeys.text(parent, x + w / 2, y + FRAME + above, name, scale.font,
                 **{"text-anchor": "middle", "font-weight": "bold", "fill": NAME_INK,
                    "class": "stack-name", "data-area": area})
