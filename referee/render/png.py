"""The map picture as PNG, for a mail a phone shows: the very SVG document svgmap writes,
drawn by Pillow (a wheel, no system library) in the fonts shipped in fonts/ and no other,
so the picture is the same on every machine whatever fonts it has.

The document holds a few kinds of element only (svgmap.py, counters.py, mapkeys.py,
impassable.py): groups, rectangles, circles, lines and texts, with the presentation
attributes they use; each is drawn as SVG draws it. The group `base`, the part of the map
that is the same at every record, is drawn twice as fine and halved (smooth lines) once,
a band of rows at a time, and kept for the next picture of the same game; circles are
drawn the same way, once for each look. The picture is then made light for a mail: a
palette of a few flat colours, found on a sample of its pixels, no dithering, and
deflated by zlib-ng (a wheel: zlib's stream format, in less than half zlib's time at the
same size; Pillow's PNG writer takes no other deflate, so the four chunks of a palette
PNG are put around the stream here).
"""

from __future__ import annotations

import functools
import hashlib
import math
import struct
import xml.etree.ElementTree as ET
import zlib
from collections.abc import Hashable, Iterator

from . import stored
from .memo import Weighed, remembered, source_of
from .svgparts import FONTS, face

FAMILY = "DejaVu Sans"          # the family of the files in fonts/ (the condensed width)
NS = "{http://www.w3.org/2000/svg}"
COLOURS = 24                    # the palette of a picture ...
LIGHT = 150 * 1024              # a picture over this is deflated harder (a mail's PNG)
# ... and the classes whose colours it keeps exactly: control, nations, rings, markers, the
# key's swatches (a colour no area has now, told in the key, is still its own) and the boxes
# of seas and neutral countries (else they take the nearest kept colour: a control's)
KEEP = ("shape", "counter-box", "battle", "decision", "tag", "swatch", "region")
NEAR_COLOUR = 30 ** 2            # how far (squared, in RGB) an entry may be to become exact
FINE = 2                        # the base and the circles are drawn this much finer, then halved
BASES = 6                       # the bases of the whole map kept (one for each level) ...
CLOSE_BASES = 2                 # ... and of close-ups
BAND = 512                      # the rows of a base drawn fine at a time
TILE = 64                       # the side of a base's fine square halved only when drawn in
MARGIN = 2                      # fine pixels round what is drawn, against rounding
# The texts whose coverage is kept, in bytes: a whole map's own take about half a megabyte
# (most a few hundred bytes each); one over TEXT_MOST (a header naming its record, seldom
# drawn twice, or a long name from a hostile game id) is drawn and not kept.
TEXT_BYTES = 4 << 20
TEXT_MOST = 16 << 10
SAMPLE = 4                      # the palette is found on every SAMPLE-th pixel each way
# How a picture is deflated, tried in turn while it is over LIGHT: (colours, zlib-ng level);
# level 3 first: about the bytes of zlib's level 4, in under half its time
TRIES = ((COLOURS, 3), (COLOURS, 6), (COLOURS, 9), (COLOURS // 2, 9))
SIGNATURE = b"\x89PNG\r\n\x1a\n"
_BASES: dict[Hashable, object] = {}
_CLOSE_BASES: dict[Hashable, object] = {}
_FINE_BAND: list = []           # the picture the last band of a static layer was drawn on
stored.loaded(__file__)         # the painter is loaded after the code was digested
STYLE = ("fill", "stroke", "stroke-width", "stroke-dasharray", "font-size", "font-weight",
         "font-style", "text-anchor")
ANCHOR = {"start": "ls", "middle": "ms", "end": "rs"}

__all__ = ["FONTS", "FAMILY", "font_files", "to_png"]


def font_files() -> list[str]:
    """The font files the picture is drawn with (OSError if there is none)."""
    files = sorted(str(p) for p in FONTS.glob("*.ttf"))
    if not files:
        raise OSError(f"no font file in {FONTS}: reinstall the referee")
    return files


def _pil():
    try:
        from PIL import Image, ImageDraw  # start-up: loaded only to draw a PNG
    except ImportError as exc:
        raise OSError(f"the pillow package cannot be loaded ({exc}): reinstall the referee, "
                      f"or write a .svg") from None
    return Image, ImageDraw


def to_png(svg: str | ET.Element, width: int | None = None) -> bytes:
    """The SVG (a document, or an element as svgmap.finish leaves it) drawn as PNG bytes,
    `width` pixels wide (the SVG's own width by default), its text in the shipped fonts
    only (OSError if it cannot be drawn)."""
    Image, _ = _pil()
    font_files()
    try:
        root = svg if isinstance(svg, ET.Element) else ET.fromstring(svg)
        w, h = round(float(root.get("width"))), round(float(root.get("height")))
    except (ET.ParseError, TypeError, ValueError) as exc:
        raise OSError(f"the picture cannot be drawn: {exc}") from None
    ground = next((el for el in root if _tag(el) == "rect"), None)
    fill = _colour(ground.get("fill")) if ground is not None else (255, 255, 255)
    drawn = [el for el in root if el is not ground and _tag(el) != "title"]
    under = drawn[0] if drawn and _tag(drawn[0]) == "g" and drawn[0].get("id") == "base" \
        else None
    image = _on_ground(_base(under, w), w, h, fill) if under is not None else \
        Image.new("RGB", (w, h), fill)
    painter = Painter(image, 1)
    keep = {el.get(a) for el in root.iter() if el.get("class") in KEEP
            for a in ("fill", "stroke") if (el.get(a) or "").startswith("#")}
    for el in drawn:
        if el is under:
            continue
        if _tag(el) == "g" and el.get("id") == "base":
            image.paste(_base(el, w), (0, 0))
        else:
            painter.element(el, {})
    if width and width != w:
        image = image.resize((width, round(h * width / w)), Image.Resampling.LANCZOS)
    return encode(image, keep)


def _on_ground(layer, w: int, h: int, fill):
    """A picture w x h whose top is the static layer (the first thing drawn on the
    ground), the ground's colour under it: the layer's rows are copied once, not painted
    over a ground filled first."""
    image = layer.crop((0, 0, w, h))
    if layer.height < h:
        image.paste(fill, (0, layer.height, w, h))
    return image


def encode(image, keep: set[str] = frozenset()) -> bytes:
    """The picture as a light PNG: a palette of a few flat colours, among them every colour
    of `keep` exactly (a ring or a tag few pixels wide that must not turn into another),
    without dithering, deflated; deflated harder, then with fewer colours, while it is
    over LIGHT bytes."""
    out, flat = b"", {}
    for colours, level in TRIES:
        if colours not in flat:             # the palette once for the levels that share it
            flat[colours] = _flat(image, keep, colours)
        out = _deflated(flat[colours], level)
        if len(out) <= LIGHT:
            break
    return out


def _flat(image, keep: set[str], colours: int):
    """The picture in a palette of `colours` entries. The palette is found on a sample of the
    picture's own pixels (every SAMPLE-th of each row and column: a flat-coloured drawing
    has few colours, and a sample holds them all but the few pixels wide, which `keep`
    makes exact), then every pixel takes the nearest entry."""
    Image, _ = _pil()
    sample = image.resize((max(1, image.width // SAMPLE), max(1, image.height // SAMPLE)),
                          Image.Resampling.NEAREST)
    found_in = sample.quantize(colors=colours, method=Image.Quantize.FASTOCTREE,
                               dither=Image.Dither.NONE)
    have = found_in.getpalette()[:colours * 3]
    found = [tuple(have[i:i + 3]) for i in range(0, len(have), 3)]
    missing = _exact(found, [_colour(c) for c in sorted(keep)])
    palette = Image.new("P", (1, 1))
    palette.putpalette([v for c in list(dict.fromkeys(missing + found))[:256] for v in c])
    return image.quantize(palette=palette, dither=Image.Dither.NONE)


def _deflated(flat, level: int) -> bytes:
    """A palette picture as a PNG (PNG specification, 11.2), as Pillow writes one: indices
    of 1, 2 or 4 bits when the palette has at most 2, 4 or 16 colours, else of 8, each row
    unfiltered (filters gain nothing on a palette's indices), deflated at this zlib-ng
    level in one IDAT chunk."""
    width, height = flat.size
    if not width or not height:
        raise OSError("the picture cannot be drawn: it has no pixels")
    if flat.mode != "P" or flat.palette.mode != "RGB" or "transparency" in flat.info:
        raise ValueError("only an opaque RGB palette picture is written (_flat makes one)")
    palette = bytes(flat.getpalette())
    colours = len(palette) // 3
    bits = next(b for b, most in ((1, 2), (2, 4), (4, 16), (8, 256)) if colours <= most)
    pixels = flat.tobytes("raw", "P" if bits == 8 else f"P;{bits}")
    row = (width * bits + 7) // 8
    rows = b"\0" + b"\0".join([pixels[at:at + row] for at in range(0, row * height, row)])
    head = struct.pack(">IIBBBBB", width, height, bits, 3, 0, 0, 0)
    return b"".join((SIGNATURE, _chunk(b"IHDR", head), _chunk(b"PLTE", palette),
                     _chunk(b"IDAT", _zlib_ng().compress(rows, level)), _chunk(b"IEND", b"")))


def _chunk(kind: bytes, data: bytes) -> bytes:
    """A PNG chunk: its length, its kind, its data and their CRC-32 (PNG specification, 5.3)."""
    return struct.pack(">I", len(data)) + kind + data + \
        struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


def _zlib_ng():
    try:
        from zlib_ng import zlib_ng  # start-up: loaded only to draw a PNG
    except ImportError as exc:
        raise OSError(f"the zlib-ng package cannot be loaded ({exc}): reinstall the referee, "
                      f"or write a .svg") from None
    return zlib_ng


def _exact(found: list[tuple], wanted: list[tuple]) -> list[tuple]:
    """Make each wanted colour exact in the palette found, in place of the entry nearest to it
    (its pixels were that colour, give or take the rounding of the octree); the colours no
    near entry is left for."""
    taken, missing = set(), []
    for c in wanted:
        if c in found:
            taken.add(found.index(c))
            continue
        near = sorted((sum((a - b) ** 2 for a, b in zip(c, f)), i)
                      for i, f in enumerate(found) if i not in taken)
        if near and near[0][0] <= NEAR_COLOUR:
            found[near[0][1]] = c
            taken.add(near[0][1])
        else:
            missing.append(c)
    return missing


def _base(g: ET.Element, width: int):
    """The static group drawn FINE times as fine and halved, band by band (a band's fine
    drawing is all the memory it takes on the way), kept by what it was drawn from (the
    Base whose layer it is, else its content written out): the whole map's of the last
    BASES levels drawn, and the last close-ups' apart (a close-up's is drawn once for each
    decision, and must not push a level's out)."""
    close = g.get("class") == "close-up"
    mark = source_of(g)         # drawn in this process from a Base: known without writing
    key = (mark, width) if mark is not None else hashlib.sha256(ET.tostring(g)).digest()
    return remembered(_CLOSE_BASES if close else _BASES, key,
                      lambda: _kept_or_drawn(g, width, mark), CLOSE_BASES if close else BASES)


def _kept_or_drawn(g: ET.Element, width: int, mark: object):
    """The layer of a Base kept under its name (mark: stored.py) as an earlier run painted
    it, else painted and kept: the whole map's marked by its name alone, a close-up's by
    ("close-up", its name) and kept as a kind of its own. A layer from no kept Base is
    painted."""
    if isinstance(mark, str):
        name, kind = mark, "layer"
    elif isinstance(mark, tuple) and len(mark) == 2 and mark[0] == "close-up":
        name, kind = mark[1], "closelayer"
    else:
        return _drawn_base(g, width)
    Image, _ = _pil()
    height = _height(g)
    pixels = stored.read_layer(name, width, height, kind)
    if pixels is not None:
        return Image.frombytes("RGB", (width, height), pixels)
    drawn = _drawn_base(g, width)
    stored.write_layer(name, width, height, _bands(drawn), kind)
    return drawn


def _bands(image) -> Iterator[bytes]:
    """An image's RGB pixels, BAND rows at a time."""
    for top in range(0, image.height, BAND):
        yield image.crop((0, top, image.width, min(top + BAND, image.height))).tobytes()


def _height(g: ET.Element) -> int:
    """The height of a static group: its ground's."""
    ground = next((el for el in g if _tag(el) == "rect"), None)
    return round(float(ground.get("height"))) if ground is not None else 1


def _drawn_base(g: ET.Element, width: int):
    Image, _ = _pil()
    ground = next((el for el in g if _tag(el) == "rect"), None)
    height = _height(g)
    colour = _colour(ground.get("fill")) if ground is not None else None
    style = {a: g.get(a) for a in STYLE if g.get(a) is not None}
    drawn = Image.new("RGB", (width, height), colour or (255, 255, 255))
    for top in range(0, height, BAND):        # each band drawn on the ground's colour
        rows = min(BAND, height - top) * FINE
        fine = _fine_band(width * FINE, rows, colour or (255, 255, 255))
        painter = Painter(fine, FINE, top, rows)
        painter.inked = []
        for el in g:
            if el is not ground or colour is None:
                painter.element(el, style)
        for box in _inked_runs(painter.inked, width * FINE, rows):
            drawn.paste(fine.reduce(FINE, box), (box[0] // FINE, top + box[1] // FINE))
    return drawn


def _inked_runs(boxes: list[tuple], width: int, rows: int) -> Iterator[tuple]:
    """The runs of TILE-square tiles of a band (width x rows fine pixels) that the boxes
    drawn in touch, row of tiles by row, as boxes: the rest of the band is its ground's
    colour still, which halved is the same colour (the layer starts in it), so only
    these are halved and copied: about a quarter of a close-up's layer, two thirds of a
    whole map's."""
    across, down = -(-width // TILE), -(-rows // TILE)
    lines = [0] * down
    for x0, y0, x1, y1 in boxes:
        i0, i1 = max(int(x0) // TILE, 0), min(int(x1) // TILE, across - 1)
        if i0 > i1:
            continue
        bits = ((1 << (i1 - i0 + 1)) - 1) << i0
        for j in range(max(int(y0) // TILE, 0), min(int(y1) // TILE, down - 1) + 1):
            lines[j] |= bits
    for j, bits in enumerate(lines):
        i = 0
        while bits >> i:
            i += ((bits >> i) & -(bits >> i)).bit_length() - 1     # the next tile inked
            n = ((~bits >> i) & -(~bits >> i)).bit_length() - 1     # and those after it
            yield (i * TILE, j * TILE, min((i + n) * TILE, width), min((j + 1) * TILE, rows))
            i += n


def _fine_band(width: int, rows: int, colour: tuple):
    """A picture `width` pixels wide whose first `rows` rows are the colour, to draw a
    band on: the one the last band was drawn on, filled again, while it is as wide and
    tall enough (a band is the same size in every layer but the last rows of each). A
    fresh one of a few megabytes each band cost as much as the drawing on it, in the
    memory's first touch."""
    Image, _ = _pil()
    fine = _FINE_BAND[0] if _FINE_BAND else None
    if fine is None or fine.width != width or fine.height < rows:
        fine = Image.new("RGB", (width, max(rows, BAND * FINE)), colour)
        _FINE_BAND[:] = [fine]
    else:
        fine.paste(colour, (0, 0, width, rows))
    return fine


def _whole(seg: tuple) -> list[tuple[int, int]]:
    """A line's ends in whole pixels, rounded down. Pillow cuts a line's ends to whole
    pixels towards nought: the same as down where they are not negative (the whole
    picture), but not for an end above a band (its rows start at nought), where the line
    then drew a pixel aside of the whole picture's along its length."""
    return [(math.floor(seg[0]), math.floor(seg[1])), (math.floor(seg[2]), math.floor(seg[3]))]


def _tag(el: ET.Element) -> str:
    return el.tag.removeprefix(NS)


@functools.lru_cache(maxsize=256)
def _colour(value: str | None) -> tuple[int, int, int] | None:
    if not value or value == "none":
        return None
    from PIL import ImageColor  # start-up: loaded only to draw a PNG

    return ImageColor.getrgb(value)[:3]


class Painter:
    """Draws SVG elements on an image, `k` pixels for each unit of the document, the image's
    first row at the document's `top` (a band of it, its first `rows` rows when told: what
    lies wholly outside is passed over)."""

    def __init__(self, image, k: int, top: int | None = None, rows: int | None = None):
        _, ImageDraw = _pil()
        self.image, self.k, self.band = image, k, top is not None
        self.top = top or 0
        self.bottom = self.top + (image.height if rows is None else rows) / k
        self.draw = ImageDraw.Draw(image)
        self.inked: list[tuple] | None = None   # a list: each box drawn in is noted there

    def _ink(self, x0: float, y0: float, x1: float, y1: float, reach: float = 0) -> None:
        """Note that the image may be drawn in within reach of this box (a margin more)."""
        if self.inked is not None:
            m = reach + MARGIN
            self.inked.append((x0 - m, y0 - m, x1 + m, y1 + m))

    def element(self, el: ET.Element, style: dict) -> None:
        style = {**style, **{a: el.get(a) for a in STYLE if el.get(a) is not None}}
        tag = _tag(el)
        if tag == "g":
            for child in el:
                self.element(child, style)
        elif tag in ("rect", "circle", "line", "text") and self._meets(el, tag, style):
            getattr(self, tag)(el, style)

    def _meets(self, el: ET.Element, tag: str, style: dict) -> bool:
        """Whether the element may reach the image's rows: a shape with its stroke, a text
        as far as its ink goes (a name's marks may stack far above its line), with a pixel
        or two to spare. Every text is on one line (svgmap.finish)."""
        if not self.band:
            return True
        v = {a: float(el.get(a) or 0) for a in ("y", "height", "y1", "y2", "cy", "r")}
        if tag == "text":
            if not el.text:
                return False
            above, below = _ink_rows(el.text, *self._font(style), self.k)
            lo, hi, reach = v["y"] + above, v["y"] + below, 2.0
        else:
            lo, hi = {"rect": (v["y"], v["y"] + v["height"]),
                      "line": sorted((v["y1"], v["y2"])),
                      "circle": (v["cy"] - v["r"], v["cy"] + v["r"])}[tag]
            reach = float(style.get("stroke-width") or 1) + 2.0
        return hi + reach >= self.top and lo - reach <= self.bottom

    def _font(self, style: dict) -> tuple[bool, bool, int, str]:
        """(bold, italic, size in pixels, Pillow's anchor) of a text in this style."""
        return (style.get("font-weight") == "bold", style.get("font-style") == "italic",
                max(1, round(float(style.get("font-size") or 12) * self.k)),
                ANCHOR.get(style.get("text-anchor") or "start", "ls"))

    def _n(self, el: ET.Element, key: str) -> float:
        shift = self.top * self.k if key in ("y", "y1", "y2") else 0
        return float(el.get(key) or 0) * self.k - shift

    def _stroke(self, style: dict) -> tuple[tuple | None, int]:
        colour = _colour(style.get("stroke"))
        return colour, max(1, round(float(style.get("stroke-width") or 1) * self.k))

    def _ink_line(self, seg: tuple, width: int) -> None:
        """Note a line, a piece at most a tile long at a time (a long slanting line's
        box would hold mostly ground)."""
        if self.inked is None:
            return
        x0, y0, x1, y1 = seg
        n = max(1, math.ceil(math.hypot(x1 - x0, y1 - y0) / TILE))
        for k in range(n):
            a, b = (x0 + (x1 - x0) * k / n, y0 + (y1 - y0) * k / n), \
                (x0 + (x1 - x0) * (k + 1) / n, y0 + (y1 - y0) * (k + 1) / n)
            self._ink(min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1]),
                      width)

    def rect(self, el: ET.Element, style: dict) -> None:
        x, y, w, h = (self._n(el, a) for a in ("x", "y", "width", "height"))
        box = [round(x), round(y), round(x + w) - 1, round(y + h) - 1]
        if box[2] < box[0] or box[3] < box[1]:
            return
        stroke, width = self._stroke(style)
        self._ink(*box, width)
        fill = _colour(style.get("fill", "#000000"))
        dash = style.get("stroke-dasharray")
        radius = self._n(el, "rx")
        if radius:
            self.draw.rounded_rectangle(box, radius, fill, None if dash else stroke, width)
        else:
            self.draw.rectangle(box, fill, None if dash else stroke, width)
        if stroke and dash:
            x1, y1 = x + w, y + h
            for seg in ((x, y, x1, y), (x1, y, x1, y1), (x1, y1, x, y1), (x, y1, x, y)):
                self._dashed(seg, stroke, width, dash)

    def line(self, el: ET.Element, style: dict) -> None:
        stroke, width = self._stroke(style)
        if stroke is None:
            return
        seg = tuple(self._n(el, a) for a in ("x1", "y1", "x2", "y2"))
        self._ink_line(seg, width)
        dash = style.get("stroke-dasharray")
        if dash:
            self._dashed(seg, stroke, width, dash)
        else:
            self.draw.line(_whole(seg), stroke, width)

    def _dashed(self, seg: tuple, colour: tuple, width: int, dash: str) -> None:
        x0, y0, x1, y1 = seg
        steps = [float(d) * self.k for d in dash.replace(",", " ").split()] or [1.0]
        length = math.hypot(x1 - x0, y1 - y0)
        at, n = 0.0, 0
        while at < length:
            step = max(steps[n % len(steps)], 0.5)
            if n % 2 == 0:
                end = min(at + step, length)
                self.draw.line(_whole((x0 + (x1 - x0) * at / length,
                                       y0 + (y1 - y0) * at / length,
                                       x0 + (x1 - x0) * end / length,
                                       y0 + (y1 - y0) * end / length)), colour, width)
            at, n = at + step, n + 1

    def circle(self, el: ET.Element, style: dict) -> None:
        cx, cy, r = (float(el.get(a) or 0) for a in ("cx", "cy", "r"))
        stroke, width = style.get("stroke"), float(style.get("stroke-width") or 1)
        look = (r, style.get("fill", "#000000"), stroke, width, style.get("stroke-dasharray"))
        sprite, edge = _disc(*look, self.k)
        x, y = round(cx * self.k - edge), round(cy * self.k - edge) - self.top * self.k
        self._ink(x, y, x + sprite.width, y + sprite.height)
        self.image.paste(sprite, (x, y), sprite)

    def text(self, el: ET.Element, style: dict) -> None:
        """A one-line text as ImageDraw.text draws it: its coverage as FreeType renders it
        from the fraction of a pixel where it starts, blended in its colour at the whole
        pixel; the coverage is kept (a map's texts are mostly the same few numbers and
        codes, at the same few fractions)."""
        if not el.text:
            return
        bold, italic, size, anchor = self._font(style)
        x, y = self._n(el, "x"), self._n(el, "y")
        # The coverage ImageDraw.text asks of the font, blended as its draw_bitmap blends it
        # (Pillow 10 to 13), held to its pixels by tests/test_map.py: a Pillow that draws
        # otherwise fails there.
        colour = _colour(style.get("fill", "#000000")) or (0, 0, 0)
        mask, (dx, dy) = _coverage(el.text, bold, italic, size, anchor,
                                   (math.modf(x)[0], math.modf(y)[0]),
                                   self.draw.draw.draw_ink(colour))
        at = (int(x) + dx, int(y) + dy)
        self._ink(*at, at[0] + mask.size[0], at[1] + mask.size[1])
        _blended(self.image, mask, at, colour)


def _coverage(text: str, bold: bool, italic: bool, size: int, anchor: str,
              start: tuple[float, float], ink: int):
    """A text's coverage (Pillow's mask, grey levels) and where it lies from the whole
    pixel the text starts at; kept (_COVERAGE)."""
    return _COVERAGE.get(
        (text, bold, italic, size, anchor, start, ink),
        lambda: face(bold, italic, size).getmask2(text, "L", anchor=anchor, ink=ink,
                                                  start=start),
        lambda got: got[0].size[0] * got[0].size[1])


_COVERAGE = Weighed(TEXT_BYTES, TEXT_MOST)


def _blended(image, mask, at: tuple[int, int], colour: tuple) -> None:
    """The colour laid on the image through a text's coverage from `at`, pixel for pixel
    as ImageDraw.text's draw_bitmap blends it: a patch of the colour pasted through the
    coverage (Pillow's fill through a grey mask tests the image's mode at every byte, and
    costs half as much again)."""
    Image, _ = _pil()
    (x, y), (w, h) = at, mask.size
    image.im.paste(Image.core.fill(image.mode, (w, h), colour), (x, y, x + w, y + h), mask)


@functools.lru_cache(maxsize=1024)
def _ink_rows(text: str, bold: bool, italic: bool, size: int, anchor: str, k: int
              ) -> tuple[float, float]:
    """How far above and below its y a text's ink reaches, in document units."""
    _, top, _, bottom = face(bold, italic, size).getbbox(text, anchor=anchor)
    return top / k, bottom / k


@functools.lru_cache(maxsize=128)
def _disc(r: float, fill: str, stroke: str | None, width: float, dash: str | None, k: int):
    """A circle as a small picture with its own transparency, drawn finer and halved: its
    half size, in pixels, is the second value."""
    Image, ImageDraw = _pil()
    outer = r + width / 2 + 1
    side = math.ceil(outer * 2 * k)
    big = Image.new("RGBA", (side * FINE, side * FINE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    c, R, sw = side * FINE / 2, r * k * FINE, max(1, round(width * k * FINE))
    box = [c - R - sw / 2, c - R - sw / 2, c + R + sw / 2, c + R + sw / 2]
    fill_rgb, stroke_rgb = _colour(fill), _colour(stroke)
    if fill_rgb:
        draw.ellipse([c - R, c - R, c + R, c + R], fill_rgb)
    if stroke_rgb and not dash:
        draw.ellipse(box, None, stroke_rgb, sw)
    elif stroke_rgb:
        steps = [float(d) * k * FINE for d in dash.replace(",", " ").split()]
        turn, at, n = 2 * math.pi * R, 0.0, 0
        while at < turn:
            step = max(steps[n % len(steps)], 0.5)
            if n % 2 == 0:
                draw.arc(box, math.degrees(at / R), math.degrees(min(at + step, turn) / R),
                         stroke_rgb, sw)
            at, n = at + step, n + 1
    return big.reduce(FINE), side / 2
