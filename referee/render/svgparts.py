"""What the map picture's parts share: the size of an area's circle and of a unit line, how
wide a text is drawn, and the text an SVG document may hold (svgmap.py draws, labels.py
places the labels, impassable.py places the seas and neutral countries around them).

Sizes are pixels of the picture as it is drawn to PNG (png.py): a phone shows it 1,000
pixels wide, so no text is smaller than UNIT_SIZE there.
"""

import re
import unicodedata

RADIUS = 9.0           # an area's circle
LINE = 12.5            # height of one line of unit text (the font's ascent and descent)
UNIT_SIZE = 10.5       # font size of a unit's line
NAME_SIZE = 11.5       # and of an area's name (bold)

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")

# The advance of a character in ems in the shipped font (DejaVu Sans Condensed, fonts/), by
# class, rounded up: narrow, wide and capital characters; anything else is a lower-case
# letter or a digit. A bold character is wider.
_NARROW = frozenset("'ijlIJ,. /:;\\|f-()[]t!r")
_WIDE = frozenset("mwMW%@")
_CAPS = frozenset("ABCDGHKNOQRUVXZ#+<=>^~&")
_EM = {False: (0.38, 0.90, 0.76, 0.59), True: (0.45, 1.0, 0.79, 0.66)}


def clean(text: object) -> str:
    """Text XML 1.0 can hold: control characters a data file may carry are dropped."""
    return _NOT_XML.sub("", str(text))


def text_width(text: str, size: float, bold: bool = False) -> float:
    """How wide a text is drawn at this font size in the shipped font, at most (an accented
    letter as its base letter; a character outside Latin script as a wide one)."""
    narrow, wide, caps, other = _EM[bold]
    em = 0.0
    for ch in text:
        base = unicodedata.normalize("NFD", ch)[0] if ord(ch) > 127 else ch
        if ord(base) > 0x24F:
            em += wide
        elif base in _NARROW:
            em += narrow
        elif base in _WIDE:
            em += wide
        elif base in _CAPS:
            em += caps
        else:
            em += other
    return em * size
