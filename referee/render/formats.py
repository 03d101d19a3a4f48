"""Lay out a Document as plain text (email), markdown (forums, GitHub) or BBCode (BoardGameGeek).

The three renderers share the walk over sections and blocks; they differ only in
how a line is marked up and escaped. Everything that comes from data (span text,
table cells, titles, orders) is escaped so that it shows literally: a player's
name can never become markup in any format.
"""

from __future__ import annotations

import re

from .sections import Block, Document, Items, Orders, Para, Span, Table

FORMATS = ("text", "markdown", "bbcode")

# A last table column narrower than this wraps into a tall strip one word wide, which
# reads worse than the one-field-per-line fallback.
_MIN_LAST_COLUMN = 8

_WORD = re.compile(r"\S+|\s+")


def render(doc: Document, fmt: str, width: int = 72) -> str:
    """The document in fmt ("text", "markdown" or "bbcode"); width only applies to text."""
    if fmt == "text":
        return to_text(doc, width)
    if fmt == "markdown":
        return to_markdown(doc)
    if fmt == "bbcode":
        return to_bbcode(doc)
    raise ValueError(f"unknown format {fmt!r}: choose one of {', '.join(FORMATS)}")


def _flat(text: str) -> str:
    """Text on one line: every line break and tab becomes a space (a block never breaks)."""
    return " ".join(str(text).replace("\t", " ").splitlines())


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
    return "\n".join(line.rstrip() for line in out) + "\n"


# A token is (text, space before it, is an order). Words glued with no space between
# them (a name and its comma, an order and its full stop) move together when they fit.
Token = tuple[str, bool, bool]


def _tokens(spans: list[Span]) -> list[Token]:
    """The words of spans; an order span is one word, spaces and all, so it is never split."""
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
        for m in _WORD.finditer(text):
            word = m.group()
            if word.isspace():
                space = True
            elif out and not space and not out[-1][2]:
                out[-1] = (out[-1][0] + word, out[-1][1], False)
            else:
                out.append((word, space, False))
                space = False
    return out


def _wrap(tokens: list[Token], width: int, first: str = "", rest: str = "") -> list[str]:
    """Greedy wrap at width; a glued group is split at its orders only if it cannot fit at all."""
    room = width - max(len(first), len(rest))
    groups: list[list[Token]] = []
    for tok in tokens:
        if groups and not tok[1]:
            groups[-1].append(tok)
        else:
            groups.append([tok])
    items: list[tuple[str, bool]] = []
    for group in groups:
        joined = "".join(t[0] for t in group)
        if len(group) > 1 and len(joined) > room:
            items += [(t[0], t[1] and i == 0) for i, t in enumerate(group)]
        else:
            items.append((joined, group[0][1]))
    lines: list[str] = []
    cur: str | None = None
    for text, space in items:
        if cur is None:
            cur = first + text
        elif len(cur) + space + len(text) <= width:
            cur += " " * space + text
        else:
            lines.append(cur)
            cur = rest + text
    if cur is not None:
        lines.append(cur)
    return lines


def _wrap_plain(text: str, width: int, first: str = "", rest: str = "") -> list[str]:
    """Plain text wrapped at width."""
    return _wrap(_tokens([Span(text)]), width, first, rest)


def _table_text(table: Table, width: int | None) -> list[str]:
    """Aligned columns; too wide: the last column wraps, or else one "header: value" a line."""
    header, rows = _grid(table)
    if not header or not (rows or any(header)):
        return []
    every = [header, *rows]
    widths = [max(1, *(len(r[i]) for r in every)) for i in range(len(header))]
    lead = sum(widths[:-1]) + 2 * (len(widths) - 1)
    room = widths[-1] if width is None else width - lead
    longest = max((len(w) for r in every for w in r[-1].split()), default=0)
    if room >= widths[-1] or room >= max(_MIN_LAST_COLUMN, longest):

        def row(r: list[str]) -> list[str]:
            cells = "".join(c.ljust(w) + "  " for c, w in zip(r[:-1], widths))
            parts = (_wrap_plain(r[-1], room) if room < widths[-1] else [r[-1]]) or [""]
            return [(cells + parts[0]).rstrip(), *(" " * lead + p for p in parts[1:])]

        rule = "  ".join("-" * w for w in [*widths[:-1], min(widths[-1], room)])
        return ([*row(header), rule] if any(header) else []) + [x for r in rows for x in row(r)]
    if not rows:
        return _wrap_plain("; ".join(header), width)
    out: list[str] = []
    for r in rows:
        fields = [ln for h, v in zip(header, r)
                  for ln in _wrap_plain(f"{h}: {v}" if h else v, width, "", "  ")]
        if fields:
            out += ([""] if out else []) + fields
    return out


def _block_text(block: Block, width: int) -> list[str]:
    """One block as wrapped lines of plain text."""
    if isinstance(block, Para):
        return _wrap(_tokens(block.spans), width)
    if isinstance(block, Items):
        return [ln for item in block.items for ln in _wrap(_tokens(item), width, "- ", "  ")]
    if isinstance(block, Table):
        return _table_text(block, width)
    if isinstance(block, Orders):
        return ["  " + _flat(line) for line in block.lines]
    raise TypeError(f"not a block: {block!r}")


def _underlined(title: str, width: int, rule: str) -> list[str]:
    """A wrapped title and a rule under it, no longer than width."""
    lines = _wrap_plain(title, width)
    return lines + [rule * min(width, max(map(len, lines)))] if lines else []


def to_text(doc: Document, width: int = 72) -> str:
    """Plain text for email: every line at most width columns, except an order or a long word."""
    if width < 1:
        raise ValueError(f"width must be at least 1, not {width}")
    return _walk(doc, lambda t: _underlined(t, width, "="), lambda t: _underlined(t, width, "-"),
                 lambda b: _block_text(b, width), lambda r: _wrap_plain(r, width), glue=True)


# ASCII punctuation that can start markup anywhere in a line (emphasis, code, links, images,
# raw HTML, entities, table cells, strikethrough, GitHub math); a backslash makes it literal.
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>#|!~&$])")
# At the start of a block these open a list, a setext heading or a thematic break.
_MD_LINE_START = re.compile(r"^(?:([-+=])|(\d+)([.)]))")


def _md_escape(text: str) -> str:
    """Data text that CommonMark/GFM shows literally (one line)."""
    return _MD_SPECIAL.sub(r"\\\1", _flat(text))


def _md_line(text: str) -> str:
    """An inline line that begins a block: stripped, a list, setext or rule marker escaped."""
    return _MD_LINE_START.sub(lambda m: "\\" + m.group(0) if m.group(1) else
                              f"{m.group(2)}\\{m.group(3)}", text.strip())


def _longest_run(text: str) -> int:
    """The longest run of backticks in text."""
    return max(map(len, re.findall("`+", text)), default=0)


def _md_span(span: Span) -> str:
    """One span: orders as code, bold and italic marked, side styles plain (no colour in md)."""
    text = _flat(span.text)
    lead, core, trail = _edges(text)
    if not core:
        return text
    if span.style == "order":
        # Inline code: a fence longer than any backtick run inside, and a space of padding
        # when the text begins or ends with a backtick (CommonMark strips one each side).
        fence = "`" * (_longest_run(core) + 1)
        pad = " " if core[0] == "`" or core[-1] == "`" else ""
        return f"{lead}{fence}{pad}{core}{pad}{fence}{trail}"
    # Delimiters must touch the text: "** x**" would not open emphasis.
    mark = {"bold": "**", "italic": "*"}.get(span.style, "")
    return f"{lead}{mark}{_md_escape(core)}{mark}{trail}"


def _md_inline(spans: list[Span]) -> str:
    """Spans as one markdown line that can begin a block."""
    out = ""
    for piece in map(_md_span, spans):
        # Two code spans side by side would merge their fences into one backtick run.
        out += " " * (out.endswith("`") and piece.startswith("`")) + piece
    return _md_line(out)


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
            return "| " + " | ".join(_md_escape(c) for c in cells) + " |"

        return [row(header), "|" + "---|" * len(header), *map(row, rows)]
    if isinstance(block, Orders):
        lines = [_flat(line) for line in block.lines]
        if not lines:
            return []
        fence = "`" * max(3, 1 + max(map(_longest_run, lines)))
        return [fence, *lines, fence]
    raise TypeError(f"not a block: {block!r}")


def to_markdown(doc: Document) -> str:
    """CommonMark with GFM tables: headings, lists, pipe tables, orders fenced; no raw HTML."""
    def heading(level: str):
        return lambda t: [f"{level} {_md_escape(t).strip()}"] if t.strip() else []

    return _walk(doc, heading("#"), heading("##"), _md_block,
                 lambda r: [_md_line(_md_escape(r))], glue=False)


# BBCode has no escape. Data brackets become U+2045/U+2046 (bracket with quill): they look
# like brackets, keep one column (full-width brackets would break [c] alignment) and no
# forum parser takes them for a tag.
_BB_BRACKETS = str.maketrans({"[": "\u2045", "]": "\u2046"})
# Colours readable on BGG's light background: a dark grey, a blue and a brick red.
_BB_TAGS = {
    "bold": ("[b]", "[/b]"),
    "italic": ("[i]", "[/i]"),
    "order": ("[c]", "[/c]"),
    "german": ("[color=#4D4D4D]", "[/color]"),
    "entente": ("[color=#1F5FAF]", "[/color]"),
    "disputed": ("[color=#B22222]", "[/color]"),
}


def _bb_escape(text: str) -> str:
    """Data text on one line with its square brackets swapped for lookalikes."""
    return _flat(text).translate(_BB_BRACKETS)


def _bb_span(span: Span) -> str:
    """One span, its tags round the text and outside its edge spaces."""
    lead, core, trail = _edges(_bb_escape(span.text))
    if not core:
        return lead
    start, end = _BB_TAGS.get(span.style, ("", ""))
    return f"{lead}{start}{core}{end}{trail}"


def _bb_fixed(lines: list[str]) -> list[str]:
    """Lines inside one [c] block (BGG's fixed-width tag), so columns stay aligned."""
    text = "\n".join(_bb_escape(ln) for ln in lines)
    return f"[c]{text}[/c]".split("\n") if lines else []


def _bb_block(block: Block) -> list[str]:
    """One block as BBCode lines."""
    if isinstance(block, Para):
        line = "".join(_bb_span(s) for s in block.spans).strip()
        return [line] if line else []
    if isinstance(block, Items):
        # BGG has no list tag and other forums disagree on [list]/[*]; a "• " line reads
        # right everywhere, even where the tags would show raw.
        lines = ("".join(_bb_span(s) for s in item).strip() for item in block.items)
        return [f"\u2022 {ln}" for ln in lines if ln]
    if isinstance(block, Table):
        return _bb_fixed(_table_text(block, None))
    if isinstance(block, Orders):
        return _bb_fixed([_flat(line) for line in block.lines])
    raise TypeError(f"not a block: {block!r}")


def to_bbcode(doc: Document) -> str:
    """BBCode for BoardGameGeek; data "[" and "]" become U+2045/U+2046 so no tag is injected."""
    def heading(form: str):
        return lambda t: [form.format(_bb_escape(t).strip())] if t.strip() else []

    return _walk(doc, heading("[size=14][b]{}[/b][/size]"), heading("[b]{}[/b]"), _bb_block,
                 lambda r: [_bb_escape(r).strip()], glue=True)
