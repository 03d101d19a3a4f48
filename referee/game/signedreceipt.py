"""A receipt signed by the game's key: what makes a receipt proof to someone else than the
player who kept the mail.

A receipt alone (receipts.py) sits in a mail the referee does not sign: to the other
player or a club it is the player's copy against the moderator's word. So a mail's receipt
comes with the game key's signature of it (signing.receipt_statement: a prefix naming it,
the game, record 0's whole hash, the record's number and its whole hash), laid out for a
phone between the key line and the receipt:

    Fingerprint: TR8S-RR3X-DE5X-BE3C (the game's signing key)
    Signed:
      <64 signs>
      <64 signs>
      <44 signs>
    Receipt: ttlm-1914-a471c2b4 2:7113882f72a4d5f257d14db3c2a78be4

The lines are base64url of a byte naming the form, the record's whole hash (32 bytes),
record 0's (32), then the signature (64): the receipt shows only the first 32 hex digits
of the hash, and a journal rewritten no longer holds the rest. The signature holding, a
journal whose record 0 is the one signed and that holds that record with another hash, or
ends before it, was rewritten after the mail: the key signed that hash. One whose record 0
is another was signed for another record 0 of the same game id by the same key: the journal
was rewritten from its start, or two games were made under one id and key; the key's holder
did either, but the receipt alone does not say which.

Mails sent before carry the older form, two lines of 64: the record's hash, then the
signature of a statement without record 0. They check as before; where the journal does not
hold the hash they signed, they cannot tell a rewrite from another game of the same id and
key, and verify says so.

The referee signs only a receipt of a record its key signed, built from the journal it
holds (a player chooses nothing of what it signs); a referee that does not hold the key
that signed the record gives the receipt unsigned, as before.
"""

from __future__ import annotations

import base64
import re
from typing import NamedTuple

from ..base.errors import UsageError, quoted
from ..store import keychain, signing
from ..store.authorship import REKEY

LABEL = "Signed:"
FORM = 2                    # the first byte of the Signed lines: the statement names record 0
SIGNS = 172                 # base64url signs of the form, both hashes, the signature: 129 bytes
OLDER_SIGNS = 128           # the older form's: the hash and the signature, 96 bytes
WIDE = 64                   # signs a line (indented by two: 66 columns)
_SIGN = "[A-Za-z0-9_-]"
_LABEL = re.compile(rf"\b{LABEL}", re.I)


def _blob(signs: int) -> re.Pattern:
    return re.compile(rf"\b{LABEL}(?P<blob>\s*(?:{_SIGN}\s*){{{signs - 1}}}{_SIGN})"
                      rf"(?!{_SIGN})", re.I)


_BLOBS = (_blob(SIGNS), _blob(OLDER_SIGNS))


class Signature(NamedTuple):
    """What a receipt's Signed lines hold: the record's whole hash, record 0's (None: the
    older form, which does not name it), the signature."""

    whole: str
    first: str | None
    signature: bytes


def signed(header: dict, last: dict) -> str | None:
    """The text of the signature of the receipt of record `last` (SIGNS signs), by the key
    that signed the record, when this user's referee holds it and it did sign the record
    as the journal holds it; else None (the receipt goes unsigned)."""
    fpr = signing.signer_of(last.get("sig"))
    try:
        key = signing.held(fpr) if fpr else None
    except UsageError:          # a key file it cannot use: the receipt goes unsigned
        return None
    if key is None or not signing.checks(last.get("sig"), last.get("hash"), key.public):
        return None
    raw = bytes([FORM]) + bytes.fromhex(last["hash"]) + bytes.fromhex(header["hash"]) + \
        key.sign_receipt(header["game_id"], header["hash"], last["seq"], last["hash"])
    return base64.urlsafe_b64encode(raw).decode("ascii")


def signature_of(text: str) -> str:
    """The Ed25519 signature alone in the text, base64url unpadded (as a record's sig)."""
    raw = base64.urlsafe_b64decode(text)[-64:]
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def lines(text: str | None) -> list[str]:
    """The signature as a mail shows it: its label, then lines of WIDE signs (the last
    shorter), indented."""
    if not text:
        return []
    return [LABEL, *(f"  {text[at:at + WIDE]}" for at in range(0, len(text), WIDE))]


def take(item: str, text: str) -> tuple[str, Signature | None]:
    """The pasted receipt without its Signed lines, and what they hold, or None without them
    (UsageError when they are not whole)."""
    for pattern in _BLOBS:
        found = pattern.search(text)
        if found is None:
            continue
        blob = "".join(found["blob"].split())
        try:
            raw = base64.urlsafe_b64decode(blob)
        except ValueError:
            raise UsageError(f"--receipt {quoted(item)}: the Signed lines are not base64 as "
                             f"the mail prints them") from None
        if len(blob) == SIGNS and raw[0] != FORM:
            continue                    # not this form: the older one, with more after it
        rest = (text[:found.start()] + " " + text[found.end():]).strip()
        _once(item, blob, rest)
        if len(blob) == SIGNS:
            return rest, Signature(raw[1:33].hex(), raw[33:65].hex(), raw[65:])
        return rest, Signature(raw[:32].hex(), None, raw[32:])
    if _LABEL.search(text):
        raise UsageError(f"--receipt {quoted(item)}: the Signed lines are not whole: paste "
                         f"them all, {SIGNS} letters, digits, - and _ in all ({OLDER_SIGNS} "
                         f"in mails of an older form), as the mail prints them")
    return text, None


def cut_short(item: str, sig: Signature | None, digest: str) -> None:
    """Refuse Signed lines read as the older form that are this form's without their last
    line (UsageError): its first byte the form's, the receipt's hash just after it."""
    if sig is not None and sig.first is None and sig.whole[:2] == f"{FORM:02x}" and \
            sig.whole[2:].startswith(digest[:len(sig.whole) - 2]):
        raise UsageError(f"--receipt {quoted(item)}: the Signed lines are not whole: the "
                         f"mail prints three under {LABEL}; paste them all")


def _once(item: str, blob: str, rest: str) -> None:
    """Refuse a receipt whose Signed lines come twice (UsageError naming them): what is left
    would otherwise be read as part of the game id."""
    again = next((m for pattern in _BLOBS if (m := pattern.search(rest))), None)
    if again is None and _LABEL.search(rest) is None:
        return
    first = f"{LABEL} {blob[:4]}…{blob[-3:]}"
    other = "".join(again["blob"].split()) if again else None
    what = (f"{first} is pasted twice" if other == blob else
            f"{first} and {LABEL} {other[:4]}…{other[-3:]} are two receipts' Signed lines"
            if other else f"{first} is followed by another {LABEL} line")
    raise UsageError(f"--receipt {quoted(item)}: {what}; paste one receipt's Signed lines "
                     f"once, with the receipt under them (--receipt again for another)")


class KeysInForce:
    """The game's keys as the journal names them (its header, an adoption, each key change),
    each with the first record it signs: the header's from record 0, an adoption's from
    itself, a key change's from the record after it (the key before signs the change)."""

    def __init__(self, raw: bytes):
        self.spans: list[tuple[int, str, bytes]] = []       # (from record, fpr, public key)
        for rec in keychain.naming(raw):
            public = signing.public_of(rec.get("signing"))
            if public is not None:
                start = rec["seq"] + 1 if rec.get("order") == REKEY else rec["seq"]
                self.spans.append((start, signing.fingerprint(public), public))

    def at(self, seq: int) -> str | None:
        """The key that was the game's at record seq (None: the game was not signed yet)."""
        had = [fpr for start, fpr, _ in self.spans if start <= seq]
        return had[-1] if had else None

    def after(self, fpr: str, seq: int) -> bool:
        """Whether key fpr became the game's after record seq: its signatures of later
        records cover, through the chain, the key changes that say which key seq had."""
        return any(f == fpr and start > seq for start, f, _ in self.spans)

    def signer(self, seq: int, sig: Signature, game_id: str) -> str | None:
        """The key named in the journal whose signature of the receipt of record seq of game
        game_id (the hashes the Signed lines hold) this is, or None."""
        return next((fpr for _, fpr, public in self.spans
                     if signing.checks_receipt(sig.signature, game_id, seq, sig.whole, public,
                                               sig.first)), None)

    def shown_at(self, seq: int) -> str:
        """Which key record seq had, as a refusal says it."""
        had = self.at(seq)
        if had is not None:
            return f"key {signing.shown(had)}"
        return (f"no key (the game is signed from record {self.spans[0][0]})" if self.spans
                else "no key (the game is not signed)")


def check(name: str, game_id: str, first: str, seq: int, digest: str, sig: Signature,
          keys: KeysInForce, held: str | None, last: int,
          pins: list[tuple[str, str]] = ()) -> tuple[str | None, bool]:
    """(What to say of a signed receipt of record seq, whether it fails), for a journal of
    game game_id whose record 0 has hash first: a signature by no key the journal names, or
    not of this record, fails as forged; one by another key than the one record seq had (a
    key retired by a key change, or not yet the game's), or than a pinned one (pins:
    fingerprint, what pinned it), is refused; one of another record 0 says so; one that
    holds, of a hash the journal no longer holds, proves the journal rewritten (the older
    form, which names no record 0, only that the key's holder did it or made another game);
    (None, False) when the journal holds that record as it was signed."""
    label = f"receipt {seq}:{digest[:12]}…"
    by = keys.signer(seq, sig, game_id) if sig.whole.startswith(digest) else None
    if by is None:
        return (f"{name}: {label}: its signature is by no key this journal names, of game "
                f"{game_id!r} and record {seq}: a forged receipt (or of another game or "
                f"record), unless the journal was rewritten whole under another key "
                f"(--key with the fingerprint your mails show tells)"), True
    if by != keys.at(seq):
        return (f"{name}: {label}: signed by key {signing.shown(by)}, but record {seq} had "
                f"{keys.shown_at(seq)} (the journal's key changes say which): only the key a "
                f"record had vouches for it, and a key retired by `rekey` may have leaked; "
                f"no proof of a rewrite"), True
    for pin, what in pins:
        if pin != by and not keys.after(pin, seq):
            return (f"{name}: {label}: signed by key {signing.shown(by)}, the one record "
                    f"{seq} had, not by key {signing.shown(pin)} that {what} pins (nor did "
                    f"that key take over after record {seq}): no proof of a rewrite"), True
    signed_by = f"the game's key {signing.shown(by)} signed hash {sig.whole}"
    if sig.first is not None and sig.first != first:
        return (f"{name}: {label}: {signed_by} for record {seq} of game {game_id!r} with "
                f"record 0 {sig.first[:12]}…, but this journal's record 0 is {first[:12]}…: "
                f"that key signed another record 0 for this game id (this journal rewritten "
                f"from its start, or two games made under one id and key: either way its "
                f"holder did it); no proof of a rewrite of this journal"), True
    if sig.whole == held:
        return None, False
    kept = (f"holds record {seq} with hash {held[:12]}…" if held is not None else
            f"ends at record {last}")
    if sig.first is None:
        return (f"{name}: {label}: {signed_by} for record {seq}, and the journal does not "
                f"hold it (it {kept}): the journal was rewritten after that mail, or the "
                f"mail is of another game made under the same id and key (its Signed lines, "
                f"of an older form, do not name record 0); either way the key's holder did "
                f"it"), True
    return (f"{name}: {label}: {signed_by} for record {seq}, and the journal does not hold "
            f"it (it {kept}): proof, to anyone with the mail and the journal, that the "
            f"journal was rewritten after that mail"), True
