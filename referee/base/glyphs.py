"""Characters that make a text display as another, and how every output shows them.

Bidirectional controls (U+202E turns what follows around: an area or card name could read
as another), and every other character that shows as nothing or changes, unseen, how its
neighbours show: every format character (Unicode's general category Cf: zero-width
characters, the tag characters U+E0000-E007F that can spell a hidden text, the interlinear
annotation and musical format characters), every default-ignorable code point (Unicode's
Default_Ignorable_Code_Point: the combining grapheme joiner, the variation selectors, the
Hangul fillers, and the code points kept unassigned for more of them), the line and
paragraph separators, and control characters (an escape sequence can rewrite a terminal)
never reach a reader as they are: game data, scenarios, ids and addresses refuse them
(data/textcheck.py, store/players.py), and every output shows any that still comes, from a
journal or a mail, as its escape `\\u202e`, which is also the same character in a JSON
string (one beyond U+FFFF as its two UTF-16 halves, `\\udb40\\udc45` for U+E0045, as JSON
writes it). Letters with their accents (Liège, Épinal), any script, and visible symbols and
emoji are shown as they are; an emoji's presentation selector (U+FE0F) is a variation
selector, and is shown as its escape like the others.
"""

from __future__ import annotations

import re
from bisect import bisect_right

# Bidirectional marks, embeddings, overrides and isolates.
BIDI = (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))
# What shows as nothing, or changes unseen how the characters next to it show, as ranges of
# code points (first, last): every Cf and every Default_Ignorable_Code_Point of Unicode 15.1
# (DerivedGeneralCategory.txt, DerivedCoreProperties.txt) but the bidirectional ones above;
# the standard library's unicodedata knows the categories of its own Unicode version and
# not the property, so they are listed here (tests/test_disguised_names.py holds them to
# unicodedata's Cf).
_UNSEEN = (
    (0x00AD, 0x00AD),       # soft hyphen
    (0x034F, 0x034F),       # combining grapheme joiner
    (0x0600, 0x0605),       # Arabic signs spanning the digits after them
    (0x06DD, 0x06DD), (0x070F, 0x070F), (0x0890, 0x0891), (0x08E2, 0x08E2),
    (0x115F, 0x1160),       # Hangul fillers
    (0x17B4, 0x17B5),       # Khmer inherent vowels
    (0x180B, 0x180F),       # Mongolian variation selectors and vowel separator
    (0x200B, 0x200D),       # zero width space, non-joiner and joiner
    (0x2028, 0x2029),       # line and paragraph separators: a break no text shows
    (0x2060, 0x2065),       # word joiner, invisible operators
    (0x206A, 0x206F),       # deprecated format characters
    (0x3164, 0x3164), (0xFFA0, 0xFFA0),     # Hangul fillers
    (0xFE00, 0xFE0F),       # variation selectors 1-16
    (0xFEFF, 0xFEFF),       # zero width no-break space (byte order mark)
    (0xFFF0, 0xFFFB),       # kept for default-ignorables; interlinear annotation
    (0x110BD, 0x110BD), (0x110CD, 0x110CD),     # Kaithi number signs
    (0x13430, 0x1343F),     # Egyptian hieroglyph format controls
    (0x1BCA0, 0x1BCA3),     # shorthand format controls
    (0x1D173, 0x1D17A),     # musical beams, ties, slurs and phrases
    (0xE0000, 0xE0FFF),     # tags, variation selectors 17-256, and those kept for more
)
# Control characters but the tab and the line ends a text is made of.
CONTROL = (*(c for c in range(0x20) if c not in (0x09, 0x0A, 0x0D)), *range(0x7F, 0xA0))


def _class(points) -> str:
    """A regular expression's class of (first, last) ranges of code points."""
    return "".join(re.escape(chr(a)) + (f"-{re.escape(chr(b))}" if b > a else "")
                   for a, b in points)


_HIDDEN = (*((c, c) for c in (*BIDI, *CONTROL)), *_UNSEEN)
# What an output shows as its escape: those, and a lone surrogate, which is how Python keeps
# a byte of the command line that is not UTF-8: written as it is, it would be that byte
# again, and a JSON document holding it would not be UTF-8 text.
_SURROGATES = (0xD800, 0xDFFF)
_MADE: dict[str, re.Pattern] = {}
# Every character that may be one of those: any but printable ASCII, the tab and the line
# ends. A small class, compiled at once; the classes of the characters themselves (half a
# millisecond each) only for a text that holds one (_may_show).
_MAYBE = re.compile(r"[^\t\n\r\x20-\x7e]")


def _pattern(name: str) -> re.Pattern:
    """The class of the disguising characters ("hidden") or of those and the lone surrogates
    ("shown"), compiled when first asked for."""
    if name not in _MADE:
        points = _HIDDEN if name == "hidden" else (*_HIDDEN, _SURROGATES)
        _MADE[name] = re.compile(f"[{_class(points)}]")
    return _MADE[name]


def _hidden() -> re.Pattern:
    return _pattern("hidden")


def _starts(points) -> tuple[list[int], list[int]]:
    """(first, last) ranges of code points, those that overlap or touch merged, sorted, as
    two lists (the firsts, the lasts) for bisect."""
    firsts: list[int] = []
    lasts: list[int] = []
    for a, b in sorted(points):
        if lasts and a <= lasts[-1] + 1:
            lasts[-1] = max(lasts[-1], b)
        else:
            firsts.append(a)
            lasts.append(b)
    return firsts, lasts


_FIRST, _LAST = _starts((*_HIDDEN, _SURROGATES))


def _may_show(text: str) -> bool:
    """Whether text holds a character an output shows as its escape: each character other
    than printable ASCII, the tab and the line ends looked up in the ranges themselves."""
    if _MAYBE.search(text) is None:
        return False
    for ch in set(_MAYBE.findall(text)):
        code = ord(ch)
        at = bisect_right(_FIRST, code) - 1
        if at >= 0 and code <= _LAST[at]:
            return True
    return False


def _escape(match: re.Match) -> str:
    """A character as its escape: \\u202e, one beyond U+FFFF as its UTF-16 halves (JSON's)."""
    code = ord(match.group())
    if code > 0xFFFF:
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def visible(text: str) -> str:
    """text with every disguising character, and every lone surrogate, written as its
    escape (\\u202e, \\udcff)."""
    return _pattern("shown").sub(_escape, text) if _may_show(text) else text


def shown_repr(text: str) -> str:
    """repr(text), and every disguising character that repr leaves as it is (a variation
    selector, the combining grapheme joiner, a Hangul filler: printable to Python) escaped as
    repr escapes the others ('\\u034f')."""
    return _hidden().sub(lambda m: ascii(m.group())[1:-1], repr(text))


def disguising(text: str) -> str | None:
    """The first disguising character of text, named ('U+202E RIGHT-TO-LEFT OVERRIDE'), or
    None."""
    # What holds none of these nor a lone surrogate (every name a read prints) needs no
    # pattern compiled.
    found = _hidden().search(text) if _may_show(text) else None
    if found is None:
        return None
    import unicodedata  # start-up: the console wraps its streams with this module

    ch = found.group()
    what = unicodedata.name(ch, "") or ("a control character" if ord(ch) in CONTROL
                                        else "an unassigned invisible character")
    return f"U+{ord(ch):04X} {what}"


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
        return self._stream.write(visible(text) if isinstance(text, str) else text)

    def __getattr__(self, name):
        return getattr(self._stream, name)


# Read as Crockford's base32 reads it: a key copied by hand with O for 0, I or L for 1 is the key.
_READ_AS = bytes.maketrans(b"OIL", b"011")
_DROPPED = bytes(set(range(256)) - set(b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"))


def compact(text: str) -> str:
    """Text as keys and fingerprints are compared, read as Crockford's base32 is: any case,
    O as 0, I and L as 1, letters and digits only (dashes and spaces between groups dropped).

    Whole messages are compacted to look for a key in them, so this makes a few flat copies
    of the text and no piece per run of letters (a 200 kB message held 1.2 MB of pieces)."""
    kept = text.upper().encode("ascii", "ignore").translate(_READ_AS, _DROPPED)
    return kept.decode("ascii")
