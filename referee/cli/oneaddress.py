"""The warning when one address is registered for two sides: allowed, for a player who plays
both on purpose (a mail's typed order key then says which side it is for, docs/player.md),
but a slip would send one side's mail, with its order key, to the other side's player; so
the moderator is told in one line, which sides share it and how to undo it."""

from __future__ import annotations

from pathlib import Path

from ..base.addresses import address_key
from ..base.errors import one_line
from ..base.warned import warn
from ..store.players import OBSERVER

NOT_SIDES = ("moderator", OBSERVER)


def shared_lines(journal: Path | str, now: dict[str, str], changed: list[str] | None = None,
                 before: dict[str, str] | None = None) -> list[str]:
    """A line for each address now registered for two sides or more (now: side to address)
    of which one is in changed; before: the addresses they had, for the command that puts
    one back (a side new to the roster is told to give it one of its own). changed None:
    every side (a new game's)."""
    changed = list(now) if changed is None else changed
    before = before or {}
    by: dict[str, list[str]] = {}
    for side, address in now.items():
        if side not in NOT_SIDES:
            by.setdefault(address_key(address), []).append(side)
    lines = []
    for sides in by.values():
        moved = [s for s in sides if s in changed]
        if len(sides) < 2 or not moved:
            continue
        side = moved[-1]
        old = before.get(side)
        undo = (f"`referee players {journal} --set {side}={old}` puts {side}'s old address "
                f"back" if old is not None and address_key(old) != address_key(now[side])
                else f"`referee players {journal} --set {side}=ADDRESS` gives {side} its own")
        others = " and ".join(f"{s}'s" for s in sides if s != side)
        lines.append(f"warning: {side}'s address {one_line(now[side])} is {others} too: one "
                     f"mailbox gets both sides' mail and order keys (a reply's typed key says "
                     f"which side it is for); if that is a slip, {undo}")
    return lines


def warn_shared(journal: Path | str, now: dict[str, str], changed: list[str] | None = None,
                before: dict[str, str] | None = None) -> None:
    """Tell shared_lines, each a warning (base/warned.py); the command goes on (exit 0)."""
    for line in shared_lines(journal, now, changed, before):
        warn(line.removeprefix("warning: "))
