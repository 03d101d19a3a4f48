"""An extension the referee gave on its own, as its record's heading names it.

The time a player lost through no fault of his is given back by an extension recorded as
the moderator's (mail/holdtime.py, mail/unasked.py: no extension of the player's own is
spent), though the moderator did nothing. Its heading names the referee as the one who
gave it, and why (ClockFact `given`; an older record has no reason kept).
"""

from __future__ import annotations

from .documents import side_name

WHY = {"unasked": "the mail asking {player}'s orders left late",
       "held": "{player}'s mailed orders waited for the moderator's dice"}
UNSAID = "time {player} lost through no fault of his given back"


def given_note(rec: dict) -> str | None:
    """Why the referee gave the extension rec records, for its heading (' (…)'); None
    when rec is no extension the referee gave."""
    clock = rec.get("clock")
    if not isinstance(clock, dict) or clock.get("kind") != "extend" or \
            not clock.get("hold"):
        return None
    player = f"the {side_name(str(clock.get('side')))} player"
    given = str(clock.get("given"))
    said = WHY[given].format(player=player) if given in WHY else UNSAID.format(player=player)
    return f" ({said})"
