"""What a walk (clockwalk.py) says after its last record: each owing side's deadline and
the facts about time recorded (Timeline), and what `status` shows of them (deadline_view).

A read of a game with deadlines needs these alone: the rest of timeline.py (the records
that change the deadlines, and their words) is for the commands and the mail that write
them or tell them.
"""

from __future__ import annotations

import msgspec

from ..base.clock import duration_text, is_utc, stamp
from ..contracts.views import Deadlines
from ..data.gamedata import GameData
from ..engine import waiting_on
from ..engine.state import State
from .clockwalk import Due, Settings, Walk


class Timeline(msgspec.Struct):
    """What the journal says about time: settings, pause, each owing side's deadline, and
    the reminders, extensions and missed deadlines recorded."""

    settings: Settings
    paused: bool
    dues: list[Due]
    seq: int
    hash: str
    used: dict[str, int]                     # extensions each side asked for
    reminded: set[tuple[str, int, str, str]]     # (side, hand-off, before, due)
    # (side, hand-off, due) missed with nobody answering (wait, pause): once for each due
    missed: set[tuple[str, int, str]]
    # (side, hand-off, due) the referee answered for (policy default): again while the side
    # still owes that decision (each hit of a loss, each unit to place is an answer)
    answered: set[tuple[str, int, str]] = msgspec.field(default_factory=set)
    state: State | None = None
    data: GameData | None = None

    def due_for(self, side: str) -> Due | None:
        return next((d for d in self.dues if d.side == side), None)

    def is_late(self, d: Due) -> bool:
        """Whether a deadline passed with nobody answering for it (the policy wait, or a
        pause): the journal recorded it missed, for that side's hand-off at that time."""
        return (d.side, d.handoff, stamp(d.due)) in self.missed

    def late(self) -> list[Due]:
        """The deadlines passed that nobody answered for (the policy wait, or a pause): the
        sides the game waits on the moderator for."""
        return [d for d in self.dues if self.is_late(d)]


def timeline_of(walk: Walk, state: State, data: GameData, seq: int, last: str,
                name: str) -> Timeline:
    """The Timeline of a walk to record seq (whose hash is last), the state there. A game
    closed by the reveal of its secret (`reveal --force`) owes nothing: no record may follow
    the reveal, so no deadline runs."""
    sides = [] if state.revealed else waiting_on(state)
    dues = [d for d in (walk.due(state, side, name) for side in sides) if d is not None]
    return Timeline(walk.settings, walk.paused, dues, seq, last, walk.used, walk.reminded,
                    walk.missed, walk.answered, state, data)


def deadline_view(tl: Timeline, **made: list[int]) -> dict:
    """What `status` shows of the deadlines: each owing side's, and whether the game is
    paused (the same for every reader: deadlines are public); `deadline` and `extend` add
    the records they made (`records`). A paused game shows none: no deadline runs, and
    `--resume` runs them again from then, so the time the walk had is neither due nor
    missed."""
    zone = {} if is_utc(tl.settings.zone) else {"zone": tl.settings.zone}
    running = [] if tl.paused else tl.dues
    return Deadlines.plain(
        paused=tl.paused, policy=tl.settings.missed, **zone,
        due=[{"side": d.side, "decision": d.decision, "due": stamp(d.due), "words": d.words,
              "handoff": d.handoff,
              "extended": duration_text(d.extended) if d.extended else None,
              **({"last_extension": duration_text(d.last_extension)} if d.extended else {})}
             for d in running], **made)
