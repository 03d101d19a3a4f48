"""A game's time zone: the IANA name the moderator gives (`--zone Europe/Paris`), checked
before zoneinfo reads it.

A zone's name comes from the command line and back from the journal, so it is hostile
input: before zoneinfo looks it up, it must be a relative name of letters, digits, `_`,
`+` and `-` in at most three parts, each starting with a letter (so no `..`, no absolute
path, at most 64 characters), and none of the database's files that are no place's
civil time (the machine's own `localtime`, `posixrules`, `Factory`, the `posix/` and
`right/` copies). clock.zone_rules reads the rules. This module, and zoneinfo, are
imported only where a zone is used: a game with no zone never loads them.
"""

from __future__ import annotations

import re

from .clock import ZONE_MOST, ZONE_PATTERN, zone_rules
from .errors import UsageError, quoted

_NAME = re.compile(ZONE_PATTERN)
_NO_PLACE = frozenset({"localtime", "posixrules", "factory"})
_NO_PLACE_DIRS = ("posix/", "right/")
EXAMPLES = "Europe/Paris or America/New_York"


def zone_problem(name: object) -> str | None:
    """What is wrong with a zone's name, in words to follow it (None: zoneinfo knows it
    and it is a place's)."""
    if not isinstance(name, str) or len(name) > ZONE_MOST or not _NAME.match(name) or \
            name.casefold() in _NO_PLACE or name.startswith(_NO_PLACE_DIRS):
        return f"not the name of a time zone; give one like {EXAMPLES}"
    try:
        zone_rules(name)
    except (ValueError, OSError, UnicodeError, LookupError):
        # zoneinfo's ZoneInfoNotFoundError is a KeyError; a file that is no zone, ValueError
        return f"no time zone has this name; give one like {EXAMPLES}"
    return None


def check_zone(name: str, option: str = "--zone") -> str:
    """The name given, when it is a zone's (UsageError quoting it otherwise)."""
    problem = zone_problem(name)
    if problem is not None:
        raise UsageError(f"{option} {quoted(name)}: {problem}")
    return name

