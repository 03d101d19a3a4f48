"""Where a game's dice secret is kept: the place noted at `new`, then beside the journal."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from ..base.errors import JournalError
from . import dice as dicemod
from . import home


def _pointer(game_id: str) -> Path:
    # Beside the key, not in the cache: clearing a cache must not lose a game's secret.
    return home.key_path().parent / "secrets" / (
        hashlib.sha256(game_id.encode()).hexdigest()[:40] + ".where")


def remember_secret(game_id: str, commitment: str, where: Path) -> None:
    """Note, in this user's folder, where a game's secret is kept (new --secret-file)."""
    home.write_signed(_pointer(game_id), {"game_id": game_id, "commitment": commitment,
                                          "path": str(where.resolve())})


def secret_candidates(path: Path, header: dict) -> list[Path]:
    """Where the secret of a journal may be: the place noted at `new`, then JOURNAL.secret."""
    out = []
    note = home.read_signed(_pointer(header["game_id"]))
    if note and note.get("commitment") == header["dice"]["commitment"] and \
            isinstance(note.get("path"), str):
        out.append(Path(note["path"]))
    out.append(dicemod.secret_path(path))
    return out


def load_secret(path: Path, header: dict) -> bytes | None:
    """The game's secret, checked against the commitment in the header (None if not found)."""
    wrong = None
    for spath in secret_candidates(path, header):
        if not os.path.lexists(spath):
            continue
        secret = dicemod.read_secret(spath)
        if dicemod.commitment(secret) == header["dice"]["commitment"]:
            return secret
        wrong = spath
    if wrong is not None:
        raise JournalError(f"{wrong}: this secret does not match the commitment in the "
                           f"journal header", record=0)
    return None
