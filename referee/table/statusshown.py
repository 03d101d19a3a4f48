"""The status view as a reader is shown it: the view kept for the journal's bytes, with what
is never kept with it. A deadline whose time has come is marked missed (the clock's, not
the journal's), and a side reads his own standing orders (from the sealed store, never from
a kept view, never shown to anyone else). `status` prints it so, and so does the status
an `order` result carries: the same shape for the same reader.

Only the standard library and the base are imported here: `status` reads through it."""

from __future__ import annotations

from .. import load_msgspec
from ..base.errors import UsageError, one_line
from ..base.readers import MODERATOR, PUBLIC
from ..base.warned import warn


def as_shown(view: dict, table, reader: str) -> dict:
    """The status view as the reader is shown it now: its deadlines marked missed once
    their time has come, and, for a side, his own standing orders in force."""
    return with_standing(with_missed(view), table, reader)


def with_missed(view: dict) -> dict:
    """The view with each deadline whose time has come marked missed (by the clock, never
    kept: game/missednow.py)."""
    if not view.get("deadlines"):
        return view
    from ..game.missednow import marked_missed  # start-up: only a game with deadlines

    return {**view, "deadlines": marked_missed(view["deadlines"])}


def with_standing(view: dict, table, reader: str, data=None) -> dict:
    """The view with the reader's own standing orders, when the reader is a side: they are
    read from the sealed store, never from a cached view (and never shown to anyone else)."""
    if reader in (PUBLIC, MODERATOR) or "standing" not in table.kind.features:
        return view
    load_msgspec()
    from ..engine.standing import describe  # start-up: only a side has standing orders
    from ..game import standing  # start-up: only a side has standing orders

    try:
        sets = standing.load(table.path, table.header_hash(), table.raw)
    except UsageError as exc:      # a file not this referee's hides nothing else of the game
        warn(one_line(str(exc)))
        return view
    mine = standing.current(sets, reader, view.get("turn", 0))
    return {**view, "standing": [describe(e, data) for e in mine]}
