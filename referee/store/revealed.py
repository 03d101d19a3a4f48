"""Whether a journal's last record reveals the game's dice secret: no record may follow it
(its dice were predictable from then on), nor may anything kept beside the game change."""

from __future__ import annotations

from ..base.errors import UsageError
from .chain import record_in

# How a record revealing the dice secret is told from its canonical line: a campaign's holds
# a SecretRevealed event, a skirmish's is of kind "reveal" (table/skirmish/life.py).
_REVEALS = (b'"SecretRevealed"', b'"kind":"reveal"')


class GameClosed(UsageError):
    """A write refused because the game's dice secret is revealed: the journal's own words
    (its file, for the moderator); whoever answers a player says it in the player's."""


def _reveals(rec: dict) -> bool:
    """Whether a record reveals the game's dice secret (a campaign's or a skirmish's)."""
    events = rec.get("events")
    return rec.get("kind") == "reveal" or isinstance(events, list) and any(
        isinstance(e, dict) and e.get("type") == "SecretRevealed" for e in events)


def refuse_after_reveal(raw: bytes, name: str) -> None:
    """No record may follow the reveal of the dice secret (game/verification.py,
    table/skirmish/life.py: its dice were predictable): a game whose last record reveals it
    is closed to every writer."""
    line = raw[raw.rfind(b"\n", 0, len(raw) - 1) + 1:]
    if not any(mark in line for mark in _REVEALS):
        return
    rec = record_in(line)
    if _reveals(rec):
        raise GameClosed(f"{name}: record {rec.get('seq')} revealed the dice secret, so the "
                         f"game is closed: no record may follow it; nothing was written")
