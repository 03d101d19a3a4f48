"""An example of one sealed plan for a mail (7.0, 2.0 I, 2.0 V.3): orders of the reader's
own that the referee takes as one message, ending with 'done' only where the plan needs it.

A plan of arrivals to place or of cards to discard closes by itself once nothing is left
to place or discard; a 'done' after it is dropped, and a 'done' before it is refused
(2.0 I: an arrival must be placed while it has a place). So the example is made by giving
the plan's orders one after another, as the engine checks them, until the plan is
complete or 'done' may close it. Moves into armies (8.1) are optional and left out, but
where only they make room for an arrival the example gives them (engine/room.py finds
them; each is played out here and must be among the legal orders), then the place."""

from __future__ import annotations

from ..base.errors import OrderError
from ..contracts.orders import Done, Ord, Place
from ..data.gamedata import GameData
from ..engine import completes_plan, decide_plan, legal_orders, plan_room
from ..engine.order_text import format_order
from ..engine.reading import parse_order
from ..engine.state import State
from .drydice import DryDice, DryStop

# The most orders the example of a plan shows.
PLAN_EXAMPLE = 8
# Orders that never go into an example of a plan: the closing answer (added last where the
# plan needs it), a unit into or out of an army (8.1: optional), answers at any time.
_NOT_EXAMPLES = ("done", "move", "armistice", "play")


def plan_example(state: State, data: GameData, side: str,
                 first: str | None) -> tuple[list[str], bool]:
    """(orders, short): orders for one sealed plan of side's, starting with first, each legal
    after the ones before it; then 'done' where the plan needs one to close, none where the
    orders complete it. Where nothing left can be placed until units go into armies (8.1,
    1.2.2), the moves that make room come next, not a 'done' that would leave an arrival in
    the force pool (2.0 I); with no first, the example starts with them, or is empty.
    short: the plan needs more orders than the PLAN_EXAMPLE shown."""
    texts: list[str] = []
    coming = [first] if first is not None else _room(state, data, side, [], state)
    while coming and len(texts) < PLAN_EXAMPLE:
        texts.append(coming.pop(0))
        if coming:
            continue                # moves that make room: played out together already
        orders = [(t, parse_order(t, data)) for t in texts]
        plain = [o for _, o in orders]
        if completes_plan(state, data, side, plain):
            return texts, False
        after = _after(state, data, side, orders)
        coming = _room(state, data, side, orders, after)
        if coming:
            continue
        if _closes(state, data, side, orders):
            return [*texts, "done"], False
        text = _next_order(after, data, side)
        coming = [text] if text is not None else []
    return texts, bool(coming)


def _room(state: State, data: GameData, side: str, orders: list[tuple[str, Ord]],
          after: State | None) -> list[str]:
    """The moves into armies that make room for an arrival after orders, which leave after
    (engine/room.py), each legal after the ones before it and an arrival placeable after
    them; none if nothing is to be made room for, or the moves do not all play."""
    moves = plan_room(after, data, side)[0] if after is not None else []
    texts: list[str] = []
    for move in moves:
        text = format_order(move)
        if text not in (format_order(o) for o in legal_orders(after, data, side)):
            return []
        texts.append(text)
        after = _after(state, data, side, [*orders, *((t, parse_order(t, data))
                                                      for t in texts)])
        if after is None:
            return []
    return texts if any(isinstance(o, Place) for o in legal_orders(after, data, side)) \
        else []


def _after(state: State, data: GameData, side: str,
           orders: list[tuple[str, Ord]]) -> State | None:
    """The state after orders, sealed into side's plan; None if they are not all taken or
    close it."""
    if not orders:
        return state
    try:
        return decide_plan(state, data, orders, side, DryDice(state.game_id, state.seq + 1))[1]
    except (DryStop, OrderError):
        return None


def _closes(state: State, data: GameData, side: str, orders: list[tuple[str, Ord]]) -> bool:
    """Whether 'done' after orders is taken: the plan may close there."""
    try:
        decide_plan(state, data, [*orders, ("done", Done())], side, DryDice(state.game_id,
                                                                            state.seq + 1))
    except DryStop:         # every order was taken; closing it reveals both plans and rolls
        return True
    except OrderError:
        return False
    return True


def _next_order(after: State | None, data: GameData, side: str) -> str | None:
    """The first legal order of the plan in after (the state its orders so far leave), not a
    closing one; None if none."""
    if after is None:
        return None
    shown = [o for o in legal_orders(after, data, side) if o.kind not in _NOT_EXAMPLES]
    # An arrival put into an army counts toward the stacking limit only if the army was
    # empty (8.1, 1.2.2); one placed on its own may leave a later arrival no room, and the
    # example would send that unit back to the force pool.
    into = [o for o in shown if isinstance(o, Place) and o.into is not None]
    return next((format_order(o) for o in into or shown), None)
