"""What the map picture's parts share: the sizes of its parts at the size of its writing, how
wide a text is drawn, and the text an SVG document may hold (svgmap.py draws, labels.py
places the labels, counters.py draws the units, impassable.py places the seas and neutral
countries around them).

Sizes are pixels of the picture as it is drawn to PNG (png.py), 1,000 pixels wide: what a
phone shows about 400 points wide. Every text of a picture is at least its Scale's `font`
high: WHOLE for the whole map, CLOSE for the close-up of a decision.
"""

import functools
import re
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Scale:
    """The size of a picture's writing, in pixels (the font size of its smallest text), and
    the sizes of its parts that follow from it."""

    font: float

    @property
    def radius(self) -> float:
        """An area's circle: its VP number fits inside."""
        return round(self.font * 0.8, 1)

    @property
    def line(self) -> float:
        """The height of one line of text on a counter or in the legend."""
        return round(self.font * 1.3, 1)

    @property
    def pad(self) -> float:
        """The room inside a counter's edge and between two counters."""
        return round(self.font * 0.25, 1)

    @property
    def gap(self) -> float:
        """The least room between two labels."""
        return round(self.font * 0.15, 1)


WHOLE = Scale(16.0)    # the whole map: every text at least 16 pixels high at 1,000 wide
CLOSE = Scale(24.0)    # the close-up of a decision: at least 24

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")
_ONE_LINE = str.maketrans("\t\n\r\x85\u2028\u2029", "      ")
FONTS = Path(__file__).with_name("fonts")
# The shipped font's files (DejaVu Sans Condensed) by (bold, italic).
FACES = {(False, False): "DejaVuSansCondensed.ttf", (True, False): "DejaVuSansCondensed-Bold.ttf",
         (False, True): "DejaVuSansCondensed-Oblique.ttf",
         (True, True): "DejaVuSansCondensed-Bold.ttf"}
MEASURE = 200          # the size texts are measured at, then scaled


def clean(text: object) -> str:
    """Text XML 1.0 can hold, on one line: control characters a data file may carry are
    dropped, and a line break or tab is a space (a picture writes each text on one line,
    and Pillow's layout cannot measure a break)."""
    text = str(text)
    if text.isascii() and text.isprintable():         # most: ids, numbers, names
        return text
    return _NOT_XML.sub("", text).translate(_ONE_LINE)


@functools.lru_cache(maxsize=8)
def face(bold: bool, italic: bool = False, size: int = MEASURE):
    """The shipped font at a size, as Pillow draws and measures it (OSError without it)."""
    from PIL import ImageFont  # start-up: loaded only to measure or draw a picture

    return ImageFont.truetype(str(FONTS / FACES[(bold, italic)]), size)


@functools.lru_cache(maxsize=4096)
def _advance(text: str, bold: bool, italic: bool) -> float:
    return face(bold, italic).getlength(text) / MEASURE


def text_width(text: str, size: float, bold: bool = False, italic: bool = False) -> float:
    """How wide a text is drawn at this font size in the shipped font (its own advances and
    kerning), with a hair of room."""
    return _advance(text, bold, italic) * size + 0.5
