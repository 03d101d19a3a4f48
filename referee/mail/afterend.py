"""A mail sent to a game that has ended, for every kind of game: whatever it carries, its
sender's key or none (his last mail may show none: a closed game's key serves for nothing),
it is answered that the game ended, at which record and how, and that nothing more is taken;
never that his key is missing, which would send him to look for one that takes nothing.
The kind says when nothing more of a reader's mail is taken (GameKind.ended_for: a skirmish
player may still dispute within his challenge window after its end)."""

from __future__ import annotations

NOTHING_MORE = "nothing more is taken"


def ended_reason(table, reader: str) -> str | None:
    """Why nothing of reader's mail is taken, the game having ended ('the game ended at
    record #92: the British side won; nothing more is taken'); None while something is."""
    line = table.kind.ended_for(table, reader)
    return None if line is None else f"{line}; {NOTHING_MORE}"


def key_line(table, reader: str, key: str) -> str:
    """The line a reader's report mail ends with above its receipt: his order key, or once
    nothing more of his mail is taken, that (a key that serves for nothing)."""
    if table.kind.ended_for(table, reader) is None:
        return f"Order key: {key}\n"
    return f"No order key: the game has ended; {NOTHING_MORE}.\n"
