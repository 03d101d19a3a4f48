"""Where things live on disk, and the content digest of a game directory.

The quick paths of `status` and `show` use it: it imports only the standard library and the
store below, which they load anyway.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

from ..base.errors import UsageError
from ..contracts.names import GAME_NAME_PATTERN
from ..store.home import read_named

# A game's directory name under the games directory, as a journal header names it.
GAME_NAME = re.compile(GAME_NAME_PATTERN)


def default_games_dir() -> Path:
    """Where the built-in games live: $REFEREE_GAMES, the source tree, or the installed copy."""
    env = os.environ.get("REFEREE_GAMES")
    if env:
        return Path(env)
    here = Path(__file__).resolve().parent.parent       # the referee package
    for candidate in (here.parent / "games", here / "_games"):
        if (candidate / "ttlm" / "game.yaml").is_file():
            return candidate
    return here.parent / "games"


MAX_SOURCE_FILES = 200
MAX_SOURCE_BYTES = 1 << 20          # a larger file is no game data (dataload refuses it too)


def source_digest(game_dir: Path) -> str | None:
    """SHA-256 over the names and bytes of every file of a game directory (content, not mtime).

    Snapshots and compiled copies of the data are bound to it: an edit to any
    file, whatever its name and even one that keeps its size and time,
    changes it. None when the folder holds something that cannot be read
    whole and at once (a special file, a huge one, too many): then nothing is
    kept for it and every read loads the data afresh, which reports what is
    wrong with it.
    """
    h = hashlib.sha256()
    names: list[str] = []
    try:
        for folder, dirs, files in os.walk(game_dir):
            dirs.sort()
            names += [os.path.join(folder, f) for f in sorted(files)]
            if len(names) > MAX_SOURCE_FILES:
                return None
        for path in names:
            body = read_named(path, "a game data file", MAX_SOURCE_BYTES)
            name = os.fsencode(os.path.relpath(path, game_dir))
            h.update(b"%d:%s%d:" % (len(name), name, len(body)))
            h.update(body)
    except (OSError, ValueError, UsageError):    # a special file, a huge one, unreadable
        return None
    return h.hexdigest()
