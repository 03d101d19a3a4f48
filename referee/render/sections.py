"""One document model for every human format: a report or view is a list of sections.

The text, markdown and BBCode renderers all walk the same Document, so the
three formats cannot say different things; `as_json` gives the same content
to scripts. Nothing here knows the game: the builders (reports.py, views)
put the words in, the renderers only lay them out and escape them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

# A span's style: how a renderer marks it. "order" is text a player pastes back into a
# mail: it is never split across lines and is shown as code.
STYLES = ("plain", "bold", "italic", "order", "german", "entente", "disputed")


@dataclass(frozen=True)
class Span:
    """A run of text with one style (STYLES); side styles may be coloured."""

    text: str
    style: str = "plain"


@dataclass(frozen=True)
class Para:
    """A paragraph: spans wrapped together."""

    spans: list[Span]
    kind: str = "para"


@dataclass(frozen=True)
class Items:
    """A bulleted list; each item is a list of spans."""

    items: list[list[Span]]
    kind: str = "items"


@dataclass(frozen=True)
class Table:
    """A table of plain strings, laid out in aligned columns."""

    header: list[str]
    rows: list[list[str]]
    kind: str = "table"


@dataclass(frozen=True)
class Orders:
    """Order lines a player may paste back: one per line, never split, shown as code."""

    lines: list[str]
    kind: str = "orders"


Block = Para | Items | Table | Orders


@dataclass(frozen=True)
class Section:
    """A titled part of a document."""

    title: str
    blocks: list[Block] = field(default_factory=list)


@dataclass(frozen=True)
class Document:
    """A whole report or view: a title, its sections and an optional receipt line."""

    title: str
    sections: list[Section] = field(default_factory=list)
    receipt: str | None = None


def plain(text: str) -> Span:
    """A plain span."""
    return Span(text)


def para(*parts: str | Span) -> Para:
    """A paragraph from strings (plain) and spans."""
    return Para([p if isinstance(p, Span) else Span(p) for p in parts])


def as_json(doc: Document) -> dict:
    """The document as JSON-ready data (the same content the human formats lay out)."""
    return asdict(doc)
