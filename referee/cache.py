"""The snapshot cache beside a journal (JOURNAL.cache): views and state for one exact file.

A cache entry is valid only for the exact journal bytes it was made from
(size and SHA-256 of the file), the same referee version and the same game
data files (their sizes and modification times). Anything else is a miss,
and the journal is read and replayed as if there were no cache: deleting the
cache never changes a result. This module uses the standard library only, so
that `status` and `show` answer from the cache without loading the rules.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from pathlib import Path
from typing import Any

from . import __version__
from .paths import default_games_dir

CACHE_VERSION = 1


def cache_path(journal: Path) -> Path:
    """Where a journal's snapshot cache lives."""
    return journal.with_name(journal.name + ".cache")


def data_signature(games_dir: Path | None) -> list[tuple[str, int, int]]:
    """(file, size, mtime) of every game data file, to notice edited data."""
    root = Path(games_dir or default_games_dir()) / "ttlm"
    out = []
    for p in sorted(root.rglob("*.yaml")):
        st = p.stat()
        out.append((str(p), st.st_size, st.st_mtime_ns))
    return out


def load(journal: Path) -> dict | None:
    """The cache entry, or None (missing, unreadable, other version: all just misses)."""
    try:
        with open(cache_path(journal), "rb") as fh:
            entry = pickle.load(fh)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ValueError,
            ImportError, IndexError, TypeError):
        return None
    if not isinstance(entry, dict) or entry.get("version") != (CACHE_VERSION, __version__):
        return None
    return entry


def matches(entry: dict | None, raw: bytes, games_dir: Path | None) -> bool:
    """Whether a cache entry was made from exactly these journal bytes and this data."""
    return (entry is not None and entry.get("size") == len(raw)
            and entry.get("digest") == hashlib.sha256(raw).hexdigest()
            and entry.get("data") == data_signature(games_dir))


def view(journal: Path, key: str, games_dir: Path | None) -> Any | None:
    """A cached view of the journal as it is now, or None."""
    try:
        raw = journal.read_bytes()
    except OSError:
        return None
    entry = load(journal)
    if matches(entry, raw, games_dir):
        return entry["views"].get(key)
    return None


def prefix_entry(journal: Path, raw: bytes, games_dir: Path | None) -> dict | None:
    """A cache entry made from a prefix of these bytes (records appended since), or None."""
    entry = load(journal)
    if entry is None or entry.get("size", 0) > len(raw) or \
            entry.get("data") != data_signature(games_dir):
        return None
    if hashlib.sha256(raw[:entry["size"]]).hexdigest() != entry["digest"]:
        return None
    return entry


def save(journal: Path, raw: bytes, last: dict, state: Any, views: dict,
         games_dir: Path | None, header: dict) -> None:
    """Write the cache for exactly these bytes (atomically; failures are ignored)."""
    entry = {"version": (CACHE_VERSION, __version__), "size": len(raw),
             "digest": hashlib.sha256(raw).hexdigest(), "data": data_signature(games_dir),
             "seq": last["seq"], "hash": last["hash"], "header": header,
             "state": pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL), "views": views}
    _write(journal, entry)


def _write(journal: Path, entry: dict) -> None:
    """Replace the cache file in one step; a cache that cannot be written is just missing."""
    tmp = cache_path(journal).with_name(cache_path(journal).name + f".{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as fh:
            pickle.dump(entry, fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, cache_path(journal))
    except OSError:
        tmp.unlink(missing_ok=True)


def add_view(journal: Path, key: str, value: Any, games_dir: Path | None) -> None:
    """Add one view to a cache entry that still matches the journal."""
    try:
        raw = journal.read_bytes()
    except OSError:
        return
    entry = load(journal)
    if not matches(entry, raw, games_dir):
        return
    entry["views"][key] = value
    _write(journal, entry)
