"""The refusal of an order line that cannot be read, told at the decision it would answer.

A player by mail pays a day for each reply, so a line refused for its spelling
says as well what no spelling would mend: its verb gives no order that answers
the decision now (the rule check cites, engine.unanswered). An unknown verb is
answered with the verbs of the orders open now, which legal_orders lists, never
with one that would be refused for its kind the moment it is spelt right.
Only the line refused is told so: the lines after it would answer a decision
the lines before them have not reached yet (mail/handling.py names those that
cannot be read as suggest.amend tells them).
"""

from __future__ import annotations

from ..base.errors import IllegalOrderError, OrderError, OrderSyntaxError, cited, echoed, quoted
from ..base.nearness import did_you_mean, nearest
from ..contracts.orders import Ord
from ..data.gamedata import GameData
from ..engine import acting, legal_orders, unanswered
from ..engine.intake import check_new_line
from ..engine.order_text import format_order
from ..engine.reading import VERBS, parse_order
from ..engine.state import State
from .suggest import amend

# The kinds of order a verb of the text form gives (engine/reading.py), where they are not
# the verb itself: its other spellings and the verbs of several kinds.
_KINDS = {
    "end": ("end_movement", "end_turn"), "remove": ("crisis_remove",),
    "refuse": ("armistice", "crisis_refuse"), "fire": ("done",), "hold": ("done",),
    "stay": ("done",), "declare": ("battle",), "propose": ("armistice",),
    "accept": ("armistice",), "withdraw": ("armistice",), "surrender": ("armistice",),
    "resign": ("armistice",),
}
# Kinds that check weighs before the decision: an armistice is offered at any decision
# (3.2), a Military Crisis! card played at any decision of its player turn (9.8, 9.9).
_ANY_TIME = frozenset({"armistice", "play"})


def kinds_of(verb: str) -> tuple[str, ...]:
    """The kinds of order a verb gives."""
    return _KINDS.get(verb, (verb,))


def open_verbs(state: State, data: GameData, side: str) -> dict[str, str]:
    """Each verb an order open to side now may begin with -> the verb format_order writes
    it with ('declare' -> 'battle'): a verb is open where some legal order reads the same
    with it in its verb's place."""
    shown: dict[str, tuple[Ord, str]] = {}
    for o in legal_orders(state, data, side):
        verb, _, rest = format_order(o).partition(" ")
        shown.setdefault(verb, (o, rest))
    return {verb: canon for verb in VERBS for canon, (o, rest) in shown.items()
            if o.kind in kinds_of(verb) and _reads_as(f"{verb} {rest}".strip(), data, o)}


def _reads_as(text: str, data: GameData, order: Ord) -> bool:
    try:
        return parse_order(text, data) == order
    except OrderError:
        return False


def refusal(exc: OrderError, order, state: State, data: GameData, side: str) -> OrderError:
    """The rejection of the order line at fault, told at the decision it would answer (the
    state it meets): an unknown verb with the verbs open now; a line that cannot be read,
    whose verb gives no answer to the decision, refused for that first (with its rule) and
    for its words after; anything else as suggest.amend tells it."""
    words = getattr(exc, "text", "").replace(",", " ").split()
    if not isinstance(exc, OrderSyntaxError) or state is None or not words:
        return amend(exc, order, state, data, side)
    try:
        check_new_line(exc.text)                # refused for its characters: that alone
    except OrderError:
        return amend(exc, order, state, data, side)
    if getattr(exc, "unknown", ("",))[0] == "verb":
        return _unknown_verb(exc, state, data, side)
    verb = words[0].casefold()
    kinds = kinds_of(verb)
    v = None if verb not in VERBS or _ANY_TIME & set(kinds) else \
        unanswered(state, data, kinds, side, verb)
    if v is None:
        return amend(exc, order, state, data, side)
    read = str(amend(exc, order, state, data, side))
    out = IllegalOrderError(exc.text, v.rule, v.reason)
    out.args = (f"{out}; and it cannot be read"
                f"{read.removeprefix(f'cannot read order {quoted(exc.text)}')}",)
    out.suggested, out.unread = True, exc
    return out


def _unknown_verb(exc: OrderSyntaxError, state: State, data: GameData,
                  side: str) -> OrderError:
    """An unknown verb answered with the nearest verb open now, or with every one."""
    exc.suggested = True
    verbs = open_verbs(state, data, side)
    if not verbs:
        return exc
    typed = exc.unknown[1][0].casefold()
    near = nearest(typed, {v: v for v in verbs})
    out = OrderSyntaxError(exc.text, f"unknown verb {echoed(typed)}" + (
        did_you_mean(near) if near else _verbs_open(state, data, side, typed, verbs)),
        exc.position)
    out.suggested = True
    return out


def _verbs_open(state: State, data: GameData, side: str, typed: str,
                verbs: dict[str, str]) -> str:
    """The verbs open now, after the decision this side waits on when it is another's: a
    side not asked has only the few open at any time (3.2, 9.8), and the list alone would
    not tell him why his move or his battle is not among them. An armistice the other side
    proposed is his to answer (3.2): that is said first, never that nothing is his."""
    listed = ", ".join(sorted(set(verbs.values())))
    waiting = None if acting(state, side) else unanswered(state, data, (), side, typed)
    offer = _armistice_offered(state, data, side)
    if offer and waiting is not None and state.pending is not None:
        return f"; {offer}; otherwise the referee is waiting on the " \
            f"{data.side_name(state.pending.side)} player (rule {waiting.rule}); the " \
            f"orders open to the {data.side_name(side)} player now start with one of: {listed}"
    said = f"; {offer}" if offer else ""
    if waiting is None:
        return f"{said}; the orders open now start with one of: {listed}"
    return f"; {cited(waiting.reason, waiting.rule)}; the orders open to the " \
        f"{data.side_name(side)} player now start with one of: {listed}"


def _armistice_offered(state: State, data: GameData, side: str) -> str | None:
    """An armistice the other side proposed, which waits for side's answer (3.2); None when
    there is none for him to answer."""
    proposer = state.armistice
    if proposer is None or proposer == side or side not in data.sides or \
            state.phase == "over":
        return None
    return (f"the {data.side_name(proposer)} player proposes an armistice, which waits for "
            f"the {data.side_name(side)} player's answer: 'accept armistice' or 'refuse "
            f"armistice' (rule 3.2)")
