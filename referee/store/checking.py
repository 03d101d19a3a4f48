"""A long journal read cold: its records replayed here while every line is checked in full
beside (beside.py), on a second processor.

Checking a line (its canonical form, its hash) costs about as much as replaying it. Read
the first time on this account, with no snapshot to start from, a long journal is replayed
from records read here for their shape only (an object, in sequence, following the one
before: what replaying needs), while a forked process runs the whole check (chain.scan),
and validates the secret data of each record (which the replay applies unvalidated).
A Table begins that check as soon as it knows the read is cold (start), before the rules
and the game data load, so that the check ends before the replay does. Nothing is kept or
shown until the check has answered: settle() raises the first fault it found, so the caller
fails as a check line by line would, on the same record with the same words: a fault found
beside at or before the record the caller stopped on comes first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from ..base.errors import JournalError
from . import snapshot
from .beside import Beside, alone, cores
from .chain import _Float, _next_lines, _no_float, scan

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


class Typed:
    """Records read straight into their contract class, for a read whose lines are checked
    beside: `shape`, the class of a record; `of_dict`, the record of a line read the usual way
    (its contract checked in full); `whole(batch)`, whether records so read pass what `shape`
    leaves to be checked of a batch at once (None: nothing), else their lines are read the
    usual way. What the class alone does not check of a record taken so (the secret data it
    carries) is checked beside too: start's `parts`. A plain class: a NamedTuple compiles its
    fields' annotations, written as text here, to read them."""

    __slots__ = ("shape", "of_dict", "whole")

    def __init__(self, shape: type, of_dict: Callable[[dict], Any],
                 whole: Callable[[list], bool] | None = None):
        self.shape, self.of_dict, self.whole = shape, of_dict, whole


def start(raw: bytes, name: str, parts: Callable[[dict, str], Any] | None = None) -> Beside | None:
    """The whole check of raw begun in a forked process (first_fault), where that pays
    (worth_beside); else None. parts(record, name): the check of what a record's class
    leaves unchecked, run on each record after the header (JournalError for a fault)."""
    if not worth_beside(raw):
        return None
    return Beside(lambda: first_fault(raw, name, parts))


_DECODERS: dict[type, Any] = {}


def _decoder(shape: type):
    """A decoder of a JSON array of records of that class, refusing floats as scan does."""
    if shape not in _DECODERS:
        import msgspec

        _DECODERS[shape] = msgspec.json.Decoder(list[shape], float_hook=_no_float).decode
    return _DECODERS[shape]


def _typed_batch(lines: list[bytes], n: int, prev: str, typed: Typed) -> list | None:
    """The lines' records, one per line, in sequence from record n after prev; None when
    they cannot all be read so."""
    try:
        batch = _decoder(typed.shape)(b"[" + b",".join(lines) + b"]")
    except (_Float, ValueError, RecursionError):    # msgspec's errors are ValueErrors
        return None
    if len(batch) != len(lines):
        return None
    for rec in batch:
        if rec.seq != n or rec.prev != prev:
            return None
        n, prev = n + 1, rec.hash
    return batch if typed.whole is None or typed.whole(batch) else None


class ReadBeside:
    """The records after the header of raw, for replaying, with their check beside (begun by
    start): JSON objects, or records of typed.shape when typed is given."""

    def __init__(self, raw: bytes, name: str, header: dict, check: Beside,
                 typed: Typed | None = None):
        start, prev = raw.find(b"\n") + 1, header["hash"]
        self.raw, self.work = raw, check
        # The last record taken straight into its class (none of whose secret data was then
        # checked here): a fault the check beside found in such data counts, up to it.
        self.typed_upto = 0
        self.records = scan(raw, name, 1, prev, quick=shaped, start=start) if typed is None \
            else self._typed_records(raw, name, prev, start, typed)

    def _typed_records(self, raw: bytes, name: str, prev: str, start: int,
                       typed: Typed) -> Iterator:
        """The records of raw from start (record 1 on, the first following prev), each of
        typed.shape: a batch of lines decoded into the class in one call, about three times
        cheaper than JSON objects converted one by one. From the first batch that cannot be
        read so (or is not in sequence), the usual way, line by line, with the same checks
        and words. Only the shape replaying needs is checked here: every line is checked
        beside, and the secret data of the records taken so."""
        n = 1
        while True:
            lines, after = _next_lines(raw, start)
            batch = _typed_batch(lines, n, prev, typed) if lines else None
            if batch is None:
                break
            self.typed_upto = batch[-1].seq
            yield from batch
            n, prev, start = n + len(batch), batch[-1].hash, after
        for rec in scan(raw, name, n, prev, quick=shaped, start=start):   # or a torn tail
            yield typed.of_dict(rec)

    def settle(self, upto: int | None = None) -> None:
        """Raise the first fault the check found (only one at or before record upto, when
        given): in a line, or in the secret data of a record taken straight into its class
        (always before the first fault in a line: the check stops there)."""
        answer = self.work.result()
        fault = answer if "error" in answer else None
        parts = answer.get("parts")
        if isinstance(parts, dict) and type(parts.get("record")) is int and \
                parts["record"] <= self.typed_upto:
            fault = parts
        record = fault.get("record") if fault is not None else None
        if fault is not None and (upto is None or record is None or record <= upto):
            raise JournalError(str(fault["error"]), record=record, torn=bool(fault.get("torn")))
        if isinstance(answer.get("sha256"), str):
            snapshot.hashed(self.raw, answer["sha256"])

    def close(self) -> None:
        self.work.close()


def first_fault(raw: bytes, name: str, parts: Callable[[dict, str], Any] | None = None) -> dict:
    """Every line of raw checked, and parts(record, name) run on each record after the header:
    the first fault in a line, if any, and the first parts found before it ("parts"). A
    journal without either gets the SHA-256 of the whole of raw, which the state and the
    view kept of a journal read cold are bound to (worked out here, on the checker's
    processor)."""
    found = None
    try:
        for n, rec in enumerate(scan(raw, name)):
            if n and parts is not None and found is None:
                try:
                    parts(rec, name)
                except JournalError as exc:
                    found = {"error": str(exc), "record": exc.record}
    except JournalError as exc:
        line = {"error": str(exc), "record": exc.record, "torn": exc.torn}
        return {**line, "parts": found} if found else line
    return {"parts": found} if found else {"sha256": snapshot.digest_of(raw)}
