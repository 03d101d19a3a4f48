"""Characters that make a text display as another, and how every output shows them.

Bidirectional controls (U+202E turns what follows around: an area or card name could read
as another), zero-width characters, other invisible format characters and control
characters (an escape sequence can rewrite a terminal) never reach a reader as they are:
game data, scenarios and ids refuse them (data/textcheck.py), and every output shows any
that still comes, from a journal or a mail, as its escape `\\u202e`, which is also the same
character in a JSON string.
"""

from __future__ import annotations

import re

# Bidirectional marks, embeddings, overrides and isolates.
BIDI = (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))
# Zero-width and other invisible characters.
INVISIBLE = (0x00AD, 0x180E, *range(0x200B, 0x200E), *range(0x2060, 0x2065), 0xFEFF,
             0x2028, 0x2029)
# Control characters but the tab and the line ends a text is made of.
CONTROL = (*(c for c in range(0x20) if c not in (0x09, 0x0A, 0x0D)), *range(0x7F, 0xA0))

_SHOWN = {c: f"\\u{c:04x}" for c in (*BIDI, *INVISIBLE, *CONTROL)}


def visible(text: str) -> str:
    """text with every disguising character written as its escape (\\u202e)."""
    return text.translate(_SHOWN)


def disguising(text: str) -> str | None:
    """The first disguising character of text, named ('U+202E RIGHT-TO-LEFT OVERRIDE'), or
    None."""
    for ch in text:
        if ord(ch) in _SHOWN:
            import unicodedata  # start-up: the console wraps its streams with this module

            return f"U+{ord(ch):04X} {unicodedata.name(ch, 'a control character')}"
    return None


def mixed_scripts(word: str) -> str | None:
    """The scripts an id mixes (Latin with Cyrillic or Greek letters: 'е' for 'e'), or None."""
    if word.isascii():
        return None
    import unicodedata  # start-up: the console wraps its streams with this module

    scripts = {unicodedata.name(ch, "").split(" ")[0] for ch in word if ch.isalpha()}
    scripts.discard("")
    return " and ".join(sorted(scripts)) if len(scripts) > 1 else None


class VisibleStream:
    """A text stream that writes disguising characters as their escapes (the console's
    stdout and stderr); bytes written to its buffer (a PNG) pass as they are."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text):
        return self._stream.write(text.translate(_SHOWN) if isinstance(text, str) else text)

    def __getattr__(self, name):
        return getattr(self._stream, name)


# Read as Crockford's base32 reads it: a key copied by hand with O for 0, I or L for 1 is the key.
_READ_AS = str.maketrans("OIL", "011")


def compact(text: str) -> str:
    """Text as keys and fingerprints are compared, read as Crockford's base32 is: any case,
    O as 0, I and L as 1, letters and digits only (dashes and spaces between groups dropped)."""
    return re.sub(r"[^0-9A-Z]", "", text.upper()).translate(_READ_AS)
