"""The index of a folder's games that lets an idle `tick` pass skip a game without opening
its journal: for each journal, its fingerprint (size, change time, inode and its last
record's hash), what tick needs to claim its mail (its id, route, order keys, addresses),
and the first moment its deadlines may ask anything again.

It is a cache, kept in this user's referee home and signed like the ledger, bound to the
folder it indexes. It is never believed over a journal: an entry serves only while the
journal's fingerprint is the one recorded, and is written only after a full pass of that
game found nothing wrong and left nothing owed. A missing, damaged, foreign or planted
index, or another folder's, is a miss, and the pass opens every journal as without it.

Beside the entries it keeps, for each journal a pass read (or served), what claimed its
mail then: never served, only what tells a later pass, which cannot read that journal,
which mail is its game's (withheld.py).
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from datetime import datetime
from pathlib import Path

from ..store import home

VERSION = 2
TAIL = 8192                 # bytes read from a journal's end for its last record ...
LINE_MOST = 1 << 20         # ... or this many when that record is longer (a great battle)


def _path(folder: Path) -> Path:
    tag = hashlib.sha256(os.fsencode(folder)).hexdigest()[:32]
    return home.data_dir("index") / f"{tag}.index"


def _where(path: Path) -> Path:
    return path.resolve()


def load(path: Path) -> dict[str, dict]:
    """The entries of the index of `path` (a folder or one journal), by journal name; {}
    when there is none this user's referee wrote for it."""
    return load_all(path)[0]


def load_all(path: Path) -> tuple[dict[str, dict], dict[str, dict]]:
    """The entries, and what claimed each journal's mail when it was last read (by journal
    name: never served, only what claims the mail of a journal that cannot be read now)."""
    where = _where(path)
    data = home.read_signed(_path(where))
    if not isinstance(data, dict) or data.get("version") != VERSION or \
            data.get("folder") != str(where) or not isinstance(data.get("games"), dict):
        return {}, {}
    known = data.get("known")
    return {k: v for k, v in data["games"].items() if isinstance(v, dict)}, \
        {k: v for k, v in known.items() if isinstance(v, dict)} \
        if isinstance(known, dict) else {}


def save(path: Path, entries: dict[str, dict], known: dict[str, dict] | None = None) -> None:
    """Keep the index (best effort: a cache that cannot be written is rebuilt)."""
    where = _where(path)
    home.write_signed(_path(where), {"version": VERSION, "folder": str(where),
                                     "games": entries, "known": known or {}})


def fingerprint(journal: Path) -> list | None:
    """What changes whenever the journal or the secret beside it (which makes the order
    keys) does: each one's size, modification and change times (a change time no one can
    set back), inode and device, and the hash of the journal's last record (None when the
    journal cannot be read)."""
    try:
        st, last, _ = _last_line(journal)
    except OSError:
        return None
    if st is None:
        return None
    beside = home.file_print(journal.with_name(f"{journal.name}.secret"))
    try:
        digest = json.loads(last).get("hash")
    except (ValueError, AttributeError, RecursionError):
        return None
    if not isinstance(digest, str):
        return None
    return [*home.print_of(st), digest, beside]


def mark(journal: Path) -> list | None:
    """The journal's size and its last record's hash (None when it cannot be read): what
    holds() later checks it still holds."""
    return mark_of(fingerprint(journal))


def mark_of(printed: list | None) -> list | None:
    """The mark a fingerprint holds: the journal's size and its last record's hash."""
    return None if not printed else [printed[0], printed[5]]


def holds(journal: Path, size, digest) -> bool:
    """Whether the journal's line that ends at byte `size` is the record whose hash is
    `digest`: the journal then still holds all it held at that size (each record's hash
    covers the one before), however it grew since. False when it is shorter, was put
    back to another copy, or cannot be read."""
    if not isinstance(size, int) or not isinstance(digest, str) or size <= 0:
        return False
    try:
        st, line, ended = _last_line(journal, size)
    except OSError:
        return False
    if st is None or st.st_size < size or not ended:
        return False
    try:
        found = json.loads(line).get("hash")
    except (ValueError, AttributeError, RecursionError):
        return False
    return found == digest


def _last_line(journal: Path, end: int | None = None
               ) -> tuple[os.stat_result | None, bytes, bool]:
    """The journal's status, the line that ends at byte `end` (its end by default) without
    its end of line, and whether it has one: read from the last TAIL bytes, or LINE_MOST
    when the line is longer. (None, b"", False) when the journal is no regular file (it is
    opened without waiting: a FIFO put in its place after the folder was listed must not
    hang the pass)."""
    fd = os.open(journal, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None, b"", False
        end = st.st_size if end is None else min(end, st.st_size)
        for most in (TAIL, LINE_MOST):
            start = max(end - most, 0)
            os.lseek(fd, start, os.SEEK_SET)
            chunk = os.read(fd, end - start)
            ended = chunk.endswith(b"\n")
            body = chunk[:-1] if ended else chunk
            cut = body.rfind(b"\n")
            if cut >= 0 or start == 0:
                return st, body[cut + 1:], ended
        return st, b"", False
    finally:
        os.close(fd)


def entry(journal: Path, printed: list | None, fields: dict, quiet: datetime | None,
          now: datetime) -> dict | None:
    """An entry for a game after a full pass at `now` that read its fields from the journal
    whose fingerprint was `printed` before (None: it may not be skipped, because the
    journal or its secret changed since, during the pass or by another hand, or its
    deadlines ask something now)."""
    if printed is None or fingerprint(journal) != printed or \
            (quiet is not None and quiet <= now):
        return None
    return {"print": printed, "game": fields,
            "quiet": None if quiet is None else quiet.timestamp()}


def serves(found: dict | None, journal: Path) -> dict | None:
    """The game's fields from its entry, while the journal is as the entry found it."""
    if not isinstance(found, dict) or not isinstance(found.get("game"), dict):
        return None
    return found["game"] if found.get("print") == fingerprint(journal) else None


def quiet(found: dict, now: datetime) -> bool:
    """Whether the game's deadlines ask nothing at `now`, as its entry says."""
    until = found.get("quiet")
    return until is None or (isinstance(until, (int, float)) and now.timestamp() < until)


def forget(journal: Path) -> None:
    """Drop the journal's entry from the index of its folder and from its own (`tick` of
    one journal): its next pass opens the game, as for news. Called before a game owes a
    mail no journal change shows (best effort, as every write of the index)."""
    for path in (journal.parent, journal):
        entries, known = load_all(path)
        if journal.name in entries:
            entries.pop(journal.name)
            save(path, entries, known)
