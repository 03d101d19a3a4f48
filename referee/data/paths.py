"""Where things live on disk, and the content digest of a game directory.

The quick paths of `status` and `show` use it: it imports only the standard library and the
store below, which they load anyway.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import time
from pathlib import Path

from ..base.errors import UsageError
from ..contracts.names import GAME_NAME_PATTERN
from ..store.home import print_of, read_named

# A game's directory name under the games directory, as a journal header names it.
GAME_NAME = re.compile(GAME_NAME_PATTERN)


def default_games_dir() -> Path:
    """Where the built-in games live: $REFEREE_GAMES, the source tree, or the installed copy."""
    env = os.environ.get("REFEREE_GAMES")
    if env:
        return Path(env)
    here = _package()
    for candidate in (here.parent / "games", here / "_games"):
        if (candidate / "ttlm" / "game.yaml").is_file():
            return candidate
    return here.parent / "games"


@functools.cache
def _package() -> Path:
    """The referee package's folder, resolved once: a process's own code does not move."""
    return Path(__file__).resolve().parent.parent


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

    A process that reads the same folder again (a pass over many games, `watch`) takes the
    digest it worked out before while every file's print (home.print_of: size, times,
    inode; a change time no one can set back) is the one it had then, and for KEPT_NS at
    most. The print catches every write made through the file system's calls (write,
    truncate, rename, a copy over it, times set back by hand: the change time moves), but
    not every write made through a shared writable mapping of the file (mmap): the kernel
    moves the times at the first write to a page, not at the ones after it until the page
    is written back, so such a file's content can change under the same print. So a digest
    is believed no longer than KEPT_NS (the folders are small: reading one again costs
    little), and a file changed within SETTLED_NS of the reading has its folder read again
    each time, as a write within the clock's step could keep its print too.
    """
    names: list[tuple[str, bytes]] = []
    try:
        for folder, dirs, files in os.walk(game_dir):
            dirs.sort()
            rel = os.path.relpath(folder, game_dir)
            for f in sorted(files):
                name = f if rel == os.curdir else os.path.join(rel, f)
                names.append((os.path.join(folder, f), os.fsencode(name)))
            if len(names) > MAX_SOURCE_FILES:
                return None
        prints = tuple(print_of(os.stat(path)) for path, _ in names)
    except (OSError, ValueError):
        return None
    key = (os.fspath(game_dir), tuple(name for _, name in names))
    kept = _DIGESTS.get(key)
    now = clock()
    if kept is not None and kept[0] == prints and now - kept[2] < KEPT_NS:
        return kept[1]
    h = hashlib.sha256()
    try:
        for path, name in names:
            body = read_named(path, "a game data file", MAX_SOURCE_BYTES)
            h.update(b"%d:%s%d:" % (len(name), name, len(body)))
            h.update(body)
    except (OSError, ValueError, UsageError):    # a special file, a huge one, unreadable
        return None
    digest = h.hexdigest()
    settled = time.time_ns() - SETTLED_NS
    if all(max(p[1], p[2]) < settled for p in prints):
        _DIGESTS[key] = (prints, digest, now)
    return digest


# A file whose modification or change time is this close to the moment it was read may be
# written again with the same print (a file system's clock moves in steps): its folder's
# digest is not kept.
SETTLED_NS = 2_000_000_000
# How long a folder's digest is believed while its files keep their print: a write through
# a shared mapping can change a file without changing its print (source_digest).
KEPT_NS = 60_000_000_000
clock = time.monotonic_ns           # what KEPT_NS is counted on (a test sets its own)
_DIGESTS: dict[tuple, tuple[tuple, str, int]] = {}
