"""A game the moderator paused himself (`referee deadline JOURNAL --pause`: a holiday, say),
as a pass of `tick` tells it: his own act, so no problem, no failing run, only a line that
stands while the game is paused (logged by `watch` as a standing problem is, once, then
once a day). A game the referee paused for a deadline missed under `--missed pause` waits
on him as before (waiting.py): a problem of the pass until he acts."""

from __future__ import annotations

from ..game.clockwalk import has_deadlines
from ..game.pausedby import pause_of


def own_pause(table, name: str) -> str | None:
    """The line of a game the moderator paused himself (table: its Table; name: the journal
    as the line shows it), or None (not paused, or paused by a missed deadline)."""
    if not has_deadlines(table.raw):
        return None
    pause = pause_of(table.raw)
    if pause is None or pause.cause != "moderator":
        return None
    return (f"the game is paused: you paused it (record {pause.seq}); no deadline runs and "
            f"no orders are taken until `referee deadline {name} --resume` resumes it")
