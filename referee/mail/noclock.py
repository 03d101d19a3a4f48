"""`extend` mailed to a game whose kind has no deadlines (the skirmish's: GameKind features,
"deadlines"): a campaign's player asks more time with it (reminders.py), and player.md's
Deadlines offer it, so such a line is read as asked, never taken for prose, and answered in
one line saying that the game has no deadlines; the rest of the mail is read as ever, and a
mail of that line alone is refused with that line."""

from __future__ import annotations

from ..base.errors import clipped
from ..base.plurals import a_or_an
from .reminders import EXTEND_LINE


def no_deadlines(table, read: list[tuple[int, str]], notes: list[str]
                 ) -> tuple[list[tuple[int, str]], tuple[str, str] | None]:
    """A mail's lines read (numbered as in it) without its `extend` lines, and, when it had
    any in a game whose kind has no deadlines, the refusal's code and reason that answer
    them (None: none, or the kind has deadlines); with other lines left, the answer is one
    of the notes its reply gives (notes) instead."""
    if "deadlines" in table.kind.features:
        return read, None
    asked = [(n, t) for n, t in read if EXTEND_LINE.match(t)]
    if not asked:
        return read, None
    why = (f"'{clipped(asked[0][1])}': {a_or_an(table.kind.name)} has no deadlines (it moves "
           f"on as the sides say done), so nothing was extended")
    left = [(n, t) for n, t in read if not EXTEND_LINE.match(t)]
    if left:
        notes.append(f"Not read: {why}.")
    return left, ("extend_refused", why)
