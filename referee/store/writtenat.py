"""Where and when this referee wrote each game last: the journal's path its mark notes.

The mark of a game (written.py) follows the game, not the file: a copy of its journal, under
another name or in another folder, is the same game, and a write to the copy takes the mark
over, so that the journal it named before is from then on an older copy, refused as cut
back. A game branched on purpose (a variant of one position, a what-if played past its
dice) or moved to another folder is written as ever; but the mark also notes the path the
write went through (absolute, links resolved) and the time, so that

- a write through another path, while the file at the marked path is still a journal of
  the same game (the same record 0), says so in one line on stderr: that file is from now
  an older copy the referee will refuse, and how to go back. A game moved on purpose (no
  file there any more, or one of another game) is not warned of, nor a repair (it writes
  no record, so the journal at the marked path still holds the one the mark names);
- the cut-back refusal says where and when the record the mark names was written, so that
  a moderator who played a what-if on a copy knows his own doing.

What the folder holds decides only whether the warning is given: its words, like the
refusal's, are the mark's alone (the path, the record, the time), signed in this user's
referee home. The file at the marked path is reached without following any link, in its
folders or at the file itself (a link planted there is no journal of the game: no warning,
and nothing read elsewhere); only a regular file, never waited on, and of it only as many
bytes as the journal's own record 0 holds. A mark written before marks noted the path gives
no warning, and its refusal names no path.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ..base.errors import one_line
from ..base.warned import warn
from .chain import now


def noted(path: Path | str | None) -> dict:
    """What the mark of a write through path notes of it: the path, resolved, and the time
    ({} when the write names no path)."""
    return {} if path is None else {"path": place(path), "at": now()}


def place(path: Path | str) -> str:
    """A journal's path as a mark notes it: absolute, links and `..` resolved."""
    try:
        return str(Path(path).resolve())
    except (OSError, RuntimeError):         # a loop of links: its absolute spelling
        return os.path.abspath(path)


def written_to(mark: dict) -> str | None:
    """Where and when the record the mark names was written ('record 12 was written to
    whatif/north14.jsonl at 2026-11-28T22:50:00Z'), or None for a mark without a path."""
    at, when = mark.get("path"), mark.get("at")
    if not isinstance(at, str):
        return None
    return f"record {mark.get('seq')} was written to {shown(at)}" + \
        (f" at {one_line(when)}" if isinstance(when, str) else "")


def shown(at: str) -> str:
    """A marked path as a message shows it: relative to the working folder when under it."""
    try:
        rel = os.path.relpath(at)
    except (ValueError, OSError):           # another drive, or no working folder
        rel = at
    return one_line(at if os.path.isabs(rel) or rel == os.pardir or
                    rel.startswith(os.pardir + os.sep) else rel)


def warn_left(before: dict, raw: bytes, path: Path | str, fd: int | None, mark: str) -> None:
    """Before the mark of a write through path (its journal open as fd, raw its bytes before
    the write) replaces before: one line on stderr when the journal before names another
    path, and the file there, another file than this one, is a journal of the same game,
    which this write leaves an older copy. mark: the mark's file, which going back
    removes."""
    at = before.get("path")
    first = raw[:raw.find(b"\n") + 1]
    if not isinstance(at, str) or fd is None or not first or place(path) == at or \
            not _same_game_at(at, first, fd):
        return
    told = shown(at)
    when = before.get("at")
    warn(
        f"this write makes this journal game "
        f"{one_line(str(before.get('game_id')))}: {told}, where this referee wrote it last "
        f"(record {before.get('seq')}{f' at {one_line(when)}' if isinstance(when, str) else ''}"
        f"), is from now an older copy it will refuse; to try orders out, use `referee order "
        f"--dry-run` on {told} instead; to go back to {told}, remove {mark} and move this "
        f"copy away")


def _same_game_at(at: str, first: bytes, fd: int) -> bool:
    """Whether the file at the absolute path at, reached without following a link, is a
    regular file other than the one open as fd that begins with first (the same record 0)."""
    theirs = _open_unlinked(at)
    if theirs is None:
        return False
    try:
        st, ours = os.fstat(theirs), os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or (st.st_dev, st.st_ino) == (ours.st_dev, ours.st_ino):
            return False
        got = b""
        while len(got) < len(first):
            piece = os.read(theirs, len(first) - len(got))
            if not piece:
                break
            got += piece
        return got == first
    except OSError:
        return False
    finally:
        os.close(theirs)


def _open_unlinked(at: str) -> int | None:
    """The file at the absolute path at, opened for reading (never waited on) with no link
    followed on the way, each folder opened in the one before; None when it cannot be."""
    parts = Path(at).parts
    if not os.path.isabs(at) or len(parts) < 2 or os.open not in os.supports_dir_fd:
        return None
    nofollow = getattr(os, "O_NOFOLLOW", 0)
    folder = getattr(os, "O_PATH", os.O_RDONLY) | getattr(os, "O_DIRECTORY", 0) | nofollow
    try:
        fd = os.open(parts[0], folder)
    except OSError:
        return None
    try:
        for name in parts[1:-1]:
            inner = os.open(name, folder, dir_fd=fd)
            os.close(fd)
            fd = inner
        return os.open(parts[-1], os.O_RDONLY | nofollow | getattr(os, "O_NONBLOCK", 0),
                       dir_fd=fd)
    except OSError:
        return None
    finally:
        os.close(fd)
