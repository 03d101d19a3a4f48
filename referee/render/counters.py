"""The units of the map picture as counters a wargamer knows: a box in its nation's colour
with the nation's letters (GE, A-H) and the army's number or the type's letter, the army's
strength in a white square, its contents under them, and a tag for each marker on it.

Everything a counter shows comes from the game's data (units.yaml: each nation's `counter`
letters and colours, each type's `code`, or `mark` for a type with none, such as a fort)
and from the unit as `views.unit_views` gives it to the reader: an army on another side's
hidden template (1.4) shows neither its strength nor its contents, only '?'.

    GE 1 [8] [E]        army 1 of the German Empire, 8 units on its template, entrenched
    4I+2A+1C+1G         what its template holds
    FR I03 [OoS]        a French infantry counter standing alone, out of supply (1.2.3)
    BE F [2]            a Belgian fort of strength 2 (8.4)
    FR F [0]            a French fort of strength 0, the Sedan 0: it fires no dice (8.4)
    no fire
"""

from __future__ import annotations

import functools
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from ..base.plurals import upper_first
from ..data.gamedata import GameData
from .documents import fort_strength
from .svgparts import Scale, text_width

INK = "#111111"
EDGE = "#222222"
VALUE = "#ffffff"              # the square the strength is written in
# The markers a counter carries (1.2.3, 4.3): what its tag says and the tag's colours.
TAGS = {"E": ("#6b4a1f", "#ffffff"), "OoS": ("#c0141c", "#ffffff")}


@dataclass(frozen=True)
class Counter:
    """One unit as its counter shows it to the reader."""

    unit: str
    area: str
    side: str
    nation: str
    fill: str
    ink: str
    head: str                  # the nation's letters and the army number or type letter
    value: str                 # the strength in its square ('?' hidden, '' none)
    body: str                  # an army's contents, when the reader may see them
    tags: tuple[str, ...]      # 'E' entrenched (4.3), 'OoS' out of supply (6.5)
    title: str                 # the hover text: id, name and what the reader may see
    strength: int | None       # what the square says, for scripts (None: hidden or none)


def look(nation: str, side: str, data: GameData) -> tuple[str, str, str]:
    """A nation's letters, counter colour and ink (units.yaml `counter`; without it, the
    nation's id in capitals in its side's colours)."""
    n = data.units.nations.get(nation)
    if n is not None and n.counter is not None:
        return n.counter.letters, n.counter.fill, n.counter.ink
    colours = data.units.side_colours.get(side)
    return nation.upper()[:4], colours.fill if colours else "#dddddd", INK


def type_mark(kind: str, data: GameData) -> str:
    """The letter(s) of a unit type on its counter: its code (units.yaml), or its `mark`, or
    the first letter of its name."""
    t = data.units.unit_types.get(kind)
    if t is not None and (t.code or t.mark):
        return t.code or t.mark or ""
    return kind[:1].upper()


def _tail(unit_id: str, *prefixes: str) -> str:
    """What is left of an id after its nation's and type's parts ('ge-i-03' -> '03')."""
    rest = unit_id
    for p in prefixes:
        if p and rest.lower().startswith(f"{p.lower()}-"):
            rest = rest[len(p) + 1:]
    return rest


def _short(tail: str) -> str:
    """An id's tail as a counter shows it: whole up to 8 letters, else cut with an ellipsis
    (the full id is the counter's title)."""
    return tail if len(tail) <= 8 else tail[:7] + "…"


def counter(u: dict, area: str, data: GameData) -> Counter:
    """The counter of one unit of `views.unit_views` (1.4: what the reader may see)."""
    letters, fill, ink = look(u["nation"], u["side"], data)
    tags = tuple(t for t, on in (("E", u.get("entrenched")), ("OoS", u.get("oos"))) if on)
    kind = u["type"]
    strength = u.get("strength")
    if kind == "army":
        number = _short(_tail(u["id"], u["nation"]))
        summary = u.get("summary") or "hidden"
        shown = summary not in ("hidden", "empty")
        return Counter(u["id"], area, u["side"], u["nation"], fill, ink,
                       f"{letters} {number}", "?" if strength is None else str(strength),
                       summary if shown else "", tags,
                       f"{u['id']} {u.get('name') or ''} [{summary}]".replace("  ", " "),
                       strength)
    mark = type_mark(kind, data)
    words = kind.replace("_", " ")
    if kind == "fort":
        name = u.get("name") or u["id"]
        # A fort of strength 0 says under its square that it fires no dice (8.4).
        return Counter(u["id"], area, u["side"], u["nation"], fill, ink, f"{letters} {mark}",
                       str(strength), "no fire" if strength == 0 else "", tags,
                       f"{name} fort, strength {fort_strength(strength)}", strength)
    tail = _tail(u["id"], u["nation"], mark)
    tail = tail if len(tail) <= 3 else upper_first(tail[:8])
    return Counter(u["id"], area, u["side"], u["nation"], fill, ink,
                   f"{letters} {mark}{tail}" if tail.isdigit() else f"{letters} {mark} {tail}",
                   "", "", tags, f"{u['id']} {words}", None)


def counters(units: list[dict], area: str, data: GameData) -> list[Counter]:
    """The counters of an area's units, in the order the view lists them."""
    return [counter(u, area, data) for u in units]


def _widths(head_text: str, value_text: str, tag_texts: tuple[str, ...], scale: Scale
            ) -> tuple[float, float, list[float]]:
    """The head's width, the value square's and each tag's."""
    f, pad = scale.font, scale.pad
    head = text_width(head_text, f, True)
    value = max(text_width(value_text, f, True) + 2 * pad, scale.line * 0.9) \
        if value_text else 0.0
    tags = [text_width(t, f, True) + 2 * pad for t in tag_texts]
    return head, value, tags


def size(c: Counter, scale: Scale) -> tuple[float, float]:
    """How wide and high a counter is drawn: by what it writes, measured once (a layout
    asks it of each counter at every try of its area's grid, at every level)."""
    return _size(c.head, c.value, c.body, c.tags, scale)


@functools.lru_cache(maxsize=4096)
def _size(head_text: str, value_text: str, body_text: str, tag_texts: tuple[str, ...],
          scale: Scale) -> tuple[float, float]:
    pad = scale.pad
    head, value, tags = _widths(head_text, value_text, tag_texts, scale)
    top = pad + head + sum(pad + w for w in (value, *tags) if w) + pad
    body = 2 * pad + text_width(body_text, scale.font) if body_text else 0.0
    rows = 2 if body_text else 1
    return round(max(top, body) + 2, 1), round(scale.line * rows + 2, 1)


def _text(g: ET.Element, x: float, y: float, text: str, cls: str, **attrs) -> None:
    t = ET.SubElement(g, "text", {"x": f"{x:.1f}", "y": f"{y:.1f}", "class": cls, **attrs})
    t.text = text


def _rect(g: ET.Element, x: float, y: float, w: float, h: float, fill: str, cls: str,
          stroke: str | None = None) -> None:
    attrs = {"x": f"{x:.1f}", "y": f"{y:.1f}", "width": f"{w:.1f}", "height": f"{h:.1f}",
             "fill": fill, "class": cls}
    if stroke:
        attrs.update({"stroke": stroke, "stroke-width": "1.5"})
    ET.SubElement(g, "rect", attrs)


def draw(parent: ET.Element, c: Counter, x: float, y: float, scale: Scale) -> ET.Element:
    """A counter as one <g> with its top left corner at (x, y): its box, its head, its value
    square and tags on the first row, its contents on the second. Its texts take their size,
    weight and colour from the group."""
    w, h = size(c, scale)
    attrs = {"class": "counter", "data-unit": c.unit, "data-area": c.area,
             "data-side": c.side, "data-nation": c.nation, "font-size": f"{scale.font:g}",
             "font-weight": "bold", "fill": c.ink}
    if c.strength is not None:
        attrs["data-strength"] = str(c.strength)
    for t in c.tags:
        attrs[f"data-{t.lower()}"] = "true"
    g = ET.SubElement(parent, "g", attrs)
    ET.SubElement(g, "title").text = c.title
    _rect(g, x + 0.75, y + 0.75, w - 1.5, h - 1.5, c.fill, "counter-box", EDGE)
    pad, line = scale.pad, scale.line
    base = y + 1 + line / 2 + scale.font * 0.36          # the capitals centred in the row
    _text(g, x + 1 + pad, base, c.head, "head")
    head, value, tags = _widths(c.head, c.value, c.tags, scale)
    cx = x + 1 + pad + head + pad
    middle = {"text-anchor": "middle"}
    if value:
        _rect(g, cx, y + 2.5, value, line - 3, VALUE, "value", EDGE)
        _text(g, cx + value / 2, base, c.value, "value", fill=INK, **middle)
        cx += value + pad
    for tag, tw in zip(c.tags, tags):
        fill, ink = TAGS[tag]
        _rect(g, cx, y + 2.5, tw, line - 3, fill, "tag")
        _text(g, cx + tw / 2, base, tag, "tag", fill=ink, **middle)
        cx += tw + pad
    if c.body:
        _text(g, x + 1 + pad, base + line, c.body, "contents", **{"font-weight": "normal"})
    return g
