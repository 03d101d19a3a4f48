"""The game journal: one JSONL file, hash-chained, appended durably under an exclusive lock.

Record 0 is the header; every later record carries `seq`, `prev` (hash of the
record before), `hash`, `at`, `actor`, the order text as submitted and the
events it produced. A line is the canonical JSON of its record (sorted keys,
no spaces, ASCII), so any edited byte is found: either the line no longer
parses, or it is not canonical, or its hash or the next record's `prev`
no longer match.

Secret parts of events (a drawn card, the order of a shuffled deck) enter
the hash only as a salted digest: an export with those parts replaced by
their digests has the same hashes as the full journal.

Reading takes a shared lock, appending an exclusive one; an append is one
write, flushed to disk, and a write that fails is cut off again, so the
file is either as it was or holds the whole new records.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..base.clock import now_stamp
from ..base.errors import JournalError, StaleViewError, StorageError, UsageError
from ..base.jsonfault import json_fault
from . import home
from .landing import cut_to_chain, landed

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


def is_secret_part(obj: Any) -> bool:
    """Whether obj is a secret part in full: exactly {to, salt, data}, the salt a string."""
    return isinstance(obj, dict) and len(obj) == 3 and isinstance(obj.get("salt"), str) \
        and "data" in obj and "to" in obj


def is_redacted_part(obj: Any) -> bool:
    """Whether obj is a secret part replaced by its digest: exactly {to, digest}."""
    return isinstance(obj, dict) and len(obj) == 2 and "to" in obj and "digest" in obj


def _hash_form(obj: Any) -> Any:
    """obj with every secret part {to, salt, data} replaced by {to, digest}."""
    if isinstance(obj, dict):
        if is_secret_part(obj):
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


def line_of(record: dict) -> bytes:
    """The journal line of a sealed record."""
    return canonical(record) + b"\n"


def now() -> str:
    """The current UTC time as an ISO 8601 string (seconds): the game's clock (REFEREE_NOW
    replaces the wall clock, base/clock.py)."""
    return now_stamp()


def redact(record: dict, reader: str) -> dict:
    """The record as one reader may see it: others' secret parts become digests."""
    def walk(obj: Any) -> Any:
        if isinstance(obj, dict):
            if is_secret_part(obj):
                if reader == "moderator" or obj["to"] == reader:   # readers.may_see
                    return obj
                return {"to": obj["to"], "digest": secret_digest(obj["salt"], obj["data"])}
            return {k: walk(v) for k, v in obj.items()}
        if isinstance(obj, list):
            return [walk(v) for v in obj]
        return obj
    return walk(record)


# ---------------------------------------------------------------- checking lines

class _Float(Exception):
    """A JSON float: such a line is checked by the standard library alone."""


def _no_float(text: str) -> float:
    raise _Float(text)


_CODEC: list = []


def _codec():
    """msgspec's decoder and sorted encoder, made on first use (the quick paths never need
    them) -> (decode, encode, DecodeError)."""
    if not _CODEC:
        import msgspec

        _CODEC.extend((msgspec.json.Decoder(float_hook=_no_float).decode,
                       msgspec.json.Encoder(order="sorted").encode, msgspec.DecodeError))
    return _CODEC


_NOT_ASCII = re.compile("[^\x00-\x7e]")


def _escape(match: re.Match) -> str:
    c = ord(match.group())
    if c < 0x10000:
        return f"\\u{c:04x}"
    c -= 0x10000
    return f"\\u{0xD800 | (c >> 10):04x}\\u{0xDC00 | (c & 0x3FF):04x}"


def quick_canonical(obj: Any) -> bytes:
    """canonical(obj) for obj without floats, from msgspec's C encoder.

    Sorted keys and compact separators come from the encoder; what json.dumps
    escapes beyond it (every character outside ASCII, and DEL) is escaped
    the same way afterwards. Only used on values decoded without floats.
    """
    out = _codec()[1](obj)
    if out.isascii() and b"\x7f" not in out:
        return out
    return _NOT_ASCII.sub(_escape, out.decode("utf-8")).encode("ascii")


def _is_canonical(rec: dict, line: bytes, quick: bool) -> bool:
    """Whether line is exactly canonical(rec) (settled by json.dumps itself on a mismatch)."""
    if quick:
        try:
            if quick_canonical(rec) == line:
                return True
        except (TypeError, ValueError, OverflowError):
            pass
    return canonical(rec) == line


def _hash_ok(rec: dict, line: bytes, expected: str, quick: bool) -> bool:
    """Whether the record's hash is right.

    The canonical line of a record holds the canonical bytes of each of its
    parts, so its hash form is the line without the hash member and with
    each secret part's bytes replaced by those of its digest form: the same
    bytes canonical(_hash_form(body)) gives, without encoding the record
    again. Anything unusual (a secret part outside the places the referee
    puts them, a member found twice) is settled by record_hash itself.
    """
    member = b'"hash":"' + expected.encode("ascii", "replace") + b'",'
    at = line.find(member)
    if at >= 0 and line.find(member, at + 1) < 0:
        salts = line.count(b'"salt":')
        if not salts:           # the usual record: the line around the member
            digest = hashlib.sha256(line[:at])
            digest.update(line[at + len(member):])
            if digest.hexdigest() == expected:
                return True
        else:
            body = _digest_form(rec, line[:at] + line[at + len(member):], salts, quick)
            if body and hashlib.sha256(body).hexdigest() == expected:
                return True
    return record_hash(rec) == expected


def _digest_form(rec: dict, body: bytes, salts: int, quick: bool) -> bytes:
    """body with each secret part's bytes replaced by those of its digest form; empty when
    the parts are not where and as often as the referee writes them."""
    encode = quick_canonical if quick else canonical
    parts = [p for p in placed_parts(rec) if is_secret_part(p)]
    if len(parts) != salts:
        return b""
    for part in parts:
        full = encode(part)
        if body.count(full) != 1:
            return b""
        digest = hashlib.sha256(part["salt"].encode() + encode(part["data"])).hexdigest()
        body = body.replace(full, encode({"to": part["to"], "digest": digest}))
    return body


def placed_parts(rec: dict) -> list[dict]:
    """The secret parts, full or redacted, in the places the referee writes them: events'
    `secret`, `private_order`, `mail`, `players`, `standing` and `mail_route` (a part
    anywhere else is no part the referee made)."""
    parts = [rec.get("private_order"), rec.get("mail"), rec.get("players"),
             rec.get("standing"), rec.get("mail_route")]
    events = rec.get("events")
    if isinstance(events, list):
        parts += [e.get("secret") for e in events if isinstance(e, dict)]
    return [p for p in parts if p is not None and (is_secret_part(p) or is_redacted_part(p))]


def check_line(line: bytes, n: int, prev: str | None, name: str) -> dict:
    """The record a line holds, checked: JSON, canonical form, sequence, chain link, hash."""
    quick = True
    decode, encode, decode_error = _codec()
    try:
        rec = decode(line)
    except _Float:
        # Floats are left to the standard library, which writes them; the referee writes
        # none, so such a line is checked slowly and then found in error further on.
        quick = False
        try:
            rec = json.loads(line)
            json.dumps(rec, ensure_ascii=False).encode("utf-8")     # no lone surrogates
        except (ValueError, UnicodeError, RecursionError):
            raise _damaged(name, n, line) from None
    except (decode_error, RecursionError, ValueError):
        # Not JSON, or not Unicode (a lone surrogate): nothing the referee writes.
        raise _damaged(name, n, line) from None
    if not isinstance(rec, dict):
        raise JournalError(f"{name}: record {n} is damaged: not a JSON object", record=n)
    try:                # the usual line: ASCII, and msgspec's sorted encoding gives it back
        canonical_ok = quick and encode(rec) == line and line.isascii() and b"\x7f" not in line
    except (TypeError, ValueError, OverflowError):
        canonical_ok = False
    if not canonical_ok:
        try:
            canonical_ok = _is_canonical(rec, line, quick)
        except (ValueError, RecursionError, TypeError):
            canonical_ok = False
    if not canonical_ok:
        raise JournalError(f"{name}: record {n} was edited: it is not in the form the referee "
                           f"writes", record=n)
    if rec.get("seq") != n or type(rec.get("seq")) is not int:
        raise JournalError(f"{name}: record {n} is out of order: it says seq "
                           f"{rec.get('seq')!r}", record=n)
    if rec.get("prev") != prev:
        raise JournalError(f"{name}: record {n} does not follow record {n - 1}: the hash chain "
                           f"is broken (a record was edited, removed or reordered)", record=n)
    expected = rec.get("hash")
    if not isinstance(expected, str) or not _hash_ok(rec, line, expected, quick):
        raise JournalError(f"{name}: record {n} was edited: its content does not match its "
                           f"hash", record=n)
    return rec


def _damaged(name: str, n: int, line: bytes) -> JournalError:
    return JournalError(f"{name}: record {n} (line {n + 1}) is damaged: {json_fault(line)}",
                        record=n)


def _torn(name: str, n: int, tail: bytes) -> JournalError:
    return JournalError(
        f"{name}: record {n} is torn (the last line is incomplete, {len(tail)} bytes "
        f"without an end of line); `referee repair` removes only that tail",
        record=n, torn=True)


def scan(raw: bytes, name: str = "journal", first: int = 0,
         prev: str | None = None) -> Iterator[dict]:
    """Check and yield the records of raw one by one (a stream: memory stays flat).

    first and prev describe where raw starts: 0 and None for a whole file, or
    the seq and hash that the record before the first line must have.
    JournalError names the first bad record; the header's version is checked.
    """
    if not raw and first == 0:
        raise JournalError(f"{name}: empty file, no header record", record=0)
    start, n = 0, first
    while True:
        end = raw.find(b"\n", start)
        if end < 0:
            break
        rec = check_line(raw[start:end], n, prev, name)
        if n == 0:
            _check_header_version(rec, name)
        yield rec
        prev = rec["hash"]
        start, n = end + 1, n + 1
    if start < len(raw):
        raise _torn(name, n, raw[start:])
    if n == 0:
        raise JournalError(f"{name}: no complete header record", record=0)


def parse(raw: bytes, name: str = "journal") -> list[dict]:
    """Every record of journal bytes, checked (JournalError names the first bad one)."""
    return upcast_all(list(scan(raw, name)))


def last_line(raw: bytes) -> bytes:
    """The last complete line of journal bytes (without its end of line)."""
    end = len(raw) - 1
    return raw[raw.rfind(b"\n", 0, end) + 1:end]


def _check_header_version(rec: dict, name: str) -> None:
    version = rec.get("schema_version")
    if type(version) is not int:
        raise JournalError(f"{name}: record 0 has no schema version", record=0)
    if version > SCHEMA_VERSION:
        raise JournalError(f"{name}: record 0 has schema version {version}; this referee "
                           f"reads up to version {SCHEMA_VERSION} (upgrade the referee)", record=0)
    if version < SCHEMA_VERSION and version not in UPCASTERS:
        raise JournalError(f"{name}: record 0 has schema version {version} and no upcaster "
                           f"to version {SCHEMA_VERSION} exists", record=0)


def upcast(record: dict, version: int) -> dict:
    """A record of schema version `version` brought to the current one, step by step."""
    while version < SCHEMA_VERSION:
        record = UPCASTERS[version](dict(record))
        version += 1
    return record


def upcast_all(records: list[dict]) -> list[dict]:
    """Records of an older schema version brought to the current one."""
    version = records[0]["schema_version"]
    return [upcast(r, version) for r in records]


# ---------------------------------------------------------------- locks

if os.name == "posix":
    import fcntl

    def _lock(fd: int, exclusive: bool) -> None:
        fcntl.flock(fd, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)
else:                                                     # pragma: no cover - Windows
    import portalocker

    def _lock(fd: int, exclusive: bool) -> None:
        portalocker.lock(fd, portalocker.LOCK_EX if exclusive else portalocker.LOCK_SH)

    def _unlock(fd: int) -> None:
        portalocker.unlock(fd)


def _read_all(fd: int) -> bytes:
    chunks = []
    while True:
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


class Journal:
    """One game's journal file: reading, creating and locked, durable appending."""

    def __init__(self, path: Path | str,
                 contract: Callable[[int, bytes], None] | None = None):
        """contract(seq, line), when given, checks each line before it is written (it raises
        to refuse one): the game layer validates its records by their contracts."""
        self.path = Path(path)
        self.contract = contract

    @property
    def name(self) -> str:
        """The file name used in messages."""
        return self.path.name

    def _open(self, flags: int) -> int:
        try:
            # O_NONBLOCK: a FIFO planted as a journal must not hang the referee.
            fd = os.open(self.path, flags | getattr(os, "O_NONBLOCK", 0))
        except FileNotFoundError:
            raise UsageError(f"{self.path}: no such journal") from None
        except IsADirectoryError:
            raise UsageError(f"{self.path}: is a directory, not a journal") from None
        except PermissionError:
            raise UsageError(f"{self.path}: permission denied") from None
        except OSError as exc:
            raise UsageError(f"{self.path}: cannot be opened ({exc.strerror})") from None
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise UsageError(f"{self.path}: not a regular file")
        return fd

    @contextmanager
    def _locked(self, exclusive: bool):
        # Appends go to the end whatever the offset (O_APPEND): on a file system whose lock
        # does not exclude, two appends both land and the later one sees it (_check_landed).
        fd = self._open(os.O_RDWR | os.O_APPEND if exclusive else os.O_RDONLY)
        try:
            try:
                _lock(fd, exclusive)
                locked = True
            except OSError as exc:
                # A file system without locks (some network mounts): reading goes on, since a
                # torn last line is reported anyway; appending without the lock does not.
                if exclusive:
                    raise StorageError(f"{self.path}: cannot be locked for writing "
                                       f"({exc.strerror}); nothing was written") from None
                locked = False
            try:
                try:
                    raw = _read_all(fd)
                except OSError as exc:
                    raise StorageError(f"{self.path}: the journal cannot be read "
                                       f"({exc.strerror}); nothing was changed") from None
                yield fd, raw
            finally:
                if locked:
                    _unlock(fd)
        finally:
            os.close(fd)

    @contextmanager
    def exclusive(self) -> Iterator[bytes]:
        """Hold the lock appends take while a file kept beside the journal changes (standing
        orders); yields the journal's bytes as they are under it."""
        with self._locked(True) as (_, raw):
            yield raw

    def raw(self) -> bytes:
        """The file's bytes, read under a shared lock (never half an append)."""
        with self._locked(False) as (_, raw):
            return raw

    def read(self) -> list[dict]:
        """Every record, checked (JournalError on the first damaged one), upcast."""
        return parse(self.raw(), self.name)

    def create(self, header: dict, first: dict | None = None) -> list[dict]:
        """Write a new journal (mode 0600) holding the header and a first record; never
        overwrites, and is on disk, directory entry included, when this returns."""
        header = seal({**header, "seq": 0, "prev": None, "schema_version": SCHEMA_VERSION})
        records = [header]
        if first is not None:
            records.append(seal({**first, "seq": 1, "prev": header["hash"]}))
        lines = [line_of(r) for r in records]
        self._keep_contracts(lines, first_seq=0)
        try:
            home.write_new(self.path, b"".join(lines))
        except FileExistsError:
            raise UsageError(f"{self.path}: already exists; choose another file name") from None
        except OSError as exc:
            raise StorageError(f"{self.path}: the journal could not be written "
                               f"({exc.strerror}); nothing was created") from None
        home.sync_dir(self.path.parent)
        return records

    def append_raw(self, build: Callable[[bytes], tuple[int, str, list[dict]]],
                   undo: Callable[[], None] | None = None) -> tuple[bytes, list[dict]]:
        """Append under one exclusive lock what build(raw) returns: (last seq, last hash, bodies).

        build sees the file's bytes as they are under the lock and checks them
        as it needs (and may keep what goes with the records, such as standing
        orders); the bodies are sealed, chained and written in one write,
        flushed to disk. If build raises, nothing is written; if the write
        fails, undo() runs, still under the lock, and the file is cut back to
        its size before (StorageError).
        Returns the file's bytes afterwards and the new records.
        """
        with self._locked(True) as (fd, raw):
            last, prev, bodies = build(raw)
            new: list[dict] = []
            for i, body in enumerate(bodies):
                rec = seal({**body, "seq": last + 1 + i, "prev": prev})
                prev = rec["hash"]
                new.append(rec)
            if not new:
                return raw, new
            lines = [line_of(r) for r in new]
            self._keep_contracts(lines, first_seq=last + 1)
            data = b"".join(lines)
            try:
                home.write_all(fd, data)
                os.fsync(fd)
            except OSError as exc:
                if undo is not None:
                    undo()
                self._cut_back(fd, len(raw), exc)
            self._check_landed(fd, raw, data, undo)
            return raw + data, new

    def _check_landed(self, fd: int, raw: bytes, data: bytes,
                      undo: Callable[[], None] | None) -> None:
        """Refuse an append that did not land right after the bytes it was built on: another
        process appended in between although both held the exclusive lock (StorageError;
        what no longer follows the hash chain is cut off again, so the journal never forks)."""
        if landed(fd, len(raw), data):
            return
        if undo is not None:
            undo()
        cut_to_chain(fd, lambda line, n, prev: check_line(line, n, prev, self.name))
        raise StorageError(f"{self.path}: another run appended to the journal at the same time "
                           f"although this one held its lock: this file system's locks do not "
                           f"exclude (a network mount?); this change was not kept: keep the "
                           f"journal on a local disk")

    def _keep_contracts(self, lines: list[bytes], first_seq: int) -> None:
        """Hand each new line to the contract check before anything is written."""
        if self.contract is not None:
            for i, line in enumerate(lines):
                self.contract(first_seq + i, line)

    def _cut_back(self, fd: int, size: int, exc: OSError) -> None:
        """Undo a failed append: truncate to the size before it, then say so truthfully."""
        try:
            os.ftruncate(fd, size)
            os.fsync(fd)
        except OSError:
            raise StorageError(
                f"{self.path}: the journal could not be written ({exc.strerror}) nor cut back "
                f"to its size before; its last line may be torn: `referee repair` removes "
                f"it") from None
        raise StorageError(f"{self.path}: the journal could not be written ({exc.strerror}); "
                           f"nothing was written, the journal is as it was") from None

    def append(self, build: Callable[[list[dict]], list[dict]],
               expect_seq: int | None = None) -> list[dict]:
        """Append the records build(existing) returns, every record checked first."""
        def from_records(raw: bytes) -> tuple[int, str, list[dict]]:
            records = parse(raw, self.name)
            last = records[-1]["seq"]
            if expect_seq is not None and expect_seq != last:
                raise stale(last, expect_seq)
            return last, records[-1]["hash"], build(records)
        return self.append_raw(from_records)[1]

    def repair(self) -> tuple[int, Path | None]:
        """Cut a torn last line after backing the file up; returns (records kept, backup).

        The backup is written whole (exclusively, never through a symlink)
        before the journal is touched; if it cannot be, nothing changes.
        """
        with self._locked(True) as (fd, raw):
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
            backup = self._backup(raw)
            try:
                os.ftruncate(fd, len(keep))
                os.fsync(fd)
            except OSError as exc:
                raise StorageError(f"{self.path}: could not be cut ({exc.strerror}); the file "
                                   f"as it was is in {backup}") from None
            return len(records), backup

    def _backup(self, raw: bytes) -> Path:
        stamp = now().replace(":", "")
        for k in range(100):
            backup = self.path.with_name(f"{self.path.name}.{stamp}{f'-{k}' if k else ''}.bak")
            try:
                home.write_new(backup, raw)
            except FileExistsError:
                continue
            except OSError as exc:
                raise StorageError(f"{backup}: the backup could not be written "
                                   f"({exc.strerror}); nothing was changed") from None
            home.sync_dir(self.path.parent)
            return backup
        raise StorageError(f"{self.path}: too many backups named {stamp}; nothing was changed")


def stale(last: int, expected: int) -> StaleViewError:
    """The error for an order written against an older record than the journal's last."""
    return StaleViewError(
        f"the journal has moved on: its last record is {last}, the order was written against "
        f"record {expected} (--expect-seq); look again at `referee status` and resubmit")
