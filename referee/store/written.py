"""What this user's referee last wrote to each journal: a mark in his referee home.

Every signature of a journal cut back to an older copy of itself is genuine, so the
signatures alone cannot tell that records were taken away; and a key handed over by
`rekey` (perhaps because it leaked) still signs well. After each write the referee notes,
for the journal's path, its header, the last record it wrote and the keys it handed over
(signed with this user's key, like the snapshots). Before the next write, and before
inbox and tick act on a journal, the journal must still hold that record, and its last
record must not be signed by a key handed over (but for the key change itself).

A lost or deleted mark only makes the check lenient again; the moderator who restores a
journal from a backup on purpose removes the mark the refusal names.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from . import home

_MEMBER = b'"hash":"'


def mark_path(journal: Path) -> Path:
    """Where the mark of the journal at this path is kept."""
    name = hashlib.sha256(os.fsencode(journal.absolute())).hexdigest()[:40]
    return home.data_dir("written", f"{name}.mark")


def header_hash(raw: bytes) -> str | None:
    """The header's own hash, read from the first line without decoding it: in its sorted
    keys `hash` comes after `dice` (which holds none), and a string's quotes are escaped."""
    end = raw.find(b"\n")
    at = raw.find(_MEMBER, 0, end)
    if at < 0:
        return None
    value = raw[at + len(_MEMBER):at + len(_MEMBER) + 64]
    return value.decode("ascii", "replace") if len(value) == 64 else None


def note(journal: Path, raw: bytes, last: dict, signer: str | None, handed: str | None) -> None:
    """After a write: raw is the journal now, last its last record, signer the fingerprint
    that signed it, handed the one it handed over (a key change), if any."""
    path = mark_path(journal)
    before = home.read_signed(path) or {}
    head = header_hash(raw)
    retired = list(before.get("retired", [])) if before.get("header") == head else []
    if handed and handed not in retired:
        retired.append(handed)
    home.write_signed(path, {"header": head, "seq": last["seq"], "hash": last["hash"],
                             "signer": signer, "retired": retired[-20:]})


def problem(journal: Path, raw: bytes, last: dict, signer: str | None) -> str | None:
    """Why the referee must not act on these bytes of the journal, or None."""
    path = mark_path(journal)
    mark = home.read_signed(path)
    if not mark or mark.get("header") != header_hash(raw):
        return None                     # never written here, or another game at this path
    seq, hash_ = mark.get("seq"), mark.get("hash")
    if not isinstance(hash_, str) or raw.find(_MEMBER + hash_.encode("ascii", "replace")) < 0:
        return (f"cut back: this referee wrote record {seq} ({str(hash_)[:12]}…) to it, which "
                f"it no longer holds (restored from an older copy, or rewound by someone who "
                f"can write the folder); if you restored it on purpose, remove {path} and run "
                f"the command again")
    retired = mark.get("retired") or []
    if signer in retired and not (last.get("hash") == hash_ and signer == mark.get("signer")):
        return (f"record {last.get('seq')} is signed by key {signer}, which this referee "
                f"handed over to another key (rekey): whoever still holds the old key wrote it")
    return None


def _game_path(game_id: str) -> Path:
    return home.data_dir("games", hashlib.sha256(game_id.encode()).hexdigest()[:40] + ".game")


def note_game(game_id: str, fpr: str) -> None:
    """Remember that this referee signs the game `game_id` (new, an adoption)."""
    home.write_signed(_game_path(game_id), {"game_id": game_id, "key": fpr})


def signs_game(game_id: str) -> str | None:
    """The key this referee signed the game with, when it ever did."""
    note = home.read_signed(_game_path(game_id))
    return note.get("key") if note and note.get("game_id") == game_id else None
