"""The first lines of a player's first mail from a referee that keeps no record of mailing
him, in a game that came to this referee's home at a record after its start (the home's mark
of the game, store/written.py: `since`): the game moved to another machine (`referee
handover`), or this home was lost and made again. The report then tells the game from its
start, and says why in words that hold for both. A game made here never says it, whatever
its ledger lost."""

from __future__ import annotations

from ..base.plurals import counted
from ..store.written import came_at


def moved_note(game_id: str, ledger: dict, side: str) -> str | None:
    """Why this report repeats the game from its start, for a side the ledger never mailed
    in a game that came to this referee at a record after its start; else None."""
    if ledger["sent"].get(side) is not None:
        return None
    since = came_at(game_id)
    if not since:
        return None
    return (f"This report repeats the game from its start: the game came to this referee "
            f"at record {since} (it moved to a new host, or the referee's home was made "
            f"again), and it keeps no record of what was sent to you before "
            f"({counted(since, 'record')} played elsewhere).")
