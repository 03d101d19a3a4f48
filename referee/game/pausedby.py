"""Why a game is paused, as its records say: the last record that paused or resumed it is
either a deadline missed under the policy pause (a side's, due at a time) or the moderator's
own `deadline --pause`. Read from the journal's lines alone (clock_facts), without replaying,
so that a refusal and the pass's problem line both name it the same way: a player knows then
whether his own silence did it, and the moderator which of his games waits on what.
"""

from __future__ import annotations

import msgspec

from ..base.clock import for_players, parse_stamp
from ..data.gamedata import GameData
from .clockwalk import clock_facts, zone_of


class Pause(msgspec.Struct, frozen=True):
    """What paused a game: 'missed' (side's deadline of due, ruled under the policy pause)
    or 'moderator' (his `deadline --pause`), at record seq."""

    cause: str
    seq: int
    side: str | None = None
    due: str | None = None


def pause_of(raw: bytes) -> Pause | None:
    """What paused the game, by the last record that paused or resumed it, or None (it is
    not paused)."""
    found = None
    for rec in clock_facts(raw):
        fact = rec["clock"]
        if fact["kind"] in ("pause", "resume"):
            found = Pause("moderator", rec["seq"]) if fact["kind"] == "pause" else None
        elif fact["kind"] == "missed" and fact.get("missed") == "pause":
            found = Pause("missed", rec["seq"], fact.get("side"), fact.get("due"))
    return found


def pause_words(pause: Pause, raw: bytes) -> str:
    """Why the game is paused, as a refusal or a problem line says it (raw: the journal's
    bytes, for the game's time zone): 'the German player missed his deadline of Wed 25 Nov
    18:00 UTC (record 9)', 'the moderator paused it (record 12)'."""
    if pause.cause == "moderator":
        return f"the moderator paused it (record {pause.seq})"
    who = GameData.player_words(pause.side) if isinstance(pause.side, str) else "a side"
    due = parse_stamp(pause.due) if isinstance(pause.due, str) else None
    when = f" of {for_players(due, zone_of(raw))}" if due is not None else ""
    return f"{who} missed his deadline{when} (record {pause.seq})"
