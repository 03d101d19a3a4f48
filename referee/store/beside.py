"""Work done beside the caller: a check run in a forked process while the caller goes on with
its own work on the same bytes, its answer (a small JSON object) read back through a pipe.

Where there is no fork, or the child cannot answer (killed, crashed, an answer that is no
JSON object), the work is done in the caller when the answer is asked for: the answer is
always the work's own. The child only reads what the caller held when it forked and writes
its answer; it leaves with os._exit, running nothing of the caller's clean-up.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path

# The interpreter's own signal functions, loaded with it: `signal` wraps them only to give
# enums, and its import costs a two-hundredth of a cold read.
try:
    import _signal as signal
except ImportError:             # pragma: no cover - a Python without it
    import signal

CPU_MAX = Path("/sys/fs/cgroup/cpu.max")    # a container's share of the cores (cgroup v2)


class Beside:
    """work() run in a forked process (or here, when asked, where that cannot be or where
    fork is False: work too small to pay for a process)."""

    def __init__(self, work: Callable[[], dict], fork: bool = True):
        self.work, self.answer = work, None
        self.pid: int | None = None
        self.fd: int | None = None
        if fork and hasattr(os, "fork"):
            try:
                self._fork()
            except BaseException:   # an interrupt delivered as the fork ends: no orphan
                self.close()
                raise

    def _fork(self) -> None:
        read, write = os.pipe()
        with _signals_held():       # an interrupt between the fork and the pid kept: no orphan
            pid = os.fork()
            if pid == 0:                                       # pragma: no cover - the child
                code = 0
                try:
                    os.close(read)
                    data = json.dumps(self.work()).encode()
                    while data:
                        data = data[os.write(write, data):]
                except BaseException:  # noqa: BLE001 - the caller does the work again itself
                    code = 1
                finally:
                    os._exit(code)
            os.close(write)
            self.pid, self.fd = pid, read

    def result(self) -> dict:
        """The work's answer: the child's, or worked out here."""
        if self.answer is not None:
            return self.answer
        answer = None
        if self.pid is not None:
            pid, fd, self.pid, self.fd = self.pid, self.fd, None, None
            with os.fdopen(fd, "rb") as pipe:
                said = pipe.read()
            try:
                _, status = os.waitpid(pid, 0)
                whole = os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
            except ChildProcessError:   # reaped already (SIGCHLD ignored by whoever started
                whole = True            # us): its answer is whole if it reads as one
            if whole:
                try:
                    answer = json.loads(said)
                except ValueError:
                    answer = None
        self.answer = answer if isinstance(answer, dict) else self.work()
        return self.answer

    def close(self) -> None:
        """Stop and reap the child, whatever ended the caller's work (nothing once answered)."""
        if self.pid is None or self.answer is not None:
            return
        try:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except OSError:
            pass
        try:
            os.close(self.fd)
        except OSError:
            pass
        self.pid = None


@contextmanager
def _signals_held():
    """SIGINT and SIGTERM held back (POSIX), then delivered: the child keeps them held and
    ends with its work, or when close() kills it."""
    held = {signal.SIGINT, signal.SIGTERM}
    try:
        before = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    except (AttributeError, OSError, ValueError):
        yield
        return
    try:
        yield
    finally:                    # the parent only: the child leaves by os._exit, held
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def cores() -> int:
    """The cores this process may run on, and no more than its container's CPU quota."""
    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        n = os.cpu_count() or 1
    try:
        quota, period = CPU_MAX.read_text().split()[:2]
        if quota != "max":
            n = min(n, max(1, int(quota) // max(1, int(period))))
    except (OSError, ValueError):
        pass
    return n


def alone() -> bool:
    """Whether this process runs one thread (a fork copies only the calling thread: with
    others running, a lock one of them held would stay taken in the child)."""
    threading = sys.modules.get("threading")
    return threading is None or threading.active_count() == 1
