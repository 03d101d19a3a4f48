"""An order as a report heads a record with it names its areas by their ids, as the player
typed them; the events under it name them as the map does. Where an id does not read as
its area's name ('silesia' for Breslau), the name goes beside it in brackets, so a reader
knows the order's area is the event's: 'retreat ge-i-04 silesia (Breslau)'. The order is
kept as typed: it is what the player sent, and what he would type again."""

from __future__ import annotations

import re

from ..base.nearness import fold
from ..data.gamedata import GameData

# A word of an order line: what lies between spaces, commas and semicolons.
_WORD = re.compile(r"[^\s,;]+")
# Letters NFKD leaves whole that a typed id spells with a plain one (Łódź: lodz).
_PLAIN = str.maketrans({"ł": "l", "ø": "o", "ß": "ss", "æ": "ae", "œ": "oe", "đ": "d"})


def reads_as(word: str, name: str) -> bool:
    """Whether a typed id reads as the area's name: folded alike (base/nearness.fold: case,
    accents and separators ignored), a letter NFKD keeps whole spelt plain, 'st' for a
    leading 'Saint' (st_mihiel reads as Saint-Mihiel)."""
    plain = fold(name.lower().translate(_PLAIN))
    forms = {plain, "st" + plain.removeprefix("saint")} if plain.startswith("saint") \
        else {plain}
    return fold(word) in forms


def named_parts(line: str, data: GameData | None) -> list[tuple[str, bool]]:
    """line cut into parts, each (text, typed): the order's own text (typed) and, after each
    area id that does not read as its area's name, that name in brackets (not typed)."""
    areas = data.areas if data is not None else {}
    parts: list[tuple[str, bool]] = []
    at = 0
    for word in _WORD.finditer(line):
        area = areas.get(word.group().casefold())
        if area is None or reads_as(word.group(), area.name):
            continue
        parts += [(line[at:word.end()], True), (f" ({area.name})", False)]
        at = word.end()
    return parts + ([(line[at:], True)] if at < len(line) or not parts else [])


def with_names(text: str, data: GameData | None) -> str:
    """text (one order a line) with the names beside its area ids, as plain text."""
    return "\n".join("".join(t for t, _ in named_parts(line, data))
                     for line in text.split("\n"))
