"""Receipts: the line every report and mail ends with, and what `verify --receipt` reads back.

A receipt names the game, a record and the start of that record's hash:

    Receipt: ttlm-1914-a471c2b4 2:7113882f72a4d5f257d14db3c2a78be4

The hash is cut to 32 hex digits (128 bits) so that the line fits a mail's 72 columns
with a game id of up to 24 characters and a record number of up to 5 digits: no mail
program or transport wraps it. (With a longer game id the text report puts SEQ:HASH on
the next line; verify reads both lines pasted as the same receipt.) 128 bits keep the
receipt binding: a journal rewritten to match a receipt already given needs another
record whose hash starts with the same 128 bits (about 2^128 tries); even two versions of
a record made ready before the receipt is given, both matching it, need about 2^64 tries
(a collision). A report in JSON gives the whole hash.

Just above it, a signed game's report names the game's signing key:

    Fingerprint: TR8S-RR3X-DE5X-BE3C (the game's signing key)

`verify` takes the receipt as the mail shows it, with or without its label, the game id
(which must be the journal's) and the whitespace around it, or SEQ:HASH alone; the hash
may be the whole one or any start of it of at least 32 digits. Pasted with the
fingerprint line, it also pins the key: the journal must be signed by it up to that record,
so a journal rewritten whole under another key fails too.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..base.errors import JournalError, ReceiptGameError, UsageError, quoted
from ..store.journal import scan
from ..store.signing import read_fingerprint, shown, signer_of
from . import signedreceipt

RECEIPT_DIGITS = 32         # hex digits of the hash a receipt shows (128 bits), and the fewest
LABEL = "Receipt:"
KEY_LABEL = "Fingerprint:"
KEY_NOTE = "(the game's signing key)"
_FORM = re.compile(r"(?:(?P<game>.*\S)\s+)?(?P<seq>[0-9]{1,9}):(?P<digest>[0-9a-fA-F]+)", re.S)
_KEY = re.compile(rf"\b{re.escape(KEY_LABEL)}\s*"
                  rf"(?P<key>[0-9A-Za-z]{{4}}(?:-?[0-9A-Za-z]{{4}}){{3}})\b"
                  rf"(?:\s*{re.escape(KEY_NOTE)})?", re.I)


class Receipt(NamedTuple):
    """A receipt as given: the game it names (None for SEQ:HASH alone), the record and the
    start of its hash (lower case)."""

    game: str | None
    seq: int
    digest: str
    key: str | None = None          # the fingerprint of the key that signed the game
    signed: signedreceipt.Signature | None = None   # what its Signed lines hold


def receipt_line(game_id: str, seq: int, hash_: str) -> str:
    """The receipt a report and a mail end with: its label, the game, then SEQ:HASH with the
    first RECEIPT_DIGITS hex digits of the record's hash."""
    return f"{LABEL} {game_id} {seq}:{hash_[:RECEIPT_DIGITS]}"


def receipt_key(header: dict, last: dict | None = None) -> str | None:
    """The fingerprint (as printed) of the key that signed record `last`, the one a receipt
    of it pins (after a key change, the new key from its first record on); else the
    header's (None: never signed)."""
    fpr = signer_of((last or {}).get("sig"))
    if fpr is None:
        field = header.get("signing")
        fpr = field.get("fingerprint") if isinstance(field, dict) else None
    return shown(fpr) if isinstance(fpr, str) else None


def key_line(fingerprint: str | None) -> str | None:
    """The line above a receipt naming the key that signed its record."""
    return f"{KEY_LABEL} {fingerprint} {KEY_NOTE}" if fingerprint else None


def read_key(item: str, option: str = "--key") -> str:
    """A key's fingerprint as `new` prints it, or its line as a mail or a receipt shows it
    (the line verify --receipt reads above a receipt), with or without its label and the
    note after it (UsageError, from read_fingerprint, for anything else)."""
    text = item.strip()
    if text[:len(KEY_LABEL)].casefold() != KEY_LABEL.casefold():
        text = f"{KEY_LABEL} {text}"
    line = _KEY.fullmatch(text)
    return read_fingerprint(line["key"] if line else item, option)


def parse_receipt(item: str) -> Receipt:
    """A receipt as pasted from a mail or a report (UsageError naming the form wanted)."""
    text, sig = signedreceipt.take(item, item.strip())
    key = None
    signed = _KEY.search(text)
    if signed is not None:                  # the key line above the receipt, pasted with it
        key = read_fingerprint(signed["key"], "--receipt")
        text = (text[:signed.start()] + " " + text[signed.end():]).strip()
    if text[:len(LABEL)].casefold() == LABEL.casefold():
        text = text[len(LABEL):].strip()
    m = _FORM.fullmatch(text)
    if m is None:
        raise UsageError(f"--receipt {quoted(item)}: give the receipt as a mail's last line "
                         f"prints it (Receipt: GAME SEQ:HASH), or SEQ:HASH (a record number, "
                         f"a colon, {RECEIPT_DIGITS} to 64 hex digits)")
    digest = m["digest"].lower()
    if not RECEIPT_DIGITS <= len(digest) <= 64:
        raise UsageError(f"--receipt {quoted(item)}: the hash has {len(digest)} hex digits; "
                         f"give {RECEIPT_DIGITS} as a mail prints them, or all 64")
    signedreceipt.cut_short(item, sig, digest)
    game = " ".join(m["game"].split()) if m["game"] else None
    return Receipt(game, int(m["seq"]), digest, key, sig)


class ReceiptsFailed(JournalError):
    """Receipts the journal no longer holds as they were: one line each, then what else
    verify found wrong, if anything (its own error's lines)."""

    def __init__(self, failures: list[tuple[int, str]], then: list[str] = ()):
        self.failures, self.then = [line for _, line in failures], list(then)
        super().__init__("; ".join(self.failures + self.then), record=failures[0][0])

    def lines(self) -> list[str]:
        return [*self.failures, *self.then]


def check_receipts(raw: bytes, name: str, receipts: list[str], key: str | None = None
                   ) -> tuple[list[str], list[tuple[str, int, str]], list[tuple[int, str]]]:
    """Each receipt must name the game of the journal `raw` (the very bytes verify proves, read
    once: a journal swapped between two reads could pass one check each) and a record it
    still holds as it was (ReceiptGameError for another game). Returns the lines verify
    prints; for each receipt that names the game's key, the pin verify checks (fingerprint,
    its record, what pinned it); and for each receipt the journal no longer holds as it was
    (rewound or rewritten), its record and the line that says so (ReceiptsFailed shows
    them once verify has said what else it found). key: the fingerprint `--key` pins, which
    a signed receipt's signature must be by too (or by the key its record had, when the
    pinned one took over after it)."""
    given = [(item, parse_receipt(item)) for item in receipts]
    wanted = sorted((r.seq, r.digest) for _, r in given if r.signed is None)
    if not given:
        return [], [], []
    seqs = {r.seq for _, r in given}
    game_id, first, found, last = "", "", {}, 0
    for rec in scan(raw, name):
        if rec["seq"] == 0:
            game_id, first = rec["game_id"], rec["hash"]
        if rec["seq"] in seqs:
            found[rec["seq"]] = rec["hash"]
        last = rec["seq"]
    named = " ".join(game_id.split())
    for item, r in given:
        if r.game is not None and r.game != named:
            raise ReceiptGameError(f"--receipt {quoted(item)}: a receipt of game {r.game!r}, "
                                   f"but {name} is game {named!r}: give that game's journal")
    changed = [seq for seq, digest in wanted
               if seq in found and not found[seq].startswith(digest)]
    failures = [(seq, line) for seq, digest in wanted
                if (line := _check_record(name, seq, digest, found.get(seq), last,
                                          changed)) is not None]
    # Every receipt given is checked, each as it was pasted: two that carry the same Signed
    # lines may differ in the receipt line under them, and one that fails is not hidden by
    # another, whatever their order.
    failures += _check_signed(raw, name, (game_id, first),
                              [r for _, r in given if r.signed], found, last, key)
    failures.sort(key=lambda failure: failure[0])
    failing = len(failures)             # receipts as given, before those said once are folded
    failures = list(dict.fromkeys(failures))     # two mails carrying one receipt: said once
    count = len(given)
    pins = [(r.key, r.seq, f"the key of receipt {r.seq}:{r.digest[:12]}…")
            for _, r in given if r.key is not None]
    signed = sum(1 for _, r in given if r.signed)
    said = f" ({signed} with a signature)" if signed else ""
    if failures:
        held = count - failing
        return [f"receipts: {count} checked{said}, {held} in the journal as they were, "
                f"{failing} not (below){_differs_from(failures)}"], pins, failures
    return [f"receipts: {count} checked{said}, each record is in the journal as it was"], \
        pins, []


def _differs_from(failures: list[tuple[int, str]]) -> str:
    """What the receipts line adds when receipts show the journal rewritten or cut back: the
    first record where it differs from what the receipts hold. A receipt holds only its
    record's hash, so what changed in that record it cannot tell."""
    gone = [seq for seq, line in failures if any(
        said in line for said in ("the journal was rewritten after", "was cut back"))]
    if not gone:
        return ""
    first = gone[0]
    return (f": the journal differs from the receipts from record {first} on: rewritten "
            f"since the mails were sent; a receipt holds only its record's hash, so what "
            f"changed in record {first} it cannot tell")


def _check_signed(raw: bytes, name: str, game: tuple[str, str], given: list[Receipt],
                  found: dict[int, str], last: int, key: str | None) -> list[tuple[int, str]]:
    """What fails of the signed receipts, of the game (its id, record 0's hash): a signature
    by no key the journal names, by another than the key the receipt's record had, or than
    a pinned one (the key line pasted with it, and `--key`), of another record 0, or of a
    hash the journal no longer holds."""
    if not given:
        return []
    keys, out = signedreceipt.KeysInForce(raw), []
    for r in given:
        pins = [(fpr, what) for fpr, what in ((r.key, "the fingerprint line pasted with it"),
                                              (key, "--key")) if fpr is not None]
        line, fails = signedreceipt.check(name, *game, r.seq, r.digest, r.signed, keys,
                                          found.get(r.seq), last, pins)
        if fails:
            out.append((r.seq, line))
    return out


def _check_record(name: str, seq: int, digest: str, held: str | None, last: int,
                  changed: list[int]) -> str | None:
    """What is wrong with the receipt of record seq (None: the journal holds it as it was).
    A journal shorter than the receipt's record was cut back; a receipt of an earlier record
    whose record is there with another hash shows it was written again too, and from where
    (the receipt alone cannot tell)."""
    if held is None:
        before = [n for n in changed if n < seq]
        how = (f"cut back and written again from record {before[0]} or earlier (the "
               f"receipt of record {before[0]} does not match either)" if before else
               "cut back (rewound), perhaps also written again from an earlier record (a "
               "receipt of an earlier record tells which)")
        return (f"{name}: receipt {seq}:{digest[:12]}… names record {seq}, but the journal "
                f"ends at record {last}: since the receipt was given it was {how}")
    if not held.startswith(digest):      # the whole of both starts: they may differ late
        return (f"{name}: receipt {seq}:{digest} does not match record {seq} (hash "
                f"{held[:len(digest)]}…): the journal was rewritten after the receipt was "
                f"given")
    return None
