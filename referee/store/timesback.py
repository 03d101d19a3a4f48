"""verify's warning of a journal whose records go back in time: written before the referee
refused to write the past (timeorder.py), by a clock set back. Imported by verify alone, which
shows it each record's time as it reads the record for its other checks: the journal is read
once, and a long one costs no more memory than a short one."""

from __future__ import annotations

import re

from ..base.clock import parse_stamp, stamp

_CANONICAL = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z")


class TimesBack:
    """The records after the header, seen in order: how many are dated before a record they
    follow, and the first of them."""

    def __init__(self) -> None:
        self.count = 0
        self.first: tuple | None = None         # (seq, its time, the later time before it)
        self.last: tuple[str, str] | None = None    # the latest time so far: (key, as written)

    def see(self, seq: object, at: object) -> None:
        """One record's number and time (one without a readable time is passed over)."""
        key = _sortable(at)
        if key is None:
            return
        last = self.last
        if last is not None and key < last[0]:
            self.count += 1
            self.first = self.first or (seq, at, last[1])
        if last is None or key > last[0]:
            self.last = (key, at)

    def warning(self) -> str | None:
        """verify's warning for the records seen going back in time, naming how many and the
        first; None when none does. A warning, never a failure: the game was played so and
        plays on."""
        if self.first is None:
            return None
        seq, text, before = self.first
        many = f"{self.count} records are" if self.count > 1 else "1 record is"
        they = "they" if self.count > 1 else "it"
        return (f"times: warning: {many} dated before a record {they} follow"
                f"{'' if self.count > 1 else 's'} (the first: record "
                f"{seq} at {text}, after one at {before}): written while the clock was set "
                f"back, by a referee that did not yet refuse it; the game plays on")


def went_back(records) -> str | None:
    """The warning for records after the header, read already (a skirmish's), or None."""
    times = TimesBack()
    for rec in records:
        times.see(rec.get("seq"), rec.get("at"))
    return times.warning()


def _sortable(text: object) -> str | None:
    """A record's time as a key that sorts as time does: the referee's own stamps (UTC, to
    the second) as they are, any other readable time written so; None when unreadable."""
    if not isinstance(text, str):
        return None
    if _CANONICAL.fullmatch(text):
        return text
    moment = parse_stamp(text)
    return stamp(moment) if moment is not None else None
