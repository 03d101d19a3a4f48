"""Held orders the moderator did not enter: why a hold ended (holds.py), and the player's mail
that says so, once (waiting.py writes it before the ledger forgets the hold).

A player whose mailed orders were held read that he need not send them again and that no
deadline runs for him until they are entered. When the hold ends without them (the
moderator entered other orders for his side, the journal was set back to before the record
they answered, or that decision is over), he is told which mail's orders were not entered,
why, and what is asked of him now, as a reminder asks it (the orders open to him and his
deadline; nothing when the game is over, paused or closed: outcome.halt_of). He alone reads
the lines: the mail goes to his address only, and to nobody when the side's registered
address is another since the hold (a new player took the side: he never wrote them, and
the former one is no longer in the game).

Which held lines were entered is read from the orders the moderator entered for the side
(entered.py). When none is one of them, he entered other orders (OTHER_ORDERS). When some
are and others not, the lines not entered are told (PARTLY), but only when every order he
entered is one of the held lines: an order of his that is none of them may be one of them
written otherwise (another spelling of an area, a unit named another way), and which one
it stands for is not known; then the hold counts as entered, and nobody is told that an
order he may have entered was dropped. Lines left after a hand-off, which the referee did
not apply, are told as not entered: they were not.
"""

from __future__ import annotations

import hashlib

from ..base.addresses import address_key
from ..base.clock import parse_stamp
from ..engine import pending_prompt, waiting_on
from ..game.clockwalk import zone_of
from ..table import Table
from .copies import mail_of
from .entered import first_order, moderator_orders, not_entered
from .holds import decision_of, held_at, held_lines, record_kept, standing
from .ordersopen import kept_standing, orders_open_text
from .outcome import halt_of
from .refusal import prose

SET_BACK = "set back"
OTHER_ORDERS = "other orders"
MAILED = "mailed"
OVER = "over"
CLOSED = "closed"
PARTLY = "partly"

WHY = {
    OTHER_ORDERS: "The moderator entered other orders for your side.",
    PARTLY: "The moderator entered the other orders of your mail, not these.",
    MAILED: "Orders of a later mail of yours were applied in their place.",
    SET_BACK: ("The game was set back to an earlier record, before the one your orders "
               "answered."),
    OVER: "The decision they answered is over: the game moved on without them.",
    CLOSED: "The moderator closed the game (its secret revealed) before they were entered.",
}
ASK = {
    "again": "Send your orders again for the decision asked of you now ({}).",
    "another": ("The decision asked of you now is another than the one they answered "
                "({}): send your orders for it."),
    "": "Send your orders for the decision asked of you now ({}).",
}
HALTED = {
    "paused": "The game is paused: nothing is asked of you until the moderator resumes it.",
    "closed": "The game is closed: nothing more is asked of you.",
    "over": "The game is over: nothing more is asked of you.",
}


def why_dropped(table: Table, side: str, entry) -> str | None:
    """Why side's hold (a ledger `held` entry whose hold no longer stands) ended without
    its orders (SET_BACK, OTHER_ORDERS, MAILED: a later mail of his that needed no dice,
    OVER, CLOSED: revealed while they waited, PARTLY: some of them entered, not all), or
    None when the moderator entered them (the module's docstring says how that is read)."""
    if not record_kept(table, entry):
        return SET_BACK
    records, at = table.records, first_order(table.records, side, held_at(entry))
    if at == len(records):
        return CLOSED if halt_of(table) == "closed" else OVER
    if isinstance(records[at].get("mail"), dict):
        return MAILED
    lines = held_lines(entry)
    left, others = not_entered(records[at:], side, lines)
    if not lines or len(left) == len(lines):
        return OTHER_ORDERS
    return PARTLY if left and not others else None


def lines_not_entered(table: Table, side: str, entry) -> list[str]:
    """The held lines the moderator did not enter, of a hold he entered in part (PARTLY)."""
    lines = held_lines(entry)
    at = first_order(table.records, side, held_at(entry))
    return [lines[i] for i in not_entered(table.records[at:], side, lines)[0]]


def replaced_notes(table: Table, side: str, entry) -> list[str]:
    """What the answer to a mail of side's held for the moderator's dice says of the one
    held before it (entry: the ledger's `held` entry it takes the place of, None: none): the
    ledger keeps one hold a side, so the earlier mail's orders will not be entered, and he
    is told so by this answer, not by a mail of its own. Nothing when that hold ended with
    its orders entered."""
    if entry is None or (not standing(table, {side: entry}) and
                         why_dropped(table, side, entry) is None):
        return []
    return [f"Its orders replace those of {_mail_of(table, entry, 'your earlier mail')}, held "
            f"before it: those will not be entered."]


def mailed_by(entry, address: str | None) -> bool:
    """Whether address (the side's registered one now) is the one its held mail came from
    (a ledger kept before the hold named it: any)."""
    held_from = entry.get("address") if isinstance(entry, dict) else None
    if address is None or not isinstance(held_from, str):
        return address is not None
    return address_key(held_from) == address_key(address)


def dropped_mail(table: Table, side: str, entry, why: str, due: str | None) -> str:
    """The player's mail for held orders that were not entered (due: the deadline line his
    mails give him now, reminders.deadline_lines), wrapped at 72 columns but for the order
    lines, each alone on its line as he wrote it."""
    lines = lines_not_entered(table, side, entry) if why == PARTLY else held_lines(entry)
    held = f"{_mail_of(table, entry)}, held for the moderator's dice since record " \
        f"{held_at(entry)}"
    head = (f"Of the orders of {held}, these were not entered:" if why == PARTLY else
            f"The orders of {held}, were not entered" + (":" if lines else "."))
    parts = [prose(head)]
    if lines:
        parts.append("\n".join(f"  {t}" for t in lines))
    parts.append(prose(f"{WHY[why]} They are held no more; they will not be entered."))
    if why == OTHER_ORDERS:
        parts.append(_entered_instead(table, side, entry))
    parts.append(_asked_now(table, side, due, _decision_now(table, side, entry, why)))
    return "\n\n".join(p for p in parts if p) + "\n"


def _entered_instead(table: Table, side: str, entry) -> str:
    """The orders the moderator entered for side in place of his held ones (entered.py
    reads which), in one line: he reads what his side did, not only that it was not his
    (nothing when none is read, as after a set-back)."""
    orders = moderator_orders(table.records, side, held_at(entry))
    return prose(f"The moderator entered for your side: {'; '.join(orders)}.") if orders \
        else ""


def _mail_of(table: Table, entry, undated: str = "your mail") -> str:
    """A held entry's mail as his mails name it (copies.mail_of), by its Date when it had one."""
    date = entry.get("date") if isinstance(entry, dict) else None
    moment = parse_stamp(date) if isinstance(date, str) else None
    return mail_of(moment, zone_of(table.raw), undated)


def dropped_name(game_id: str, side: str, entry) -> str:
    """The mail's file name, fixed by the hold it tells of (written once under it)."""
    said = "\n".join([game_id, side, str(held_at(entry)),
                      str(entry.get("hash") if isinstance(entry, dict) else ""),
                      *held_lines(entry)])
    return f"dropped-{held_at(entry) or 0:06d}-{side}-" \
           f"{hashlib.sha256(said.encode()).hexdigest()[:12]}.eml"


def _decision_now(table: Table, side: str, entry, why: str) -> str:
    """How the decision asked of side now is named after his held orders: 'again' when it
    is still the one they answered (other orders of his side left it as it was), 'another'
    when it is not (OVER: the game moved on), neither when the record they answered is gone
    (SET_BACK: nothing says which decision that was)."""
    if why == SET_BACK:
        return ""
    if why not in (OVER, CLOSED) and decision_of(table, held_at(entry), side) == \
            decision_of(table, None, side):
        return "again"
    return "another"


def _asked_now(table: Table, side: str, due: str | None, now: str = "") -> str:
    """What is asked of side now, as a reminder asks it: his decision (now: 'again' when it
    is the one his held orders answered, 'another' when not), the orders open to him and
    his deadline; the game's halt alone when it takes no orders."""
    halted = halt_of(table)
    if halted:
        return prose(HALTED.get(halted, HALTED["closed"]))
    game = table.game()
    if side not in waiting_on(game.state):
        return prose("Nothing is asked of you now: the game waits on the other side. Your "
                     "next report says what comes next.")
    orders = orders_open_text(game.state, game.data, side,
                              standing=kept_standing(table))
    return "\n\n".join(p for p in (
        prose(ASK[now].format(pending_prompt(game.state, game.data, side))),
        orders, due or "") if p)
