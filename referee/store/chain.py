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

from ..base.clock import now_stamp
from ..base.errors import JournalError, UsageError, clipped
from ..base.jsonfault import json_fault

# Imported for annotations only: a read from its view does without the typing module.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SCHEMA_VERSION = 1

# Upcasters turn a record of an older schema version into the next version:
# {from_version: function(record) -> record}. Hashes are always checked on the
# record as stored, before any upcasting.
UPCASTERS: dict[int, Callable[[dict], dict]] = {}


def canonical(obj: Any) -> bytes:
    """The canonical JSON bytes of obj: sorted keys, no spaces, ASCII only."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def secret_digest(salt: str, data: Any, encode: Callable[[Any], bytes] = canonical) -> str:
    """The salted digest that stands for a secret payload in hashes and exports (encode: a
    quicker encoder that writes what canonical writes, for data known to need no more)."""
    return hashlib.sha256(salt.encode() + encode(data)).hexdigest()


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
    """Whether the record's hash is right (its line canonical: checked before).

    What the hash covers is worked out from the parts of the record where the
    referee writes them (_hash_body); anything unusual (a secret part outside
    those places, a `salt` member of anything else) is settled by record_hash.
    """
    encode = quick_canonical if quick else canonical
    body = _hash_body(rec, line.count(b'"salt":'), encode)
    if body is not None and hashlib.sha256(encode(body)).hexdigest() == expected:
        return True
    return record_hash(rec) == expected


# The members where the referee writes a secret part, besides each event's `secret`.
PART_FIELDS = ("private_order", "mail", "players", "standing", "mail_route")


def _hash_body(rec: dict, salts: int, encode: Callable[[Any], bytes]) -> dict | None:
    """The record as its hash covers it (_hash_form of it without `hash` and `sig`), from
    its parts in the places the referee writes them: None when the line's `"salt":`
    members (salts) are not exactly those of these parts."""
    body = rec.copy()
    body.pop("hash", None)
    body.pop("sig", None)
    if not salts:                   # no salt anywhere: nothing of it is secret
        return body
    found = 0
    for field in PART_FIELDS:
        part = body.get(field)
        if part is not None and is_secret_part(part):
            body[field] = _digest_part(part, encode)
            found += 1
    events = body.get("events")
    if found < salts and isinstance(events, list):
        kept = []
        for event in events:
            part = event.get("secret") if isinstance(event, dict) else None
            if part is not None and is_secret_part(part):
                event = {**event, "secret": _digest_part(part, encode)}
                found += 1
            kept.append(event)
        body["events"] = kept
    return body if found == salts else None


def _digest_part(part: dict, encode: Callable[[Any], bytes]) -> dict:
    return {"to": part["to"], "digest": secret_digest(part["salt"], part["data"], encode)}


def placed_parts(rec: dict) -> list[dict]:
    """The secret parts, full or redacted, in the places the referee writes them: events'
    `secret`, `private_order`, `mail`, `players`, `standing` and `mail_route` (a part
    anywhere else is no part the referee made)."""
    parts = [rec.get(field) for field in PART_FIELDS]
    events = rec.get("events")
    if isinstance(events, list):
        parts += [e.get("secret") for e in events if isinstance(e, dict)]
    return [p for p in parts if p is not None and (is_secret_part(p) or is_redacted_part(p))]


def export_reader(records: list[dict], reader: str, name: str) -> str:
    """Whose reading a journal is: a redacted export is the reading of the reader it was made
    for (the side whose secret parts it shows in full; the public when it shows none), who is
    the reader of whatever reads it, asked --as public (the default) or as him; any other
    reader, who may see what it holds as digests, is refused (UsageError). A journal
    with no part a digest is read as asked."""
    parts = [p for rec in records for p in placed_parts(rec)]
    if not any(is_redacted_part(p) for p in parts):
        return reader
    shown = {p["to"] for p in parts if is_secret_part(p)}
    made_for = shown.pop() if len(shown) == 1 else "public" if not shown else None
    if made_for is None or reader in ("public", made_for):
        return made_for or reader
    raise UsageError(f"--as {reader!r}: {name} is a redacted export made for {made_for}, who "
                     f"may not see all that {reader} may: read it as {made_for} (without --as)")


# No record the referee writes nests deeper than a few levels (six in a full campaign): a
# line nested deeper than this is no record of its, and would take the readers that walk a
# record (redacting it, writing it out) past Python's recursion.
DEEPEST = 32


def too_deep(rec: Any, line: bytes) -> bool:
    """Whether the record nests deeper than DEEPEST (its line's brackets first: most lines
    have fewer than that in all)."""
    if len(line) - len(line.translate(None, b"[{")) <= DEEPEST:
        return False
    stack = [(rec, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            value = list(value.values())
        if isinstance(value, list):
            if depth > DEEPEST:
                return True
            stack.extend((v, depth + 1) for v in value if isinstance(v, (dict, list)))
    return False


def check_line(line: bytes, n: int, prev: str | None, name: str,
               then: bytes | None = None) -> dict:
    """The record a line holds, checked: JSON, canonical form, sequence, chain link, hash
    (then: the line after it, if any, read only to say how a record out of sequence is)."""
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
    if too_deep(rec, line):
        raise JournalError(f"{name}: record {n} is damaged: it nests deeper than {DEEPEST} "
                           f"levels, deeper than any record the referee writes", record=n)
    try:                # the usual line: ASCII, and msgspec's sorted encoding gives it back
        canonical_ok = quick and encode(rec) == line and line.isascii() and b"\x7f" not in line
    except (TypeError, ValueError, OverflowError, RecursionError):
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
        raise JournalError(f"{name}: {out_of_sequence(n, rec.get('seq'), then)}", record=n)
    if rec.get("prev") != prev:
        raise JournalError(f"{name}: record {n} does not follow record {n - 1}: the hash chain "
                           f"is broken (a record was edited, removed or reordered)", record=n)
    expected = rec.get("hash")
    try:
        hash_ok = isinstance(expected, str) and _hash_ok(rec, line, expected, quick)
    except RecursionError:          # encoding it again: nested deeper than Python goes
        raise JournalError(f"{name}: record {n} is damaged: it is nested too deeply to be "
                           f"a record the referee writes", record=n) from None
    if not hash_ok:
        raise JournalError(f"{name}: record {n} was edited: its content does not match its "
                           f"hash; {RESTORE}", record=n)
    return rec


RESTORE = "restore the journal from a backup (docs/moderator.md, Repair)"


def out_of_sequence(n: int, seq: Any, then: bytes | None) -> str:
    """What it means that the line where record n belongs says seq (then: the line after it):
    records taken out, two records swapped, one put back where it does not belong."""
    if type(seq) is not int:
        return f"record {n} is out of order: it says seq {clipped(repr(seq))}"
    after = record_in(then).get("seq") if then is not None else None
    if seq > n and after == n:
        return (f"records {n} and {seq} are swapped: where record {n} belongs the journal "
                f"holds record {seq}, and record {n} after it; {RESTORE}")
    if seq > n:
        gone = f"record {n} is" if seq == n + 1 else f"records {n} to {seq - 1} are"
        return f"{gone} missing (the next line says seq {seq}); {RESTORE}"
    return (f"record {n} is out of order: where it belongs the journal holds record {seq} "
            f"again, which comes before it (copied or moved there); {RESTORE}")


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


# Lines decoded together: one call of the decoder for many lines, about a third cheaper
# than one call each; every record is still checked on its own line.
BATCH = 64


def scan(raw: bytes, name: str = "journal", first: int = 0, prev: str | None = None,
         quick: Callable[[Any, bytes, int, str | None], bool] | None = None,
         start: int = 0, batch: int = BATCH) -> Iterator[dict]:
    """Check and yield the records of raw one by one (a stream: memory stays flat).

    first and prev describe where raw starts (or raw[start:], without a copy): 0 and None
    for a whole file, or the seq and hash that the record before the first line must have.
    JournalError names the first bad record; the header's version is checked.
    quick: what passes a line without check_line (_usual: every check, the quick way;
    ReadBeside gives its own). batch: the most lines decoded in one call.
    """
    quick = quick or _usual
    if not raw and first == 0:
        raise JournalError(f"{name}: empty file, no header record", record=0)
    n = first
    while True:
        lines, start = _next_lines(raw, start, batch)
        if not lines:
            break
        for i, (line, rec) in enumerate(zip(lines, _decoded(lines))):
            if not quick(rec, line, n, prev):                # names what is wrong, if any
                rec = check_line(line, n, prev, name, _line_after(lines, i, raw, start))
            if n == 0:
                _check_header_version(rec, name)
            yield rec
            prev, n = rec["hash"], n + 1
    if start < len(raw):
        raise _torn(name, n, raw[start:])
    if n == 0:
        raise JournalError(f"{name}: no complete header record", record=0)


def header_record(raw: bytes, name: str = "journal") -> dict:
    """Record 0 of raw, checked as scan checks it (JournalError as scan words it), without
    decoding a line after it: a reader that takes the records after it its own way
    (checking.ReadBeside) or from a snapshot then decodes none of them twice."""
    return next(scan(raw, name, batch=1))


def _next_lines(raw: bytes, start: int, batch: int = BATCH) -> tuple[list[bytes], int]:
    """Up to batch complete lines of raw from start, and where the next begins."""
    lines = []
    while len(lines) < batch:
        end = raw.find(b"\n", start)
        if end < 0:
            break
        lines.append(raw[start:end])
        start = end + 1
    return lines, start


def _line_after(lines: list[bytes], i: int, raw: bytes, start: int) -> bytes | None:
    """The complete line after lines[i] (the next batch's first from start), or None."""
    if i + 1 < len(lines):
        return lines[i + 1]
    end = raw.find(b"\n", start)
    return raw[start:end] if end >= 0 else None


def _decoded(lines: list[bytes]) -> list:
    """Each line's JSON, decoded in one call; None for each when they cannot all be (then
    check_line reads each alone). A value is only a candidate: _usual checks it is its
    line's record."""
    decode, _, decode_error = _codec()
    try:
        values = decode(b"[" + b",".join(lines) + b"]")
    except (_Float, decode_error, RecursionError, ValueError):
        values = None
    if not isinstance(values, list) or len(values) != len(lines):
        return [None] * len(lines)
    return values


def _usual(rec: Any, line: bytes, n: int, prev: str | None) -> bool:
    """Whether rec is the record of the line as the referee writes it (check_line's every
    check, passed the quick way): an object whose sorted encoding is the line, in ASCII, its
    seq n, following prev, its hash right. False sends the line to check_line."""
    encode = _codec()[1]
    try:
        if type(rec) is not dict or encode(rec) != line or not line.isascii() or \
                b"\x7f" in line or too_deep(rec, line):
            return False
        seq, expected = rec.get("seq"), rec.get("hash")
        if type(seq) is not int or seq != n or rec.get("prev") != prev or \
                type(expected) is not str:
            return False
        body = _hash_body(rec, line.count(b'"salt":'), encode)
        return body is not None and hashlib.sha256(encode(body)).hexdigest() == expected
    except (TypeError, ValueError, OverflowError, RecursionError):
        return False


def parse(raw: bytes, name: str = "journal") -> list[dict]:
    """Every record of journal bytes, checked (JournalError names the first bad one)."""
    return upcast_all(list(scan(raw, name)))


def last_line(raw: bytes) -> bytes:
    """The last complete line of journal bytes (without its end of line)."""
    end = len(raw) - 1
    return raw[raw.rfind(b"\n", 0, end) + 1:end]


def record_in(line: bytes) -> dict:
    """The record one journal line holds, parsed without any check ({} when the line is no
    JSON object): a look at one line without reading the chain."""
    try:
        rec = json.loads(line)
    except (ValueError, RecursionError):
        return {}
    return rec if isinstance(rec, dict) else {}


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
