"""The static part of the whole map kept between runs, in this user's cache: the Base of each
level (mapbase.py: where the areas, names and seas go, and the space they leave) and its
layer as painted (png.py), so that a run that draws a map or two (a `tick` from cron with
one mail) does not lay out and paint again what is the same at every record of every game
of that data. A level costs about a tenth of a second to make and a hundredth to read
back. A close-up's Base, made for its own areas, and its layer are kept too, as kinds of
their own (so that close-ups never push a level of the whole map out): the decisions of a
front come back to the same few areas, in every game of a data. A layer is kept deflated
by zlib-ng at its fastest level (zlib's format, in a quarter of zlib's time): a layer's
4 MB of pixels, mostly the ground's colour, become 60 to 200 kB in 0.5 to 2 ms and are
inflated in under a millisecond, where painting a close-up's takes 5 to 25 ms.

Each is a file only this user's referee can have written (store/home.py: an HMAC under his
key, which never sits in a game folder), named by a digest of everything it was made from:
the game data's content digest, the size of the writing, where the map starts, its level, a
close-up's areas, and the code, fonts and Pillow that lay it out and paint it; each names
itself inside what is signed. A file that names another, an unsigned or edited one, or one
that does not read back whole is a miss: the part is made again. Only JSON and raw pixels
are read, never code. At most MOST files of each kind are kept, the least recently used
removed first.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sys
import time
import zlib
from collections.abc import Iterable
from pathlib import Path

from .. import __version__
from ..store import home

FORMAT = 1                 # raised when what a file holds is read differently
MOST = 64                  # the files of each kind (.base, .closeup, .layer, .closelayer) kept
BASE_BYTES = 8 << 20       # the most a Base's file may hold, and a layer's
LAYER_BYTES = 64 << 20
MOST_PIXELS = 1 << 26     # a kept layer's, no more


def folder() -> Path:
    return home.cache_dir("pictures")


def _code() -> str:
    """A digest of this code and of the fonts it writes in ('' when one cannot be read:
    nothing is kept then), taken as the drawing code is loaded (mapbase.py imports this
    module with the layout; the painter, loaded later, checks its file by `loaded`), so
    that a run never files what its code drew under the name of code installed after it
    started."""
    here = Path(__file__).resolve().parent
    h = hashlib.sha256(f"{FORMAT} {__version__} {sys.version}".encode())
    try:
        for path in [*sorted(here.glob("*.py")), *sorted((here / "fonts").iterdir())]:
            body = path.read_bytes()
            h.update(path.name.encode() + b"\0" + body)
            _TAKEN[path.name] = hashlib.sha256(body).digest()
    except OSError:                 # a folder or an unreadable file among them
        return ""
    return h.hexdigest()


_TAKEN: dict[str, bytes] = {}       # each file's digest as CODE took it
CODE = _code()


def loaded(module_file: str) -> None:
    """Told by a drawing module as it is loaded: if its file is no longer what CODE was
    taken from (the referee was installed again meanwhile), this run keeps and reads
    nothing."""
    global CODE
    path = Path(module_file)
    try:
        now = hashlib.sha256(path.read_bytes()).digest()
    except OSError:
        now = None
    if _TAKEN.get(path.name) != now:
        CODE = ""


@functools.cache
def made_with() -> str:
    """CODE and the Pillow, FreeType and text shaping this process measures and paints with
    (a name's width moves with them), as loaded."""
    from PIL import __version__ as pillow  # start-up: loaded to draw
    from PIL import features

    def version(library: str) -> str | None:
        try:
            return features.version(library)
        except ValueError:          # a library this Pillow does not know of
            return None

    return json.dumps([CODE, pillow, *map(version, ("freetype2", "raqm", "harfbuzz",
                                                     "fribidi"))])


def key(source: str, font: float, top: float, level: int,
        ids: tuple[str, ...] | None = None) -> str | None:
    """The name a Base made from these is kept under, of the whole map or of a close-up of
    the areas of ids (None: data with no content digest, made in memory, or code that
    could not be digested, is not kept)."""
    if not source or not CODE:
        return None
    made_from = [made_with(), source, font, top, level]
    what = json.dumps(made_from if ids is None else [*made_from, list(ids)])
    return hashlib.sha256(what.encode()).hexdigest()[:40]


def read_base(name: str, kind: str = "base") -> dict | None:
    """The payload kept for a Base under this name, or None (kind: `base` of the whole
    map, `closeup` of a close-up)."""
    path = folder() / f"{name}.{kind}"
    kept = home.read_signed(path, BASE_BYTES)
    if kept is None or kept.get("name") != name or not isinstance(kept.get("base"), dict):
        return None
    return _touched(kept["base"], path)


def write_base(name: str, payload: dict, kind: str = "base") -> None:
    _written(folder() / f"{name}.{kind}",
             lambda path: home.write_signed(path, {"name": name, "base": payload}))


def read_layer(name: str, width: int, height: int, kind: str = "layer") -> bytes | None:
    """The RGB pixels of the layer kept for a Base at this size, or None (kind: `layer` of
    the whole map, `closelayer` of a close-up)."""
    path = folder() / f"{name}-{width}.{kind}"
    if not 0 < width * height <= MOST_PIXELS:
        return None
    most = _deflated_at_most(width * height * 3) + len(name.encode()) + 1024  # + the heads
    body = home.read_signed_bytes(path, min(most, LAYER_BYTES))
    if body is None:
        return None
    head, _, packed = body.partition(b"\n")
    deflate = _deflate()
    try:
        if json.loads(head) != [name, width, height]:
            return None
        inflate = deflate.decompressobj()
        pixels = inflate.decompress(packed, width * height * 3 + 1)
    except (ValueError, RecursionError, deflate.error):
        return None
    if len(pixels) != width * height * 3 or not inflate.eof:
        return None
    return _touched(pixels, path)


def write_layer(name: str, width: int, height: int, bands: Iterable[bytes],
                kind: str = "layer") -> None:
    """Keep a layer's RGB pixels, given a band of rows at a time (so that no copy of the
    whole is made beside the deflated one)."""
    deflate = _deflate().compressobj(1)
    packed = [deflate.compress(band) for band in bands]
    body = json.dumps([name, width, height]).encode() + b"\n" + b"".join(packed) + \
        deflate.flush()
    _written(folder() / f"{name}-{width}.{kind}",
             lambda path: home.write_signed_bytes(path, body))


def _deflated_at_most(size: int) -> int:
    """More bytes than `size` bytes can take deflated at level 1: zlib-ng's fastest level
    writes every byte in the fixed codes, 9 bits at the most (an eighth more), zlib's
    stores what it cannot shrink; and the stream's own few bytes."""
    return size + size // 8 + 64


def _deflate():
    """zlib-ng when it loads (the painter needs it: png.py), else zlib: the same format."""
    try:
        from zlib_ng import zlib_ng  # start-up: loaded only to keep or read a layer
    except ImportError:
        return zlib
    return zlib_ng


def _touched(found, path: Path):
    """found; when there is something, its file marked as used now (the last to go)."""
    if found is not None:
        try:
            os.utime(path)
        except OSError:
            pass
    return found


def _written(path: Path, write) -> None:
    """Write a file (best effort: a cache) and keep at most MOST of its kind: the least
    recently used go first, and before them any dated ahead of the clock (not used since
    it was wrong); never the one just written."""
    if not write(path):
        return
    now = time.time_ns()
    try:
        files = [(_used(entry.stat().st_mtime_ns, now), entry.path)
                 for entry in os.scandir(path.parent) if entry.name.endswith(path.suffix)
                 and entry.name != path.name and entry.is_file(follow_symlinks=False)]
    except OSError:
        return
    for _, old in sorted(files)[:max(len(files) + 1 - MOST, 0)]:
        try:
            os.unlink(old)
        except OSError:
            pass


def _used(mtime: int, now: int) -> int:
    """When a file was last used, for eviction: one dated ahead of now counts as never."""
    return mtime if mtime <= now else -1
