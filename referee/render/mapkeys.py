"""The writing around the map picture: who it is for on top, and under the map the key to
its colours, rings, marks and counters, every line at least the picture's Scale high.

The key to the counters is drawn from the game's data: one sample counter for each nation
(its letters and colour, units.yaml `counter`) and the letter of each unit type (its
`code`, or `mark`), so another game's picture explains itself.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from ..base.plurals import joined
from ..data.gamedata import GameData
from ..game.endlevel import vp_level_name
from . import counters as cnt
from .documents import phase_words, side_name
from .svgparts import Scale, clean, text_width

EDGE = 14.0            # the room at the picture's edges
COLUMN_GAP = 24.0      # between the two columns of the key


# What a name framed over a stack of counters means (stackname.py).
STACK_NAME = "a framed name over counters: the area they are in, drawn nearer another"
LONGEST_TEXT = 2000         # letters of a key's text read at all (the rest cannot fit)


def _most(size: float, width: float) -> int:
    """More letters than fit in `width` at this size, whatever the letters (none is
    narrower than a fifth of the size): what is measured of a text at most."""
    return int(width / (size * 0.2)) + 2


def fit(text: str, size: float, width: float, bold: bool = False) -> str:
    """The text clipped with an ellipsis so that it is no wider than `width`."""
    text = clean(text)
    most = _most(size, width)
    text = text if len(text) <= most else text[:most] + "\u2026"
    while len(text) > 1 and text_width(text, size, bold) > width:
        text = text[:-2] + "\u2026"
    return text


def wrap(text: str, size: float, width: float, bold: bool = False) -> list[str]:
    """A text cut into lines no wider than `width` at this size, at spaces where it can."""
    out, line = [], ""
    for word in clean(text)[:LONGEST_TEXT].split(" "):
        cand = f"{line} {word}" if line else word
        if not line or text_width(cand, size, bold) <= width:
            line = cand
        else:
            out.append(line)
            line = word
        while text_width(line, size, bold) > width and len(line) > 1:
            cut = min(len(line) - 1, _most(size, width))
            while cut > 1 and text_width(line[:cut], size, bold) > width:
                cut -= 1
            out.append(line[:cut])
            line = line[cut:]
    return out + [line]


def text(parent: ET.Element, x: float, y: float, words: str, size: float,
         **attrs) -> ET.Element:
    """One line of text with its baseline at y."""
    t = ET.SubElement(parent, "text", {"x": f"{x:.1f}", "y": f"{y:.1f}",
                                       "font-size": f"{size:g}", **attrs})
    t.text = clean(words)
    return t


class Column:
    """A column of the key, written top to bottom."""

    def __init__(self, parent: ET.Element, x: float, y: float, width: float, scale: Scale):
        self.parent, self.x, self.y, self.width, self.scale = parent, x, y, width, scale

    def write(self, words: str, indent: float = 0.0, **attrs) -> None:
        f = self.scale.font
        bold = attrs.get("font-weight") == "bold"
        for line in wrap(words, f, self.width - indent, bold):
            self.y += self.scale.line
            text(self.parent, self.x + indent, self.y, line, f, **attrs)

    def gap(self, h: float) -> None:
        self.y += h


# ---------------------------------------------------------------- the top

def readers_words(readers: tuple[str, ...]) -> str:
    """The readers of a picture in words, as a person reads them: German; German and
    Entente; the public; the moderator."""
    named = [_READERS.get(r) or side_name(r) for r in readers]
    return joined(named)


def for_words(readers: tuple[str, ...]) -> str:
    """Whom a picture is for, after what it shows: 'for German' to one reader; to several
    who share it, that it is the same for them, in words each reads as his: '(the same for
    both sides)', '(the same for both sides and the public)'. 'for German and Entente' on
    the German's map read as a map drawn for the Entente too, not his own."""
    if len(readers) < 2:
        return f"for {readers_words(readers)}"
    sides = [r for r in readers if r not in _READERS]
    others = [_READERS[r] for r in readers if r in _READERS]
    named = (["both sides"] if len(sides) == 2 else [side_name(r) for r in sides]) + others
    return f"(the same for {joined(named)})"


# The readers who are no side, as a picture's top names them.
_READERS = {"public": "the public", "moderator": "the moderator"}


def header_height(scale: Scale) -> float:
    """How high the writing on top of the picture is: three lines, whatever they say."""
    return round(4 + scale.font * 1.3 * 1.25 + 2 * scale.line + scale.font * 0.6, 1)


def header(g: ET.Element, view: dict, scale: Scale, width: float, what: str,
           shown_to: tuple[str, ...] = ()) -> None:
    """Who the picture is for (the readers it is shown to, when more than its own reader see
    the very same picture), of which game, record and turn, and what it shows."""
    f, room = scale.font, width - 2 * EDGE
    y = 4 + f * 1.3 * 1.05
    text(g, EDGE, y, fit(f"{view.get('game_name') or 'Game'} \u2014 {what} "
                         f"{for_words(shown_to or (view['reader'],))}", f * 1.3, room,
                         True), f * 1.3,
         **{"font-weight": "bold", "class": "reader"})
    y += scale.line
    text(g, EDGE, y, fit(f"game {view['game_id']}, record {view['seq']} \u00b7 Turn "
                         f"{view['turn']} of {view.get('last_turn', view['turn'])}: "
                         f"{view['label']}", f, room, True), f,
         **{"font-weight": "bold", "class": "turn"})
    y += scale.line
    # A result the VP do not give (a surrender, one level worse: 3.3) is told beside them.
    result = (view.get("result") or {}).get("level_name") if view.get("game_over") else None
    told = "" if result in (None, vp_level_name(view["vp"])) else f" \u00b7 result: {result}"
    text(g, EDGE, y, fit(f"{phase_words(view)} \u00b7 VP {view['vp']['total']}: "
                         f"{vp_level_name(view['vp'])}{told}", f, room), f, **{"class": "phase"})


# ---------------------------------------------------------------- the key

def _swatch(col: Column, draw, words: str) -> None:
    """A small picture at the start of a line and what it means."""
    f = col.scale.font
    draw(col.parent, col.x + f * 0.6, col.y + col.scale.line * 0.62, f * 0.55)
    col.write(words, indent=f * 1.6)


def area_keys(col: Column, data: GameData, colours: dict, rings: dict,
              named: bool = False) -> None:
    """What the areas' colours, rings and marks mean (1.2, 3.1, 4.1, 5.1.1, 6.1), and, when
    a stack on the map carries its area's name (stackname.py), what that name says."""
    col.write("Areas", **{"font-weight": "bold"})
    keys = [(colours["control"](s), f"{side_name(s)} control") for s in data.sides]
    keys += [(colours["disputed"], "Disputed"), (colours["neutral"], "Neutral")]
    for colour, label in keys:
        _swatch(col, lambda p, x, y, r, c=colour: _circle(p, x, y, r, c, "#555555", 1.0),
                label)
    for stroke, width, dash, words in rings.values():
        _swatch(col, lambda p, x, y, r, s=stroke, w=width, d=dash: _circle(
            p, x, y, r, "none", s, w, d), words)
    for words in ("number in a circle: its VP (3.1)",
                  "S: supply source in its side's colour; white: only in some cases (6.1)",
                  "a line joins two neighbouring areas (4.1)",
                  "dots lead from an area to its name, a thick line to its counters",
                  *((STACK_NAME,) if named else ()),
                  "positions are schematic, not the printed board's"):
        col.write(words)


def _circle(parent: ET.Element, x: float, y: float, r: float, fill: str, stroke: str,
            width: float, dash: str | None = None) -> None:
    attrs = {"cx": f"{x:.1f}", "cy": f"{y:.1f}", "r": f"{r:.1f}", "fill": fill,
             "stroke": stroke, "stroke-width": f"{width:g}"}
    if dash:
        attrs["stroke-dasharray"] = dash
    # A swatch of the key: its colours are drawn exactly in the PNG (png.py KEEP), a colour
    # no area on the map has now (Disputed, Neutral) as much as the others.
    attrs["class"] = "swatch"
    ET.SubElement(parent, "circle", attrs)


def _sample(col: Column, c: cnt.Counter, words: str) -> None:
    """A sample counter at the start of a line and what it means."""
    w, h = cnt.size(c, col.scale)
    cnt.draw(col.parent, c, col.x, col.y + 3, col.scale).set("class", "counter key")
    col.gap(h - col.scale.line + 6)
    col.write(words, indent=w + col.scale.font * 0.5)


def counter_keys(col: Column, data: GameData) -> None:
    """What a counter says: each nation's letters and colour, the army's number, strength
    and contents, each type's letter and the markers (1.2.3, 1.4, 4.3, 8.1, 8.4)."""
    col.write("Counters", **{"font-weight": "bold"})
    for nation, n in data.units.nations.items():
        letters, fill, ink = cnt.look(nation, n.side, data)
        sample = cnt.Counter("", "", n.side, nation, fill, ink, f"{letters} 1", "", "", (), "",
                             None)
        _sample(col, sample, f"{n.name} ({side_name(n.side)}), army 1")
    letters, fill, ink = cnt.look(*next(iter((k, v.side) for k, v in
                                             data.units.nations.items())), data)
    army = cnt.Counter("", "", "", "", fill, ink, f"{letters} 1", "8", "5I+2A+1C",
                       ("E", "OoS"), "", None)
    _sample(col, army, "army 1: 8 units on its template, what it holds under it "
                       "(? and nothing under it: a template hidden from you, 1.4)")
    col.write("E: entrenched (4.3); OoS: out of supply (6.5)")
    codes = [f"{cnt.type_mark(k, data)} {k.replace('_', ' ')}"
             for k, t in data.units.unit_types.items() if t.class_ != "army"]
    col.write("Letters: " + ", ".join(codes) + "; a counter standing alone shows its "
              "letter and number (I03: infantry 03); a fort's square is its strength (8.4)")


def legend(g: ET.Element, data: GameData, y: float, scale: Scale, width: float,
           colours: dict, rings: dict, named: bool = False) -> tuple[Column, Column]:
    """The key in two columns under the map, starting at y; returns the columns (their `y`
    is where each ends). With named, it says what a name framed over counters means."""
    ET.SubElement(g, "rect", {"x": f"{EDGE:g}", "y": f"{y:.1f}", "width": f"{width - 2 * EDGE:g}",
                              "height": "1", "fill": "#bbbbbb"})
    half = (width - 2 * EDGE - COLUMN_GAP) / 2
    left = Column(g, EDGE, y + 4, half, scale)
    right = Column(g, EDGE + half + COLUMN_GAP, y + 4, half, scale)
    area_keys(left, data, colours, rings, named)
    counter_keys(right, data)
    return left, right
