"""verify's warning of a journal whose records go back in time: written before the referee
refused to write the past (timeorder.py), by a clock set back. Imported by verify alone: the
small decoder it reads each line with costs a read's start-up the typing machinery."""

from __future__ import annotations

import re
from pathlib import Path

import msgspec

from ..base.clock import parse_stamp, stamp

_CANONICAL = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z")


class _Dated(msgspec.Struct):
    """Of a record, its time and number alone: every other field is skipped unread."""

    at: object = None
    seq: object = None


def went_back(path: Path) -> str | None:
    """verify's warning for a journal whose records go back in time (written before the
    referee refused to: a clock set back), naming how many and the first; None when none
    does. A warning, never a failure: the game was played so and plays on. The journal is
    read a line at a time, its time and number alone decoded, as verify reads it: a long
    journal costs no more memory than a short one."""
    dated = msgspec.json.Decoder(_Dated)
    count, first, last = 0, None, None
    with open(path, "rb") as fh:
        next(fh, None)                  # record 0: the game's header
        for line in fh:
            try:
                rec = dated.decode(line)
            except msgspec.DecodeError:
                continue
            key = _sortable(rec.at)
            if key is None:
                continue
            if last is not None and key < last[0]:
                count += 1
                first = first or (rec.seq, rec.at, last[1])
            if last is None or key > last[0]:
                last = (key, rec.at)
    if first is None:
        return None
    seq, text, before = first
    many = f"{count} records are" if count > 1 else "1 record is"
    they = "they" if count > 1 else "it"
    return (f"times: warning: {many} dated before a record {they} follow"
            f"{'' if count > 1 else 's'} (the first: record "
            f"{seq} at {text}, after one at {before}): written while the clock was set back, "
            f"by a referee that did not yet refuse it; the game plays on")


def _sortable(text: object) -> str | None:
    """A record's time as a key that sorts as time does: the referee's own stamps (UTC, to
    the second) as they are, any other readable time written so; None when unreadable."""
    if not isinstance(text, str):
        return None
    if _CANONICAL.fullmatch(text):
        return text
    moment = parse_stamp(text)
    return stamp(moment) if moment is not None else None
