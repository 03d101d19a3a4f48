"""The game journal: one JSONL file, hash-chained, appended under an exclusive lock.

Record 0 is the header; every later record carries `seq`, `prev` (hash of the
record before), `hash`, `at`, `actor`, the order text as submitted and the
events it produced. A line is the canonical JSON of its record (sorted keys,
no spaces, ASCII), so any edited byte is found: either the line no longer
parses, or it is not canonical, or its hash or the next record's `prev`
no longer match.

Secret parts of events (a drawn card, the order of a shuffled deck) enter
the hash only as a salted digest: an export with those parts replaced by
their digests verifies exactly like the full journal.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import portalocker

from .errors import JournalError, StaleViewError, UsageError

SCHEMA_VERSION = 1

# Upcasters turn a record of an older schema version into the next version:
# {from_version: function(record) -> record}. Hashes are always checked on the
# record as stored, before any upcasting.
UPCASTERS: dict[int, Callable[[dict], dict]] = {}


def canonical(obj: Any) -> bytes:
    """The canonical JSON bytes of obj: sorted keys, no spaces, ASCII only."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def secret_digest(salt: str, data: Any) -> str:
    """The salted digest that stands for a secret payload in hashes and exports."""
    return hashlib.sha256(salt.encode() + canonical(data)).hexdigest()


def _hash_form(obj: Any) -> Any:
    """obj with every secret part {to, salt, data} replaced by {to, digest}."""
    if isinstance(obj, dict):
        if "salt" in obj and "data" in obj and "to" in obj and len(obj) == 3:
            return {"to": obj["to"], "digest": secret_digest(obj["salt"], obj["data"])}
        return {k: _hash_form(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_hash_form(v) for v in obj]
    return obj


def record_hash(record: dict) -> str:
    """SHA-256 of the canonical JSON of a record (without its own hash, secrets as digests)."""
    body = {k: v for k, v in record.items() if k != "hash"}
    return hashlib.sha256(canonical(_hash_form(body))).hexdigest()


def seal(record: dict) -> dict:
    """Return the record with its hash filled in."""
    record = dict(record)
    record["hash"] = record_hash(record)
    return record


def now() -> str:
    """The current UTC time as an ISO 8601 string (seconds)."""
    return datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def redact(record: dict, reader: str) -> dict:
    """The record as one reader may see it: others' secret parts become digests."""
    def walk(obj: Any) -> Any:
        if isinstance(obj, dict):
            if "salt" in obj and "data" in obj and "to" in obj and len(obj) == 3:
                if reader == "moderator" or obj["to"] == reader:
                    return obj
                return {"to": obj["to"], "digest": secret_digest(obj["salt"], obj["data"])}
            return {k: walk(v) for k, v in obj.items()}
        if isinstance(obj, list):
            return [walk(v) for v in obj]
        return obj
    return walk(record)


def parse(raw: bytes, name: str = "journal") -> list[dict]:
    """Parse and check journal bytes; JournalError names the first bad record.

    Checks, record by record: complete line, valid JSON, canonical form,
    sequence number, link to the previous record, own hash, schema version.
    """
    if not raw:
        raise JournalError(f"{name}: empty file, no header record", record=0)
    lines = raw.split(b"\n")
    tail = lines.pop()
    records: list[dict] = []
    prev: str | None = None
    for n, line in enumerate(lines):
        records.append(_check_line(line, n, prev, name))
        prev = records[-1]["hash"]
    if tail:
        n = len(lines)
        raise JournalError(
            f"{name}: record {n} is torn (the last line is incomplete, {len(tail)} bytes "
            f"without an end of line); `referee repair` removes only that tail",
            record=n, torn=True)
    if not records:
        raise JournalError(f"{name}: no complete header record", record=0)
    return [_upcast(r, name) for r in records]


def parse_tail(raw: bytes, name: str, first_seq: int, prev: str) -> list[dict]:
    """Check the records that follow a known, already checked record (seq first_seq - 1)."""
    if not raw:
        return []
    lines = raw.split(b"\n")
    tail = lines.pop()
    records = []
    for i, line in enumerate(lines):
        records.append(_check_line(line, first_seq + i, prev, name))
        prev = records[-1]["hash"]
    if tail:
        n = first_seq + len(lines)
        raise JournalError(
            f"{name}: record {n} is torn (the last line is incomplete, {len(tail)} bytes "
            f"without an end of line); `referee repair` removes only that tail",
            record=n, torn=True)
    return records


def _check_line(line: bytes, n: int, prev: str | None, name: str) -> dict:
    try:
        rec = json.loads(line)
    except (ValueError, UnicodeDecodeError) as exc:
        raise JournalError(f"{name}: record {n} is damaged: not valid JSON ({exc})",
                           record=n) from None
    if not isinstance(rec, dict):
        raise JournalError(f"{name}: record {n} is damaged: not a JSON object", record=n)
    if canonical(rec) != line:
        raise JournalError(f"{name}: record {n} was edited: it is not in the form the referee "
                           f"writes", record=n)
    if rec.get("seq") != n:
        raise JournalError(f"{name}: record {n} is out of order: it says seq "
                           f"{rec.get('seq')!r}", record=n)
    if rec.get("prev") != prev:
        raise JournalError(f"{name}: record {n} does not follow record {n - 1}: the hash chain "
                           f"is broken (a record was edited, removed or reordered)", record=n)
    if rec.get("hash") != record_hash(rec):
        raise JournalError(f"{name}: record {n} was edited: its content does not match its "
                           f"hash", record=n)
    return rec


def _upcast(rec: dict, name: str) -> dict:
    if rec["seq"] != 0:
        return rec
    version = rec.get("schema_version")
    if not isinstance(version, int):
        raise JournalError(f"{name}: record 0 has no schema version", record=0)
    if version > SCHEMA_VERSION:
        raise JournalError(f"{name}: record 0 has schema version {version}; this referee "
                           f"reads up to version {SCHEMA_VERSION} (upgrade the referee)", record=0)
    if version < SCHEMA_VERSION and version not in UPCASTERS:
        raise JournalError(f"{name}: record 0 has schema version {version} and no upcaster "
                           f"to version {SCHEMA_VERSION} exists", record=0)
    return rec


def upcast_all(records: list[dict]) -> list[dict]:
    """Records of an older schema version brought to the current one, step by step."""
    version = records[0]["schema_version"]
    while version < SCHEMA_VERSION:
        records = [UPCASTERS[version](dict(r)) for r in records]
        version += 1
    return records


class Journal:
    """One game's journal file: reading, creating and locked appending."""

    def __init__(self, path: Path | str):
        self.path = Path(path)

    @property
    def name(self) -> str:
        """The file name used in messages."""
        return self.path.name

    def _require(self) -> None:
        if not self.path.is_file():
            raise UsageError(f"{self.path}: no such journal")

    def raw(self) -> bytes:
        """The file's bytes."""
        self._require()
        return self.path.read_bytes()

    def read(self) -> list[dict]:
        """Every record, checked (JournalError on the first damaged one), upcast."""
        return upcast_all(parse(self.raw(), self.name))

    def create(self, header: dict, first: dict | None = None) -> list[dict]:
        """Write a new journal holding the header (and a first record); never overwrites."""
        header = seal({**header, "seq": 0, "prev": None, "schema_version": SCHEMA_VERSION})
        records = [header]
        if first is not None:
            records.append(seal({**first, "seq": 1, "prev": header["hash"]}))
        data = b"".join(canonical(r) + b"\n" for r in records)
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            raise UsageError(f"{self.path}: already exists; choose another file name") from None
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        return records

    def append(self, build: Callable[[list[dict]], list[dict]],
               expect_seq: int | None = None) -> list[dict]:
        """Append the records build(existing) returns, all under one exclusive lock.

        build gets the checked records and returns new record bodies (without
        seq, prev and hash); they are sealed, chained and written in a single
        write, flushed and fsynced. If build raises, nothing is written.
        """
        self._require()
        with open(self.path, "r+b") as fh:
            portalocker.lock(fh, portalocker.LOCK_EX)
            try:
                raw = fh.read()
                records = upcast_all(parse(raw, self.name))
                last = records[-1]["seq"]
                if expect_seq is not None and expect_seq != last:
                    raise StaleViewError(
                        f"the journal has moved on: its last record is {last}, the order was "
                        f"written against record {expect_seq} (--expect-seq); look again at "
                        f"`referee status` and resubmit")
                bodies = build(records)
                new: list[dict] = []
                prev = records[-1]["hash"]
                for i, body in enumerate(bodies):
                    rec = seal({**body, "seq": last + 1 + i, "prev": prev})
                    prev = rec["hash"]
                    new.append(rec)
                if new:
                    fh.seek(0, os.SEEK_END)
                    fh.write(b"".join(canonical(r) + b"\n" for r in new))
                    fh.flush()
                    os.fsync(fh.fileno())
                return new
            finally:
                portalocker.unlock(fh)

    def repair(self) -> tuple[int, Path | None]:
        """Cut a torn last line after backing the file up; returns (records kept, backup)."""
        self._require()
        with open(self.path, "r+b") as fh:
            portalocker.lock(fh, portalocker.LOCK_EX)
            try:
                raw = fh.read()
                try:
                    records = parse(raw, self.name)
                    return len(records), None
                except JournalError as exc:
                    if not exc.torn:
                        raise JournalError(
                            f"{exc} — repair only removes a torn last line; this damage is "
                            f"not that, so nothing was changed", record=exc.record) from None
                keep = raw[: raw.rfind(b"\n") + 1]
                records = parse(keep, self.name)
                backup = self.path.with_name(self.path.name + f".{now().replace(':', '')}.bak")
                shutil.copyfile(self.path, backup)
                fh.seek(0)
                fh.truncate(len(keep))
                fh.flush()
                os.fsync(fh.fileno())
                return len(records), backup
            finally:
                portalocker.unlock(fh)
