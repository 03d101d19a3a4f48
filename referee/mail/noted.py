"""The mails this process writes while someone asks (noting_written): a folder others write
into too (an `outbox:DIR` several games share, each handled by a worker of its own) says by
itself nothing of whose mails are new in it. Every mail of the referee's is written by
named.write_once or, unnamed, by eml.write_unfound, and each notes its file here."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

# The mails written while noting_written is in force (None: nobody asks).
_WRITTEN: ContextVar[list[Path] | None] = ContextVar("written", default=None)


@contextmanager
def noting_written() -> Iterator[list[Path]]:
    """The paths of the mails written meanwhile by this process, in this context."""
    noted: list[Path] = []
    token = _WRITTEN.set(noted)
    try:
        yield noted
    finally:
        _WRITTEN.reset(token)


def noted(path: Path) -> Path:
    """A mail just written, noted for whoever asks; path itself."""
    written = _WRITTEN.get()
    if written is not None:
        written.append(path)
    return path
