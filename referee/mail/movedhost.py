"""The first lines of a player's first mail from a referee that keeps no record of mailing him
(its ledger of the game holds no mail to his side) while the journal shows the game was played
by mail before (a record applied from a player's mail): the game moved to another machine
(`referee handover`), or the mail records were lost. The report then tells the game from its
start, and says why in words that hold for both."""

from __future__ import annotations

MOVED = ("This report repeats the game from its start: the referee that sends it has no record "
         "of what it sent you before (the game moved to a new host, or its mail records were "
         "lost).")


def moved_note(records: list[dict], ledger: dict, side: str) -> str | None:
    """MOVED, for a side the ledger never mailed in a game whose records show mail played."""
    if ledger["sent"].get(side) is not None:
        return None
    return MOVED if any(isinstance(r.get("mail"), dict) for r in records[1:]) else None
