"""Since when each game of a folder has been passed over as busy (its lock held by another
process), so that a lock that does not go away becomes a problem, not a line repeated at
every pass while its deadlines wait unruled. Kept signed in this user's data folder, one
file a folder; a lost or planted file only starts the count again."""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta
from pathlib import Path

from ..base.clock import parse_stamp, stamp
from ..store import home

# Busy for longer than this, a game is a problem of the pass (exit 3; watch names it once).
TOO_LONG = timedelta(hours=1)


def _path(where: Path) -> Path:
    tag = hashlib.sha256(str(where.resolve()).encode("utf-8", "surrogatepass")).hexdigest()
    return home.data_dir("busy") / f"{tag[:32]}.busy"


def too_long(where: Path, busy: list[Path], moment: datetime) -> list[str]:
    """The problem lines of the games a pass over where (a folder, or one journal) has
    found busy at every pass for over TOO_LONG, busy those it found busy at moment; the
    games no longer busy are forgotten."""
    path = _path(where)
    kept = home.read_signed(path) or {}
    before = kept.get("since") if isinstance(kept.get("since"), dict) else {}
    since = {}
    for journal in busy:
        began = before.get(journal.name)
        began = parse_stamp(began) if isinstance(began, str) else None
        since[journal.name] = began if began is not None and began <= moment else moment
    kept = {k: stamp(v) for k, v in since.items()}
    if kept != before:
        home.write_signed(path, {"since": kept})
    return [f"{name}: held by another process at every pass since {stamp(began)}, over "
            f"{TOO_LONG.total_seconds() / 3600:g} hour: its mail and deadlines wait on a lock "
            f"that does not go away (an `order` left at a prompt, a stale lock); end that "
            f"process"
            for name, began in sorted(since.items()) if moment - began > TOO_LONG]
