"""The orders open to a side, for a mail that asks him for them without a whole report (a
reminder, the mail at his missed deadline, his held orders dropped): the grouped list a
report mail ends with (2.0), built as that one is, the areas its long lines share named once
after them, so that a player can answer that mail itself, on a phone, without looking for
the report that asked him, and reads the same list in both; with what follows his decision
(the 'Then' steps, how to answer several in one mail) and, for a dice sheet's holder, the
link due, as his report gives them.
"""

from __future__ import annotations

from ..base.errors import UsageError
from ..base.plurals import counted
from ..data.gamedata import GameData
from ..engine import legal_orders
from ..engine.order_text import format_order
from ..engine.state import State
from ..game import standing as g_standing
from ..game.ahead import ahead
from ..game.views import order_aids
from ..render.coming import ahead_blocks
from ..render.formats import render
from ..render.grouped import grouped_blocks
from ..render.linkdue import link_due
from ..render.narrowed import narrowed
from ..render.reports import orders_open_blocks
from ..render.sections import Document, Section, para


def kept_standing(table, raw: bytes | None = None) -> dict[str, list[dict]]:
    """The sides' standing orders as kept beside the game a Table holds (raw: the journal's
    bytes the caller reads, else the Table's), read as its reports read them
    (table/showing.py): none when the file is not this referee's."""
    try:
        return g_standing.load(table.path, table.records[0]["hash"],
                               table.raw if raw is None else raw)
    except UsageError:
        return {}


def orders_open_text(state: State, data: GameData, side: str, sheet=None,
                     standing: dict[str, list[dict]] | None = None) -> str:
    """What follows side's decision (game/ahead.py: the 'Then' steps, how to answer several
    in one mail, the example), 'Reply with one order per line, made from these:' and his
    legal orders, grouped, then the link of his dice sheet (`sheet`, store/sheets.SheetPos)
    due, wrapped at 72 columns; '' when no order is open to him. standing: the sides'
    standing orders as kept (game/standing.py), read as his report reads them (a decision
    they answer is not asked), so that every mail of one position gives him the same steps
    and the same example."""
    legal = [format_order(o) for o in legal_orders(state, data, side)]
    if not legal:
        return ""
    got = ahead(state, data, side, legal, standing or {})
    blocks = [*(ahead_blocks(got, data, side) if got is not None else []),
              *orders_open_blocks(legal, order_aids(state, data, side), bounded=True),
              *link_due(sheet, got)]
    return render(Document("", [Section("", blocks)]), "text", 72).strip("\n")


def orders_open_at(state: State, data: GameData, side: str, before: int,
                   line: str = "") -> str:
    """The orders open to side at a mail's refused line (state: the position the orders
    before it reached, none of which rolled a die), headed by a line saying where (by the
    orders before it: the refusal above quotes the line, and a number counted in the whole
    mail, quoted text and all, is no help on a phone), grouped and bounded as
    orders_open_text lists them; only those of the unit the line names when it names one
    (render/narrowed.py), saying so; '' when none is open to him."""
    legal = [format_order(o) for o in legal_orders(state, data, side)]
    if not legal:
        return ""
    head = (f"At that line, after the {counted(before, 'order')} before it, the orders "
            f"open were")
    some = narrowed(legal, line)
    if some is None:
        blocks = [para(f"{head}:")]
    else:
        legal, units = some
        blocks = [para(f"{head}, for {', '.join(units)} (the line names "
                       f"{'it' if len(units) == 1 else 'them'}; the other units' orders are "
                       f"not listed here, and the report below lists every order open "
                       f"before your mail):")]
    blocks += grouped_blocks(legal, order_aids(state, data, side), whole=False, bounded=True)
    return render(Document("", [Section("", blocks)]), "text", 72).strip("\n")
