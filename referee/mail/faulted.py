"""A message the referee fails on: set aside, so that no mail can stop its game.

An error no rule foresaw (a fault of the referee's own) met while one message is taken
(inbox._classify: whose it is, then handling.handle: its lines read, checked, applied)
counts as the message's when both hold:

- it is no failure of the machine or of the files: not an OSError (a full disk), not a
  MemoryError, and not a RefereeError other than an OrderError or a ContractError (a lock
  held, a journal damaged, a ledger that cannot be kept: each says itself what was left);
- the game's journal is still the size it was before the message: nothing of it was
  written (the error came while its lines were read and checked).

Such a message is set aside with its reason, as one the referee cannot read or a robot's
is, but for good: the ledger notes it handled (no later pass reads it again, nor a copy of
it), its side, when it was known, is answered that nothing of it was applied (never that
anything was), its traceback goes to standard error, and the pass names it once (its
Message-ID, sender and the error's line) with what the moderator may do (tick.py makes it
the game's problem). The game's other mail is read and its deadlines run.

Any other error stops the game's mail for this pass, as before: the next pass takes it up.
So does one raised once the journal moved: the journal is the truth, and a message whose
record stands is applied, never set aside; the next pass finds it applied, as it finds what
a pass killed there did, and answers it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path

from ..base.errors import ContractError, OrderError, RefereeError, clipped, one_line
from ..table import Table, kind_named
from .mailboxes import Message
from .outcome import Outcome

FAILED = "failed"           # an Outcome's status: set aside, the referee failed on it
# What the side is answered (the reply says next that nothing was applied): no word of the
# error, which may name what he may not see.
TOLD_HIM = ("the referee failed on it, a fault of its own and not of your orders; the "
            "moderator is told, and enters your orders himself or asks you to send them "
            "again")
ERROR_LIMIT = 200           # characters of the error's line kept


def taken_or_set_aside(table: Table, m: Message, out: Outcome, replies: list, people: dict,
                       take: Callable[[], None]) -> None:
    """take() (m classified and handled, out saying how); an error that is m's (above) sets
    m aside instead: out says so, and replies holds the answer to its side alone."""
    answers = len(replies)
    exc = failed_on(table, m, take)
    if exc is None:
        return
    del replies[answers:]
    _set_aside(out, exc)
    if out.side is not None and out.side in people:
        told = Outcome(out.where, out.message_id, out.sender, FAILED, TOLD_HIM, out.side)
        replies.append((people[out.side]["address"], out.side, told, m))


def failed_on(table: Table, m: Message, take: Callable[[], object]) -> Exception | None:
    """take(), and None; or the error that is m's (above), its traceback on standard error
    and whatever table held half-worked forgotten, for m to be set aside (any other error
    is raised). The campaign's mail and a kind's that reads each mail whole (direct.py)
    share it."""
    before = _size(table.path)
    try:
        take()
    except Exception as exc:
        if not _the_messages(exc) or before is None or _size(table.path) != before:
            raise
        import traceback  # start-up: only a fault of the referee's own prints one

        print(f"{table.name}: the referee failed on message {one_line(m.message_id)}; "
              f"set aside:", file=sys.stderr)
        traceback.print_exc(file=sys.stderr)
        table.forget()      # whatever it held half-worked is read again
        return exc
    return None


def _the_messages(exc: Exception) -> bool:
    if isinstance(exc, (OrderError, ContractError)):
        return True
    return not isinstance(exc, (RefereeError, OSError, MemoryError))


def _size(path: Path) -> int | None:
    try:
        return path.stat().st_size
    except OSError:
        return None


def error_line(exc: BaseException) -> str:
    """The error as one line of bounded length."""
    return one_line(clipped(f"{type(exc).__name__}: {exc}", ERROR_LIMIT))


def _set_aside(out: Outcome, exc: Exception) -> None:
    """out, whatever the failed handling left in it, says the message was set aside."""
    blank = Outcome(out.where, out.message_id, out.sender, FAILED, side=out.side)
    for f in fields(Outcome):
        setattr(out, f.name, getattr(blank, f.name))
    out.reason = set_aside_reason(out.side, exc)


def set_aside_reason(side: str | None, exc: Exception) -> str:
    """Why a message is set aside, for the pass and the moderator (never for its side)."""
    told = f", and {side} is told so" if side else ""
    return (f"set aside: the referee failed on it ({error_line(exc)}); nothing of it "
            f"was applied{told}")


def problem(o: Outcome, journal: str, kind: str = "campaign") -> str:
    """The game's problem for a message set aside: which one, and what the moderator may
    do, told by the pass that set it aside (no later pass reads it again). kind: the
    game's (a skirmish's orders are entered by its own command, the last its kind gives
    for playing a side by hand)."""
    who = o.side or "SIDE"
    by_hand = kind_named(kind).by_hand(journal, who)
    order = by_hand[-1] if by_hand else f"referee order {journal} --as {who} ..."
    return (f"the referee failed on message {one_line(clipped(o.message_id or '(none)'))} "
            f"from {one_line(clipped(o.sender or '(no sender)'))}: "
            f"{o.reason.removeprefix('set aside: ')}; it is set aside and no pass reads it "
            f"again: read it, then give its orders (`{order}`) or ask its sender to send "
            f"them again (the traceback is on standard error)")
