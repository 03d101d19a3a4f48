"""The deadline an extension record set, as a report tells it under that record: the one
in force now while nothing later moved that hand-off's clock, else the one in force right
after the record (the journal walked to it), so that a line tells what its record did and
not what a later extension made of it."""

from __future__ import annotations

from pathlib import Path

from ..base.clock import stamp
from ..store.journal import Journal
from .timeline import standing_due, timeline


def due_set(journal: Journal, raw: bytes, records: list[dict], rec: dict,
            dues: list[dict], games_dir: Path | None = None) -> list[dict]:
    """The deadlines (as deadline_view lists them) an extension record rec is told with:
    dues (those now) unless a later record of raw's has a clock part; then those right after
    rec."""
    fact = rec.get("clock")
    if standing_due(fact, dues) is None or \
            not any("clock" in r for r in records[rec["seq"] + 1:]):
        return dues
    mark = raw.find(b'"hash":"' + str(rec.get("hash")).encode("ascii", "replace") + b'"')
    end = raw.find(b"\n", mark) + 1 if mark >= 0 else 0
    if end <= 0:
        return dues
    tl = timeline(journal, raw[:end], games_dir)
    return [{"side": d.side, "handoff": d.handoff, "due": stamp(d.due)} for d in tl.dues]
