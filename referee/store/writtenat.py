"""Where and when this referee wrote each game last: the journal's path its mark notes.

The mark of a game (written.py) follows the game, not the file: a copy of its journal, under
another name or in another folder, is the same game, and a write to the copy takes the mark
over, so that the journal it named before is from then on an older copy, refused as cut
back. A game branched on purpose (a variant of one position, a what-if played past its
dice) or moved to another folder is written as ever; but the mark also notes the path the
write went through (absolute, links resolved) and the time, so that the cut-back refusal
says where and when the record the mark names was written, and a moderator who played a
what-if on a copy knows his own doing. Its words are the mark's alone (the path, the
record, the time), signed in this user's referee home, whatever the folder holds since. A
mark written before marks noted the path names none.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..base.errors import one_line
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
