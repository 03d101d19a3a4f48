"""The time a hold took from a player's deadline, given back when it ends without his orders.

While his mailed orders wait for the moderator's dice, no deadline of his runs (holds.py,
reminders.py): he answered in time. When the hold ends without them (dropped.py), the
deadline of the decision he still owes may have passed meanwhile, and the pass that ends
the hold would rule it missed at once: answered for him, or the game stopped, before the
mail telling him reaches him. The deadline is extended then, as the moderator extends one
(`referee extend`: no extension of the player's own is spent), to the whole time the game
gives for that decision, from the end of the hold. A deadline that began to run after the
record the orders were held at (the decision moved on since) lost nothing to the hold.

It is given back once: the extension names the hold it gives back for (hold_mark, the
ClockFact's `hold`), and none is written for a hold an extension of the journal names
already. A pass cut off after the extension but before the ledger forgot the hold ends it
again at the next pass, minutes later, and would otherwise extend the deadline once more by
the minutes between the two. Another hold of the side, later, is another mark: its time is
given back too.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta

from ..base.clock import duration_text, held
from ..base.errors import OrderError, UsageError
from ..base.readers import MODERATOR
from ..game import timeline as g_timeline
from ..game.clockwalk import has_deadlines
from ..table import Table
from .holds import held_at
from .ledger import fault

# Why the referee gave an extension (ClockFact `given`): a hold's time, or a late mail's.
HELD, UNASKED = "held", "unasked"


def give_back_time(table: Table, side: str, entry, now: datetime) -> None:
    """Extend side's deadline to the game's time for his decision from now, when it ran
    while his orders were held (entry: the ledger's `held` entry, its hold ended) and less
    than that time is left of it."""
    seq, mark = held_at(entry), hold_mark(side, entry)
    if seq is None or not has_deadlines(table.raw) or g_timeline.gave_back(table.raw, mark):
        return
    tl = g_timeline.timeline(table.journal, table.raw, table.games_dir,
                             table.records_of(table.raw))
    due = tl.due_for(side)
    span = None if due is None else tl.settings.duration(due.decision)
    if tl.paused or due is None or span is None or due.handoff > seq:
        return
    extended(table, side, now + span - due.due, mark, now, HELD)


def extended(table: Table, side: str, short: timedelta, mark: str, now: datetime,
             given: str) -> str | None:
    """The moderator's extension of side's deadline by short (to the minute above), named by
    mark so that it is given once: its length as the record says it, or None when nothing is
    short or the game takes no extension now. given: why (ClockFact `given`)."""
    minutes = -(-short // timedelta(minutes=1))
    if minutes <= 0:
        return None
    text = duration_text(timedelta(minutes=minutes))
    try:
        with held(now):
            g_timeline.extend(table.path, MODERATOR, side, text, table.games_dir, None,
                              table.append, hold=mark, given=given)
    except (OrderError, UsageError):  # NoOrdersTaken too: the game takes none now
        return None
    fault("given back")
    return text


def hold_mark(side: str, entry) -> str:
    """The digest an extension names a hold by (ClockFact `hold`): the side, the record it
    waited at, by number and hash, and the mail it held (its raw digest, which no reader
    but the moderator can guess). A hold an older ledger kept has no digest: it is named by
    its side and record alone, never by its lines, which a reader of the journal could
    confirm by guessing them; every later hold has one."""
    mail = entry.get("mail") if isinstance(entry, dict) else None
    made_at = entry.get("hash") if isinstance(entry, dict) else None
    said = ["hold", side, str(held_at(entry)), str(made_at),
            *([mail] if isinstance(mail, str) else [])]
    return hashlib.sha256("\n".join(said).encode()).hexdigest()[:16]
