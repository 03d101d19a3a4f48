"""Where a game's dice secret is kept: the place noted at `new`, then beside the journal."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from ..base.errors import JournalError, UsageError
from . import dice as dicemod
from . import home


def _pointer(game_id: str) -> Path:
    # Beside the key, not in the cache: clearing a cache must not lose a game's secret.
    return home.key_path().parent / "secrets" / (
        hashlib.sha256(game_id.encode()).hexdigest()[:40] + ".where")


def secret_for_new(path: Path, secret_file: Path | None) -> tuple[bytes, Path, bool]:
    """The dice secret of a new game, where it is kept, and whether it is new: the given file's
    when it exists, else a new one for it (or for the file beside the journal)."""
    fresh = secret_file is None or not os.path.lexists(secret_file)
    secret = dicemod.new_secret() if fresh else dicemod.read_secret(secret_file)
    where = Path(secret_file) if secret_file is not None else dicemod.secret_path(path)
    return secret, where, fresh


def create_with_secret(journal, header: dict, bodies: list[dict], secret: bytes, where: Path,
                       fresh: bool, remember: bool, key=None) -> list[dict]:
    """Make the journal (header and first records) with a new secret on disk before it, and
    the secret gone again when the journal cannot be made; remembered when it was given."""
    if fresh:
        dicemod.write_secret(where, secret)
    try:
        records = journal.create(header, *bodies, key=key)
    except BaseException:
        if fresh:
            where.unlink(missing_ok=True)
        raise
    if remember:
        remember_secret(header["game_id"], header["dice"]["commitment"], where)
    return records


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
        raise not_committed(wrong)
    return None


def not_committed(path: Path) -> JournalError:
    """The error of a secret file that is not the one the game committed to: the same words
    whichever command read it (order, tick, verify, a skirmish's verify)."""
    return JournalError(f"{path}: this secret does not match the commitment in the journal "
                        f"header (record 0)", record=0)


def secret_missing(path: Path, header: dict, why: str) -> UsageError:
    """The one-line error of a command that needs the game's secret (why: what for) when
    load_secret found none: where it was looked for, and what to do."""
    places = " nor at ".join(str(p) for p in secret_candidates(path, header))
    return UsageError(f"the dice secret is needed {why}, and it is not at {places}: put the "
                      f"game's secret file there (nothing was written)")
