"""What the map picture's parts share: the size of an area's circle and of a unit line, and
the text an SVG document may hold (svgmap.py draws, impassable.py places around it)."""

import re

RADIUS = 14.0
LINE = 10.0            # height of one line of unit text

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def clean(text: object) -> str:
    """Text XML 1.0 can hold: control characters a data file may carry are dropped."""
    return _NOT_XML.sub("", str(text))
