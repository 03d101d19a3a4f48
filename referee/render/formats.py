"""Lay out a Document as plain text (email), markdown (GitHub and other CommonMark sites),
chat posts (Discord and the like) or BBCode (forums: BoardGameGeek, phpBB, SMF).

The renderers share the walk over sections and blocks (layout.py); they differ
only in how a line is marked up and escaped (markdown.py, chat.py, BBCode here).
Everything that comes from data (span text, table cells, titles, orders) is
escaped so that it shows literally: a player's name can never become markup in
any format. Nor a link: forums and chats link a bare URL, a word from "www." and
an e-mail address by themselves, so in markdown, BBCode and chat the colon of a
URL's "://" and the dots of such a word are written as look-alikes (U+A789,
U+2024: layout._unlinked); markdown's and chat's code, which no site links,
keeps them (an order is copied as it is). Plain text holds
no markup and shows such a word as it is: what a mail program links there is
the whole address, which the reader sees, and the referee's own lines (receipts,
keys, orders to copy) hold none.
"""

from __future__ import annotations

from ..base.lazyre import LazyPattern
from .columns import columns
from .layout import (
    FIXED_WIDTH,
    _edges,
    _flat,
    _grid,
    _table_text,
    _tokens,
    _unlinked,
    _walk,
    _wrap,
    _wrap_plain,
)
from .sections import Block, Document, Items, Orders, Para, Span, Table

FORMATS = ("text", "markdown", "bbcode", "chat")


def render(doc: Document, fmt: str, width: int = 72, dialect: str = "common") -> str:
    """The document in fmt (text, markdown, bbcode or chat); width only applies to text,
    dialect to BBCode (BB_DIALECTS)."""
    if fmt == "text":
        return to_text(doc, width)
    if fmt == "markdown":
        from .markdown import to_markdown  # start-up: status and show print text by default

        return to_markdown(doc)
    if fmt == "bbcode":
        return to_bbcode(doc, dialect)
    if fmt == "chat":
        from .chat import to_chat  # start-up: status and show print text by default

        return to_chat(doc)
    raise ValueError(f"unknown format {fmt!r}: choose one of {', '.join(FORMATS)}")


def _block_text(block: Block, width: int) -> list[str]:
    """One block as wrapped lines of plain text."""
    if isinstance(block, Para):
        return _wrap(_tokens(block.spans), width, soft=True)
    if isinstance(block, Items):
        return [ln for item in block.items
                for ln in _wrap(_tokens(item), width, "- ", "  ", soft=True)]
    if isinstance(block, Table):
        return _table_text(block, width)
    if isinstance(block, Orders):
        return ["  " + _flat(line) for line in block.lines]
    raise TypeError(f"not a block: {block!r}")


# The columns a phone shows a mail's line in, at the least: a title's rule is never longer,
# so that the one hard line a phone cannot reflow never breaks into a stray line of its own.
RULE_MOST = 40


def _underlined(title: str, width: int, rule: str) -> list[str]:
    """A wrapped title and a rule under it as wide as its widest line shows (columns.py: a
    wide character two columns, a combining mark none), no wider than width nor than a
    phone's line (RULE_MOST): one hard line, which a phone's reflowing mail program leaves
    whole, under the title's first line as the phone wraps it."""
    lines = _wrap_plain(title, width, soft=True)
    return lines + [rule * min(width, RULE_MOST, max(columns(x.rstrip()) for x in lines))] \
        if lines else []


def to_text(doc: Document, width: int = 72) -> str:
    """Plain text for email: every line at most width columns, except an order or a long word."""
    if width < 1:
        raise ValueError(f"width must be at least 1, not {width}")
    return _walk(doc, lambda t: _underlined(t, width, "="), lambda t: _underlined(t, width, "-"),
                 lambda b: _block_text(b, width), lambda r: _wrap_plain(r, width), glue=True)


# Which tags each forum knows, by its own documentation and source:
# - BoardGameGeek (boardgamegeek.com/wiki/page/Forum_formatting and .../Forum_Editor; the
#   tags its Android app converts, ccomeaux/boardgamegeek4android XmlApiMarkupConverter):
#   b, i, u, - (strike), color, bgcolor, size, c (fixed width, its "code" tag), q, o,
#   center, url, img, geekurl and its item links. No [code], no [list], no [s]. BGG also
#   drops a post from a "<" that a space does not follow (Forum_Editor, "Known bugs").
# - phpBB 3 (its BBCode guide, faq.php?mode=bbcode; the default BBCodes of
#   phpbb/phpbb phpBB/phpbb/textformatter/s9e/factory.php): b, i, u, code, color, size (a
#   percentage), list, *, quote, url, img, email.
# - SMF (wiki.simplemachines.org "Bulletin board code"; SimpleMachines/SMF
#   Sources/BBCodeParser.php): b, i, u, s, code, tt, pre, color, size (1-7, or Npt/Npx),
#   list, li, quote, url, img, table, tr, td and more.
# What all three share: b, i, u, color (=#RRGGBB), url, img. [size] is in all three but
# means points on BGG, a percentage on phpBB and 1-7 or Npt on SMF, so no value is right
# everywhere; no fixed-width tag is shared ([c] is BGG's alone, and BGG shows [code] as
# typed). The default ("common") uses only the shared tags: bold headings, "•" lines for
# lists, tables as "·"-separated rows; a dialect adds its forum's better tags.
BB_DIALECTS = ("common", "bgg", "phpbb", "smf")


class _Dialect:
    """How a dialect marks a title, an order span, a fixed-width block and a list, and
    whether it must swap "<"."""

    __slots__ = ("title", "order", "fixed", "items", "angle")

    def __init__(self, title: str, order: tuple[str, str] | None,
                 fixed: tuple[str, str] | None, items: tuple[str, str, str, str] | None,
                 angle: bool):
        self.title = title
        self.order = order
        self.fixed = fixed
        self.items = items
        self.angle = angle


_DIALECTS = {
    "common": _Dialect("[b][u]{}[/u][/b]", None, None, None, True),
    "bgg": _Dialect("[size=14][b]{}[/b][/size]", ("[c]", "[/c]"), ("[c]", "[/c]"), None, True),
    "phpbb": _Dialect("[size=150][b]{}[/b][/size]", None, ("[code]", "[/code]"),
                      ("[list]", "[*]", "", "[/list]"), False),
    "smf": _Dialect("[size=14pt][b]{}[/b][/size]", ("[tt]", "[/tt]"), ("[code]", "[/code]"),
                    ("[list]", "[li]", "[/li]", "[/list]"), False),
}

# BBCode has no escape. Data brackets become U+2045/U+2046 (bracket with quill): they look
# like brackets, keep one column (full-width brackets would break fixed-width alignment) and
# no forum parser takes them for a tag. Where a forum would cut the post at "<" (BGG), it
# becomes U+2039, which looks alike.
_BB_BRACKETS = str.maketrans({"[": "\u2045", "]": "\u2046"})
_BB_ANGLE = LazyPattern(r"<(?! )")
# A disputed area in a brick red, readable on a light background; a side's spans take the
# colour the document gives that side (the game's side_colours), when it gives one.
_BB_STYLES = {
    "bold": ("[b]", "[/b]"),
    "italic": ("[i]", "[/i]"),
    "disputed": ("[color=#B22222]", "[/color]"),
}
_BB_COLOUR = LazyPattern(r"#[0-9a-fA-F]{6}")


def _bb_escape(text: str, d: _Dialect) -> str:
    """Data text on one line with its square brackets (and "<" where it must) swapped for
    lookalikes, and no URL or e-mail address a forum would link by itself (layout._unlinked)."""
    out = _unlinked(_flat(text).translate(_BB_BRACKETS))
    return _BB_ANGLE.sub("\u2039", out) if d.angle else out


def _bb_tags(style: str, d: _Dialect, colours: dict[str, str]) -> tuple[str, str] | None:
    """The tags round a span of a style: the dialect's for an order, bold, italic, disputed,
    or a side's colour (only ever a colour: nothing else from the data becomes a tag)."""
    if style == "order":
        return d.order
    if style in _BB_STYLES:
        return _BB_STYLES[style]
    colour = colours.get(style)
    return (f"[color={colour}]", "[/color]") if colour and _BB_COLOUR.fullmatch(colour) else None


def _bb_span(span: Span, d: _Dialect, colours: dict[str, str]) -> str:
    """One span, its tags round the text and outside its edge spaces."""
    lead, core, trail = _edges(_bb_escape(span.text, d))
    if not core:
        return lead
    start, end = _bb_tags(span.style, d, colours) or ("", "")
    return f"{lead}{start}{core}{end}{trail}"


def _bb_fixed(lines: list[str], d: _Dialect) -> list[str]:
    """Lines inside one fixed-width block, so columns stay aligned; with no such tag (the
    common dialect), the lines as they are."""
    if not lines:
        return []
    start, end = d.fixed or ("", "")
    return f"{start}{chr(10).join(_bb_escape(ln, d) for ln in lines)}{end}".split("\n")


def _bb_rows(table: Table, d: _Dialect) -> list[str]:
    """A table with no fixed-width tag: one row a line, its cells between "·", the header
    underlined; an empty cell is a dash."""
    header, rows = _grid(table)
    if not header or not (rows or any(header)):
        return []

    def row(cells: list[str]) -> str:
        return " · ".join(_bb_escape(c, d) or "–" for c in cells)

    return ([f"[u]{row(header)}[/u]"] if any(header) else []) + [row(r) for r in rows]


def _bb_block(block: Block, d: _Dialect, colours: dict[str, str]) -> list[str]:
    """One block as BBCode lines."""
    if isinstance(block, Para):
        line = "".join(_bb_span(s, d, colours) for s in block.spans).strip()
        return [line] if line else []
    if isinstance(block, Items):
        lines = [ln for ln in ("".join(_bb_span(s, d, colours) for s in item).strip()
                               for item in block.items) if ln]
        if d.items is None or not lines:
            # A "• " line reads right everywhere, even where list tags would show raw.
            return [f"\u2022 {ln}" for ln in lines]
        start, item, end, close = d.items
        return [start, *(f"{item}{ln}{end}" for ln in lines), close]
    if isinstance(block, Table):
        return _bb_fixed(_table_text(block, FIXED_WIDTH), d) if d.fixed else _bb_rows(block, d)
    if isinstance(block, Orders):
        return _bb_fixed([_flat(line) for line in block.lines], d)
    raise TypeError(f"not a block: {block!r}")


def to_bbcode(doc: Document, dialect: str = "common") -> str:
    """BBCode for forums: by default only the tags BoardGameGeek, phpBB and SMF all know;
    dialect bgg, phpbb or smf adds that forum's own (fixed width, lists, title size). Data
    "[" and "]" become U+2045/U+2046 so no tag is injected."""
    d = _dialect(dialect)

    def heading(form: str):
        return lambda t: [form.format(_bb_escape(t, d).strip())] if t.strip() else []

    return _walk(doc, heading(d.title), heading("[b]{}[/b]"),
                 lambda b: _bb_block(b, d, doc.colours),
                 lambda r: [_bb_escape(r, d).strip()], glue=True)


def _dialect(name: str) -> _Dialect:
    if name not in _DIALECTS:
        raise ValueError(f"unknown BBCode dialect {name!r}: choose one of "
                         f"{', '.join(BB_DIALECTS)}")
    return _DIALECTS[name]
