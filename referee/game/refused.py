"""The refusal of an order line that cannot be read, told at the decision it would answer.

A player by mail pays a day for each reply, so a line refused for its spelling
says as well what no spelling would mend: its verb gives no order that answers
the decision now (the rule check cites, engine.unanswered).
Only the line refused is told so: the lines after it would answer a decision
the lines before them have not reached yet (mail/handling.py names those that
cannot be read as suggest.amend tells them).
"""

from __future__ import annotations

from ..base.errors import IllegalOrderError, OrderError, OrderSyntaxError, quoted
from ..data.gamedata import GameData
from ..engine import unanswered
from ..engine.intake import check_new_line
from ..engine.reading import VERBS
from ..engine.state import State
from .suggest import amend

# The kinds of order a verb of the text form gives (engine/reading.py), where they are not
# the verb itself: its other spellings and the verbs of several kinds.
_KINDS = {
    "end": ("end_movement", "end_turn"), "remove": ("crisis_remove",),
    "refuse": ("armistice", "crisis_refuse"), "fire": ("done",), "hold": ("done",),
    "stay": ("done",), "declare": ("battle",), "propose": ("armistice",),
    "accept": ("armistice",), "surrender": ("armistice",), "resign": ("armistice",),
}
# Kinds that check weighs before the decision: an armistice is offered at any decision
# (3.2), a Military Crisis! card played at any decision of its player turn (9.8, 9.9).
_ANY_TIME = frozenset({"armistice", "play"})


def kinds_of(verb: str) -> tuple[str, ...]:
    """The kinds of order a verb gives."""
    return _KINDS.get(verb, (verb,))


def refusal(exc: OrderError, order, state: State, data: GameData, side: str) -> OrderError:
    """The rejection of the order line at fault, told at the decision it would answer (the
    state it meets): a line that cannot be read, whose verb gives no answer to the
    decision, refused for that first (with its rule) and for its words after; anything
    else as suggest.amend tells it."""
    words = getattr(exc, "text", "").replace(",", " ").split()
    if not isinstance(exc, OrderSyntaxError) or state is None or not words:
        return amend(exc, order, state, data, side)
    try:
        check_new_line(exc.text)                # refused for its characters: that alone
    except OrderError:
        return amend(exc, order, state, data, side)
    verb = words[0].casefold()
    kinds = kinds_of(verb)
    v = None if verb not in VERBS or _ANY_TIME & set(kinds) else \
        unanswered(state, data, kinds, side, verb)
    read = str(amend(exc, order, state, data, side))
    if v is None:
        return exc
    out = IllegalOrderError(exc.text, v.rule, v.reason)
    out.args = (f"{out}; and it cannot be read"
                f"{read.removeprefix(f'cannot read order {quoted(exc.text)}')}",)
    out.suggested, out.unread = True, exc
    return out
