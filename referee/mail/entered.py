"""Which of a side's held lines (holds.py) the moderator entered, read from the orders he
entered for the side since the hold, and whether he is part way through entering them.

The orders he entered are the side's orders from his first since the hold on, none from a
mail (a mail's own are the player's), past any record that is no side's order (a pause, a
deadline set, a roster changed: a moderator's record between two `referee order` runs) up
to an order of another side or of a mail. A line is entered when one of those orders is
that line, however cased or spaced (_same, as the journal keeps a line: as given, trimmed;
a sealed plan's record holds its orders one a line), each order standing for one line. A
held 'done' after an entered line that is not a 'done' is counted entered too: the referee
drops such a 'done' when the order before it closed the decision (game/batch.py), and the
journal then holds no record of it.

He is part way through (entering) while every order he entered is a held line, some lines
are left, no order of any side followed his, and the side still owes a decision: the rest
may be entered by his next `referee order`, and a pass of `tick` run between two of his
(every few minutes), or `inbox` run by hand (holdsteps.py), must neither tell the player
that they were dropped nor forget them.
The hold stands then, for the lines left.
"""

from __future__ import annotations

from ..base.readers import MODERATOR
from ..contracts.events_turn import ArmisticeProposed, ArmisticeRefused, ArmisticeWithdrawn
from ..engine import game_over, waiting_on
from ..game.replay import order_text
from ..table import Table

# What a side may do at any time (3.2) beside his decision, leaving it as it was: an
# armistice proposed, withdrawn or refused answers none (an armistice accepted, a surrender,
# ends it).
_BESIDE_THE_DECISION = frozenset({ArmisticeProposed.__name__, ArmisticeRefused.__name__,
                                  ArmisticeWithdrawn.__name__})


def order_of(record: dict, side: str) -> bool:
    """Whether record answers side's decision by an order of his: a fact about time alone
    (`clock`, no events: his `extend`, asked by mail while his orders wait) does not, nor an
    armistice he proposes or refuses (3.2); either leaves his decision as it was."""
    if record.get("actor") != side:
        return False
    events = record.get("events")
    if not isinstance(events, list) or not events:
        return "clock" not in record
    return not all(isinstance(e, dict) and e.get("type") in _BESIDE_THE_DECISION
                   for e in events)


def first_order(records: list[dict], side: str, seq: int) -> int:
    """Where the first order of side's after record seq is (len(records): none)."""
    return next((i for i in range(seq + 1, len(records)) if order_of(records[i], side)),
                len(records))


def moderator_orders(records: list[dict], side: str, seq: int | None) -> list[str]:
    """The orders the moderator entered for side since record seq (from his first order for
    side after it, as not_entered reads them), each alone; none when that first order came
    by mail, or seq is none."""
    if seq is None:
        return []
    return _entered(records[first_order(records, side, seq):], side)[0]


def not_entered(records: list[dict], side: str, lines: list[str]) -> tuple[list[int], int]:
    """Which held lines (by place) none of the orders the moderator entered for side is
    (records: from his first since the hold), and how many of those orders are none of the
    lines (the module's docstring says which orders and how they are matched)."""
    left, others = list(range(len(lines))), 0
    for text in _entered(records, side)[0]:
        match = next((i for i in left if _same(text, lines[i])), None)
        if match is None:
            others += 1
        else:
            left.remove(match)
    return [i for i in left if not (_same(lines[i], "done") and i > 0 and i - 1 not in left
                                    and not _same(lines[i - 1], "done"))], others


def entering(table: Table, side: str, at: int, lines: list[str]) -> list[int]:
    """The held lines (by place) still to be entered while the moderator is part way
    through entering them (at: his first order for side since the hold; the module's
    docstring says when), none when he is not."""
    records = table.records
    if at >= len(records):
        return []
    left, others = not_entered(records[at:], side, lines)
    if not left or others or any(_side_order(r) for r in
                                 records[at + _entered(records[at:], side)[1]:]):
        return []
    state = table.game().state
    return [] if game_over(state) or side not in waiting_on(state) else left


def _entered(records: list[dict], side: str) -> tuple[list[str], int]:
    """The orders the moderator entered for side (records: from his first), each alone (a
    sealed plan's record holds its orders one a line), and how many records they and the
    records between them that are no side's order take."""
    entered, end = [], 0
    for i, r in enumerate(records):
        if not _side_order(r):
            continue                        # no side's order: a pause, a roster changed
        if r["actor"] != side or isinstance(r.get("mail"), dict):
            break
        entered += order_text(r).split("\n")
        end = i + 1
    return entered, end


def _side_order(record: dict) -> bool:
    """Whether record is an order of a side's (order_of), not the moderator's record."""
    actor = record.get("actor")
    return isinstance(actor, str) and actor != MODERATOR and order_of(record, actor)


def _same(recorded: str, line: str) -> bool:
    """Whether an order of the journal is the held line (its words, however cased or
    spaced: the journal keeps the line as given, trimmed)."""
    return " ".join(recorded.split()).casefold() == " ".join(line.split()).casefold()
