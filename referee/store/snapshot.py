"""Snapshots: a journal's state and views, kept in this user's cache and signed with his key.

A snapshot says which journal bytes it was made from (size and SHA-256 of
the file up to its last record), which game data (the content digest of the
YAML files) and which referee version; its state is plain JSON, never
unpickled. It is used only when the signature is this user's and those
facts still hold; anything else is a miss and the answer comes from the
journal. A state snapshot also serves a journal that has grown since (its
bytes are a prefix of the file): only the new records are read. A view
(what `status` or `show` prints for one reader) is kept in a file of its own
and is used only for exactly the bytes it was made from.

Deleting the snapshot folder never changes an answer. Standard library only,
so the quick paths of `status` and `show` can use it.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from .. import __version__
from . import home

# Imported for annotations only: the quick paths do without the typing module.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# Raised when the same journal bytes and data would now be answered differently by a state or
# a view kept under the format before (2: a sealed plan runs one deadline for both sides, and
# views kept with the deadlines of the rule before must not be served; 3: views name each
# nation of the force pools; 4: a paused game's status view shows no deadline; 5: `show`
# names the optional rules in play with their rules; 6: a state keeps whether an armistice
# proposal's other side has been asked a decision since, which decides when it lapses;
# 7: a game's result says how it ended, who won, and the turn and record it ended at).
FORMAT = 7


def _journal_id(journal: Path) -> str:
    return hashlib.sha256(os.fsencode(journal.resolve())).hexdigest()[:40]


def _path(journal: Path, suffix: str) -> Path:
    return home.cache_dir("snapshots") / f"{_journal_id(journal)}.{suffix}"


def _view_suffix(key: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in key) + ".view"


class Snapshot:
    """A signed state snapshot that fits the journal (its bytes are a prefix of the file)."""

    __slots__ = ("size", "seq", "hash", "header", "state", "walk")

    def __init__(self, size: int, seq: int, hash: str, header: dict, state: dict,
                 walk: Any = None):
        self.size, self.seq, self.hash, self.header, self.state = size, seq, hash, header, state
        self.walk = walk            # the deadlines' walk to that record (game/clockwalk.py)


_HASHED: list = []          # [(bytes, their SHA-256, its hash object or None)]: the last
#                             whole journal hashed


def _digest(raw: bytes) -> str:
    """The SHA-256 of a journal's bytes, worked out once for the same bytes object: a read
    keeps its state and its view of the same bytes, an order its state and the views it
    answers with (bytes never change, and the one held stays alive, so `is` is sameness).
    The bytes an order leaves are those it found with its records after them: only the
    records are hashed, on from the hash of the bytes before them."""
    kept = _HASHED[-1] if _HASHED else None     # read once: a thread may replace it
    if kept is not None and kept[0] is raw:
        return kept[1]
    if type(raw) is not bytes:
        return digest_of(raw)
    before = kept[0] if kept is not None and kept[2] is not None else b""
    if before and len(raw) > len(before) and raw.startswith(before):
        hasher = kept[2].copy()
        hasher.update(memoryview(raw)[len(before):])
    else:
        hasher = hashlib.sha256(raw)
    digest = hasher.hexdigest()
    _HASHED[:] = [(raw, digest, hasher)]
    return digest


def digest_of(raw: bytes | memoryview) -> str:
    """The SHA-256 of bytes, as the snapshots and views name it."""
    return hashlib.sha256(raw).hexdigest()


def hashed(raw: bytes, digest: str) -> None:
    """Keep the digest of a journal's bytes worked out elsewhere in this process or by a
    process it forked (checking.first_fault), for the state and the views kept of them."""
    if type(raw) is bytes:
        _HASHED[:] = [(raw, digest, None)]


def _stamp(size: int, digest: str, data_id: str) -> dict:
    return {"format": FORMAT, "engine": __version__, "size": size, "sha256": digest,
            "data": data_id}


def _fits(payload: dict | None, kind: str, raw: bytes, data_id: str, whole: bool) -> bool:
    if payload is None or not data_id or payload.get("kind") != kind \
            or payload.get("format") != FORMAT or payload.get("engine") != __version__ \
            or payload.get("data") != data_id:
        return False
    size = payload.get("size")
    if type(size) is not int or not 0 < size <= len(raw) or (whole and size != len(raw)):
        return False
    if raw[size - 1:size] != b"\n":
        return False
    digest = _digest(raw) if size == len(raw) else digest_of(memoryview(raw)[:size])
    return digest == payload.get("sha256")


def load_state(journal: Path, raw: bytes, data_id: str) -> Snapshot | None:
    """The signed state snapshot of this journal if it was made from a prefix of raw."""
    payload = home.read_signed(_path(journal, "state"))
    if not _fits(payload, "state", raw, data_id, whole=False):
        return None
    try:
        snap = Snapshot(payload["size"], payload["seq"], payload["hash"], payload["header"],
                        payload["state"], payload.get("walk"))
    except KeyError:
        return None
    if not (type(snap.seq) is int and isinstance(snap.hash, str)
            and isinstance(snap.header, dict) and isinstance(snap.state, dict)):
        return None
    return snap


def has_state(journal: Path) -> bool:
    """Whether a state snapshot of this journal is kept (fitting or not); False for one this
    user cannot even look at (a folder he may not search), as load_state cannot read it."""
    return os.path.isfile(_path(journal, "state"))


def save_state(journal: Path, raw: bytes, data_id: str, seq: int, last_hash: str,
               header: dict, state: dict[str, Any], walk: dict | None = None) -> None:
    """Keep the state after the last record of raw (best effort, signed), with the
    deadlines' walk to it when the records were walked."""
    if not data_id:                       # data whose content has no digest: keep nothing
        return
    payload = {"kind": "state", **_stamp(len(raw), _digest(raw), data_id),
               "seq": seq, "hash": last_hash, "header": header, "state": state}
    if walk is not None:
        payload["walk"] = walk
    home.write_signed(_path(journal, "state"), payload)


def load_view(journal: Path, raw: bytes, data_id: str, key: str) -> Any | None:
    """A view made from exactly these journal bytes and this data, or None."""
    payload = home.read_signed(_path(journal, _view_suffix(key)))
    if not _fits(payload, "view", raw, data_id, whole=True) or payload.get("key") != key:
        return None
    return payload.get("view")


def save_view(journal: Path, raw: bytes, data_id: str, key: str, view: Any) -> None:
    """Keep a view, tagged with the exact journal bytes it describes (best effort, signed)."""
    if not data_id:
        return
    payload = {"kind": "view", **_stamp(len(raw), _digest(raw), data_id),
               "key": key, "view": view}
    home.write_signed(_path(journal, _view_suffix(key)), payload)


def forget(journal: Path) -> None:
    """Remove every snapshot and view of a journal (tests and benchmarks)."""
    folder = home.cache_dir("snapshots")
    prefix = _journal_id(journal) + "."
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        if name.startswith(prefix):
            try:
                os.unlink(folder / name)
            except OSError:
                pass
