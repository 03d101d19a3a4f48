"""Records in time order: no record is dated before the journal's last.

A record is dated by the host's clock (base/clock.py), which NTP, a moderator's laptop or
REFEREE_NOW can set back. A record dated before the one it follows would rule a deadline
twice or remind a player of one already ruled missed, and its mails, dated earlier than
those already sent, would sort below them in a player's mailbox. So an append checks the
clock against the last record's time under the journal's lock:

- behind it by more than SKEW: refused (ClockBehindError), nothing written; a pass of
  `tick` or `watch` tells it as the game's problem line and leaves the game alone until
  the clock has passed that time (mail/clockbehind.py);
- behind it by SKEW or less (two machines a few seconds apart, sharing a folder): the
  record is written, dated with the last record's time, so the times never go back.

Journals written before this check may hold records that go back in time; they are read and
played as they are, and `verify` warns of them (timesback.py).
"""

from __future__ import annotations

import os
from datetime import datetime, timedelta
from pathlib import Path

from ..base.clock import now, parse_stamp, stamp
from ..base.errors import ClockBehindError, one_line
from .chain import last_line, record_in

# How far the clock may be behind the last record and still write: the skew between two
# hosts that keep time (NTP holds them within a second; one that drifts unchecked, a few
# seconds a day). A clock further behind is one set wrong, not skew, and stops the writing.
SKEW = timedelta(seconds=60)


def last_dated(raw: bytes) -> tuple[int, str, datetime] | None:
    """The journal's last record, its number and time as written and read back (the header's
    creation time for a journal of record 0 alone); None when there is none to read."""
    rec = record_in(last_line(raw)) if raw.endswith(b"\n") else {}
    text = rec.get("at", rec.get("created_at"))
    seq = rec.get("seq", 0)
    moment = parse_stamp(text) if isinstance(text, str) else None
    if moment is None or type(seq) is not int:
        return None
    return seq, text, moment


def last_dated_in(path: Path) -> tuple[int, str, datetime] | None:
    """last_dated of a journal file, reading no more of it than its last complete line
    (None also when it cannot be read: its reader says why)."""
    try:
        with path.open("rb") as fh:
            end = fh.seek(0, os.SEEK_END)
            size = 1 << 16
            while True:
                start = max(end - size, 0)
                fh.seek(start)
                tail = fh.read(end - start)
                tail = tail[:tail.rfind(b"\n") + 1]
                if start == 0 or tail.count(b"\n") >= 2:
                    return last_dated(tail)
                size <<= 2
    except OSError:
        return None


def behind(raw: bytes, moment: datetime) -> str | None:
    """Why the clock at `moment` may not write after these journal bytes (the reason's
    words, without the game's name), or None when it may."""
    return behind_last(last_dated(raw), moment)


def behind_last(last: tuple[int, str, datetime] | None, moment: datetime) -> str | None:
    """behind, given the journal's last record (last_dated)."""
    if last is None or moment >= last[2] - SKEW:
        return None
    return _why(moment, last[0], last[1])


def _why(moment: datetime, seq: int, text: str) -> str:
    return (f"the clock ({stamp(moment)}) is behind record {seq}'s time ({text}) by more "
            f"than {int(SKEW.total_seconds())} seconds")


def _refused(name: str, why: str) -> ClockBehindError:
    return ClockBehindError(f"{one_line(name)}: {why}; nothing was written: set the clock "
                            f"right, or wait until it has passed that time")


def refuse_behind(raw: bytes, name: str) -> None:
    """ClockBehindError, nothing written, when the game's clock is behind the last record
    of raw by more than SKEW."""
    why = behind(raw, now())
    if why is not None:
        raise _refused(name, why)


def in_order(raw: bytes, bodies: list[dict], name: str) -> list[dict]:
    """The record bodies to append after raw, each dated no earlier than the record before
    it: one behind by SKEW or less takes that record's time; one further behind is refused
    (ClockBehindError), nothing written."""
    last = last_dated(raw)
    if last is None:
        return bodies
    seq, floor_text, floor = last
    out = []
    for i, body in enumerate(bodies):
        text = body.get("at")
        moment = parse_stamp(text) if isinstance(text, str) else None
        if moment is not None and moment < floor - SKEW:
            raise _refused(name, _why(moment, seq, floor_text))
        if moment is not None and moment < floor:
            body = {**body, "at": floor_text}
        elif moment is not None:
            floor_text, floor = text, moment
        if moment is not None:
            seq = last[0] + 1 + i
        out.append(body)
    return out
