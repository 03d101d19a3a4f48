"""One document model for every human format: a report or view is a list of sections.

The text, markdown and BBCode renderers all walk the same Document, so the
three formats cannot say different things; `as_json` gives the same content
to scripts. Nothing here knows the game: the builders (reports.py, views)
put the words in, the renderers only lay them out and escape them.

Plain classes, not dataclasses: `status` and `show` print through these on
the quick path, where importing dataclasses (and with it inspect and ast)
would cost a tenth of the import floor.
"""

from __future__ import annotations

# A span's style: how a renderer marks it. "order" is text a player pastes back into a
# mail: it is never split across lines and is shown as code. A span may also be styled by
# a side's id (an area the side holds): the document's colours say how to write it.
STYLES = ("plain", "bold", "italic", "order", "disputed")


class _Plain:
    """Equality and repr by fields, like a frozen dataclass; the fields are the slots, or
    those `_CONTENT` names (what a slot outside it holds is how to render, not content)."""

    __slots__ = ()

    def _names(self) -> tuple[str, ...]:
        return getattr(self, "_CONTENT", self.__slots__)

    def _fields(self) -> tuple:
        return tuple(getattr(self, f) for f in self._names())

    def __eq__(self, other) -> bool:
        return type(self) is type(other) and self._fields() == other._fields()

    def __repr__(self) -> str:
        inside = ", ".join(f"{f}={getattr(self, f)!r}" for f in self._names())
        return f"{type(self).__name__}({inside})"

    __hash__ = None


class Span(_Plain):
    """A run of text with one style (STYLES); side styles may be coloured."""

    __slots__ = ("text", "style")

    def __init__(self, text: str, style: str = "plain"):
        self.text = text
        self.style = style


class Para(_Plain):
    """A paragraph: spans wrapped together. A heading paragraph heads the blocks after it, up
    to the next heading paragraph or the section's end (a record and its events, a country
    and its areas): a chat post never ends on it, nor parts it from what it heads but where
    that is longer than a post, and then it is repeated atop the next post."""

    __slots__ = ("spans", "kind", "heading")
    _CONTENT = ("spans", "kind")

    def __init__(self, spans: list[Span], heading: bool = False):
        self.spans = spans
        self.kind = "para"
        self.heading = heading


class Items(_Plain):
    """A bulleted list; each item is a list of spans."""

    __slots__ = ("items", "kind")

    def __init__(self, items: list[list[Span]]):
        self.items = items
        self.kind = "items"


class Table(_Plain):
    """A table of plain strings, laid out in aligned columns."""

    __slots__ = ("header", "rows", "kind")

    def __init__(self, header: list[str], rows: list[list[str]]):
        self.header = header
        self.rows = rows
        self.kind = "table"


class Orders(_Plain):
    """Order lines a player may paste back: one per line, never split, shown as code."""

    __slots__ = ("lines", "kind")

    def __init__(self, lines: list[str]):
        self.lines = lines
        self.kind = "orders"


Block = Para | Items | Table | Orders


class Section(_Plain):
    """A titled part of a document."""

    __slots__ = ("title", "blocks")

    def __init__(self, title: str, blocks: list[Block] | None = None):
        self.title = title
        self.blocks = blocks if blocks is not None else []


class Document(_Plain):
    """A whole report or view: a title, its sections and an optional receipt line; colours
    (side id -> '#rrggbb', from the game's data) colour a side's spans where a format can."""

    __slots__ = ("title", "sections", "receipt", "colours")
    _CONTENT = ("title", "sections", "receipt")

    def __init__(self, title: str, sections: list[Section] | None = None,
                 receipt: str | None = None, colours: dict[str, str] | None = None):
        self.title = title
        self.sections = sections if sections is not None else []
        self.receipt = receipt
        self.colours = colours if colours is not None else {}


def plain(text: str) -> Span:
    """A plain span."""
    return Span(text)


def para(*parts: str | Span) -> Para:
    """A paragraph from strings (plain) and spans."""
    return Para([p if isinstance(p, Span) else Span(p) for p in parts])


def _data(value):
    if isinstance(value, _Plain):
        return {f: _data(getattr(value, f)) for f in value._names()}
    if isinstance(value, list):
        return [_data(v) for v in value]
    return value


def as_json(doc: Document) -> dict:
    """The document as JSON-ready data (the same content the human formats lay out)."""
    return _data(doc)
