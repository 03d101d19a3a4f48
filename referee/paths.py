"""Where things live on disk (standard library only, so the cache can use it cheaply)."""

from __future__ import annotations

import os
import re
from pathlib import Path

# A game's directory name under the games directory, as a journal header names it.
GAME_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")


def default_games_dir() -> Path:
    """Where the built-in games live: $REFEREE_GAMES, the source tree, or the installed copy."""
    env = os.environ.get("REFEREE_GAMES")
    if env:
        return Path(env)
    here = Path(__file__).resolve().parent
    for candidate in (here.parent / "games", here / "_games"):
        if (candidate / "ttlm" / "game.yaml").is_file():
            return candidate
    return here.parent / "games"


def source_digest(game_dir: Path) -> str:
    """SHA-256 over the bytes of every YAML file of a game directory (content, not mtime).

    Snapshots and compiled copies of the data are bound to it: an edit that
    keeps a file's size and modification time still changes it.
    """
    import hashlib

    h = hashlib.sha256()
    root = Path(game_dir)
    try:
        files = sorted(p for p in root.rglob("*.yaml") if p.is_file())
        for p in files:
            body = p.read_bytes()
            name = p.relative_to(root).as_posix().encode()
            h.update(b"%d:%s%d:" % (len(name), name, len(body)))
            h.update(body)
    except OSError:
        return "unreadable"
    return h.hexdigest()
