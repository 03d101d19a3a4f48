"""The keys a journal names, in order: record 0's (or an adoption's), then each key change's.

A key change is signed by the key in force before it (authorship.py checks that), so the
keys a journal names are one game's chain of keys, whichever of them signs its last record:
what tells a game across a `rekey` and a move to another referee home. The records that
name a key are found by their member (`"signing":{` cannot stand inside a JSON string) and
only the top-level one counts.
"""

from __future__ import annotations

from collections.abc import Iterator

from . import signing
from .chain import record_in

_NAMES_KEY = b'"signing":{'


def naming(raw: bytes) -> Iterator[dict]:
    """Each record of the journal bytes raw that names a signing key, in order."""
    at = raw.find(_NAMES_KEY)
    while at >= 0:
        end = raw.find(b"\n", at)
        rec = record_in(raw[raw.rfind(b"\n", 0, at) + 1:end if end >= 0 else len(raw)])
        if named(rec) is not None:
            yield rec
        at = raw.find(_NAMES_KEY, end) if end >= 0 else -1


def named(rec: dict) -> str | None:
    """The fingerprint of the key a record names (its `signing`), or None."""
    field = rec.get("signing")
    fpr = field.get("fingerprint") if isinstance(field, dict) else None
    return fpr if isinstance(fpr, str) else None


def chain(records: Iterator[dict] | list[dict]) -> list[list]:
    """[record, fingerprint] of each record of these that names a key: the record that
    names it (0, an adoption, a key change)."""
    return [[rec.get("seq"), named(rec)] for rec in records if named(rec) is not None]


def stance(raw: bytes) -> str:
    """How this user's referee stands to the game of these bytes: "signs" when a record names
    a key it holds (record 0, an adoption, a key change) and no record it signed hands the
    game on to a key it does not hold; "handed" when one does (a game moved to another host
    and rekeyed there, whose records from then on are that host's to vouch for); "" when no
    record names a key it holds."""
    mine = False
    for rec in naming(raw):
        if signing.held(str(named(rec))) is not None:
            mine = True
        elif mine and signed_here(rec):
            return "handed"
    return "signs" if mine else ""


def signed_here(rec: dict) -> bool:
    """Whether a key this user's referee holds signed the record (its hash as it says)."""
    fpr = signing.signer_of(rec.get("sig"))
    key = signing.held(fpr) if fpr else None
    return key is not None and signing.checks(rec.get("sig"), rec.get("hash"), key.public)


def public(raw: bytes, fpr: str) -> bytes | None:
    """The public half of key fpr as a record of raw names it (None: none names it)."""
    for rec in naming(raw):
        if named(rec) == fpr:
            return signing.public_of(rec.get("signing"))
    return None
