"""A skirmish's records as the Table holds them, each held to its contract once for the
bytes the Table read, and whether its game is closed: what every command of the kind and its
mail reads first."""

from __future__ import annotations

from . import life


def checked_records(table) -> list[dict]:
    """The skirmish's records, each held to its contract once for the bytes the Table holds
    (JournalError, exit 3, naming the first that breaks it)."""
    records = table.records             # the chain first: a torn or edited line is named so
    if "skirmish-shapes" not in table.memo:
        life.check_shapes(table.raw, table.name)
        table.memo["skirmish-shapes"] = True
    return records


def closed(state) -> bool:
    """Whether the game takes no more orders: its secret published, or a side over."""
    return state.revealed is not None or state.over()
