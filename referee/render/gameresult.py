"""A campaign's result as a report and the moderator's mail at the end tell it: the side that
wins, in words, beside the reason that says how the game ended (engine/endings.py reads the
kind of ending and the winner from what the game's GameEnded event recorded), and the VP of
a report's JSON, whose level is the result's once the game is over."""

from __future__ import annotations

from typing import Any

from ..game.endlevel import at_the_end
from .documents import side_name


def winner_sentence(result: dict[str, Any]) -> str:
    """Who wins, in words, after the reason that says how the game ended (each kind of ending
    the engine records says its kind: engine/endings.py): 'The Entente player wins.', or 'No
    side wins.' at a level neither side wins (a stalemate)."""
    winner = result.get("winner")
    return f"The {side_name(winner)} player wins." if winner else "No side wins."


def report_vp(total: int, change: int, level, result: dict[str, Any] | None) -> dict:
    """A report's `vp` (contracts.results.ReportVp): the total, its change and its level (level:
    the Victory Chart's for the total, 3.1); once the game is over at another level, the
    result's (a surrender's: one worse for the side that resigned, 3.3), the chart's beside
    it, so that the level a script reads is never one the game did not end at."""
    return at_the_end({"total": total, "change": change, "level": level.id,
                       "level_name": level.name}, result)
