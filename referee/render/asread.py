"""A record's order as the referee read it, for its heading: the full stop, '!' or '…' a
phone or a writer ends a line with is no part of the order (docs/player.md, Orders), so
'#14 Entente: Done. (cavalry retreat)' read as a sentence with the step after its end. The
journal keeps the line as it was typed; only the heading leaves the mark out, and only
where the reading did (the line reads as the same order without it)."""

from __future__ import annotations

from ..base.errors import OrderError
from ..data.gamedata import GameData
from ..engine.reading import parse_order

# What may end an order line as it ends a sentence (engine/reading.py reads a line without).
SENTENCE_END = ".!…"


def as_read(text: str, data: GameData | None) -> str:
    """text (one order a line) with each line's sentence end dropped where it reads as the
    same order without it; a line that does not is kept as it is."""
    return "\n".join(_line(line, data) for line in text.split("\n"))


def _line(line: str, data: GameData | None) -> str:
    bare = line.rstrip().rstrip(SENTENCE_END).rstrip()
    if not bare or bare == line.rstrip() or data is None:
        return line
    try:
        same = parse_order(bare, data) == parse_order(line, data)
    except (OrderError, ValueError, KeyError, TypeError):
        return line
    return bare if same else line
