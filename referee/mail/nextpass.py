"""What the next pass of `tick` does at each deadline that has passed, as `status` and
`deadline` tell it: rule it missed (what follows by the policy), or not yet, and why.

Only a pass of `tick` rules a deadline missed, and not every one whose time has come: not
within the grace a mail slowed on its way has, not while the mail asking the side has not
gone out (his time is given back once it has: unasked.py), not while his mailed orders
wait for the moderator's dice. A view that marked every deadline past its time `missed`
told a script the game waits, when the next pass extends the deadline instead. So the
view asks the function the pass decides by (reminders.fate_of), with the facts the pass
would have: the game's spool, its ledger, the holds, its mailbox taken as read in full
unless it is a file or folder of this machine that is not there (a pass that cannot read
it rules nothing, and says so). A game with no mail target no pass plays: its deadlines
are shown by the policy alone.
"""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path

from ..base.clock import now as clock_now
from ..base.errors import RefereeError
from ..game.clockwalk import has_deadlines
from ..table import Table
from .deadlinepost import Post
from .holds import sides_on_hold
from .reminders import (
    GRACE,
    HELD,
    NOT_YET,
    UNASKED,
    UNASKED_WHY,
    _timeline,
    fate_of,
    not_yet_why,
)
from .tickgame import load_game
from .unasked import unasked_sides

HELD_WHY = ("the orders mailed for it are held for the moderator's dice: no deadline runs "
            "until he has entered them")


def next_pass(journal: Path, games_dir: Path | None, now: datetime) -> dict[str, str]:
    """Each side whose deadline has passed that the next pass of `tick` at now does not
    rule missed, with why, in the words tick logs it with; a side it rules missed is not
    named (the policy at the deadline follows, or has followed)."""
    table = Table(journal, games_dir)
    if not has_deadlines(table.raw):
        return {}
    tl = _timeline(table, table.raw)
    passed = [d for d in tl.dues if now >= d.due]
    if tl.paused or not passed:
        return {}
    try:
        x = load_game(journal, games_dir)
    except RefereeError:
        return {}               # a route tick refuses: a problem of its own, told by tick
    if x.target is None:
        return {}               # no pass plays it: the moderator runs it by hand
    # A pass rules a deadline missed only once it read the game's mailbox in full: not one
    # on this machine that is not there (one on a server is taken as read).
    gone = x.source is not None and "://" not in x.source and not os.path.exists(x.source)
    rule_missed = None if gone else now - GRACE
    on_hold = sides_on_hold(table)
    post = Post(table, table.raw, x.spool, now, tl.state.game_id)
    sides: list[dict[str, str]] = []

    def unasked() -> dict[str, str]:
        if not sides:
            sides.append(unasked_sides(post, tl.dues, x.sends, now - GRACE, tl.settings)
                         if x.keys else {})
        return sides[0]
    why = {HELD: HELD_WHY, UNASKED: UNASKED_WHY, NOT_YET: not_yet_why(rule_missed)}
    out: dict[str, str] = {}
    for d in passed:
        fated = fate_of(tl, d, now, rule_missed, on_hold, unasked)
        if isinstance(fated, str) and fated in why:
            out[d.side] = why[fated]
    return out


def as_the_next_pass_rules(deadlines: dict | None, journal: Path, games_dir: Path | None
                           ) -> dict | None:
    """The deadlines a view shows (marked `missed` once their time has come), each the next
    pass of tick does not rule missed unmarked and given `not_ruled`: why."""
    if not deadlines or not any(d.get("missed") for d in deadlines.get("due") or ()):
        return deadlines
    spared = next_pass(journal, games_dir, clock_now())
    if not spared:
        return deadlines
    due = [{**{k: v for k, v in d.items() if k != "missed"}, "not_ruled": spared[d["side"]]}
           if d.get("missed") and d["side"] in spared else d for d in deadlines["due"]]
    return {**deadlines, "due": due}
