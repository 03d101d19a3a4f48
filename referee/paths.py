"""Where things live on disk (standard library only, so the cache can use it cheaply)."""

from __future__ import annotations

import os
from pathlib import Path


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
