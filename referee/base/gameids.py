"""What a game id may be, and how a mail's subject names one.

A game id is 1 to 64 letters, digits and `-`: it goes into every mail's
subject tag, the players' order keys and file names, so nothing in it may
break a header line or a path. A subject names a game when it holds the
referee's own tag, `[referee ID #N]`, or a bracketed token shaped like a
generated game id: only letters, digits and `-`, with at least one of each
of a letter, a digit and a `-` (`[ttlm-1914-deadbeef]`; `[PATCH]`, `[2]` and
`[e-mail]` are not game ids).
"""

from __future__ import annotations

import re

from .errors import UsageError

GAME_ID = re.compile(r"[A-Za-z0-9-]{1,64}")
_BRACKETED = re.compile(r"\[([A-Za-z0-9-]{1,64})\]")
_REFEREE_TAG = re.compile(r"\[referee ([A-Za-z0-9._-]{1,200}) #\d{1,9}\]")


def check_game_id(text: str) -> str:
    """text when it is a valid game id, else UsageError saying what one is."""
    if not GAME_ID.fullmatch(text):
        shown = repr(text) if len(text) <= 80 else repr(text[:80]) + "..."
        raise UsageError(f"--game-id {shown}: a game id is 1 to 64 letters, digits and '-' "
                         f"(it goes into every mail's subject and the order keys)")
    return text


def _shaped_like_an_id(token: str) -> bool:
    return any(c.isalpha() for c in token) and any(c.isdigit() for c in token) and \
        "-" in token


def games_named(subject: str) -> set[str]:
    """Every game id the subject names: in the referee's tag, or as a bracketed token shaped
    like a game id."""
    named = {m.group(1) for m in _REFEREE_TAG.finditer(subject)}
    named |= {m.group(1) for m in _BRACKETED.finditer(subject) if _shaped_like_an_id(m.group(1))}
    return named


def other_game(subject: str, ours: str) -> str | None:
    """The first game id other than ours that the subject names (sorted), or None."""
    others = sorted(n for n in games_named(subject) if n.casefold() != ours.casefold())
    return others[0] if others else None
