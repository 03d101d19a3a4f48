"""What a command that reads one game says when it is given a folder for its journal (a
moderator who keeps his games in one folder names it, as `tick` takes it): that it is a
folder, the journals it holds that he may name instead, and the commands that take a
folder of games."""

from __future__ import annotations

from pathlib import Path

from ..base.errors import UsageError, one_line

NAMED = 3               # the folder's journals the line names, at most


def folder_given(path: Path) -> UsageError:
    """The one-line error for a folder given where a game's journal is read."""
    try:
        found = sorted(p.name for p in path.glob("*.jsonl") if p.is_file())
    except OSError:
        found = []
    names = [one_line(n) for n in found[:NAMED]]
    if len(found) > NAMED:
        names.append(f"{len(found) - NAMED} more")
    import shlex  # start-up: only this refusal quotes a path; every read imports this module

    shown = shlex.quote(one_line(str(path)))
    held = f" of its journals ({', '.join(names)})" if names else " journal"
    return UsageError(f"{one_line(str(path))}: a folder, not a game's journal: name one{held}; "
                      f"`referee tick {shown}` (one pass over its games, their mail read and "
                      f"sent) and `referee watch {shown}` are the commands that take a folder "
                      f"of games")
