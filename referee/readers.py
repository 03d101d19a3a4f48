"""Who may read a game: a side, or the moderator (standard library only)."""

from __future__ import annotations

from .errors import UsageError

READERS = ("german", "entente", "moderator")


def check_reader(reader: str, allow_moderator: bool = True) -> str:
    """Validate a --as value."""
    allowed = READERS if allow_moderator else READERS[:2]
    if reader not in allowed:
        raise UsageError(f"--as {reader!r}: choose one of {', '.join(allowed)}")
    return reader
