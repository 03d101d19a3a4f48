"""Where each reader's last report ended, kept in this user's data folder and signed like
the snapshots: a lost or planted bookmark is a miss, and a miss only repeats news (the
report starts from the beginning), never hides any."""

from __future__ import annotations

import hashlib
from pathlib import Path

from ..store import home


def _bookmark_path(header_hash: str, game_id: str, reader: str) -> Path:
    """Keyed by the game's record 0, so a moved game folder keeps its bookmarks."""
    tag = hashlib.sha256(f"{game_id}/{header_hash}/{reader}".encode()).hexdigest()[:32]
    return home.data_dir("bookmarks") / f"{tag}.mark"


def last_reported(game_id: str, reader: str, hashes: dict[int, str]) -> int:
    """The record the reader's last report ended at, if this user's referee wrote the
    bookmark and the journal still holds that record as it was; else 0."""
    mark = home.read_signed(_bookmark_path(hashes[0], game_id, reader))
    if not isinstance(mark, dict) or mark.get("game_id") != game_id or \
            mark.get("reader") != reader:
        return 0
    seq = mark.get("seq")
    if not isinstance(seq, int) or hashes.get(seq) != mark.get("hash"):
        return 0
    return seq


def remember_reported(header_hash: str, game_id: str, reader: str, seq: int,
                      hash_: str) -> None:
    """Note where the reader's report ended (signed; used only as a starting point)."""
    home.write_signed(_bookmark_path(header_hash, game_id, reader),
                      {"game_id": game_id, "reader": reader, "seq": seq, "hash": hash_})
