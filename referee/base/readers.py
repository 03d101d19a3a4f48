"""Who may read a game: one of its sides, the public, or the moderator (standard library only).

The sides come from the game's data (units.yaml `sides`), so a second game
with other sides needs no change here. `public` is a forum spectator: no
card still in a hand or the draw pile, no deck order, no sealed plan before
its reveal, no address, no hidden template. It is the reader whenever none
is named; the moderator's view is given only when asked for.
"""

from __future__ import annotations

import re

from .errors import UsageError

PUBLIC = "public"
MODERATOR = "moderator"
_NAME = re.compile(r"[a-z][a-z0-9_]{0,31}")


def readers_of(sides) -> tuple[str, ...]:
    """Every reader of a game with these sides: each side, public, moderator."""
    return (*sides, PUBLIC, MODERATOR)


def check_name(reader: str, option: str = "--as") -> str:
    """A value of option (--as, --export) that can name a reader at all (before the game
    data is read); UsageError names the option given."""
    if not isinstance(reader, str) or not _NAME.fullmatch(reader):
        raise UsageError(f"{option} {reader!r}: name a side, public or moderator")
    return reader


def check_reader(reader: str, sides, allow_moderator: bool = True, option: str = "--as") -> str:
    """Validate a reader given with option against the game's sides (UsageError names the
    option and lists the choices)."""
    allowed = readers_of(sides) if allow_moderator else tuple(sides)
    if reader not in allowed:
        raise UsageError(f"{option} {reader!r}: choose one of {', '.join(allowed)}")
    return reader


def may_see(reader: str, owner: str) -> bool:
    """Whether reader may see a secret part made for owner (a side, or the moderator)."""
    return reader == MODERATOR or reader == owner
