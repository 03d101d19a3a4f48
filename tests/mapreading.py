"""Reading the map picture (`referee map`, the mails' map.png) back from its SVG, with the
shipped font's own measures: where each text, counter, circle and leader is, and what each
counter says. The boxes are worked out from the drawing itself (the font file png.py draws
with, measured by Pillow), not from what the placement believed.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass

from PIL import ImageFont

from referee.render import png

NS = "{http://www.w3.org/2000/svg}"
Box = tuple[float, float, float, float]

_FONTS: dict[tuple[bool, bool], ImageFont.FreeTypeFont] = {}
FILES = {(False, False): "DejaVuSansCondensed.ttf", (True, False): "DejaVuSansCondensed-Bold.ttf",
         (False, True): "DejaVuSansCondensed-Oblique.ttf"}


def parse(svg: str | bytes) -> ET.Element:
    return ET.fromstring(svg.encode("utf-8") if isinstance(svg, str) else svg)


def tag(el: ET.Element) -> str:
    return el.tag.removeprefix(NS)


def measured(text: str, size: float, bold: bool, italic: bool = False) -> float:
    """How wide the shipped font draws a text."""
    key = (bold, italic and not bold)
    if key not in _FONTS:
        _FONTS[key] = ImageFont.truetype(str(png.FONTS / FILES[key]), 200)
    return _FONTS[key].getlength(text) * size / 200


def styled(el: ET.Element, parents: dict, key: str) -> str | None:
    """An attribute of an element or of the nearest group above it that sets it."""
    while el is not None:
        if el.get(key) is not None:
            return el.get(key)
        el = parents.get(el)
    return None


def text_box(el: ET.Element, parents: dict | None = None) -> Box:
    """The box a text is drawn in: its measured width, the font's ascent and descent."""
    parents = parents or {}
    size = float(styled(el, parents, "font-size"))
    bold = styled(el, parents, "font-weight") == "bold"
    italic = styled(el, parents, "font-style") == "italic"
    w = measured(el.text or "", size, bold, italic)
    x, y = float(el.get("x")), float(el.get("y"))
    x0 = {"middle": x - w / 2, "end": x - w}.get(styled(el, parents, "text-anchor"), x)
    return x0, y - size * 0.93, x0 + w, y + size * 0.24


def rect_box(el: ET.Element) -> Box:
    x, y = float(el.get("x")), float(el.get("y"))
    return x, y, x + float(el.get("width")), y + float(el.get("height"))


def meets(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def grow(box: Box, by: float) -> Box:
    return box[0] - by, box[1] - by, box[2] + by, box[3] + by


def inside(a: Box, b: Box) -> bool:
    """Whether box a lies within box b."""
    return b[0] <= a[0] and a[2] <= b[2] and b[1] <= a[1] and a[3] <= b[3]


def box_to_point(box: Box, px: float, py: float) -> float:
    x0, y0, x1, y1 = box
    return ((max(x0 - px, 0, px - x1)) ** 2 + (max(y0 - py, 0, py - y1)) ** 2) ** 0.5


@dataclass
class Counter:
    """A counter as the picture draws it."""

    unit: str
    area: str
    side: str
    box: Box
    head: str
    value: str | None
    contents: str | None
    tags: list[str]
    title: str
    strength: str | None
    element: ET.Element


def counters(root: ET.Element, keys: bool = False) -> list[Counter]:
    """Every counter drawn for a unit (the key's samples only with keys)."""
    out = []
    for g in root.iter(f"{NS}g"):
        cls = (g.get("class") or "").split()
        if "counter" not in cls or ("key" in cls and not keys):
            continue
        texts = {t.get("class"): t.text for t in g.iter(f"{NS}text")}
        box = next(rect_box(r) for r in g if r.get("class") == "counter-box")
        out.append(Counter(g.get("data-unit"), g.get("data-area"), g.get("data-side"), box,
                           texts.get("head"), texts.get("value"), texts.get("contents"),
                           [t.text for t in g.iter(f"{NS}text") if t.get("class") == "tag"],
                           g.findtext(f"{NS}title") or "", g.get("data-strength"), g))
    return out


def circles(root: ET.Element) -> dict[str, tuple[float, float, float]]:
    """Area id -> (cx, cy, r) of its circle on the map."""
    out = {}
    for el in root.iter(f"{NS}g"):
        if (el.get("id") or "").startswith("area-") and "offmap" not in el.get("class"):
            (c,) = [c for c in el if c.get("class") == "shape"]
            out[el.get("id")[5:]] = (float(c.get("cx")), float(c.get("cy")), float(c.get("r")))
    return out


def names(root: ET.Element) -> dict[str, tuple[str, Box]]:
    """Area id -> its name on the map and the box it is drawn in."""
    parents = {c: p for p in root.iter() for c in p}
    return {t.get("data-area"): (t.text, text_box(t, parents)) for t in root.iter(f"{NS}text")
            if t.get("class") == "name" and t.get("data-area")}


def stack_names(root: ET.Element) -> list[tuple[str, str, Box]]:
    """(area, the name, the framed box it is drawn in) of every stack that carries its
    area's name."""
    out = []
    for g in stacks(root):
        grounds = [r for r in g if r.get("class") == "stack-name-ground"]
        texts = [t for t in g if t.get("class") == "stack-name"]
        out += [(g.get("data-area"), t.text, rect_box(r)) for r, t in zip(grounds, texts)]
    return out


def labels(root: ET.Element) -> list[tuple[str, Box]]:
    """(what, box) of every label on the map part: the areas' names, the counters, the supply
    marks, the VP numbers and the regions' labels."""
    parents = {c: p for p in root.iter() for c in p}
    out = [(f"name {a}", box) for a, (_, box) in names(root).items()]
    out += [(f"counter {c.unit} at {c.area}", c.box) for c in counters(root)
            if c.area and not _offmap(c.element, parents)]
    out += [(f"stack name {a}", box) for a, _, box in stack_names(root)]
    for g in root.iter(f"{NS}g"):
        cls = g.get("class") or ""
        if cls == "supply":
            (r,) = [r for r in g if tag(r) == "rect"]
            out.append((f"supply {g.get('data-area')}", rect_box(r)))
        elif cls.startswith("impassable") and "unplaced" not in cls:
            out.append((g.get("id"), rect_box(g.find(f"{NS}rect"))))
    return out


def _offmap(el: ET.Element, parents: dict) -> bool:
    while el is not None:
        if el.get("id") == "offmap":
            return True
        el = parents.get(el)
    return False


def leaders(root: ET.Element) -> list[tuple[str, tuple[float, float, float, float]]]:
    """(area, segment) of every leader from an area's circle to its name or counters."""
    parents = {c: p for p in root.iter() for c in p}
    out = []
    for el in root.iter(f"{NS}line"):
        if el.get("class") == "leader":
            area = el.get("data-area") or parents[el].get("data-area")
            out.append((area, tuple(float(el.get(k)) for k in ("x1", "y1", "x2", "y2"))))
    return out


def links(root: ET.Element) -> list[tuple[str, str, tuple[float, float, float, float]]]:
    return [(el.get("data-from"), el.get("data-to"),
             tuple(float(el.get(k)) for k in ("x1", "y1", "x2", "y2")))
            for el in root.iter(f"{NS}line") if el.get("class") == "link"]


def stacks(root: ET.Element) -> list[ET.Element]:
    """The groups of counters placed together beside an area's circle."""
    return [g for g in root.iter(f"{NS}g") if g.get("class") == "stack"]
