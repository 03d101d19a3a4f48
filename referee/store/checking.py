"""A long journal read cold: its records replayed here while every line is checked in full
beside (beside.py), on a second processor.

Checking a line (its canonical form, its hash) costs about as much as replaying it. Read
the first time on this account, with no snapshot to start from, a long journal is replayed
from records read here for their shape only (an object, in sequence, following the one
before: what replaying needs), while a forked process runs the whole check (chain.scan).
Nothing is kept or shown until the check has answered: settle() raises the first fault it
found, so the caller fails as a check line by line would, on the same record with the same
words: a fault found beside at or before the record the caller stopped on comes first.
"""

from __future__ import annotations

from typing import Any

from ..base.errors import JournalError
from .beside import Beside, alone, cores
from .chain import scan

# Below this, checking costs less than forking a process to do it (a journal of a few
# hundred records).
BESIDE_BYTES = 256 << 10


def worth_beside(raw: bytes) -> bool:
    """Whether a check beside would pay: a long journal, a second processor, one thread."""
    return len(raw) >= BESIDE_BYTES and cores() > 1 and alone()


def shaped(rec: Any, line: bytes, n: int, prev: str | None) -> bool:
    """Whether rec can be replayed as record n while its line is checked beside: an object,
    its seq n, following prev, naming its hash (anything else goes to check_line here)."""
    return type(rec) is dict and type(rec.get("seq")) is int and rec["seq"] == n and \
        rec.get("prev") == prev and type(rec.get("hash")) is str


class ReadBeside:
    """The records after the header of raw, for replaying, with their check beside."""

    def __init__(self, raw: bytes, name: str, header: dict):
        start, prev = raw.find(b"\n") + 1, header["hash"]
        self.work = Beside(lambda: first_fault(raw, name, prev, start))
        self.records = scan(raw, name, 1, prev, quick=shaped, start=start)

    def settle(self, upto: int | None = None) -> None:
        """Raise the first fault the check found (only one at or before record upto, when
        given)."""
        answer = self.work.result()
        record = answer.get("record")
        if "error" in answer and (upto is None or record is None or record <= upto):
            raise JournalError(str(answer["error"]), record=record,
                               torn=bool(answer.get("torn")))

    def close(self) -> None:
        self.work.close()


def first_fault(raw: bytes, name: str, prev: str, start: int) -> dict:
    """Every line of raw from start (the records after the header) checked: the first
    fault, if any."""
    try:
        for _ in scan(raw, name, 1, prev, start=start):
            pass
    except JournalError as exc:
        return {"error": str(exc), "record": exc.record, "torn": exc.torn}
    return {}
