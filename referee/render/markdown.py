"""Markdown (CommonMark with GFM tables) of a Document: for GitHub and other CommonMark sites.

Data text is escaped only where a character would start markup in its place: a name like
"1. Armee (3I+1C)" or "Liège's fort" is written as it is, "<b>" or "*x*" is not markup, and
a URL, a "www." word or an e-mail address is written with look-alikes that GitHub does not
link (layout._unlinked).
"""

from __future__ import annotations

import re
import unicodedata

from .layout import _edges, _flat, _grid, _unlinked, _walk
from .sections import Block, Document, Items, Orders, Para, Span, Table

# CommonMark's escapable characters: a backslash before any other character is itself text.
_ASCII_PUNCT = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
# What may follow "<" in raw HTML ("/", "!", "?") or begin an e-mail autolink's local part.
_AUTOLINK_FIRST = frozenset("/!?.#$%&'*+=^_`{|}~-")
# An entity or numeric character reference, and one that the next text could complete.
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_ENTITY_START = re.compile(r"&(?:#[0-9]{0,7}|#[xX][0-9a-fA-F]{0,6}|[A-Za-z][A-Za-z0-9]{0,31})")
# What opens a block at the start of a line: an ATX heading (any leading #: Python-Markdown,
# old Reddit and markdown.pl need no space after it, "#12 German" is a heading there), a
# bullet or ordered list item, a block quote, a link reference definition (or a GitHub task
# box), a tilde fence, a thematic break.
_MD_BLOCK_START = re.compile(r"#|(?:[-+*]|\d{1,9}[.)])(?=[ \t]|$)|[>\[]|~{3}"
                             r"|([-*_])(?:[ \t]*\1){2,}[ \t]*$")
# An ATX heading's optional closing sequence, which CommonMark drops from the heading text.
_MD_CLOSING_HASHES = re.compile(r"(?:^|(?<=[ \t]))#+[ \t]*$")


def _punct(ch: str, maybe: bool) -> bool:
    """Punctuation for CommonMark's flanking rules; symbols (S*) count only when `maybe`
    (the specification added them in 0.31, parsers differ)."""
    cat = unicodedata.category(ch)
    return ch in _ASCII_PUNCT or cat[0] == "P" or (maybe and cat[0] == "S")


def _delimiter(mark: str, prev: str | None, nxt: str | None) -> bool:
    """Whether a run of `*`, `_` or `~` between prev and nxt could open or close emphasis
    (or GitHub strikethrough); None is a neighbour not known here (the edge of a span),
    taken as the worst case. The reading that makes a run flanking is always the one taken."""
    if prev is None or nxt is None:
        return True
    left = not nxt.isspace() and (not _punct(nxt, False) or prev.isspace() or _punct(prev, True))
    right = not prev.isspace() and (not _punct(prev, False) or nxt.isspace() or _punct(nxt, True))
    if mark == "_" and left and right and not _punct(prev, True) and not _punct(nxt, True):
        return False            # inside a word: snake_case opens nothing
    return left or right


def _md_special(s: str, i: int, prev: str | None, nxt: str | None, open_end: bool) -> bool:
    """Whether s[i] (not `*`, `_` or `~`) would start markup where it stands; open_end: what
    follows s is not known here."""
    c = s[i]
    if c == "`":
        return True
    if c == "\\":
        return nxt is None or nxt in _ASCII_PUNCT
    if c == "<":                # raw HTML, an HTML block, an autolink (<1@1> mails one)
        return nxt is None or (nxt.isascii() and (nxt.isalnum() or nxt in _AUTOLINK_FIRST))
    if c == "]":                # closes a link or image text: [a](b), [a][b]
        return nxt is None or nxt in "(["
    if c == "&":                # an entity, or one the text after this span could complete
        return bool(_ENTITY.match(s, i) or open_end and _ENTITY_START.fullmatch(s, i))
    if c == "$":                # GitHub math: $x$
        return any(x is None or not x.isspace() for x in (prev, nxt))
    return False


def _md_escape(text: str, before: str | None = None, after: str | None = None) -> str:
    """Data text on one line, a backslash only before what would start markup where it
    stands (CommonMark, GFM strikethrough and math); before and after are the characters
    next to it in the line, None where not known here (then the worst case is taken); no URL
    or e-mail address that GitHub would link by itself (layout._unlinked)."""
    s = _unlinked(_flat(text))
    out: list[str] = []
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        prev = s[i - 1] if i else before
        if c in "*_~":
            j = i
            while j < n and s[j] == c:
                j += 1
            run = s[i:j]
            out.append(("\\" + c) * len(run) if _delimiter(c, prev, s[j] if j < n else after)
                       else run)
            i = j
            continue
        if _md_special(s, i, prev, s[i + 1] if i + 1 < n else after, after is None):
            out.append("\\")
        out.append(c)
        i += 1
    return "".join(out)


def _md_line(text: str) -> str:
    """An inline line that begins a block: stripped, and the character that would open a
    heading, list, quote, fence, rule or link definition there escaped."""
    line = text.strip()
    m = _MD_BLOCK_START.match(line)
    if not m:
        return line
    if line[0].isdigit():                   # 1. or 1): the dot or bracket
        k = len(m.group(0)) - 1
        return f"{line[:k]}\\{line[k:]}"
    return "\\" + line


def _md_heading(text: str) -> str:
    """Heading text: escaped as a line, and a closing run of # (which CommonMark would drop)
    escaped."""
    core = _md_escape(text, " ", " ").strip()
    m = _MD_CLOSING_HASHES.search(core)
    return core[:m.start()] + "\\" + core[m.start():] if m else core


def _longest_run(text: str) -> int:
    """The longest run of backticks in text."""
    return max(map(len, re.findall("`+", text)), default=0)


def _md_span(span: Span, esc=_md_escape, before: str | None = None,
             after: str | None = None) -> tuple[str, str, str, str]:
    """One span as (lead, mark, body, trail): orders as code, bold and italic marked, side
    styles plain (no colour in md); before and after: the characters next to the span in
    its line, if known."""
    text = _flat(span.text)
    lead, core, trail = _edges(text)
    if not core:
        return text, "", "", ""
    if span.style == "order":
        # Inline code: a fence longer than any backtick run inside, and a space of padding
        # when the text begins or ends with a backtick (CommonMark strips one each side).
        fence = "`" * (_longest_run(core) + 1)
        pad = " " if core[0] == "`" or core[-1] == "`" else ""
        return lead, "", f"{fence}{pad}{core}{pad}{fence}", trail
    # Delimiters must touch the text: "** x**" would not open emphasis.
    mark = {"bold": "**", "italic": "*"}.get(span.style, "")
    if mark:                    # next to a delimiter: a data run would join it
        before = after = None
    else:
        before, after = " " if lead else before, " " if trail else after
    return lead, mark, esc(core, before, after), trail


def _can_mark(prev: str, body: str, nxt: str) -> bool:
    """Whether `*`/`**` round body, between prev and nxt ("" at the line's ends), open and
    close emphasis: a delimiter touching punctuation inside needs space or punctuation
    outside ("1**:**" is not bold)."""
    def outside(ch: str) -> bool:
        return not ch or ch.isspace() or _punct(ch, False)

    return (not _punct(body[0], True) or outside(prev)) and \
        (not _punct(body[-1], True) or outside(nxt))


def _md_inline(spans: list[Span], esc=_md_escape, line=_md_line) -> str:
    """Spans as one markdown line that can begin a block."""
    merged: list[Span] = []
    for span in spans:          # "**a****b**" would be no bold at all: "**ab**"
        if merged and span.style in ("bold", "italic") and merged[-1].style == span.style:
            merged[-1] = Span(_flat(merged[-1].text) + _flat(span.text), span.style)
        else:
            merged.append(span)
    spans = merged
    last = len(spans) - 1
    ended_in_code = False
    parts = [_md_span(span, esc, " " if i == 0 else None, " " if i == last else None)
             for i, span in enumerate(spans)]
    out = ""
    for i, (lead, mark, body, trail) in enumerate(parts):
        if mark:
            nxt = trail[:1] or next((p[0] + p[2] for p in parts[i + 1:] if p[0] + p[2]), "")
            if (not lead and out.endswith("*")) or not _can_mark((out + lead)[-1:], body,
                                                                  nxt[:1]):
                mark = ""       # emphasis it cannot have: the text plain rather than stars
        piece = f"{lead}{mark}{body}{mark}{trail}"
        if not piece:
            continue            # an empty span keeps nothing apart (two code spans below)
        # Two code spans side by side would merge their fences into one backtick run.
        code = spans[i].style == "order" and body.startswith("`")
        out += " " * (code and not lead and ended_in_code) + piece
        ended_in_code = code and not trail
    return line(out)


def _md_block(block: Block) -> list[str]:
    """One block as markdown lines."""
    if isinstance(block, Para):
        line = _md_inline(block.spans)
        return [line] if line else []
    if isinstance(block, Items):
        lines = (_md_inline(item) for item in block.items)
        return [f"- {ln}" for ln in lines if ln]
    if isinstance(block, Table):
        header, rows = _grid(block)
        if not header or not (rows or any(header)):
            return []

        def row(cells: list[str]) -> str:
            return "| " + " | ".join(_md_escape(c, " ", " ").replace("|", "\\|")
                                     for c in cells) + " |"

        return [row(header), "|" + "---|" * len(header), *map(row, rows)]
    if isinstance(block, Orders):
        lines = [_flat(line) for line in block.lines]
        if not lines:
            return []
        fence = "`" * max(3, 1 + max(map(_longest_run, lines)))
        return [fence, *lines, fence]
    raise TypeError(f"not a block: {block!r}")


def to_markdown(doc: Document) -> str:
    """CommonMark with GFM tables: headings, lists, pipe tables, orders fenced; no raw HTML.
    Data text is escaped only where a character would start markup in its place, so names
    like "1. Armee (3I+1C)" or "Liège's fort" read in the source as they are."""
    def heading(level: str):
        return lambda t: [f"{level} {_md_heading(t)}"] if t.strip() else []

    return _walk(doc, heading("#"), heading("##"), _md_block,
                 lambda r: [_md_line(_md_escape(r, " ", " "))], glue=False)
