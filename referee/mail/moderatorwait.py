"""Why a game waits on its moderator, as a line and as what a script reads (tick-result's
`waits_on_moderator_code` and `waits_on_moderator_sides`, contracts/codes.py WaitCode): the
line is a str wherever it was one, carrying its code and the sides it concerns."""

from __future__ import annotations


class WaitLine(str):
    """The line saying what the game waits on the moderator for and what he may do, with
    its stable code (WaitCode) and the sides it concerns (those whose deadline passed, whose
    orders are held, who have no address; the side whose missed deadline paused it)."""

    code: str
    sides: list[str]

    def __new__(cls, line: str, code: str, sides=()) -> WaitLine:
        made = super().__new__(cls, line)
        made.code, made.sides = code, [s for s in sides if isinstance(s, str)]
        return made


def wait_code(line) -> tuple[str | None, list[str] | None]:
    """(code, sides) of a game's wait on its moderator (line: a WaitLine, or None: none)."""
    if isinstance(line, WaitLine):
        return line.code, list(line.sides)
    return None, None
