"""A game of the folder that this referee handed over to another machine (store/handedover.py):
`tick` and `watch` pass it over, claim none of its mail (the machine it went to reads it) and
say so in a standing line, no problem: cron stays quiet, and `watch` repeats the line as it
repeats the others that stand."""

from __future__ import annotations

from pathlib import Path

from ..base.errors import RefereeError, one_line
from ..store import handedover
from ..store.journal import Journal
from .tickgame import Game


def handed_line(journal: Path, served: Game | None) -> str | None:
    """The line of a journal whose game is handed over (served: its game as the folder's index
    holds it, else its record 0 is read), or None."""
    if served is not None:
        mark = handedover.of_game(served.game_id, served.header_hash)
    else:
        try:
            mark = handedover.of_journal(Journal(journal).first_line())
        except (RefereeError, ValueError):
            return None
    if mark is None:
        return None
    return (f"handed   {one_line(journal.name)}: game {one_line(str(mark['game_id']))} was "
            f"handed over to another machine at record {mark['seq']} (`referee handover`): "
            f"passed over, its mail left for that machine")
