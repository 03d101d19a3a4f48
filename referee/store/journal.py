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

Every record of a signed game also carries `sig`, the signature of its hash
by the game's key (signing.py): the hash covers everything but `hash` and
`sig`. Appending is for the holder of the key alone: the last record must
be signed by a key in this user's referee home, and then every new record is
signed by it, so through the chain each signature vouches for all before it.

Reading takes a shared lock, appending an exclusive one; an append is one
write, flushed to disk, and a write that fails is cut off again, so the
file is either as it was or holds the whole new records. Where the lock does
not exclude (landing.py), an append that finds another's bytes beside its own is
refused and the file cut back to its hash chain, keeping the other's records.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from ..base.errors import (
    ForeignGameError,
    JournalError,
    StaleViewError,
    StorageError,
    UnsignedGameError,
    UsageError,
    one_line,
    quoted,
)
from . import home, keychain, signing, written
from .chain import (  # noqa: F401 - the journal's names for the layers above
    DEEPEST,
    SCHEMA_VERSION,
    UPCASTERS,
    canonical,
    check_line,
    is_redacted_part,
    is_secret_part,
    last_line,
    line_of,
    now,
    parse,
    placed_parts,
    record_hash,
    record_in,
    redact,
    scan,
    seal,
    secret_digest,
    too_deep,
    upcast,
    upcast_all,
)
from .journalfolder import folder_given
from .landing import cut_to_chain, landed, only_ours
from .locks import release, take

# The most a journal may hold: about thirty times a full campaign (23 turns, some 3,000
# records, 2 MB). A file over it is read no further: one planted in a folder of games
# (anyone who can write the folder can put one there, or a link to an endless file) must
# not take the memory of the host that serves the others.
MOST_BYTES = 64 << 20


def _read_all(fd: int, path: Path) -> bytes:
    raw = home.read_up_to(fd, MOST_BYTES)
    if len(raw) > MOST_BYTES:
        raise JournalError(f"{one_line(path.name)}: larger than {MOST_BYTES >> 20} MB, more "
                           f"than any journal the referee writes (a full campaign is about "
                           f"2 MB); not read")
    return raw


_SIGNED_ONLY = [0]


@contextmanager
def signed_only():
    """Within it, reading a journal is refused too unless its last record is signed by a key
    of this user's (ForeignGameError, UnsignedGameError): the commands that read a game to
    mail its players (inbox, tick, watch) act only on what this referee wrote, however
    the folder changes under them."""
    _SIGNED_ONLY[0] += 1
    try:
        yield
    finally:
        _SIGNED_ONLY[0] -= 1


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
        """The file name used in messages (escaped when it is not one printable line)."""
        return one_line(self.path.name)

    def _open(self, flags: int) -> int:
        try:
            # O_NONBLOCK: a FIFO planted as a journal must not hang the referee.
            fd = os.open(self.path, flags | getattr(os, "O_NONBLOCK", 0))
        except FileNotFoundError:
            raise UsageError(f"{self.path}: no such journal") from None
        except IsADirectoryError:
            raise folder_given(self.path) from None
        except PermissionError:
            raise UsageError(f"{self.path}: permission denied") from None
        except OSError as exc:
            raise UsageError(f"{self.path}: cannot be opened ({exc.strerror})") from None
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            os.close(fd)
            raise folder_given(self.path) if stat.S_ISDIR(mode) else \
                UsageError(f"{self.path}: not a regular file")
        return fd

    @contextmanager
    def _locked(self, exclusive: bool):
        # Appends go to the end whatever the offset (O_APPEND): on a file system whose lock
        # does not exclude, two appends both land and the later one sees it (_check_landed).
        fd = self._open(os.O_RDWR | os.O_APPEND if exclusive else os.O_RDONLY)
        try:
            try:
                take(fd, exclusive, f"{self.name}: the journal")
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
                    raw = _read_all(fd, self.path)
                except OSError as exc:
                    raise StorageError(f"{self.path}: the journal cannot be read "
                                       f"({exc.strerror}); nothing was changed") from None
                yield fd, raw
            finally:
                if locked:
                    release(fd)
        finally:
            os.close(fd)

    def check_ours(self) -> None:
        """Refuse, as an append would, a journal whose last record this user's referee did
        not sign (ForeignGameError, UnsignedGameError): for commands that need more than
        the journal (the dice secret, a mailbox) before they write."""
        with self._locked(False) as (_, raw):
            self._signer(raw)

    def vouched(self, raw: bytes, done: str = "nothing of it is shown",
                complete: bool = True) -> bool:
        """For a command that shows the game: whether this user's referee provably wrote raw
        up to its last record (its mark names that record, or one of his keys signed it;
        the hash chain, which every read checks, carries that to the records before).
        False for a journal his referee holds nothing of: another's game, shown as it says
        and vouched for by no one. ForeignGameError for one that names his key or his mark
        and is not what he wrote: forged, edited and chained again, or cut back (its line
        ends with done: what the command did not do). complete: add the last record's
        signature to a mark that lacks it (not under the journal's lock: it takes one)."""
        rec = _last_record(raw)
        if written.names_last(raw, rec):
            return True
        fpr = signing.signer_of(rec.get("sig"))
        key = signing.held(fpr) if fpr else None
        stands = keychain.stance(raw) if key is None and rec else "signs"
        older = written.older_copy(raw, rec, fpr) if key is None and rec else None
        if older is not None:
            raise ForeignGameError(f"{self.name}: {older}; {done}")
        if key is None and rec and stands == "signs":
            from .forgedfrom import forged_end  # start-up: only a journal found forged

            signed = "carries no signature" if fpr is None else \
                f"is signed by key {signing.shown(fpr)}, which this referee never handed it to"
            raise ForeignGameError(
                f"{self.name}: record {rec.get('seq')} {signed}, but the game is "
                f"signed by a key of this referee: written by someone without the key"
                f"{forged_end(raw, self.name, rec.get('seq'), done)}")
        if key is not None and not signing.checks(rec.get("sig"), rec.get("hash"),
                                                  key.public):
            from .forgedfrom import forged_end  # start-up: only a journal found forged

            raise ForeignGameError(
                f"{self.name}: record {rec.get('seq')} names key {signing.shown(fpr)} of "
                f"this referee but is not signed by it: forged, or edited and chained again "
                f"by someone without the key{forged_end(raw, self.name, rec.get('seq'), done)}")
        why = written.problem(raw, rec, fpr)
        if why is not None:
            raise ForeignGameError(f"{self.name}: {why}")
        if not stands and written.wrote(raw) is not None:
            raise ForeignGameError(
                f"{self.name}: this referee wrote game {quoted(str(written.game_of(raw)))}, "
                f"but no record of this journal names a key of its: rewritten by someone "
                f"without the key, or another game that only shares its id (read that one "
                f"with another REFEREE_HOME); {done}")
        if key is not None and complete:
            self._complete_mark(rec)
        return key is not None

    def _complete_mark(self, last: dict) -> None:
        """Add the last record's signature to a mark that names that record without one
        (written.signed_last), under the shared lock appends exclude: an append writes its
        mark under its own lock, and a newer mark must never be replaced by this older one."""
        with self._locked(False) as (_, raw):
            if _last_record(raw) == last:
                written.signed_last(raw, last)

    @contextmanager
    def exclusive(self) -> Iterator[bytes]:
        """Hold the lock appends take while a file kept beside the journal changes (standing
        orders); yields the journal's bytes as they are under it. Like an append, only for a
        journal this user's referee signed, and not once its dice secret is revealed (what
        is kept beside a closed game would never be used)."""
        from .revealed import refuse_after_reveal  # start-up: what writes, not what reads

        with self._locked(True) as (_, raw):
            self._signer(raw)
            refuse_after_reveal(raw, self.name)
            yield raw

    @contextmanager
    def shared(self) -> Iterator[bytes]:
        """Hold the lock readers take while deciding on the bytes it yields: no append lands
        meanwhile; any journal, signed by this user's referee or not (nothing is written)."""
        with self._locked(False) as (_, raw):
            yield raw

    def raw(self) -> bytes:
        """The file's bytes, read under a shared lock (never half an append); within
        signed_only(), only when this user's referee signed the last record."""
        with self._locked(False) as (_, raw):
            if _SIGNED_ONLY[0]:
                self._signer(raw)
            return raw

    def first_line(self, limit: int = 1 << 20) -> bytes:
        """The file's first line (at most limit bytes), unchecked and without the lock: what
        record 0 says of the game, for choosing how to open it (UsageError as for raw())."""
        fd = self._open(os.O_RDONLY)
        try:
            with os.fdopen(os.dup(fd), "rb") as f:
                return f.readline(limit)
        except OSError as exc:
            raise StorageError(f"{self.path}: the journal cannot be read ({exc.strerror}); "
                               f"nothing was changed") from None
        finally:
            os.close(fd)

    def read(self) -> list[dict]:
        """Every record, checked (JournalError on the first damaged one), upcast."""
        return parse(self.raw(), self.name)

    def create(self, header: dict, *bodies: dict,
               key: signing.GameKey | None = None) -> list[dict]:
        """Write a new journal (mode 0600) holding the header and the records of bodies,
        each signed by key when one is given, in one write: all of it or nothing; never
        overwrites, and is on disk, directory entry included, when this returns."""
        if key is not None:
            header = {**header, "signing": key.header_field()}
        header = _with_sig(seal({**header, "seq": 0, "prev": None,
                               "schema_version": SCHEMA_VERSION}), key)
        records = [header]
        for seq, body in enumerate(bodies, 1):
            records.append(_with_sig(seal({**body, "seq": seq, "prev": records[-1]["hash"]}),
                                     key))
        lines = [line_of(r) for r in records]
        self._keep_contracts(lines, 0, records)
        try:
            home.write_new(self.path, b"".join(lines))
        except FileExistsError:
            raise UsageError(f"{self.path}: already exists; choose another file name") from None
        except OSError as exc:
            raise StorageError(f"{self.path}: the journal could not be written "
                               f"({exc.strerror}); nothing was created") from None
        home.sync_dir(self.path.parent)
        if key is not None:
            written.note(b"".join(lines), records[-1], key.fpr, key.fpr, None,
                         path=self.path, made=True)
            written.note_game(str(header.get("game_id")), key.fpr)
        return records

    def append_raw(self, build: Callable[[bytes], tuple[int, str, list[dict]]],
                   undo: Callable[[], None] | None = None,
                   adopt: signing.GameKey | None = None) -> tuple[bytes, list[dict]]:
        """Append under one exclusive lock what build(raw) returns: (last seq, last hash, bodies).

        Only to a journal whose last record is signed by a key this user holds
        (ForeignGameError, before build runs); with `adopt`, only to a journal
        never signed, whose new records that key signs. build sees the file's
        bytes as they are under the lock and checks them as it needs (and may
        keep what goes with the records, such as standing orders); the bodies
        are sealed, signed, chained and written in one write, flushed to disk.
        A body naming a new key (`signing`: a key change) is signed by the key
        before it, and the records after it by the new one. If build raises,
        nothing is written; if the write fails, undo() runs, still under the
        lock, and the file is cut back to its size before (StorageError). A clock behind
        the last record refuses the append, or dates the records with its time (timeorder.py).
        Returns the file's bytes afterwards and the new records.
        """
        from .revealed import refuse_after_reveal  # start-up: what writes, not what reads
        from .timeorder import in_order, refuse_behind  # start-up: what writes, not what reads

        with self._locked(True) as (fd, raw):
            key = self._unsigned(raw, adopt) if adopt is not None else self._signer(raw)
            refuse_behind(raw, self.name)
            last, prev, bodies = build(raw)
            bodies = in_order(raw, bodies, self.name)
            if bodies:
                refuse_after_reveal(raw, self.name)
            new: list[dict] = []
            handed = None
            for i, body in enumerate(bodies):
                rec = _with_sig(seal({**body, "seq": last + 1 + i, "prev": prev}), key)
                following = self._next_key(rec, key)
                if following is not key:
                    handed, key = key.fpr, following
                prev = rec["hash"]
                new.append(rec)
            if not new:
                return raw, new
            lines = [line_of(r) for r in new]
            self._keep_contracts(lines, last + 1, new)
            data = b"".join(lines)
            try:
                home.write_all(fd, data)
                os.fsync(fd)
            except OSError as exc:
                try:
                    if undo is not None:
                        undo()
                finally:                    # whatever undo does, the file is cut back
                    self._cut_back(fd, len(raw), data, exc)
            self._check_landed(fd, raw, data, undo)
            # (raw holds the header and the keys the mark reads; the last record was signed
            # by the key in force before it, but for a key change: its `handed`.)
            written.note(raw, new[-1], signing.signer_of(new[-1]["sig"]), key.fpr, handed,
                         new, path=self.path, fd=fd)
            return raw + data, new

    def _signer(self, raw: bytes, marked: bool = True) -> signing.GameKey:
        """The key that signs what is appended: the one of this user's that signed the last
        record (or the new one that record names); ForeignGameError for any other journal
        (a damaged one is reported as damaged); one handed over to another machine too."""
        from .forgedfrom import WROTE_NOTHING, forged_end  # start-up: what writes, not reads
        from .handedover import refuse as refuse_handed  # start-up: what writes, not reads

        refuse_handed(raw, self.name)
        rec = _last_record(raw)
        fpr = signing.signer_of(rec.get("sig"))
        key = signing.held(fpr) if fpr else None
        if key is not None and signing.checks(rec.get("sig"), rec.get("hash"), key.public):
            why = written.problem(raw, rec, fpr) if marked else None
            if why is not None:
                raise ForeignGameError(f"{self.name}: {why}; nothing was written")
            return self._next_key(rec, key)
        parse(raw, self.name)
        header = record_in(raw[:raw.find(b"\n")])
        if fpr is None and "signing" not in header and not any(
                b'"sig":"' in line for line in raw.splitlines()):
            raise UnsignedGameError(
                f"{self.name}: not signed: a game begun before the referee signed its "
                f"journals; nothing was written. `referee upgrade {self.name}` shows what "
                f"adopting it would sign as yours; `--adopt` adopts it, and the referee writes "
                f"to it from then on")
        if fpr is None:
            raise ForeignGameError(f"{self.name}: not a game of this referee: record "
                                   f"{rec.get('seq')} carries no signature" +
                                   forged_end(raw, self.name, rec.get('seq'), WROTE_NOTHING))
        older = written.older_copy(raw, rec, fpr) if key is None else None
        if older is not None:
            raise ForeignGameError(f"{self.name}: {older}; nothing was written")
        if key is None:
            raise ForeignGameError(f"{self.name}: not a game of this referee: key "
                                   f"{signing.shown(fpr)} not in REFEREE_HOME "
                                   f"({signing.keys_dir()}); nothing was written")
        raise ForeignGameError(f"{self.name}: not a game of this referee: record "
                               f"{rec.get('seq')} is not signed by key {signing.shown(fpr)}: "
                               f"forged, or edited after signing" +
                               forged_end(raw, self.name, rec.get('seq'), WROTE_NOTHING))

    def _unsigned(self, raw: bytes, key: signing.GameKey) -> signing.GameKey:
        """key, for adopting a journal no record of which is signed (UsageError otherwise)."""
        records = parse(raw, self.name)
        if "signing" in records[0] or any("sig" in r for r in records):
            raise UsageError(f"{self.name}: already signed; there is nothing to adopt")
        return key

    def key_in_force(self, raw: bytes) -> str:
        """The fingerprint of the key that signs what is appended to these bytes."""
        return self._signer(raw).fpr

    @staticmethod
    def _next_key(rec: dict, key: signing.GameKey) -> signing.GameKey:
        """The key that signs the records after rec: a key change names the next one."""
        named = rec.get("signing")
        fpr = named.get("fingerprint") if isinstance(named, dict) else None
        if fpr is None or fpr == key.fpr:
            return key
        following = signing.held(fpr)
        if following is None:
            raise ForeignGameError(f"record {rec.get('seq')} hands the game to key "
                                   f"{signing.shown(str(fpr))}, which is not in REFEREE_HOME "
                                   f"({signing.keys_dir()}); nothing was written")
        return following

    def _check_landed(self, fd: int, raw: bytes, data: bytes,
                      undo: Callable[[], None] | None) -> None:
        """Refuse an append that did not land right after the bytes it was built on: another
        process appended in between although both held the exclusive lock (StorageError;
        what no longer follows the hash chain is cut off, by this run or, when the file
        changed again meanwhile, by the run that changed it, so the journal never forks)."""
        if landed(fd, len(raw), data):
            return
        if undo is not None:
            undo()
        self._cut_to_chain(fd)
        raise StorageError(f"{self.path}: another run appended to the journal at the same time "
                           f"although this one held its lock: this file system's locks do not "
                           f"exclude (a network mount?); this change was not kept: keep the "
                           f"journal on a local disk")

    def _keep_contracts(self, lines: list[bytes], first_seq: int, records: list[dict]) -> None:
        """Hand each new line to the contract check before anything is written; a record
        nested deeper than any reader takes (chain.DEEPEST: a scenario's free-form part, say)
        is refused here, never written."""
        for i, (rec, line) in enumerate(zip(records, lines)):
            if too_deep(rec, line):
                raise UsageError(f"{self.path}: record {first_seq + i} as built nests deeper "
                                 f"than {DEEPEST} levels, which no reader of a journal takes; "
                                 f"nothing was written")
        if self.contract is not None:
            for i, line in enumerate(lines):
                self.contract(first_seq + i, line)

    def _cut_to_chain(self, fd: int) -> None:
        cut_to_chain(fd, lambda line, n, prev: check_line(line, n, prev, self.name))

    def _cut_back(self, fd: int, size: int, data: bytes, exc: OSError) -> None:
        """Undo a failed append of data: truncate to the size before it while nothing but its
        own bytes follow, else (another run appended meanwhile, the lock not excluding) cut
        back to the hash chain, keeping the other's records; then say so truthfully."""
        if not only_ours(fd, size, data):
            self._cut_to_chain(fd)
            raise StorageError(
                f"{self.path}: the journal could not be written ({exc.strerror}), and another "
                f"run appended to it at the same time although this one held its lock: this "
                f"file system's locks do not exclude (a network mount?); this change was not "
                f"kept and the journal was cut back to its hash chain: keep the journal on a "
                f"local disk") from None
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

    def repair(self) -> tuple[int, Path | None, bool]:
        """Cut a torn last line after backing the file up; returns (records kept, backup,
        whether the line was mended rather than cut).

        The backup is written whole (exclusively, never through a symlink)
        before the journal is touched; if it cannot be, nothing changes. A signed journal
        is cut only by the holder of its key, whose mark then names the record kept last
        (written.py: the moderator's repair is a cut back on purpose). A last line that
        lacks only its end, and holds the very record this referee's mark names as the one
        it wrote last, gets its end back instead: cutting it would throw away a record the
        referee wrote, signed and mailed, for one byte anyone could take off. A whole journal
        passed off as this referee's (vouched) is refused as the commands that show it do.
        """
        with self._locked(True) as (fd, raw):
            try:
                records = parse(raw, self.name)
            except JournalError as exc:
                if not exc.torn:
                    raise JournalError(
                        f"{exc} — repair only removes a torn last line; this damage is "
                        f"not that, so nothing was changed", record=exc.record) from None
            else:       # whole: refused as every command refuses it when passed off as ours
                self.vouched(raw, "nothing was changed", complete=False)
                return len(records), None, False
            whole = self._whole_but_its_end(raw)
            if whole is not None:
                backup = self._backup(raw)
                try:
                    os.lseek(fd, 0, os.SEEK_END)
                    home.write_all(fd, b"\n")
                    os.fsync(fd)
                except OSError as exc:
                    raise StorageError(f"{self.path}: could not be mended ({exc.strerror}); "
                                       f"the file as it was is in {backup}") from None
                return whole, backup, True
            keep = raw[: raw.rfind(b"\n") + 1]
            records = parse(keep, self.name)
            signed = "signing" in records[0] or "sig" in records[-1]
            following = self._signer(keep, marked=False) if signed else None
            gone = written.cut_too_far(keep, records[-1],
                                       signing.signer_of(records[-1].get("sig")))
            if following is not None and gone is not None:
                raise ForeignGameError(f"{self.name}: {gone}; a torn line holds one record "
                                       f"at most, so nothing was changed")
            backup = self._backup(raw)
            try:
                os.ftruncate(fd, len(keep))
                os.fsync(fd)
            except OSError as exc:
                raise StorageError(f"{self.path}: could not be cut ({exc.strerror}); the file "
                                   f"as it was is in {backup}") from None
            if following is not None:
                written.cut(keep, records[-1], signing.signer_of(records[-1].get("sig")),
                            following.fpr, self.path)
            return len(records), backup, False

    def _whole_but_its_end(self, raw: bytes) -> int | None:
        """The number of records raw holds once its last line gets its end back, when that
        line is the record this referee's mark names as its last write; else None."""
        whole = raw + b"\n"
        try:
            records = parse(whole, self.name)
        except JournalError:
            return None
        return len(records) if written.names_last(whole, records[-1]) else None

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


def _with_sig(rec: dict, key: signing.GameKey | None) -> dict:
    """A sealed record with its signature (as it is, without a key)."""
    if key is not None:
        rec["sig"] = key.sig(rec["hash"])
    return rec


def _last_record(raw: bytes) -> dict:
    """The last complete record of raw as a dict ({} when there is none to read)."""
    return record_in(last_line(raw)) if raw.endswith(b"\n") else {}


def stale(last: int, expected: int) -> StaleViewError | UsageError:
    """The error for an order written against an older record than the journal's last; a
    record the journal does not hold is no view anyone read (a usage error naming its
    records, as `report --since` and `show --at` name them)."""
    if not 0 <= expected <= last:
        return UsageError(f"--expect-seq {expected}: the journal has records 0 to {last}")
    return StaleViewError(
        f"the journal has moved on: its last record is {last}, the order was written against "
        f"record {expected} (--expect-seq); look again at `referee status` and resubmit")
