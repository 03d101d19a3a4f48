"""Where this referee wrote a game last, and whether the file there still holds what it wrote.

The mark of a game (written.py) follows the game, not the file: a copy of the journal under
any name is the same game. So a copy played on (to see how the game might end, say) moves
the mark to the copy's last record, and the journal itself, which lacks it, reads as cut
back from then on. The mark therefore also keeps the path of the journal it was written
for, resolved (the same file however its path is spelled). A write to a journal at another
path is refused while the file at the mark's path still holds the marked record, just as
this referee wrote it: its hash chain sound up to the record the mark names by hash (the
hash covers the whole record, and through `prev` every record before it), signed as the
mark says, and no redacted export. A file there
that does not hold it (the journal moved away, or something else in its place) proves
nothing, and the write goes on as before: the mark follows the journal to its new path.
A journal found cut back names the copy that holds the marked record: the file at the
mark's path, or, for a mark written before marks kept one, a journal beside it.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ..base.errors import JournalError
from . import home
from .chain import MOST_BYTES, is_redacted_part, placed_parts, scan

_MEMBER = b'"hash":"'


def place(path: Path | str) -> str:
    """The path a mark keeps for a journal: absolute, links and `..` resolved."""
    try:
        return str(Path(path).resolve())
    except (OSError, RuntimeError):         # a loop of links: its absolute spelling
        return os.path.abspath(path)


def elsewhere(mark: dict, path: Path | str) -> str | None:
    """The path of the journal the mark was written for, when it is another file than the one
    at path and holds the marked record (None: a mark written before marks kept a path, the
    same file, or a file there that does not hold it)."""
    at = mark.get("path")
    if not isinstance(at, str) or at == place(path) or _same_file(at, path):
        return None
    return at if holds(at, mark) else None


def beside(mark: dict, path: Path | str) -> str | None:
    """For a mark written before marks kept a path: another journal in the folder of the one
    at path (a *.jsonl, among the first hundred by name) that holds the marked record, the
    copy a write moved the mark to then; None when there is none, or the mark has a path."""
    if "path" in mark:
        return None
    folder = Path(path).parent
    try:
        names = sorted(e.name for e in os.scandir(folder) if e.name.endswith(".jsonl"))
    except OSError:
        return None
    for name in names[:100]:
        other = folder / name
        if not _same_file(other, path) and holds(other, mark):
            return str(other)
    return None


def _same_file(at: str, path: Path | str) -> bool:
    try:
        return os.path.samefile(at, path)
    except (OSError, ValueError):
        return False


def holds(at: str | Path, mark: dict) -> bool:
    """Whether the file at `at` is a journal that holds the record the mark names as this
    referee wrote it: its chain sound up to that record (hashes and links checked), which
    has the marked number, hash and signature; no secret part before it a digest (a redacted
    export holds the same hashes, but is no game's journal). Read as a journal is (a
    regular file, never waited on, no more than a journal may hold); anything else holds
    nothing."""
    hash_, seq, sig = mark.get("hash"), mark.get("seq"), mark.get("sig")
    raw = _read(at)
    if not isinstance(hash_, str) or type(seq) is not int or \
            raw.find(_MEMBER + hash_.encode("ascii", "replace") + b'"') < 0:
        return False
    try:
        for rec in scan(raw, "journal"):
            if any(is_redacted_part(p) for p in placed_parts(rec)):
                return False
            if rec["seq"] == seq:
                return rec["hash"] == hash_ and (sig is None or rec.get("sig") == sig)
    except JournalError:            # a record before it damaged, or the file torn before it
        return False
    return False


def _read(at: str | Path) -> bytes:
    try:
        fd = os.open(at, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except (OSError, ValueError):
        return b""
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return b""
        raw = home.read_up_to(fd, MOST_BYTES)
        return raw if len(raw) <= MOST_BYTES else b""
    except OSError:
        return b""
    finally:
        os.close(fd)
