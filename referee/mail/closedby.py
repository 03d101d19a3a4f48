"""Who answered a player's decision in his stead, told to him when his reply to an older mail
is refused as stale (handling.py): the referee's default at his missed deadline, the referee
as the only order open, or the moderator by hand. Each record of a side's order says how it
came (`by`, game/replay.py body): a player whose late mail is refused learns in its first
lines that his decision was closed for him, and with what, not only that it changed."""

from __future__ import annotations

from ..base.clock import for_players, parse_stamp
from ..base.errors import quoted
from ..game.clockwalk import zone_of
from ..game.replay import order_text
from ..table import Table
from .msgids import Answered

# The longest order a note quotes (a sealed plan is quoted by its first line).
QUOTED = 60


def closed_for(table: Table, answered: Answered | None, side: str) -> str | None:
    """The sentence saying who closed side's decision after the record his reply answered
    (answered: the record it ended at), or None: the first order of side's since then was
    his own (by mail), or none came, or that record is another since the moderator set the
    game back (its mail's board is gone: answered.stale_reply says so)."""
    records = table.records
    if answered is None or answered.seq >= len(records) or \
            not answered.is_of(records[answered.seq]):
        return None
    for rec in records[answered.seq + 1:]:
        if rec.get("actor") != side:
            continue
        how = rec.get("by")
        if how == "mail":
            return None
        if how in ("deadline", "referee", "hand"):
            return _said(table, rec, how)
    return None


def _said(table: Table, rec: dict, how: str) -> str:
    """What record rec, a side's order not given by its mail, tells him of it."""
    order, seq = quoted(order_text(rec).split("\n")[0], QUOTED), rec["seq"]
    if how == "hand":
        return f"The moderator entered {order} for you by hand (record {seq})."
    if how == "referee":
        return (f"The referee closed your decision with {order}, the only order open "
                f"(record {seq}).")
    clock = rec.get("clock") if isinstance(rec.get("clock"), dict) else {}
    due = parse_stamp(str(clock.get("due")))
    at = f" at {for_players(due, zone_of(table.raw))}" if due is not None else ""
    return f"Your deadline passed{at}: the referee answered {order} for you (record {seq})."
