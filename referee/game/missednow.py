"""A deadline whose time has come, told so when it is shown.

The deadlines a view keeps (dues.deadline_view) are the journal's alone, so that a view
kept for the journal's bytes serves every later read; whether a deadline has passed is the
clock's, so it is marked each time the deadlines are shown, never kept."""

from __future__ import annotations

from typing import Any


def marked_missed(deadlines: dict[str, Any] | None) -> dict[str, Any] | None:
    """The deadlines with each one whose time has come now marked `missed`, with what the
    game's policy at a missed deadline does then (its `policy`)."""
    if not deadlines or not deadlines.get("due"):
        return deadlines
    from ..base.clock import now_stamp  # start-up: datetime, only for deadlines shown

    at = now_stamp()
    return {**deadlines, "due": [{**d, "missed": deadlines["policy"]} if d["due"] <= at
                                 else d for d in deadlines["due"]]}
