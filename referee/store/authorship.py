"""Who wrote a journal: every signature checked against the key in force, record by record.

The key in force is the header's (`signing`); a game begun before journals
were signed has none until its adoption record, which names the key that
signs it and every record after it, and whose hash (through the chain)
covers everything before it. A key change is a record signed by the key in
force naming the next one. Any other record must carry a signature of its
hash by the key in force: a record added, edited or re-chained by anyone
without that key fails here, however well its hashes chain.

A fingerprint the reader pins (`verify --key`, or the one a receipt names)
must be one of the keys the journal was signed with: a journal rewritten
whole under a new key then fails too. A key a key change names passes from
the first record it signs on (its signature covers the key change and all
before it); only named, it vouches for nothing yet, since the holder of the
key before could name any key whose public half he has seen.
"""

from __future__ import annotations

from ..base.errors import JournalError
from . import signing
from .beside import Beside

ADOPT = "adopt the game: signed from here on"
REKEY = "change the signing key"


def _fail(name: str, n: int, what: str) -> JournalError:
    return JournalError(f"{name}: record {n}: {what}", record=n)


class Authorship:
    """The signatures of a journal read as a stream (check each record in turn). Given the
    journal's bytes (`beside`), a process forked beside the caller checks the signatures
    themselves while the caller does its own work with the records (verify deciding each
    again): settle() then names the first bad one, up to the record given."""

    def __init__(self, name: str, header: dict, beside: bytes | None = None):
        self.name = name
        self._child: _Beside | None = None
        self.key: bytes | None = None
        self.fpr = ""                               # the key in force's fingerprint
        self.keys: list[tuple[int, str]] = []       # (from record, fingerprint)
        self.signed: dict[str, int] = {}            # fingerprint -> first record it signed
        self.adopted_at: int | None = None
        self.last = 0
        if "signing" in header:
            self._take(self._named(header, 0))
            self._check_sig(header)
            self.keys.append((0, self.fpr))
        elif "sig" in header:
            raise _fail(name, 0, "it carries a signature but names no signing key")
        if beside is not None:                # the header checked here, the rest beside
            self._child = _Beside(name, beside)

    def _named(self, rec: dict, n: int) -> bytes:
        public = signing.public_of(rec.get("signing"))
        if public is None:
            raise _fail(self.name, n, "the signing key it names is malformed (its fingerprint "
                                      "must be that of its public key)")
        return public

    def _take(self, key: bytes) -> None:
        """The key in force from here, with its fingerprint worked out once (not a record)."""
        self.key, self.fpr = key, signing.fingerprint(key)

    def _check_sig(self, rec: dict) -> None:
        n = rec["seq"]
        assert self.key is not None
        if "sig" not in rec:
            raise _fail(self.name, n, "it carries no signature, but the game is signed by key "
                                      f"{signing.shown(self.fpr)}: "
                                      f"written by someone without the game's key")
        if self._child is None and not signing.checks(rec["sig"], rec["hash"], self.key):
            raise self._forged(n, self.key)
        self.signed.setdefault(self.fpr, n)

    def _forged(self, n: int, public: bytes) -> JournalError:
        return _fail(self.name, n, f"its signature is not by the game's key "
                                      f"{signing.shown(signing.fingerprint(public))}: forged, "
                                      f"or edited and chained again, by someone without the "
                                      f"game's key")

    def settle(self, upto: int | None = None) -> None:
        """The signatures checked beside: JournalError for the first that does not check
        (only one up to record upto, when given)."""
        if self._child is not None:
            self._child.settle(upto)

    def close(self) -> None:
        """Stop and reap the process checking beside, whatever ended the caller's work."""
        if self._child is not None:
            self._child.close()

    def check(self, rec: dict) -> None:
        """One record after the header, in order."""
        n = rec["seq"]
        self.last = n
        if self.key is None:
            if rec.get("order") != ADOPT:
                if "sig" in rec or "signing" in rec:
                    raise _fail(self.name, n, "it is signed, but the game was not adopted "
                                              "before it (only an adoption record starts "
                                              "signing a game begun before signing)")
                return
            self._take(self._named(rec, n))
            self._check_sig(rec)
            self.adopted_at = n
            self.keys.append((n, self.fpr))
            return
        self._check_sig(rec)
        if "signing" in rec:
            if rec.get("order") != REKEY:
                raise _fail(self.name, n, "it names a signing key but is no key change")
            self._take(self._named(rec, n))
            self.keys.append((n + 1, self.fpr))

    def signed_by(self, fpr: str, upto: int | None = None) -> bool:
        """Whether the key fpr signed a record of the journal (one up to record upto, when
        given): a key only named, by a key change no record follows, signed nothing."""
        first = self.signed.get(fpr)
        return first is not None and (upto is None or first <= upto)

    def pin(self, fpr: str, upto: int | None = None, what: str = "--key") -> None:
        """The journal must be signed by the pinned key (JournalError otherwise): a record it
        signed vouches, through the chain, for every record before it, a receipt's too
        (upto: the receipt's record, named when the key signed none). A key a key change
        only names vouches for nothing yet: whoever held the key before could name any."""
        if self.signed_by(fpr):
            return
        named = [(start - 1, before) for (start, f), (_, before) in zip(self.keys[1:],
                                                                       self.keys) if f == fpr]
        if named:
            raise JournalError(self._only_named(fpr, *named[-1], upto, what),
                               record=named[-1][0])
        held = ", ".join(signing.shown(f) for _, f in self.keys) or "none: it is not signed"
        raise JournalError(f"{self.name}: {what} {signing.shown(fpr)} did not sign this journal "
                           f"(its keys: {held}): it was rewritten under another key, or it is "
                           f"another game", record=0)

    def _only_named(self, fpr: str, change: int, before: str, upto: int | None,
                    what: str) -> str:
        """Why a key named by the key change at record `change` (signed by key `before`),
        which no record follows, does not pass as the journal's key."""
        receipt = "" if upto is None else \
            f"; the receipt's record {upto} was signed by key {signing.shown(self._at(upto))}"
        return (f"{self.name}: {what} {signing.shown(fpr)} has signed no record of this "
                f"journal yet: record {change}, a key change signed by key "
                f"{signing.shown(before)}, only names it, and a key only named vouches for "
                f"nothing{receipt}; if {signing.shown(before)} is the key you held before, "
                f"check with it until a record signed by {signing.shown(fpr)} follows")

    def _at(self, seq: int) -> str:
        """The key that signed record seq."""
        return [f for start, f in self.keys if start <= seq][-1]

    def lines(self) -> list[str]:
        """What verify says of who wrote the journal."""
        if not self.keys:
            return ["signatures: none — a game begun before journals were signed; the chain "
                    "shows the file consistent, not who wrote it (`referee upgrade --adopt`"
                    " adopts it)"]
        first, fpr = self.keys[0]
        out = []
        if first > 0:
            out.append(f"signatures: records 0-{first - 1} before signing, covered by record "
                       f"{first} (the adoption)")
        if len(self.keys) == 1:
            out.append(f"signatures: {_records(first, self.last)}, each signed by the "
                       f"game's key {signing.shown(fpr)}")
        else:
            out.append(f"signatures: {_records(first, self.last)}, each signed by the "
                       f"game's key in force: {', '.join(self._spans())}")
        return out

    def _spans(self) -> list[str]:
        """Each key with the records it signed; a key the last record (a key change) only
        names, which has signed none yet, as named by it."""
        ends = [start - 1 for start, _ in self.keys[1:]] + [self.last]
        return [f"{signing.shown(f)} for {_records(start, end)}" if end >= start else
                f"{signing.shown(f)}, named by the key change at record {start - 1}, which "
                f"has signed no record yet (it signs the next)"
                for (start, f), end in zip(self.keys, ends)]


def _records(first: int, last: int) -> str:
    """'record 98', or 'records 0-97'."""
    return f"record {first}" if first == last else f"records {first}-{last}"


def _check_all(raw: bytes, name: str) -> dict:
    """Every signature of the journal raw, checked here: what the forked process reports.

    Its caller checks the chain of the same bytes (scan) and asks for this answer only up
    to the record before the first whose line breaks the chain (Authorship.settle): so each
    line is read here for what a signature needs alone, its hash not worked out again."""
    records = _signed(raw)
    header = next(records, None)
    try:
        authors = Authorship(name, header) if header is not None else None
        for rec in records if authors is not None else ():
            authors.check(rec)
    except JournalError as exc:
        return {"error": str(exc), "record": exc.record}
    return {}


def _signed(raw: bytes):
    """Each complete line of raw as a record of what its signature needs (its number the
    line's), up to one that is not such a record: the chain check names that line."""
    import msgspec  # start-up: only the process checking signatures beside verify needs it

    class Signs(msgspec.Struct):
        """Of a record, what a signature check reads: every other field is skipped unread."""

        hash: object = msgspec.UNSET
        sig: object = msgspec.UNSET
        signing: object = msgspec.UNSET
        order: object = msgspec.UNSET

    decode = msgspec.json.Decoder(Signs).decode
    start, seq = 0, 0
    while (end := raw.find(b"\n", start)) >= 0:
        try:
            got = decode(raw[start:end])
        except msgspec.DecodeError:
            return
        yield {"seq": seq, **{k: v for k in Signs.__struct_fields__
                              if (v := getattr(got, k)) is not msgspec.UNSET}}
        start, seq = end + 1, seq + 1


class _Beside:
    """_check_all run beside the caller (beside.py): settle() names its first fault. A
    journal too short for a process to pay (checking.worth_beside: a few hundred records,
    or one processor, or other threads running) is checked here when settle() asks, with
    the same answer."""

    def __init__(self, name: str, raw: bytes):
        from .checking import worth_beside  # start-up: with the checker, for verify only

        fork = worth_beside(raw)
        if fork:
            signing.ready()         # the library imported before the fork, not in the child
        self.work = Beside(lambda: _check_all(raw, name), fork=fork)

    def close(self) -> None:
        self.work.close()

    def settle(self, upto: int | None) -> None:
        answer = self.work.result()
        record = answer.get("record")
        if "error" in answer and (upto is None or record is None or record <= upto):
            raise JournalError(str(answer["error"]), record=record)
