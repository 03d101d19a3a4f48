"""A mail whose subject's tags name several games of a folder (a player replied to one
game's mail and pasted another game's subject): it is the one of them whose order key for
its sender's side it carries, and that game's inbox handles it as a mail tagged with that
game alone; with no such key, or the keys of several of them, it is no game's: left for the
moderator as unclaimed mail is, answered by nobody. A stranger's mail so tagged is his
whatever key it carries (no side registered his address): nothing tells him whether a key
was right. While one of the games named cannot be played (torn, or held by another
process: withheld.py), the mail waits for it (claims.Claims.hold), neither taken nor told
of as unclaimed: the pass that can play them all decides.

Only the pass over the folder knows the games' keys (claims.py): it notes each mail it gave
to a game so (taking), and that game's inbox reads it as its own (other_game). `inbox` run
by hand on one journal knows no other game's keys, and skips such a mail as another game's,
as it always did.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from ..base import gameids
from .otherkeys import held
from .tickgame import Game

# The mails the pass gave to a game among several its tags named: digest -> its game id.
_TAKEN: ContextVar[dict[str, str] | None] = ContextVar("several_tags_taken", default=None)


def keyed(named: list[Game], sender: str, text: str) -> list[Game]:
    """Of the games named, those that registered sender (address_key) for a side whose order
    key text (compacted) carries. A game whose kind reads each mail whole is none of them
    (otherkeys.held)."""
    ids = {h.game_id for h in held(named) if sender and h.sender == sender and h.key in text}
    return [x for x in named if x.game_id in ids]


@contextmanager
def taking() -> Iterator[dict[str, str]]:
    """Within it, the mails noted (digest -> game id) are read by that game's inbox as its
    own, whatever other game their tags name (forked workers too)."""
    token = _TAKEN.set({})
    try:
        yield _TAKEN.get()
    finally:
        _TAKEN.reset(token)


def other_game(subject: str, ours: str, digest: str) -> str | None:
    """The first game other than ours that the subject names (base.gameids.other_game), or
    None: it names none, or the pass gave the mail (its digest) to our game by its key."""
    taken = _TAKEN.get()
    if taken is not None and digest and taken.get(digest) == ours:
        return None
    return gameids.other_game(subject, ours)
