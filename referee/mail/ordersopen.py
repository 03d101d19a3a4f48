"""The orders open to a side, for a mail that asks him for them without a whole report (a
reminder, the mail at his missed deadline, his held orders dropped): the grouped list a
report mail ends with (2.0), built as that one is, the areas its long lines share named once
after them, so that a player can answer that mail itself, on a phone, without looking for
the report that asked him, and reads the same list in both."""

from __future__ import annotations

from ..base.plurals import counted
from ..data.gamedata import GameData
from ..engine import legal_orders
from ..engine.order_text import format_order
from ..engine.state import State
from ..game.views import order_aids
from ..render.formats import render
from ..render.grouped import grouped_blocks
from ..render.reports import orders_open_blocks
from ..render.sections import Document, Section, para


def orders_open_text(state: State, data: GameData, side: str) -> str:
    """'Reply with one order per line, made from these:' and side's legal orders, grouped,
    wrapped at 72 columns; '' when none is open to him."""
    legal = [format_order(o) for o in legal_orders(state, data, side)]
    if not legal:
        return ""
    blocks = orders_open_blocks(legal, order_aids(state, data, side), bounded=True)
    return render(Document("", [Section("", blocks)]), "text", 72).strip("\n")


def orders_open_at(state: State, data: GameData, side: str, line: int, before: int) -> str:
    """The orders open to side at a mail's refused line (state: the position the orders
    before it reached, none of which rolled a die), headed by a line saying where, grouped
    and bounded as orders_open_text lists them; '' when none is open to him."""
    legal = [format_order(o) for o in legal_orders(state, data, side)]
    if not legal:
        return ""
    blocks = [para(f"At line {line}, after the {counted(before, 'order')} before it, the "
                   f"orders open were:"),
              *grouped_blocks(legal, order_aids(state, data, side), whole=False, bounded=True)]
    return render(Document("", [Section("", blocks)]), "text", 72).strip("\n")
