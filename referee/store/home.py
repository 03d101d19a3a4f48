"""This user's own referee files: the signing key, snapshots, compiled data; private file writes.

Nothing in a game folder is trusted because it is there: a snapshot or a
compiled copy of the game data is used only when it carries an HMAC made
with this user's key. The key lives outside every game folder, in
`$REFEREE_HOME` when that is set (tests and benchmarks point it at a
temporary directory), else in the platform's configuration directory; the
files it signs live in `$REFEREE_HOME` or the platform's cache directory.
Standard library (and platformdirs) only: the quick paths of `status` and
`show` use this module.
"""

from __future__ import annotations

import errno
import hashlib
import hmac
import os
import stat
import time
from pathlib import Path

from ..base.errors import UsageError, one_line
from ..base.warned import warn

KEY_BYTES = 32
_KEY: dict[str, bytes | None] = {}
_WARNED: set[str] = set()


def _base(kind: str) -> Path:
    env = os.environ.get("REFEREE_HOME")
    if env:
        return Path(env)
    import platformdirs

    if kind == "config":
        return Path(platformdirs.user_config_dir("referee", appauthor=False))
    return Path(platformdirs.user_cache_dir("referee", appauthor=False))


def key_path() -> Path:
    """Where this user's signing key lives."""
    return _base("config") / "key"


def cache_dir(*parts: str) -> Path:
    """A directory under this user's cache (not created here)."""
    return _base("cache").joinpath(*parts)


def data_dir(*parts: str) -> Path:
    """A directory under this user's config folder, for what must outlive a cache clean-up
    (report bookmarks, the inbox ledger); not created here."""
    return _base("config").joinpath(*parts)


def ensure_dir(path: Path) -> Path:
    """Create a directory readable by this user only (0700), each missing parent too."""
    missing = []
    for folder in (path, *path.parents):
        if os.path.isdir(folder):
            break
        missing.append(folder)
    for folder in reversed(missing):
        try:
            folder.mkdir(mode=0o700)
        except FileExistsError:
            pass
    return path


def key(create: bool = False) -> bytes | None:
    """This user's signing key; made on first use when create is true (mode 0600)."""
    path = key_path()
    cached = _KEY.get(str(path))
    if cached is not None:
        return cached
    found = _read_key(path)
    if found is None and create:
        # Written whole under a temporary name, then linked into place: a key is never
        # seen half-written, and of two processes making one at once, the first wins.
        tmp = path.with_name(f"key.{os.getpid()}.{os.urandom(4).hex()}.tmp")
        try:
            ensure_dir(path.parent)
            write_new(tmp, os.urandom(KEY_BYTES).hex().encode() + b"\n")
            os.link(tmp, path)
        except FileExistsError:
            pass                     # another process made it first: use theirs
        except OSError:
            return None              # no key, no snapshots: every read is a cold read
        finally:
            tmp.unlink(missing_ok=True)
        found = _read_key(path)
    if found is not None:
        _KEY[str(path)] = found
    return found


def _read_key(path: Path) -> bytes | None:
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None
        text = os.read(fd, 200).strip()
    finally:
        os.close(fd)
    try:
        value = bytes.fromhex(text.decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        return None
    if len(value) != KEY_BYTES:
        return None
    warn_if_shared(path, "the referee's signing key")
    return value


def sign(payload: bytes) -> bytes | None:
    """HMAC-SHA256 of payload under this user's key (made if missing), or None without one."""
    k = key(create=True)
    return None if k is None else hmac.new(k, payload, hashlib.sha256).digest()


def signed_by_me(payload: bytes, mac: bytes) -> bool:
    """Whether mac is this user's HMAC of payload (constant-time comparison)."""
    k = key()
    return k is not None and hmac.compare_digest(hmac.new(k, payload, hashlib.sha256).digest(),
                                                 mac)


# ---------------------------------------------------------------- files

def read_named(path: Path, what: str, limit: int) -> bytes:
    """The bytes of a file the user named (an orders file, a secret): UsageError, one line,
    when it is missing, unreadable, not a regular file (a FIFO never hangs) or over limit."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise _usage(f"{path}: {what} not found") from None
    except OSError as exc:
        raise _usage(f"{path}: {what} cannot be read ({exc.strerror})") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = "a directory" if stat.S_ISDIR(mode) else "not a regular file"
            raise _usage(f"{path}: is {kind}, not {what}")
        data = read_up_to(fd, limit)
    except OSError as exc:
        raise _usage(f"{path}: {what} cannot be read ({exc.strerror})") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise _usage(f"{path}: larger than {limit:,} bytes; not {what}")
    return data


def print_of(st: os.stat_result) -> list:
    """A file's size, modification and change times (no one can set a change time back),
    inode and device: a change made through the file system's calls (write, truncate, a
    file put in its place, times set by hand) changes them; one made through a shared
    writable mapping of it (mmap) may not, since the kernel moves the times at the first
    write to a page and not again until it is written back (data/paths.py bounds how long
    it believes a print for that)."""
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev]


def file_print(path: Path) -> list | None:
    """print_of the file at path; None when it is gone or cannot be looked at."""
    try:
        return print_of(os.stat(path))
    except OSError:
        return None


def read_up_to(fd: int, limit: int) -> bytes:
    """The file's bytes, but no more than limit + 1 of them (so that too large shows).

    A file that gives its size is read in one call for all of it (a journal of 2 MB in
    half the time of reading it in pieces and joining them: no copy, half the fresh
    memory), then on to its end in small pieces, in case it grew; a pipe, in pieces of
    1 MB. (One piece is the result itself: join makes no copy of it.)"""
    try:
        expected = os.fstat(fd).st_size
    except OSError:
        expected = 0
    chunks, size = [], 0
    while size <= limit:
        want = expected + 1 - size if expected > size else (1 << 16 if expected else 1 << 20)
        chunk = os.read(fd, min(want, limit + 1 - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def _usage(message: str) -> Exception:
    return UsageError(message)


def write_new(path: Path, data: bytes, sync: bool = True) -> None:
    """Create path exclusively (never through a symlink, never over a file), mode 0600."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags, 0o600)
    try:
        write_all(fd, data)
        if sync:
            os.fsync(fd)
    except BaseException:
        os.close(fd)
        path.unlink(missing_ok=True)
        raise
    os.close(fd)


def write_all(fd: int, data: bytes) -> None:
    """Write every byte (os.write may write fewer); OSError when the disk refuses."""
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        if n <= 0:
            raise OSError(errno.EIO, "nothing written")
        view = view[n:]


def _tag() -> str:
    """A random tag that keeps temporary file names apart."""
    return os.urandom(4).hex()


def replace_atomically(path: Path, data: bytes) -> bool:
    """Write data to path through a fresh temporary file and rename; False if it failed."""
    tmp = path.with_name(f"{path.name}.{os.getpid()}.{_tag()}.tmp")
    try:
        write_new(tmp, data, sync=False)
        os.replace(tmp, path)
        return True
    except OSError:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:         # no folder to hold it (a file where the folder should be)
            pass
        return False


_SWEPT: dict[Path, float] = {}     # when this process last swept a folder (sweep_temporary)


def sweep_temporary(folder: Path, older_than: float = 3600.0) -> None:
    """Remove temporary files a crashed process left behind in one of our folders, at most
    once every `older_than` seconds in a process: a folder of many files (a host's
    snapshots of a thousand games) is not read again at each write, and a process that
    runs for weeks (watch) still sweeps."""
    if time.monotonic() - _SWEPT.get(folder, -older_than) < older_than:
        return
    _SWEPT[folder] = time.monotonic()
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    limit = time.time() - older_than
    for entry in entries:
        if entry.name.endswith(".tmp"):
            try:
                if entry.stat(follow_symlinks=False).st_mtime < limit:
                    os.unlink(entry.path)
            except OSError:
                pass


def sync_dir(folder: Path) -> None:
    """fsync a directory so that a file just created in it survives a crash (POSIX)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def warn_if_shared(path: Path, what: str, unless=None) -> None:
    """A warning (base/warned.py: its line on stderr, or in the JSON printed) when a private
    file can be read by other users of this machine, unless unless(path) (asked only then)
    says it is no private file.

    Only of a regular file: a folder or a device named instead is refused by its reader in
    one line, and `chmod 600` would lock a folder."""
    if os.name != "posix" or str(path) in _WARNED:
        return
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return
    if stat.S_ISREG(mode) and mode & 0o044:
        if unless is not None and unless(path):
            return
        _WARNED.add(str(path))
        shown = one_line(str(path))
        warn(f"{shown} ({what}) can be read by other users of this machine; "
             f"`chmod 600 {shown}` makes it private")


# ---------------------------------------------------------------- signed files

_MAGIC = b"referee-signed 1\n"


def write_signed(path: Path, payload: dict) -> bool:
    """Write payload as a file only this user's referee can have made (HMAC first line).

    Best effort: False when there is no key or the file cannot be written.
    """
    return write_signed_bytes(path, _payload_bytes(payload))


def _payload_bytes(payload: dict) -> bytes:
    """A signed file's JSON body, in ASCII: a name that is not text (a file name's bytes
    that are not UTF-8, kept by Python as lone surrogates) is written escaped and read
    back the same, where UTF-8 cannot hold it."""
    import json

    return json.dumps(payload, separators=(",", ":")).encode("ascii")


def write_signed_bytes(path: Path, body: bytes) -> bool:
    """write_signed for bytes of any kind (a picture's layer): the same first line."""
    sealed = _sealed(body)
    if sealed is None:
        return False
    try:
        ensure_dir(path.parent)
    except OSError:
        return False
    sweep_temporary(path.parent)
    return replace_atomically(path, sealed)


def _sealed(body: bytes) -> bytes | None:
    """The file of a signed body: the magic line, the HMAC line, the body (None: no key)."""
    mac = sign(body)
    return None if mac is None else _MAGIC + mac.hex().encode() + b"\n" + body


def keep_signed(path: Path, payload: dict) -> bool:
    """write_signed, on disk when this returns (file and folder synced), or OSError: for a
    file whose loss would repeat or drop work (the inbox ledger). Whether it wrote: a file
    that holds these very bytes already (kept so before, so synced) is left as it is."""
    sealed = _sealed(_payload_bytes(payload))
    if sealed is None:
        raise OSError(errno.EACCES, "no key to sign it with")
    if _holds(path, sealed):
        return False
    ensure_dir(path.parent)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.{_tag()}.tmp")
    try:
        write_new(tmp, sealed)
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)
        raise
    sync_dir(path.parent)
    return True


def _holds(path: Path, data: bytes) -> bool:
    """Whether path is a regular file (never through a link, never a FIFO) of exactly
    these bytes."""
    return _regular_bytes(path, len(data)) == data


def _regular_bytes(path: Path, limit: int) -> bytes | None:
    """The bytes of path, at most limit + 1 of them (read_up_to), when it is a regular file
    opened without following a link (a FIFO never hangs); None otherwise."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
                     | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        return read_up_to(fd, limit)
    except OSError:
        return None
    finally:
        os.close(fd)


def try_keeping(folder: Path, data: bytes) -> None:
    """OSError unless a file of data can be made in folder now (its disk full, the folder
    gone or not writable, say): one is written, not synced, and removed at once."""
    tmp = folder / f".probe.{os.getpid()}.{_tag()}.tmp"
    write_new(tmp, data, sync=False)
    tmp.unlink()


def read_signed(path: Path, max_bytes: int = 64 << 20) -> dict | None:
    """The payload of a file this user's referee signed, or None (missing, planted, edited,
    truncated, another user's, too large: all just misses)."""
    import json

    body = read_signed_bytes(path, max_bytes)
    if body is None:
        return None
    try:
        payload = json.loads(body)
    except (ValueError, RecursionError):
        return None
    return payload if isinstance(payload, dict) else None


def read_signed_bytes(path: Path, max_bytes: int = 64 << 20) -> bytes | None:
    """The body of a file this user's referee signed (write_signed_bytes), or None."""
    blob = _regular_bytes(path, max_bytes)
    if blob is None or len(blob) > max_bytes or not blob.startswith(_MAGIC):
        return None
    head = len(_MAGIC)
    try:
        mac = bytes.fromhex(blob[head:head + 64].decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        return None
    body = blob[head + 65:]
    if blob[head + 64:head + 65] != b"\n" or not signed_by_me(body, mac):
        return None
    return body
