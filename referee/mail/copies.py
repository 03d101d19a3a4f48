"""A mail whose Date, Subject and text are those of a mail of the same side applied before,
under another Message-ID (a copy sent again: a mail program's resend, a relay's second
delivery): it is applied once, and its sender is told so in his own terms, as what
happened to his mail, not as a fault of his: which mail (its Date, the copy's too, told
in the game's time zone with UTC beside it, as his deadlines are), the record it was
applied as, and that nothing more was done.
"""

from __future__ import annotations

from datetime import UTC, datetime

from ..base.clock import for_players
from ..game.clockwalk import zone_of
from .outcome import halt_of


def copy_refusal(record: int, dated: float, zone: str | None = None,
                 taking: bool = True) -> str:
    """Why a copy of the mail applied as record `record` is not applied (dated: its Date, a
    POSIX time); taking: the game takes orders now (else he is not told how to give them
    again). Read after 'This is ' in his reply (this_is), alone in the run's line."""
    try:
        moment = datetime.fromtimestamp(dated, UTC)
    except (ValueError, OverflowError, OSError):
        moment = None                   # beyond the year 9999: a player may write one
    return (f"a copy of {mail_of(moment, zone)}, which was applied already (record "
            f"{record}): nothing more was done" +
            (". To give the same orders again, send them in a new message" if taking else ""))


def this_is(reason: str) -> str:
    """A copy's reason (copy_refusal) as the first sentence of the reply to it."""
    return f"This is {reason}."


def refuse_copy(out, record: int, dated: float, table=None, status: str = "rejected") -> None:
    """out (an Outcome, or a direct mail's Handled) refused as a copy of record `record`
    (dated: its Date), marked so (out.copied) that its reply opens with what happened
    (this_is), never read from the reason's words. table: a campaign's Table, whose time
    zone tells the Date and whose halt (outcome.halt_of) leaves out how to give the orders
    again; none for a game with neither (a skirmish's)."""
    zone, taking = (zone_of(table.raw), not halt_of(table)) if table is not None else \
        (None, True)
    out.status, out.reason = status, copy_refusal(record, dated, zone, taking)
    out.copied, out.code = record, "duplicate"


def mail_of(moment: datetime | None, zone: str | None, undated: str = "your mail") -> str:
    """A player's mail as the referee's mails name it: 'your mail of' its Date, told in the
    game's time zone with UTC beside it, as his deadlines are; undated when it had none, or
    one no clock of that zone shows (near the year 9999: a player may write one)."""
    try:
        return f"your mail of {for_players(moment, zone)}" if moment else undated
    except (ValueError, OverflowError):
        return undated
