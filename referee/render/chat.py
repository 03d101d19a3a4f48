"""Chat posts (Discord and the like) of a Document: markdown in posts of at most CHAT_LIMIT
characters, tables and orders as code blocks (chats draw no pipe table).
"""

from __future__ import annotations

import re

from .layout import FIXED_WIDTH, _flat, _table_rows, _unlinked
from .markdown import _md_inline
from .sections import Block, Document, Items, Orders, Para, Span, Table

# A chat post (Discord's limit for a message; most chats allow at least as much).
CHAT_LIMIT = 2000
# The line between two posts on stdout, part of neither.
POST_MARK = "─── post {n} of {total} ───"
POST_MARK_LINE = re.compile(r"─── post \d+ of \d+ ───")
# Discord's markdown is not CommonMark: a backslash makes any punctuation literal, and these
# start markup almost anywhere (||spoiler||, __underline__, <@mention>, [masked](link)).
_CHAT_SPECIAL = re.compile(r"([\\`*_~|<\[\]])")
_CHAT_LINE_START = re.compile(r"(?:#{1,3}|-#|[>\-+]|\d{1,9}[.)])(?=\s|$)")
_CHAT_MENTION = re.compile(r"@(?=everyone|here)")


def _chat_escape(text: str, before: str | None = None, after: str | None = None) -> str:
    """Data text on one line for a chat: markup characters escaped, @everyone and @here
    written with a fullwidth at sign (a visible character: an invisible one would be shown
    as its escape, base/glyphs.py) so that a name cannot call the whole server; no URL that
    the chat would link (and show the picture of) by itself (layout._unlinked)."""
    return _CHAT_MENTION.sub("\uff20", _CHAT_SPECIAL.sub(r"\\\1", _unlinked(_flat(text))))


def _chat_line(text: str) -> str:
    """A chat line that begins a block: a heading, quote, subtext or list start escaped."""
    line = text.strip()
    m = _CHAT_LINE_START.match(line)
    if not m:
        return line
    k = len(m.group(0)) - 1
    return f"{line[:k]}\\{line[k:]}"


class _Chunk:
    """Lines that go into one post together: prose, or a code block (fences added when laid
    out; a table's row with its wrapped lines is one entry) whose first `head` entries are
    repeated in each part when it must be split; glue: kept with what follows (a heading)."""

    __slots__ = ("lines", "code", "head", "glue")

    def __init__(self, lines: list[str], code: bool = False, head: int = 0,
                 glue: bool = False):
        self.lines = lines
        self.code = code
        self.head = head
        self.glue = glue

    def text(self, lines: list[str] | None = None) -> str:
        lines = self.lines if lines is None else lines
        return "\n".join(["```", *lines, "```"] if self.code else lines)


def _chat_block(block: Block) -> _Chunk | None:
    """One block as a chunk: tables and orders as code blocks (chats draw no pipe table)."""
    if isinstance(block, Para):
        line = _md_inline(block.spans, _chat_escape, _chat_line)
        return _Chunk([line]) if line else None
    if isinstance(block, Items):
        lines = (_md_inline(item, _chat_escape, _chat_line) for item in block.items)
        items = [f"- {ln}" for ln in lines if ln]
        return _Chunk(items) if items else None
    if isinstance(block, Table):
        # One entry a row, its wrapped lines together: a post splits the table between rows.
        rows, head = _table_rows(block, FIXED_WIDTH)
        lines = ["\n".join(row).replace("`", "\u02cb") for row in rows]
        return _Chunk(lines, True, head) if lines else None
    if isinstance(block, Orders):
        lines = [_flat(line).replace("`", "\u02cb") for line in block.lines]
        return _Chunk(lines, True) if lines else None
    raise TypeError(f"not a block: {block!r}")


class _Group:
    """A heading paragraph's chunk and the chunks it heads (a record and its events); again:
    the heading marked continued, atop a post that the group goes on in."""

    __slots__ = ("head", "again", "body")

    def __init__(self, head: _Chunk, again: str):
        self.head = head
        self.again = again
        self.body: list[_Chunk] = []

    def text(self) -> str:
        return "\n\n".join(c.text() for c in [self.head, *self.body])


def _continued(block: Para) -> str:
    """A heading paragraph repeated atop the next post: marked "(continued)"."""
    spans = [*block.spans, Span(" "), Span("(continued)", "italic")]
    return _md_inline(spans, _chat_escape, _chat_line)


def _chat_units(doc: Document) -> list[_Chunk | _Group]:
    """The document as chunks (title and section headings glued to what follows them) and
    groups, each a heading paragraph with the blocks it heads."""
    units: list[_Chunk | _Group] = []
    if doc.title.strip():
        units.append(_Chunk([f"## {_chat_escape(doc.title).strip()}"], glue=True))
    for section in doc.sections:
        if section.title.strip():
            units.append(_Chunk([f"### {_chat_escape(section.title).strip()}"], glue=True))
        group: _Group | None = None
        for block in section.blocks:
            chunk = _chat_block(block)
            if isinstance(block, Para) and block.heading:
                group = _Group(chunk, _continued(block)) if chunk else None
                units += [group] if group else []
            elif chunk is not None and group is not None:
                group.body.append(chunk)
            elif chunk is not None:
                units.append(chunk)
    if doc.receipt:
        units.append(_Chunk([_chat_line(_chat_escape(doc.receipt))]))
    return units


def _cut(line: str, room: int) -> list[str]:
    """A line longer than room in pieces that fit, at spaces where it can (a post cannot hold
    it whole: only a line of some 2,000 characters is ever cut), never inside an inline code
    span where a space outside one will do: text cut out of its span would be read as
    markup. A span longer than room is closed at the end of a piece and opened again at the
    start of the next."""
    out: list[str] = []
    while len(line) > room:
        spans = _code_spans(line)
        at, fence = _cut_at(line, room, spans)
        out.append(line[:at].rstrip() + fence)
        line = fence + line[at:].lstrip()
    return out + [line]


# Outside code a backslash makes the next character literal; a run of backticks opens a
# code span that the next run of the same length closes (CommonMark; chats read them alike).
_TICKS = re.compile(r"\\.|`+", re.S)


def _code_spans(line: str) -> list[tuple[int, int, str]]:
    """The inline code spans of a markdown line: (start, end, fence)."""
    spans: list[tuple[int, int, str]] = []
    at = 0
    while (m := _TICKS.search(line, at)) is not None:
        at = m.end()
        if m.group().startswith("\\"):
            continue
        fence = m.group()
        close = re.compile(f"(?<!`){fence}(?!`)").search(line, at)
        if close is not None:           # an unmatched run is plain text
            spans.append((m.start(), close.end(), fence))
            at = close.end()
    return spans


def _cut_at(line: str, room: int, spans: list[tuple[int, int, str]]) -> tuple[int, str]:
    """Where to cut a line longer than room, and the fence to close and open again there
    ("" outside code): the last space that fits outside every span, else inside the span
    the cut falls in, leaving room for its fence."""
    def inside(i: int) -> tuple[int, int, str] | None:
        return next((s for s in spans if s[0] < i < s[1]), None)

    at = line.rfind(" ", 1, room + 1)
    while at > 0 and inside(at) is not None:
        at = line.rfind(" ", 1, at)
    if at > 0:
        return at, ""
    span = inside(room)
    if span is None or 2 * len(span[2]) >= room:
        return room, ""
    end = room - len(span[2])
    at = line.rfind(" ", span[0] + len(span[2]) + 1, end + 1)
    return (at if at > 0 else end), span[2]


def _pieces(chunk: _Chunk, limit: int) -> list[tuple[str, str]]:
    """The chunk as (text, what joins it to the text before): whole if it fits a post; else
    prose line by line, and a code block between rows, each part a whole code block with the
    table's header again."""
    whole = chunk.text()
    if len(whole) <= limit:
        return [(whole, "\n\n")]
    if not chunk.code:
        lines = [p for ln in chunk.lines for p in _cut(ln, limit)]
        return [(ln, "\n" if i else "\n\n") for i, ln in enumerate(lines)]
    head = chunk.lines[:chunk.head]
    room = limit - len(chunk.text(head + [""]))
    if room < 1:            # a header that alone fills a post: repeat nothing
        head, room = [], limit - len(chunk.text([""]))
    parts: list[list[str]] = [[]]
    for row in (p for ln in chunk.lines[len(head):] for p in _cut(ln, room)):
        if parts[-1] and len(chunk.text(head + parts[-1] + [row])) > limit:
            parts.append([])
        parts[-1].append(row)
    # (a row of the "header: value" layout opens with the blank line that parts it from the
    # row before, which a part's first row does not need)
    return [(chunk.text(head + [part[0].lstrip("\n"), *part[1:]]), "\n" if i else "\n\n")
            for i, part in enumerate(parts)]


class _Posts:
    """Posts filled in order. A heading waits for the text after it (glue), so that no post
    ends on one; while a group is split, each post it goes on in opens with its heading
    again."""

    def __init__(self, limit: int):
        self.limit = limit
        self.posts: list[str] = []
        self.glue: list[str] = []           # headings that go with the next text
        self.again: str | None = None       # atop a new post: the group going on
        self.next_again: str | None = None  # the same, once the group's heading is placed

    def _fresh(self, text: str) -> str:
        """text as it would open a new post: after the heading of the group going on and the
        headings waiting for it."""
        return "\n\n".join([*([self.again] if self.again else []), *self.glue, text])

    def _opening(self, text: str) -> list[str]:
        """The new posts text opens: one, as _fresh; where that is longer than a post, without
        the group's heading again, or else after the waiting headings alone (a title or a
        heading of a thousand characters, which no layout keeps with its text)."""
        for post in (self._fresh(text), "\n\n".join([*self.glue, text])):
            if len(post) <= self.limit:
                return [post]
        waiting = "\n\n".join(self.glue)
        return [p for t in (waiting, text) if t for p in _cut(t, self.limit)]

    def _joined(self, text: str, joint: str) -> str | None:
        """The current post with text after it, or None if that is longer than a post."""
        if not self.posts:
            return None
        add = "\n\n".join([*self.glue, text])
        post = self.posts[-1] + ("\n\n" if self.glue else joint) + add
        return post if len(post) <= self.limit else None

    def fits(self, text: str) -> bool:
        """Whether text goes into the current post or, whole, into a new one."""
        return self._joined(text, "\n\n") is not None or len(self._fresh(text)) <= self.limit

    def put(self, text: str, joint: str = "\n\n") -> None:
        """text (and the headings waiting for it) into the current post, or a new one."""
        post = self._joined(text, joint)
        if post is not None:
            self.posts[-1] = post
        else:
            self.posts += self._opening(text)
        self.glue = []
        self.again = self.next_again

    def chunk(self, chunk: _Chunk) -> None:
        """A chunk whole if a post can hold it, else in pieces (_pieces) with room left for
        the headings that may open their posts."""
        if chunk.glue:
            self.glue.append(chunk.text())
            return
        if self.fits(chunk.text()):
            self.put(chunk.text())
            return
        lead = max(len("\n\n".join(self.glue)), len(self.next_again or ""))
        room = max(self.limit - lead - 2, self.limit // 2)
        for piece, joint in _pieces(chunk, room):
            self.put(piece, joint)

    def group(self, group: _Group) -> None:
        """A group whole in one post if a post can hold it; else its heading with the start
        of its first block, and each further post it needs opened by its heading again. A
        heading that heads nothing goes with what follows it."""
        if not group.body:
            self.glue.append(group.head.text())
        elif self.fits(group.text()):
            self.put(group.text())
        else:
            self.glue.append(group.head.text())
            self.next_again = group.again
            for chunk in group.body:
                self.chunk(chunk)
            self.again = self.next_again = None

    def close(self) -> list[str]:
        """The posts; headings that end the document, with nothing after them, in the last."""
        if self.glue:
            text, self.glue = "\n\n".join(self.glue), []
            self.put(text)
        return self.posts


def chat_posts(doc: Document, limit: int = CHAT_LIMIT) -> list[str]:
    """The document as chat posts of at most `limit` characters each: no line is split (but
    one longer than a post), no table or code block either unless it is longer than a post
    (then it is split between rows, each part a code block); a heading stays with what
    follows it, and a heading paragraph with what it heads (a record with its events) unless
    that is longer than a post (then it is split between its blocks, or lines, and each
    post it goes on in opens with the heading again, "(continued)")."""
    posts = _Posts(limit)
    for unit in _chat_units(doc):
        if isinstance(unit, _Group):
            posts.group(unit)
        else:
            posts.chunk(unit)
    return posts.close()


def to_chat(doc: Document) -> str:
    """Markdown for chats (Discord and the like) in posts of at most CHAT_LIMIT characters,
    a POST_MARK line between two posts."""
    posts = chat_posts(doc)
    marks = [POST_MARK.format(n=n, total=len(posts)) for n in range(1, len(posts) + 1)]
    return "".join((f"\n{mark}\n\n" if n else "") + post + "\n"
                   for n, (mark, post) in enumerate(zip(marks, posts)))
