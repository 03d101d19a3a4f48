"""The locks on a game's files (its journal, its mail lock): waited for at most WAIT seconds
by a command a user or a script runs, or, within a pass of `tick` or `watch` (patience),
at most a few seconds for the whole pass.

No command holds a lock while it waits for its user (`order -` reads its orders before it
opens the journal; an append checks the journal under its lock, as --expect-seq does), so
a lock is held for the moment a record takes; one held longer is another process stuck or
busy (a pass of `tick` handling the game's mail, a backup tool, a stale lock on a network
mount). A command that cannot take it within WAIT raises BusyError (exit 75): it did
nothing, says which process holds the lock where the system says (lockholder.py), and is
run again.

A pass serves many games; one of them held by another process must not stop the others.
Within patience a lock that is not free within its seconds raises BusyError: the pass
passes that game over, and its mail waits for the next pass. The seconds are the pass's,
in all: what one lock was waited for is not waited again for the next, which gets what is
left, or AT_LEAST once nothing is (a folder with many games held costs the pass a few
seconds, not a few for each). The seconds are counted by `clock` and waited by `pause`
(tests replace both).
"""

from __future__ import annotations

import errno
import os
import stat
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from ..base.errors import EXIT_BUSY, StorageError

WAIT = 10.0             # seconds a command waits for a lock another process holds
PATIENCE = 5.0          # seconds a pass waits in all for locks other processes hold
AT_LEAST = 0.5          # seconds each lock is still waited for once those are spent
STEP = 0.05             # seconds between two tries
clock = time.monotonic
pause = time.sleep
# The seconds a pass has left to wait for locks, or None outside a pass: one value a thread
# (a context variable), so that a pass run in one thread never bounds another's command.
_PATIENT: ContextVar[float | None] = ContextVar("patient", default=None)


class BusyError(StorageError):
    """A lock another process held for longer than the command or the pass waits: nothing
    was done; the same command run again once the lock is free does it (exit 75, not the
    damaged data of exit 3)."""

    kind = "busy"
    exit_code = EXIT_BUSY


@contextmanager
def patience(seconds: float = PATIENCE) -> Iterator[None]:
    """Within it, locks are waited for at most seconds in all (AT_LEAST each once they are
    spent; BusyError after)."""
    token = _PATIENT.set(seconds)
    try:
        yield
    finally:
        _PATIENT.reset(token)


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
    """Lock fd (shared or exclusive), waiting for another process's lock to go: BusyError
    naming what once WAIT seconds are up, or within patience the pass's seconds (OSError:
    no lock there)."""
    left = _PATIENT.get()
    if left is None:
        _wait(fd, exclusive, what)
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
        _PATIENT.set(max(0.0, left - (clock() - start)))


def _wait(fd: int, exclusive: bool, what: str) -> None:
    """take outside a pass: WAIT seconds at most, then BusyError saying who holds it, where
    the system says, that nothing was done, and to try again."""
    start = clock()
    while not _lock(fd, exclusive, wait=False):
        waited = clock() - start
        if waited >= WAIT:
            from .lockholder import holder  # start-up: only a lock held too long

            who = holder(fd)
            who = f", {who}," if who else (" (an `order` under way, a `tick` or `watch` "
                                           "handling its mail, a backup tool)")
            raise BusyError(f"{what} is held by another process{who} for over "
                            f"{WAIT:g} seconds: the game is busy; nothing was done, try "
                            f"again once it is free")
        pause(min(STEP, WAIT - waited))


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
