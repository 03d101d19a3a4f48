"""A player's note beside his dispute, as a mail shows it (the mail layer keeps it:
mail/disputenotes.py): the player named as its author, then each of its lines quoted
behind '> ', wrapped to 72 columns, every character a mail must not carry shown as its
escape (base/glyphs.py). Nothing of it reads as the referee's: no line of it is bare. A note
is shown while its dispute is open: to the moderator under the disputes he is to settle, to
each player under the dispute's line of his report (nothing of a skirmish is secret, and
the ruling it asks for is told to both)."""

from __future__ import annotations

import textwrap

from ...base.glyphs import visible
from ...base.plurals import joined
from ...base.readers import MODERATOR
from ...render.documents import side_name
from ...render.record_text import wrap_lines
from .state import open_disputes

WIDTH = 72
QUOTE = "> "


def quoted(lines: list[str]) -> list[str]:
    """A note's lines behind QUOTE, wrapped to WIDTH (a word longer than a line is broken)."""
    out = []
    for line in lines:
        out += [QUOTE + part for part in textwrap.wrap(
            visible(line), WIDTH - len(QUOTE), break_long_words=True,
            break_on_hyphens=False)]
    return out


def notes_of(disputes: list[dict], notes: dict[int, list[str]] | None) -> list[str]:
    """The notes of the open disputes (notes: by the dispute's own record), a note that came
    with several disputes given once, naming all their tests: its heading, then its lines
    quoted."""
    grouped: dict[tuple, list[int]] = {}
    for d in open_disputes(disputes):
        lines = (notes or {}).get(d.get("seq"))
        if lines:
            grouped.setdefault((d["by"], tuple(lines)), []).append(d["record"])
    out = []
    for (by, lines), tests in grouped.items():
        names = [f"#{n}" for n in dict.fromkeys(tests)]
        which = joined(names)
        head = f"The {side_name(by)} player's note with his " \
            f"dispute{'s' if len(names) > 1 else ''} of {which}:"
        out += [*wrap_lines([head], WIDTH, hang=2), *quoted(list(lines))]
    return out


def under_asked(doc: dict, reader: str, notes: dict[int, list[str]] | None) -> list[str]:
    """The notes a mail gives under its first paragraph, then a blank line: the moderator's,
    whose mail opens with the disputes he is to settle (none for a player: his report gives
    them under its disputes)."""
    said = notes_of(doc["disputes"], notes) if reader == MODERATOR else []
    return [*said, ""] if said else []
