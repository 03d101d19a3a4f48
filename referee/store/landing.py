"""Whether an append landed where it was meant to: the check that makes a journal on a file
system whose locks do not exclude refuse a change instead of forking.

The journal is opened for appending (O_APPEND), so two appends that both think they hold
the lock both land, one after the other; the later one finds someone else's bytes where its
own should start, and cuts the file back to the records that follow the hash chain.
"""

from __future__ import annotations

import os
from collections.abc import Callable


def read_whole(fd: int) -> bytes:
    """The whole file from its start, whatever fd's offset."""
    chunks, at = [], 0
    while chunk := os.pread(fd, 1 << 20, at):
        chunks.append(chunk)
        at += len(chunk)
    return b"".join(chunks)


def landed(fd: int, at: int, data: bytes) -> bool:
    """Whether the file holds data at offset at."""
    try:
        return os.pread(fd, len(data), at) == data
    except OSError:
        return False


def cut_to_chain(fd: int, check: Callable[[bytes, int, str | None], dict]) -> None:
    """Cut the file back to its first lines that check(line, n, prev) accepts as a chain (it
    raises on the first that does not follow); best effort: the caller refuses anyway."""
    raw = read_whole(fd)
    keep, start, prev, n = 0, 0, None, 0
    while (end := raw.find(b"\n", start)) >= 0:
        try:
            prev = check(raw[start:end], n, prev)["hash"]
        except Exception:  # noqa: BLE001 - the first line off the chain, whatever is wrong
            break
        keep, start, n = end + 1, end + 1, n + 1
    if keep < len(raw):
        try:
            os.ftruncate(fd, keep)
            os.fsync(fd)
        except OSError:
            pass
