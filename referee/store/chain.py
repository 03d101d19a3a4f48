"""The journal's lines: the canonical form of a record, its hash, and checking a line.

A line is the canonical JSON of its record (sorted keys, no spaces, ASCII),
so any edited byte is found: either the line no longer parses, or it is not
canonical, or its hash or the next record's `prev` no longer match. The hash
covers everything in the record but `hash` and `sig` (the signature of the
hash, signing.py); secret parts enter it only as their salted digests.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterator
from typing import Any

from ..base.clock import now_stamp
from ..base.errors import JournalError
from ..base.jsonfault import json_fault

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
    """SHA-256 of the canonical JSON of a record (without its own hash and signature, secrets
    as digests)."""
    body = {k: v for k, v in record.items() if k != "hash" and k != "sig"}
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
    parts, so its hash form is the line without the hash and signature members
    and with each secret part's bytes replaced by those of its digest form: the
    same bytes canonical(_hash_form(body)) gives, without encoding the record
    again. Anything unusual (a secret part outside the places the referee puts
    them, a member found twice) is settled by record_hash itself.
    """
    member = b'"hash":"' + expected.encode("ascii", "replace") + b'",'
    at = line.find(member)
    cut = _sig_cut(rec, line)
    if at >= 0 and cut is not None and line.find(member, at + 1) < 0:
        # The members' keys sort "hash" before "sig": the pieces around both, in order.
        end, (s0, s1) = at + len(member), cut or (len(line), len(line))
        if s0 < end:
            return record_hash(rec) == expected
        salts = line.count(b'"salt":')
        if not salts:           # the usual record: the line around the two members
            digest = hashlib.sha256(line[:at])
            digest.update(line[end:s0])
            digest.update(line[s1:])
            if digest.hexdigest() == expected:
                return True
        else:
            body = _digest_form(rec, line[:at] + line[end:s0] + line[s1:], salts, quick)
            if body and hashlib.sha256(body).hexdigest() == expected:
                return True
    return record_hash(rec) == expected


def _sig_cut(rec: dict, line: bytes) -> tuple[int, int] | tuple[()] | None:
    """Where the line's `sig` member stands, with the comma that goes with it (() when it has
    none); None when it is not the one plain string the referee writes, once."""
    sig = rec.get("sig")
    if sig is None:
        return ()
    if not isinstance(sig, str) or not sig.isascii() or '"' in sig or "\\" in sig:
        return None             # escaped in the line: only record_hash reads it right
    member = b'"sig":"' + sig.encode("ascii") + b'"'
    at = line.find(member)
    if at < 0 or line.find(member, at + len(member)) >= 0:
        return None
    end = at + len(member)
    if line[end:end + 1] == b",":
        return at, end + 1
    return at - 1, end                         # the last member: the comma before it goes


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
    if n == 0:              # nothing before it to keep: no journal (a stray file, say)
        return JournalError(
            f"{name}: not a journal: it holds no complete line ({len(tail)} bytes without "
            f"an end of line), and a journal begins with its header record", record=0)
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
