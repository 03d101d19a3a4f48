"""A campaign's result as a report tells it: the VP of a report's JSON, whose level is the
result's once the game is over (engine/endings.py reads the result from what the game's
GameEnded event recorded)."""

from __future__ import annotations

from typing import Any


def report_vp(total: int, change: int, level, result: dict[str, Any] | None) -> dict:
    """A report's `vp` (contracts.views.ReportVp): the total, its change and its level (level:
    the Victory Chart's for the total, 3.1); once the game is over at another level, the
    result's (a surrender's: one worse for the side that resigned, 3.3), the chart's beside
    it, so that the level a script reads is never one the game did not end at."""
    vp = {"total": total, "change": change, "level": level.id, "level_name": level.name}
    if result and result.get("level") and result["level"] != level.id:
        vp.update(level=result["level"], level_name=result.get("level_name") or result["level"],
                  vp_level=level.id, vp_level_name=level.name)
    return vp
