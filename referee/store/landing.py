"""Whether an append landed where it was meant to: the check that makes a journal on a file
system whose locks do not exclude refuse a change instead of forking.

The journal is opened for appending (O_APPEND), so two appends that both think they hold
the lock both land, one after the other; the later one finds someone else's bytes where its
own should start, or its own ending somewhere else, and cuts the file back to the records
that follow the hash chain while the file still ends as it read it (otherwise another run
changed it meanwhile, and the cut is left to that run's own check). A write that failed is
cut back to the size before it only while nothing but its own bytes follow; else to the
chain. Between the last look and the cut no lock helps here, so a window of two calls
stays: a journal belongs on a local disk.
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
    """Whether the file holds data at offset at, written there by this fd: O_APPEND leaves
    fd's offset where its last write ended, so a run that wrote the very same bytes as
    another (the same record, signed the same) is told apart by where its own ended."""
    try:
        return os.lseek(fd, 0, os.SEEK_CUR) == at + len(data) and \
            os.pread(fd, len(data), at) == data
    except OSError:
        return False


def only_ours(fd: int, at: int, data: bytes) -> bool:
    """Whether everything from offset at to the file's end is a beginning of data: what a
    failed write of data left there, and nothing another run appended."""
    rest = _rest(fd, at, len(data))
    return rest is not None and data.startswith(rest)


def _rest(fd: int, at: int, most: int) -> bytes | None:
    """The file from offset at, up to one byte more than `most` (which shows whether the
    file goes on past them); None when it cannot be read."""
    try:
        return os.pread(fd, most + 1, at)
    except OSError:
        return None


def cut_to_chain(fd: int, check: Callable[[bytes, int, str | None], dict]) -> None:
    """Cut the file back to its first lines that check(line, n, prev) accepts as a chain (it
    raises on the first that does not follow); best effort: the caller refuses anyway.

    Only what this run read is cut, and only while the file still ends with it: another
    refused run may have cut the same lines meanwhile, and a third appended a record that
    follows the chain and was told so, which a cut worked out from the older read would take
    away. Between that last look and the cut no lock helps here; the look narrows the
    window to the two calls."""
    try:
        raw = read_whole(fd)
    except OSError:
        return
    keep, start, prev, n = 0, 0, None, 0
    while (end := raw.find(b"\n", start)) >= 0:
        try:
            prev = check(raw[start:end], n, prev)["hash"]
        except Exception:  # noqa: BLE001 - the first line off the chain, whatever is wrong
            break
        keep, start, n = end + 1, end + 1, n + 1
    if keep < len(raw) and _rest(fd, keep, len(raw) - keep) == raw[keep:]:
        try:                    # the file still ends with what was read, and no further
            os.ftruncate(fd, keep)
            os.fsync(fd)
        except OSError:
            pass
