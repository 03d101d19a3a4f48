"""A player's question by mail: `explain N`, a line alone in a mail (with his order key), is
answered with what `referee explain N --as SIDE` gives his side, and nothing else is done.

A player who holds only his mail has no journal to run `explain` on (and his export cannot
replay the game), yet every dice line of his reports names the record to ask about. The
mail is a query: no record is written, so the ledger alone keeps it, as it keeps every mail
not applied (handled, with the reply owed saved in the same step: ledger.py), and it is
answered once however many passes read it or stop part way. The answer is made when the
reply is written, as his side may see the record (secrets by default: the sealed plan, the
cards and the hidden templates of the other side stay hidden), above his report as a
refused mail's reply is.

A line among orders is no order: the mail is refused whole, as a mail asking for more time
is, so that nobody has his orders applied without the answer he asked for, or the answer
without knowing whether his orders were taken."""

from __future__ import annotations

import re

from ..base.errors import RefereeError, quoted
from .refusal import prose

# A line of a player's mail asking for a record explained: `explain 12` (or `explain #12`).
EXPLAIN_LINE = re.compile(r"(?i)^explain\s+#?(\S+)\s*$")
# What follows the answer in the reply that carries his report.
BELOW = "Below: what you are asked now, then your report."
# The most digits of a record number asked about.
MOST_DIGITS = 9
# The status of a mail answered with a record explained (outcome.Outcome).
ANSWERED = "answered"


def asks(lines: list[tuple[int, str]]) -> bool:
    """Whether a mail's order lines ask for a record explained (one `explain` line)."""
    return any(EXPLAIN_LINE.match(t) for _, t in lines)


def explain_by_mail(table, lines: list[tuple[int, str]], link: str | None, tip: object,
                    out) -> None:
    """out for a mail with an `explain` line (lines: its order lines, numbered as in the
    mail; link, tip: a dice sheet's line it gives too): answered, with the record to
    explain, or rejected in one line (another line beside it, a second one, a dice sheet's
    line, a record the game does not hold)."""
    asks = [(n, EXPLAIN_LINE.match(t)) for n, t in lines]
    out.status, out.code = "rejected", "explain_refused"
    if link is not None or tip is not None:
        out.reason = ("a mail asking for a record explained ('explain 12') gives no dice "
                      "sheet line ('Link:', 'Sheet:'); nothing was applied")
        return
    if not all(found for _, found in asks):
        n = next(n for n, found in asks if not found)
        out.reason = (f"line {n}: a mail asking for a record explained ('explain 12') holds "
                      f"nothing else; send the orders in a mail of their own; nothing was "
                      f"applied")
        return
    if len(asks) > 1:
        out.reason = f"line {asks[1][0]}: one 'explain' line a mail; nothing was applied"
        return
    n, found = asks[0]
    last = table.records[-1]["seq"]
    number = found.group(1)
    # Digits as typed on a keyboard, of a number a journal may reach ('²' and a thousand
    # digits are no record number, as the command line's explain says).
    typed = number.isascii() and number.isdigit()
    if not (typed and len(number) <= MOST_DIGITS) or int(number) > last:
        shown = number if typed and len(number) <= MOST_DIGITS else quoted(number, 24)
        out.reason = (f"line {n}: no record {shown} to explain: the game's "
                      f"records are 0 to {last} (each report names its own by number, #N); "
                      f"nothing was applied")
        return
    out.status, out.explained, out.code = ANSWERED, int(number), None
    out.reason = f"record {int(number)} explained, as the side may see it; nothing recorded"


def answer_text(table, side: str, seq: int, below: bool = True) -> str:
    """The reply's head for a mail asking for record seq explained: what `referee explain`
    gives side, as text at 72 columns, after a line saying what it is (below: and before
    one saying that his report follows)."""
    try:
        said = table.kind.explain(table, str(seq), side, "text", 72).rstrip("\n")
    except RefereeError as exc:         # a journal set back below it since it was asked
        return prose(f"Your message asked for record {seq} explained, which cannot be "
                     f"given now: {exc}. Nothing was recorded.")
    return prose(f"Your message asked for record {seq} explained. Here it is as your side "
                 f"may see it (what the moderator's `referee explain {seq} --as {side}` "
                 f"gives); nothing was recorded.") + "\n\n" + said + \
        ("\n\n" + prose(BELOW) if below else "")
