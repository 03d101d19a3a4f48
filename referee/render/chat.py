"""Chat posts (Discord and the like) of a Document: markdown in posts of at most CHAT_LIMIT
characters, tables and orders as code blocks (chats draw no pipe table).
"""

from __future__ import annotations

import re

from .layout import FIXED_WIDTH, _flat, _grid, _table_text
from .markdown import _md_inline
from .sections import Block, Document, Items, Orders, Para, Table

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
    as its escape, base/glyphs.py) so that a name cannot call the whole server."""
    return _CHAT_MENTION.sub("\uff20", _CHAT_SPECIAL.sub(r"\\\1", _flat(text)))


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
    out) whose first `head` lines are repeated in each part when it must be split; glue: kept
    with what follows (a heading)."""

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
        lines = _table_text(block, FIXED_WIDTH)
        head = 2 if lines and any(_grid(block)[0]) and block.rows else 0
        return _Chunk([ln.replace("`", "\u02cb") for ln in lines], True, head) if lines else None
    if isinstance(block, Orders):
        lines = [_flat(line).replace("`", "\u02cb") for line in block.lines]
        return _Chunk(lines, True) if lines else None
    raise TypeError(f"not a block: {block!r}")


def _chat_chunks(doc: Document) -> list[_Chunk]:
    """The document as chunks: title and section headings glued to what follows them."""
    chunks: list[_Chunk | None] = []
    if doc.title.strip():
        chunks.append(_Chunk([f"## {_chat_escape(doc.title).strip()}"], glue=True))
    for section in doc.sections:
        if section.title.strip():
            chunks.append(_Chunk([f"### {_chat_escape(section.title).strip()}"], glue=True))
        chunks += map(_chat_block, section.blocks)
    if doc.receipt:
        chunks.append(_Chunk([_chat_line(_chat_escape(doc.receipt))]))
    return [c for c in chunks if c is not None]


def _cut(line: str, room: int) -> list[str]:
    """A line longer than room in pieces that fit, at spaces where it can (a post cannot hold
    it whole: only a line of some 2,000 characters is ever cut)."""
    out: list[str] = []
    while len(line) > room:
        at = line.rfind(" ", 1, room + 1)
        at = room if at < 1 else at
        out.append(line[:at].rstrip())
        line = line[at:].lstrip()
    return out + [line]


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
    return [(chunk.text(head + part), "\n" if i else "\n\n") for i, part in enumerate(parts)]


def chat_posts(doc: Document, limit: int = CHAT_LIMIT) -> list[str]:
    """The document as chat posts of at most `limit` characters each: no line is split (but
    one longer than a post), no table or code block either unless it is longer than a post
    (then it is split between rows, each part a code block), and a heading stays with what
    follows it."""
    stream: list[tuple[str, str]] = []
    carry: str | None = None
    for chunk in _chat_chunks(doc):
        for piece, joint in _pieces(chunk, limit):
            if carry is not None:
                if len(carry) + len(joint) + len(piece) <= limit:
                    piece = carry + joint + piece
                else:
                    stream.append((carry, "\n\n"))
                carry = None
            if chunk.glue:
                carry = piece
            else:
                stream.append((piece, joint))
    if carry is not None:
        stream.append((carry, "\n\n"))
    posts: list[str] = []
    for piece, joint in stream:
        if posts and len(posts[-1]) + len(joint) + len(piece) <= limit:
            posts[-1] += joint + piece
        else:
            posts.append(piece)
    return posts


def to_chat(doc: Document) -> str:
    """Markdown for chats (Discord and the like) in posts of at most CHAT_LIMIT characters,
    a POST_MARK line between two posts."""
    posts = chat_posts(doc)
    marks = [POST_MARK.format(n=n, total=len(posts)) for n in range(1, len(posts) + 1)]
    return "".join((f"\n{mark}\n\n" if n else "") + post + "\n"
                   for n, (mark, post) in enumerate(zip(marks, posts)))
