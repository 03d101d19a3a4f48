"""What the line of a new order may hold, beyond what reading it asks.

An order's line is kept in the journal as the player wrote it and shown to every reader:
in the reports mailed and posted, after "#N Side:". Reading an order overlooks what it has
no use for (the accents and other marks over a letter, when an area's name is matched; a
key a JSON order gives twice, of which the last counts), so a line read as a good order
could still carry text of its own into every report: an address to click under the
referee's heading, hidden or overlaid characters, a post's worth of marks. A new order's
line is therefore refused, on one line saying what and where, when it

- is longer than any order needs (MAX_ORDER characters; the longest orders, a discard of
  a full hand or a move along a long path, take about a hundred);
- holds a character no order uses: a control or invisible formatting character, or a
  mark that goes over another character (once the line is composed as NFC, where an
  accented letter is one character: Liège typed with a separate accent is taken);
- is a JSON order giving a key twice.

A line in the JSON form is kept as its text form (kept_line): the words `status` lists
and every report shows, never a JSON object in a player's report.

Orders already in a journal are read as they were accepted (reading.parse_order): a record
of an older referee that kept the JSON form is read, and verified, as it was.
"""

from __future__ import annotations

import json
import unicodedata

from ..base.errors import OrderSyntaxError
from ..data.gamedata import GameData
from .order_text import format_order
from .reading import Ord, parse_order

MAX_ORDER = 1000
# Unicode general categories no order uses: controls, format characters, surrogates,
# private use, unassigned; marks over, around or beside another character; line and
# paragraph separators.
_REFUSED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Mn", "Me", "Mc", "Zl", "Zp"})


def parse_new_order(text: str, data: GameData) -> Ord:
    """A new order's line read (reading.parse_order), after the checks above
    (OrderSyntaxError quotes the line and says where)."""
    check_new_line(text)
    return parse_order(text, data)


def kept_line(text: str, order: Ord, data: GameData) -> str:
    """The line a new order's record keeps: as written, save a JSON order, kept as its text
    form (format_order, the phrase `status` lists) when that phrase reads back as the same
    order; else as written, which reads as it was accepted."""
    if not text.lstrip().startswith("{"):
        return text
    phrase = format_order(order)
    try:
        same = parse_order(phrase, data) == order
    except OrderSyntaxError:
        same = False
    return phrase if same else text


def check_new_line(text: str) -> None:
    """Refuse a new order's line that is too long, holds a character no order uses, or
    gives a JSON key twice."""
    if len(text) > MAX_ORDER:
        raise OrderSyntaxError(text, f"an order is at most {MAX_ORDER} characters; this "
                                     f"line has {len(text)}")
    composed = unicodedata.normalize("NFC", text)
    for at, char in enumerate(composed):
        if 0xDC80 <= ord(char) <= 0xDCFF:    # how Python keeps a byte that is not UTF-8
            raise OrderSyntaxError(text, f"it holds the byte 0x{ord(char) - 0xDC00:02X}, "
                                         f"which is not UTF-8 text (an order is UTF-8)",
                                   at if composed == text else None)
        if char != "\t" and unicodedata.category(char) in _REFUSED:
            raise OrderSyntaxError(text, f"it holds {_named(char)}, a character no order "
                                         f"uses (invisible, a control, or a mark over "
                                         f"another character)", at if composed == text
                                   else None)
    if composed.lstrip().startswith("{"):
        _no_key_twice(text)


def _named(char: str) -> str:
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X}" + (f" ({name})" if name else "")


def _no_key_twice(line: str) -> None:
    """A JSON order gives each key once (one given twice would be read as its last)."""
    def pairs(items: list[tuple[str, object]]) -> dict:
        seen: set[str] = set()
        for key, _ in items:
            if key in seen:
                raise OrderSyntaxError(line, f"not a valid JSON order: the key {key!r} is "
                                             f"given twice; give each key once")
            seen.add(key)
        return dict(items)

    try:
        json.loads(line, object_pairs_hook=pairs)
    except (ValueError, RecursionError):
        return                      # not JSON: reading it says what is wrong
