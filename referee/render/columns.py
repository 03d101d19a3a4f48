"""How many columns a text takes on a fixed-width screen (a mail program's, a phone's): a
wide or full-width character (Unicode's East Asian Width W or F) two, a combining mark, a
format character or a zero-width joiner none, any other one. The rule under a title is as
long as the title shown above it, not as its count of characters."""

from __future__ import annotations

_NONE = ("Mn", "Me", "Cf")      # combining marks, enclosing marks, format characters
# Below U+0300 every character but the soft hyphen (Cf: none) takes one column; so do these.
_ONE = frozenset("\u2010\u2011\u2012\u2013\u2014\u2015\u2018\u2019\u201c\u201d\u2022\u2026"
                 "\u2032\u2033")


def columns(text: str) -> int:
    """text's display width in columns (the Unicode tables loaded only for a text that has
    a character beyond Latin-1 and the common dashes and quotes: a cold read never needs
    them)."""
    if all((ord(c) < 0x300 and c != "\xad") or c in _ONE for c in text):
        return len(text)
    import unicodedata
    return sum(0 if unicodedata.category(c) in _NONE else
               2 if unicodedata.east_asian_width(c) in ("W", "F") else 1 for c in text)
