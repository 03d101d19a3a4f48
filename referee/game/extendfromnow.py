"""The moderator's extension counted from now (`referee extend ... --from-now`).

An extension adds to the deadline (timeline.extend): given long after a deadline passed, a
day more may still end in the past, and is refused. The command a referee's mail or line
hints at must work whenever the moderator runs it, a day or a week later: counted from now,
the deadline becomes the duration after the moment he runs it, whatever it was. It is
recorded as any extension is, by the time it adds to the deadline (to the minute above),
so a journal reads the same to every version that reads extensions.
"""

from __future__ import annotations

from datetime import timedelta

from ..base.clock import duration_text, for_players
from ..base.clock import now as clock_now
from ..base.errors import OrderError
from ..data.gamedata import GameData
from .clockwalk import Due

# The option of `referee extend` that counts the duration from now.
FROM_NOW = "--from-now"


def from_now_span(d: Due, length: timedelta, span: str) -> str:
    """What an extension must add to d's deadline for it to end length after now, to the
    minute above; OrderError when the deadline is that late already (nothing to add)."""
    moment = clock_now()
    short = moment + length - d.due
    minutes = -(-int(short.total_seconds()) // 60)
    if minutes <= 0:
        raise OrderError(f"extend {span} {FROM_NOW}: {GameData.player_words(d.side)}'s "
                         f"orders are due by {for_players(d.due, d.zone)}, later than "
                         f"{span} from now ({for_players(moment + length, d.zone)}): no time "
                         f"is given; give a longer duration, or extend without {FROM_NOW}")
    return duration_text(timedelta(minutes=minutes))
