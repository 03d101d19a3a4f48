"""A game whose journal is ahead of the clock, as a pass of `tick` or `watch` meets it.

When the clock is behind the journal's last record by more than a few seconds' skew
(store/timeorder.py: set back by hand or by NTP, or REFEREE_NOW given an older time), no
record may be written, so nothing of the game is done: its mail is not read (it waits, as
an unplayable game's does, withheld.py), no deadline is ruled and no reminder sent, and the
pass's problem line names the clock and the record's time. The first pass after the clock
has passed that time plays the game as usual: its mail is applied and answered once.
"""

from __future__ import annotations

from datetime import datetime

from ..store.timeorder import behind_last, last_dated_in
from .leftover import named
from .tickgame import Game
from .withheld import Withheld


def set_aside(game: Game, moment: datetime, slot: int) -> tuple[str, Withheld] | None:
    """The problem line of a game whose journal's last record is dated after `moment` by more
    than the skew allowed, and the game withheld (its line at `slot` of the pass's problems);
    None for a game the pass may play."""
    why = behind_last(last_dated_in(game.journal), moment)
    if why is None:
        return None
    line = (f"{named(game.journal)}: {why}: game {game.game_id} is not played (no mail read, "
            f"no deadline ruled, no reminder sent) until the clock has passed that time")
    return line, Withheld([game.journal], [game], slot, "until then")
