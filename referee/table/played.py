"""The game as `log` replays it beside the records it prints, so that an event's line can
tell what the game before its record holds (render/incontext.py), as a report does.

A journal that cannot be replayed (a redacted export holds its secret parts as digests)
is still printed: from the first record that does not replay on, each event is told as
it stands.
"""

from __future__ import annotations

from ..base.errors import UNREADABLE, JournalError
from ..game.replay import Era, start_state


class Played:
    """The game replayed record by record from record 0."""

    def __init__(self, header: dict, data, games_dir, name: str):
        self.era = Era(header, data, games_dir, name)
        try:
            self.state = start_state(header, data, name)
        except (JournalError, *UNREADABLE):
            self.state = None

    def apply(self, rec: dict, wanted: bool):
        """Replay rec; the game before it (a copy) when wanted and the game is known there,
        else None."""
        if rec.get("seq") == 0 or self.state is None:
            return None
        before = self.state.clone() if wanted and _needs(rec) else None
        try:
            self.era.apply(self.state, rec)
        except (JournalError, *UNREADABLE):
            self.state = None
        return before


def _needs(rec: dict) -> bool:
    """Whether a record has an event whose line reads the game before it."""
    return any(ev.get("type") in ("FireResolved", "CombatCardPlayed", "BattleCancelled",
                                  "BonusDesignated")
               for ev in rec.get("events", []) if isinstance(ev, dict))
