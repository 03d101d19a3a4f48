"""The order a player sent his mails in, which is the order they are applied and answered in.

A mail's Date says when it was sent while it is sane: read, and not after the clock of the
run reading it (a Date to come is a wrong clock, or a Date written to go last). A mail
without a sane Date keeps the place it arrived at among its sender's mails (the mailbox's
order, as read): after every mail of his that arrived before it, that is, at the latest sane
Date among them (first of all when there is none). Another sender's mails do not move it: a
stranger's mail cannot turn a player's two mails about. Mails of one moment go in the order
they arrived. Sorting mails already in this order leaves them so: a
pass's own copy of a game's mails (claims.py) is read again in the order it was written.
"""

from __future__ import annotations

from datetime import UTC, datetime

from ..base.clock import now
from .copies import mail_of


def sane_date(date: float, moment: datetime | None = None) -> float | None:
    """A mail's Date (a POSIX time, 0.0 for none or one that cannot be read) when it is
    sane at moment (default: now); else None."""
    if not date:
        return None
    return date if date <= (moment or now()).timestamp() else None


def in_sent_order(messages: list, moment: datetime | None = None) -> list:
    """messages (each with its date, its sender and its order of arrival) in the order they
    were sent."""
    when = (moment or now())
    keyed, latest = [], {}
    for m in sorted(messages, key=lambda m: m.order):
        sane = sane_date(m.date, when)
        if sane is not None:
            latest[m.sender] = max(latest.get(m.sender, sane), sane)
        keyed.append((latest.get(m.sender, float("-inf")) if sane is None else sane,
                      m.order, m))
    return [m for *_, m in sorted(keyed, key=lambda k: k[:2])]


# An owed reply's mark, in the ledger: a later mail of the same side was applied in the same
# run (its sane Date, 0.0 for none); the reply is written before the report that answers it.
LATER = "later"


def later_applied(ledger: dict, side: str, date: float) -> None:
    """A mail of side's applied: the replies owed to his earlier mails marked so (LATER)."""
    for entry in ledger["owed"]:
        if entry.get("side") == side:
            entry[LATER] = sane_date(date) or 0.0


def later_words(entry: dict, zone: str | None) -> str:
    """The line above a reply marked LATER: that his later mail (named by its Date, in the
    game's time zone with UTC beside it, as his deadlines are) was applied, so that a reader
    who sees this reply last is not misled: the report answering that mail is its answer."""
    dated = entry.get(LATER)
    try:
        moment = datetime.fromtimestamp(dated, UTC) if isinstance(dated, (int, float)) and \
            not isinstance(dated, bool) and dated else None
    except (ValueError, OverflowError, OSError):
        moment = None
    return f"Your later {mail_of(moment, zone).removeprefix('your ')} was applied: see its " \
        f"answer."
