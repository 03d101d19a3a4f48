"""A player of several games of a folder whose mail for one of them carries his order key
of another (he answered one game's report and pasted the key of his other game's): the
game his mail is for (by its tag) takes nothing of it and tells him so, naming the other
game by its tag, and that his key for this game is in its latest report. The other game
takes nothing either: the mail is not its (claims.py).

Only a pass over a folder knows the other games' keys (tick, watch): the pass holds them
here, while it hands each game its mail (known). `inbox` run by hand on one journal knows
none, and answers as it always did. The answer goes where every answer to a side's address
goes, to the address as registered, and says only which of his games the key is his for:
it is the same address, registered for the side that key belongs to there. Whoever wrote
its From learns nothing from it, and no key is ever written in it, nor in the log.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cached_property

from ..base.addresses import address_key
from ..render.documents import reader_words
from ..store.players import compact

# How the answer's why begins when the key is the sender's in another game of the folder.
OTHER_GAME = "the order key in it is your order key for another of your games"


@dataclass(frozen=True)
class Held:
    """One side's order key in a game of the pass, as a mail's text is compared with it."""

    game_id: str
    side: str
    sender: str         # the side's registered address, as address_key compares it
    key: str            # compacted


class _Pass:
    """The games of a pass, their keys (held) worked out when a mail first asks for them:
    a pass with no mail to answer, or none that carries a key, derives none."""

    def __init__(self, games: Iterable):
        self.games = tuple(games)

    @cached_property
    def held(self) -> tuple[Held, ...]:
        return held(self.games)


_HELD: ContextVar[_Pass | None] = ContextVar("keys_of_the_pass", default=None)


def held(games: Iterable) -> tuple[Held, ...]:
    """Every side's key of the games (tickgame.Game) with its registered address. A game
    whose kind reads each mail whole (its keys are its kind's) is left out, as is one whose
    keys could not be derived."""
    out = []
    for x in games:
        if x.direct or len(x.keys) != len(x.addresses):
            continue
        for (side, address), key in zip(x.addresses.items(), x.keys):
            if compact(key) and address_key(address):
                out.append(Held(x.game_id, side, address_key(address), compact(key)))
    return tuple(out)


@contextmanager
def known(games: Iterable) -> Iterator[None]:
    """Within it, the games' keys are known to each game's inbox (forked workers too), once
    one asks."""
    token = _HELD.set(_Pass(games))
    try:
        yield
    finally:
        _HELD.reset(token)


def other_game(game_id: str, sender: str, text: str) -> tuple[str, str] | None:
    """When text (a mail from sender, a side's address in game_id) carries the order key of
    sender's side in another game of the pass: why it was refused, as its sender reads it,
    and as the log says it; else None."""
    passing = _HELD.get()
    if passing is None or not sender:
        return None
    found = compact(text)
    hits = sorted({(h.game_id, h.side) for h in passing.held if
                   h.game_id != game_id and h.sender == sender and h.key in found})
    if not hits:
        return None
    tags = " and ".join(dict.fromkeys(f"[referee {g}]" for g, _ in hits))
    where = ", ".join(f"{reader_words(side)} of {g}" for g, side in hits)
    return (f"{OTHER_GAME}, {tags}, not for this one",
            f"it carries its sender's order key for another game ({where}), not this "
            f"game's: nothing of it applied, in either game")


def typed_elsewhere(game_id: str, sender: str, typed: str) -> bool:
    """Whether typed (what a mail from sender, a side's address in game_id, typed outside
    its quoted copy, compacted) carries the order key of sender's side in another game of
    the pass: the key he typed says the mail is for that game, not this one. False outside
    a pass (`inbox` by hand knows no other game's keys)."""
    passing = _HELD.get()
    return passing is not None and bool(sender) and any(
        h.game_id != game_id and h.sender == sender and h.key in typed for h in passing.held)


def other_help(game_id: str) -> str:
    """What a player whose mail carried his key of another game does next."""
    return (f"This game's order key is at the end of the latest report the referee sent you "
            f"for it (its subject begins with [referee {game_id}]), after the words 'Order "
            f"key'. Send your orders again with that line: reply to this mail, or to that "
            f"report.")
