"""verify's warning of a journal whose records go back in time. A referee deciding rules 13
or later refuses to write the past (timeorder.py came in under rules 12, and a game under
older rules is written to only after `upgrade`): a record dated back that such rules made
was edited after it was written; one of older rules may have been written with the clock set
back. Imported by verify alone, which shows it each record as it reads the record for its
other checks: the journal is read once, and a long one costs no more memory than a short
one."""

from __future__ import annotations

import re

from ..base.clock import parse_stamp, stamp

REFUSED_FROM_RULES = 13      # the first rules whose referee refused a clock set back
_CANONICAL = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z")


class TimesBack:
    """The records after the header, seen in order: how many are dated before a record they
    follow, and the first of them."""

    def __init__(self, header: dict | None = None) -> None:
        self.count = 0
        self.first: tuple | None = None         # (seq, its time, the later time before it)
        self.last: tuple[str, str] | None = None    # the latest time so far: (key, as written)
        rules = (header or {}).get("rules_version")
        self.rules = rules if type(rules) is int else None      # the rules in force
        self.made_by = (header or {}).get("engine_version")     # the referee that began it
        self.under: int | None = None           # the rules the first dated back was made under
        self.ended = False                      # a record ended the game

    def see(self, seq: object, at: object, events: object = None) -> None:
        """One record's number, time (one without a readable time is passed over) and
        events (the rules it moves on to, the end of the game)."""
        for ev in events if isinstance(events, list) else ():
            kind = ev.get("type") if isinstance(ev, dict) else None
            if kind == "GameEnded":
                self.ended = True
            elif kind == "RulesUpgraded" and type(ev.get("rules")) is int:
                self.rules = ev["rules"]
        key = _sortable(at)
        if key is None:
            return
        last = self.last
        if last is not None and key < last[0]:
            self.count += 1
            if self.first is None:
                self.first, self.under = (seq, at, last[1]), self.rules
        if last is None or key > last[0]:
            self.last = (key, at)

    def warning(self) -> str | None:
        """verify's warning for the records seen going back in time, naming how many and the
        first, and what the rules it was made under tell of how; None when none does. A
        warning, never a failure: an old game was played so, and plays on unless it ended."""
        if self.first is None:
            return None
        seq, text, before = self.first
        many = f"{self.count} records are" if self.count > 1 else "1 record is"
        they = "they" if self.count > 1 else "it"
        return (f"times: warning: {many} dated before a record {they} follow"
                f"{'' if self.count > 1 else 's'} (the first: record "
                f"{seq} at {text}, after one at {before}): {self._how()}; "
                f"{'the game has ended' if self.ended else 'the game plays on'}")

    def _how(self) -> str:
        """What the rules the first record dated back was made under tell of how it was."""
        made = f", in a game begun by referee {self.made_by}" if isinstance(self.made_by, str) \
            else ""
        if self.under is None:
            return "written while the clock was set back, or its time edited afterwards"
        if self.under >= REFUSED_FROM_RULES:
            return (f"it was made under rules {self.under}{made}, by a referee that refuses "
                    f"a clock set back (since rules {REFUSED_FROM_RULES}): its time was "
                    f"edited after it was written")
        return (f"it was made under rules {self.under}{made}, by a referee that did not yet "
                f"refuse a clock set back (that came with rules {REFUSED_FROM_RULES}): "
                f"written while the clock was set back, or its time edited afterwards")


def went_back(records) -> str | None:
    """The warning for records after the header, read already (a skirmish's), or None."""
    times = TimesBack()
    for rec in records:
        times.see(rec.get("seq"), rec.get("at"), rec.get("events"))
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
