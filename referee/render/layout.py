"""The layout every human format shares: text on one line, a table's cells, the walk over a
Document's sections and blocks, word wrapping, a table as aligned columns.

The renderers (formats.py: text and BBCode; markdown.py; chat.py) build on these; nothing
here marks anything up.
"""

from __future__ import annotations

import re

from ..base.flowing import FLOWED
from ..base.lazyre import LazyPattern
from .sections import Document, Span, Table
from .unbroken import NO_BREAK, bound, unbound

# A fixed-width block (a table or orders in a code block) of a forum or chat post: wider lines
# are cut off or scrolled on BoardGameGeek and in Discord's column on a phone.
FIXED_WIDTH = 80
# A last table column narrower than this wraps into a tall strip one word wide, which
# reads worse than the one-field-per-line fallback.
_MIN_LAST_COLUMN = 8

# A word: what no space but a NO_BREAK (unbroken.py) separates.
_WORD = re.compile(r"(?:\S|\xa0)+|[^\S\xa0]+")
# What forums and chats make a link of by themselves (phpBB's and SMF's magic URLs, Discord,
# GitHub's autolinks): a word from a scheme before "//" (http://, ftp://, any), from "www."
# or from an e-mail address's "@" to the next space. Compiled at its first use (its letters
# in either case make it one of the dearest patterns to compile): only the forum and chat
# formats read it, never a read in text or JSON.
_LINK_SHAPED = LazyPattern(r"(?i)(?<![a-z0-9+.-])[a-z][a-z0-9+.-]*://\S*|www\.\S*|@[^\s@]+")
# Its dots become U+2024 (one dot leader) and the colon of "://" U+A789 (modifier letter
# colon): look-alikes that read as what they replace, one column each (a fixed-width block
# stays aligned), and that no parser takes for a link.
_DOTS = str.maketrans({".": "\u2024"})


def _flat(text: str) -> str:
    """Text on one line: every line break and tab becomes a space (a block never breaks),
    the one that ends it too (the next span must not run into it)."""
    lines = str(text).replace("\t", " ").splitlines(keepends=True)
    ended = bool(lines) and lines[-1].splitlines()[0] != lines[-1]
    return " ".join(line.splitlines()[0] for line in lines) + " " * ended


def _unlinked(text: str) -> str:
    """Data text that no forum or chat makes a link of: the scheme's colon and the dots of a
    URL, and the dots of a word from "www." and of an e-mail address's domain, swapped for
    look-alikes."""
    return _LINK_SHAPED.sub(lambda m: m.group().replace("://", "\ua789//").translate(_DOTS),
                            text)


def _edges(text: str) -> tuple[str, str, str]:
    """Leading whitespace, the core and trailing whitespace: markup goes round the core."""
    core = text.strip()
    if not core:
        return text, "", ""
    start = len(text) - len(text.lstrip())
    return text[:start], core, text[start + len(core):]


def _grid(table: Table) -> tuple[list[str], list[list[str]]]:
    """Header and rows as one-line stripped cells, all padded to the same number of columns."""
    n = max([len(table.header), *(len(r) for r in table.rows)])

    def pad(cells: list[str]) -> list[str]:
        return [_flat(c).strip() for c in cells] + [""] * (n - len(cells))

    return pad(table.header), [pad(r) for r in table.rows]


def _walk(doc: Document, title, section_title, block, tail, glue: bool) -> str:
    """Chunks of lines separated by one blank line; glue keeps a section title on its block."""
    out: list[str] = []

    def add(chunk: list[str]) -> None:
        if chunk:
            out.extend([""] * bool(out) + chunk)

    add(title(doc.title))
    for section in doc.sections:
        head, blocks = section_title(section.title), [x for x in map(block, section.blocks) if x]
        if glue and head and blocks:
            head += blocks.pop(0)
        for chunk in [head, *blocks]:
            add(chunk)
    add(tail(doc.receipt) if doc.receipt else [])
    return "\n".join(line if isinstance(line, Soft) else line.rstrip() for line in out) + "\n"


class Soft(str):
    """A line wrapped inside a paragraph, ending in a space: a soft line break, which a mail
    program that reads format=flowed may join to the next line (mail/flowed.py)."""


def softened(lines: list[str]) -> list[str]:
    """lines, one paragraph wrapped: in a mail (base/flowing.py), each but the last ending
    in a soft break."""
    if not FLOWED.get():
        return lines
    return [Soft(line + " ") for line in lines[:-1]] + lines[-1:]


# A token is (text, space before it, is an order). Words glued with no space between
# them (a name and its comma, an order and its full stop) move together when they fit.
Token = tuple[str, bool, bool]


def _tokens(spans: list[Span]) -> list[Token]:
    """The words of spans; an order span is one word, spaces and all, so it is never split;
    so is a group unbroken.py keeps whole (a rule cited, a time and its zone), unless it
    cannot fit a line (_wrap)."""
    out: list[Token] = []
    space = False
    for span in spans:
        text = _flat(span.text)
        if span.style == "order":
            lead, core, trail = _edges(text)
            if core:
                out.append((core, space or bool(lead), True))
                space = bool(trail)
            else:
                space = space or bool(lead)
            continue
        for m in _WORD.finditer(bound(text)):
            word = m.group()
            if word.isspace():
                space = True
            elif out and not space and not out[-1][2]:
                out[-1] = (out[-1][0] + word, out[-1][1], False)
            else:
                out.append((word, space, False))
                space = False
    return out


def _wrap(tokens: list[Token], width: int, first: str = "", rest: str = "",
          soft: bool = False) -> list[str]:
    """Greedy wrap at width; a glued group is split at its orders, and a group kept whole
    (unbroken.py) at its spaces, only if it cannot fit at all; soft: each line but the last
    ends in a soft break (softened)."""
    # A line that begins with a space is space-stuffed in a mail (mail/flowed.py): one
    # column more, which it leaves free there.
    stuffed = FLOWED.get()
    room = width - max(len(first), len(rest)) - \
        (stuffed and any(x.startswith(" ") for x in (first, rest)))
    groups: list[list[Token]] = []
    for tok in tokens:
        if groups and not tok[1]:
            groups[-1].append(tok)
        else:
            groups.append([tok])
    items: list[tuple[str, bool]] = []
    for group in groups:
        joined = "".join(t[0] for t in group)
        if len(joined) <= room:
            items.append((joined, group[0][1]))
            continue
        for i, (text, space, order) in enumerate(group):
            items += _parts(text, space and i == 0, order or len(text) <= room)
    lines: list[str] = []
    cur: str | None = None
    for text, space in items:
        if cur is None:
            cur = first + text
        elif len(cur) + space + len(text) <= width - (stuffed and cur.startswith(" ")):
            cur += " " * space + text
        else:
            lines.append(cur)
            cur = rest + text
    if cur is not None:
        lines.append(cur)
    lines = [unbound(line) for line in lines]
    return softened(lines) if soft else lines


def _parts(text: str, space: bool, whole: bool) -> list[tuple[str, bool]]:
    """A word as _wrap places it: whole, or else its parts between NO_BREAKs, each after a
    space; a NO_BREAK at its edge (one the text itself held) is a space, never an empty
    part, which would make an empty line or a space at a line's start."""
    if whole:
        return [(text, space)]
    out = []
    for part in text.split(NO_BREAK):
        if part:
            out.append((part, space))
        space = True
    return out


def _wrap_plain(text: str, width: int, first: str = "", rest: str = "",
                soft: bool = False) -> list[str]:
    """Plain text wrapped at width."""
    return _wrap(_tokens([Span(text)]), width, first, rest, soft)


def _table_text(table: Table, width: int | None) -> list[str]:
    """Aligned columns; too wide: the last column wraps, or else one "header: value" a line."""
    return [line for row in _table_rows(table, width)[0] for line in row]


def _table_rows(table: Table, width: int | None) -> tuple[list[list[str]], int]:
    """The table as _table_text lays it out, each row as its lines, and how many of those
    rows head it (its header and the rule under it, repeated where a post splits the table:
    2, or 0 when it has none or no row under it)."""
    header, rows = _grid(table)
    if not header or not (rows or any(header)):
        return [], 0
    every = [header, *rows]
    widths = [max(1, *(len(r[i]) for r in every)) for i in range(len(header))]
    lead = sum(widths[:-1]) + 2 * (len(widths) - 1)
    room = widths[-1] if width is None else width - lead
    longest = max((len(w) for r in every for w in r[-1].split()), default=0)
    if room >= widths[-1] or room >= max(_MIN_LAST_COLUMN, longest):

        def row(r: list[str]) -> list[str]:
            cells = "".join(c.ljust(w) + "  " for c, w in zip(r[:-1], widths))
            cut = room - (FLOWED.get() and lead > 0)      # stuffed in a mail: a column
            parts = (_wrap_plain(r[-1], cut) if room < widths[-1] else [r[-1]]) or [""]
            return [(cells + parts[0]).rstrip(), *(" " * lead + p for p in parts[1:])]

        rule = "  ".join("-" * w for w in [*widths[:-1], min(widths[-1], room)])
        head = [row(header), [rule]] if any(header) else []
        return head + [row(r) for r in rows], len(head) if rows else 0
    if not rows:
        return [_wrap_plain("; ".join(header), width)], 0
    out: list[list[str]] = []
    for r in rows:
        fields = [ln for h, v in zip(header, r)
                  for ln in _wrap_plain(f"{h}: {v}" if h else v, width, "", "  ")]
        if fields:
            out.append(([""] if out else []) + fields)
    return out, 0
