"""Which process holds a lock a command waited for in vain, where the system says (Linux's
/proc/locks names the process of each lock; elsewhere nothing is known): a command told
the game is busy names it, so that the user knows whether to wait for a `tick` or end an
`order` of his own left running."""

from __future__ import annotations

import os
from pathlib import Path

from ..base.errors import one_line

LOCKS = Path("/proc/locks")     # one lock a line: "1: FLOCK  ADVISORY  WRITE PID MA:MI:INODE ..."
PROCESSES = Path("/proc")


def holder(fd: int) -> str | None:
    """The process holding a lock on the file open as fd, as a message names it ("process
    4242 (its command line: `referee tick`)"), or None when the system does not say."""
    try:
        st = os.fstat(fd)
        where = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
        text = LOCKS.read_text(encoding="ascii", errors="replace")
    except (OSError, ValueError):
        return None
    for line in text.splitlines():
        words = line.split()
        if len(words) < 6 or "->" in words:             # a process waiting, not holding
            continue
        pid, file = words[4], words[5]
        if file == where and pid.isdigit() and int(pid) > 0:
            return _named(int(pid))
    return None


def _named(pid: int) -> str:
    """The process pid as a message names it, with what its command line says it runs (a
    referee's command, or its program): what the system says, which any program can make
    its own, so said as its command line's and not as a fact."""
    try:
        argv = (PROCESSES / str(pid) / "cmdline").read_bytes().split(b"\0")
    except OSError:
        return f"process {pid}"
    words = [a.decode("utf-8", "replace") for a in argv if a]
    for i, word in enumerate(words):
        ran = word == "referee" and i > 0 and words[i - 1] == "-m"
        command = [w for w in words[i + 1:] if not w.startswith("-")][:1]
        if (ran or Path(word).name == "referee") and command:
            return f"process {pid} (its command line: `referee {one_line(command[0])}`)"
    program = Path(words[0]).name if words else ""
    return f"process {pid} (its command line: {one_line(program)})" if program else \
        f"process {pid}"
