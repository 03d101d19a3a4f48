"""The static part of the whole map kept between runs, in this user's cache: the Base of each
level (mapbase.py: where the areas, names and seas go, and the space they leave) and its
layer as painted (png.py), so that a run that draws a map or two (a `tick` from cron with
one mail) does not lay out and paint again what is the same at every record of every game
of that data. A level costs about a tenth of a second to make and a hundredth to read
back. A close-up's, made for its own areas, is kept in memory only (mapbase.py).

Each is a file only this user's referee can have written (store/home.py: an HMAC under his
key, which never sits in a game folder), named by a digest of everything it was made from:
the game data's content digest, the size of the writing, where the map starts, its level,
and the code and fonts that lay it out and paint it. A file of another name, an
unsigned or edited one, or one that does not read back whole is a miss: the part is made
again. Only JSON and raw pixels are read, never code. At most MOST files of each kind are
kept, the least recently used removed first.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import zlib
from pathlib import Path

from .. import __version__
from ..store import home

FORMAT = 1                 # raised when what a file holds is read differently
MOST = 64                  # the files of each kind (.base, .layer) kept
BASE_BYTES = 8 << 20       # the most a Base's file may hold, and a layer's
LAYER_BYTES = 64 << 20
TALLEST = 1 << 15         # rows a kept layer may have


def folder() -> Path:
    return home.cache_dir("pictures")


@functools.cache
def code_digest() -> str:
    """A digest of the code that draws a picture and of the fonts it writes in: a new
    version of either never reads what an older one kept."""
    here = Path(__file__).resolve().parent
    h = hashlib.sha256(f"{FORMAT} {__version__}".encode())
    for path in sorted(here.glob("*.py")):
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    for path in sorted((here / "fonts").glob("*")):
        h.update(f"{path.name} {path.stat().st_size}".encode())
    return h.hexdigest()


def key(source: str, font: float, top: float, level: int) -> str | None:
    """The name a Base made from these is kept under (None: data with no content digest,
    made in memory, is not kept)."""
    if not source:
        return None
    what = json.dumps([code_digest(), source, font, top, level])
    return hashlib.sha256(what.encode()).hexdigest()[:40]


def read_base(name: str) -> dict | None:
    """The payload kept for a Base, or None."""
    path = folder() / f"{name}.base"
    return _touched(home.read_signed(path, BASE_BYTES), path)


def write_base(name: str, payload: dict) -> None:
    _written(folder() / f"{name}.base", lambda path: home.write_signed(path, payload))


def read_layer(name: str, width: int) -> tuple[int, int, bytes] | None:
    """The layer kept for a Base at this width: its size and RGB pixels, or None."""
    path = folder() / f"{name}-{width}.layer"
    body = home.read_signed_bytes(path, LAYER_BYTES)
    if body is None:
        return None
    head, _, packed = body.partition(b"\n")
    try:
        w, h = json.loads(head)
        size = w * h * 3
        if not (isinstance(w, int) and isinstance(h, int) and w == width
                and 0 < h <= TALLEST):
            return None
        inflate = zlib.decompressobj()
        pixels = inflate.decompress(packed, size + 1)
    except (ValueError, TypeError, zlib.error, MemoryError):
        return None
    if len(pixels) != size or not inflate.eof:
        return None
    return _touched((w, h, pixels), path)


def write_layer(name: str, width: int, height: int, pixels: bytes) -> None:
    body = json.dumps([width, height]).encode() + b"\n" + zlib.compress(pixels, 1)
    _written(folder() / f"{name}-{width}.layer",
             lambda path: home.write_signed_bytes(path, body))


def _touched(found, path: Path):
    """found; when there is something, its file marked as used now (the last to go)."""
    if found is not None:
        try:
            os.utime(path)
        except OSError:
            pass
    return found


def _written(path: Path, write) -> None:
    """Write a file (best effort: a cache) and keep at most MOST of its kind."""
    if not write(path):
        return
    kind = path.suffix
    try:
        files = [(entry.stat().st_mtime_ns, entry.path) for entry in os.scandir(path.parent)
                 if entry.name.endswith(kind) and entry.is_file(follow_symlinks=False)]
    except OSError:
        return
    for _, old in sorted(files)[:max(len(files) - MOST, 0)]:
        try:
            os.unlink(old)
        except OSError:
            pass
