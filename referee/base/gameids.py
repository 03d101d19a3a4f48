"""What a game id may be, and how a mail's subject names one.

A game id is 1 to 64 letters, digits and `-`: it goes into every mail's
subject tag, the players' order keys and file names, so nothing in it may
break a header line or a path. A subject names a game only with the
referee's own tag, `[referee ID]` (or an earlier version's `[referee ID #N]`,
N the record the mail ended at), wherever it stands; any other bracket
(`[EXT]`, `[SPAM?]`, `[2nd-try]`, a mailing list's `[pbem-2024]`) is the
sender's or his mail system's, and names nothing.
"""

from __future__ import annotations

import re

from .errors import UsageError

GAME_ID = re.compile(r"[A-Za-z0-9-]{1,64}")
# The referee's tag: the game id, then (in an earlier version's subjects only) the record the
# mail ended at (mail/answered.py reads it when the Message-ID answered names none).
REFEREE_TAG = re.compile(r"\[referee ([A-Za-z0-9._-]{1,200})(?: #(\d{1,9}))?\]")


def check_game_id(text: str) -> str:
    """text when it is a valid game id, else UsageError saying what one is."""
    if not GAME_ID.fullmatch(text):
        shown = repr(text) if len(text) <= 80 else repr(text[:80]) + "..."
        raise UsageError(f"--game-id {shown}: a game id is 1 to 64 letters, digits and '-' "
                         f"(it goes into every mail's subject and the order keys)")
    return text


def games_named(subject: str) -> set[str]:
    """Every game id the subject names in the referee's tag (other brackets name none)."""
    return {m.group(1) for m in REFEREE_TAG.finditer(subject)}


def other_game(subject: str, ours: str) -> str | None:
    """The first game id other than ours that the subject names (sorted), or None."""
    others = sorted(n for n in games_named(subject) if n.casefold() != ours.casefold())
    return others[0] if others else None
