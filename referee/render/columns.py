"""How many columns a text takes on a fixed-width screen (a mail program's, a phone's): a
wide or full-width character (Unicode's East Asian Width W or F) two, a combining mark, a
format character or a zero-width joiner none, any other one. The rule under a title is as
long as the title shown above it, not as its count of characters."""

from __future__ import annotations

import unicodedata

_NONE = ("Mn", "Me", "Cf")      # combining marks, enclosing marks, format characters


def columns(text: str) -> int:
    """text's display width in columns."""
    return sum(0 if unicodedata.category(c) in _NONE else
               2 if unicodedata.east_asian_width(c) in ("W", "F") else 1 for c in text)
