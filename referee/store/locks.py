"""The locks on a game's files (its journal, its mail lock): taken as they come, or, within
a pass of `tick` or `watch` (patience), waited for at most a few seconds.

A pass serves many games; one of them held by another process (the moderator's `order`
left at a prompt, another `tick` busy with its mail, a backup tool, a stale lock on a
network mount) must not stop the others. Within patience a lock that is not free within
its seconds raises BusyError: the pass passes that game over, and its mail waits for the
next pass. The seconds are the pass's, in all: what one lock was waited for is not waited
again for the next, which gets what is left, or AT_LEAST once nothing is (a folder with
many games held costs the pass a few seconds, not a few for each). The seconds are
counted by `clock` and waited by `pause` (tests replace both).
"""

from __future__ import annotations

import errno
import os
import stat
import time
from collections.abc import Iterator
from contextlib import contextmanager

from ..base.errors import StorageError

PATIENCE = 5.0          # seconds a pass waits in all for locks other processes hold
AT_LEAST = 0.5          # seconds each lock is still waited for once those are spent
STEP = 0.05             # seconds between two tries
clock = time.monotonic
pause = time.sleep
_PATIENT: list[float | None] = [None]


class BusyError(StorageError):
    """A lock another process held for longer than the pass waits: nothing was done."""


@contextmanager
def patience(seconds: float = PATIENCE) -> Iterator[None]:
    """Within it, locks are waited for at most seconds in all (AT_LEAST each once they are
    spent; BusyError after)."""
    before = _PATIENT[0]
    _PATIENT[0] = seconds
    try:
        yield
    finally:
        _PATIENT[0] = before


def open_lock(path: os.PathLike | str) -> int:
    """A lock file opened to be locked (made, mode 0600, when missing): never through a
    link, never waiting on a FIFO, and only a regular file; OSError otherwise (one planted
    in its place is no lock: the caller takes none there)."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) |
                 getattr(os, "O_NONBLOCK", 0), 0o600)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
    except OSError:
        os.close(fd)
        raise
    return fd


def let_go(fd: int) -> None:
    """A lock file opened by open_lock, its lock let go and the file closed (the lock goes
    even where a process forked meanwhile holds a copy of the file)."""
    try:
        release(fd)
    except OSError:
        pass                            # none was taken there
    finally:
        os.close(fd)


def take(fd: int, exclusive: bool, what: str) -> None:
    """Lock fd (shared or exclusive), waiting for another process's lock to go; within
    patience, BusyError naming what once its seconds are up (OSError: no lock there)."""
    left = _PATIENT[0]
    if left is None:
        _lock(fd, exclusive, wait=True)
        return
    start = clock()
    seconds = max(left, AT_LEAST)
    try:
        while not _lock(fd, exclusive, wait=False):
            waited = clock() - start
            if waited >= seconds:
                raise BusyError(f"{what} is held by another process (the moderator's "
                                f"`order`, another `tick`) for over {seconds:g} seconds")
            pause(min(STEP, seconds - waited))
    finally:
        _PATIENT[0] = max(0.0, left - (clock() - start))


if os.name == "posix":
    import fcntl

    def _lock(fd: int, exclusive: bool, wait: bool) -> bool:
        how = (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | (0 if wait else fcntl.LOCK_NB)
        try:
            fcntl.flock(fd, how)
        except BlockingIOError:
            return False
        return True

    def release(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)
else:                                                     # pragma: no cover - Windows
    import portalocker

    def _lock(fd: int, exclusive: bool, wait: bool) -> bool:
        how = (portalocker.LOCK_EX if exclusive else portalocker.LOCK_SH) | \
            (0 if wait else portalocker.LOCK_NB)
        try:
            portalocker.lock(fd, how)
        except portalocker.LockException:
            return False
        return True

    def release(fd: int) -> None:
        portalocker.unlock(fd)
