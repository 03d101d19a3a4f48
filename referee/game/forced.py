"""Decisions the referee closes for a side when a mail leaves it waiting on one it cannot
choose in: the one order open closes the decision and does nothing else ('done', 'end
movement', 'end turn', 'pass'), on facts every reader sees.

A decision the engine asks may still have one answer only because of the side's hand (no
combat card he may play now, no Crisis! card): closing it would tell the opponent what the
hand lacks. So the answer must be the only one with any cards in the hand as well (one
card of each type of the game: a card in hand only ever opens orders), and the game may
not hide the armies' templates (1.4), which the answer may rest on. A sealed plan (7.0,
2.0 I, 2.0 V.3) is never closed: how many orders it holds is secret.

The engine is not changed: a game played with `order` asks these decisions as before, and
the record the referee writes is the side's order (`by: referee`) that `verify` decides
again, after checking it was the only one open.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain

from ..contracts.orders import Ord
from ..data.gamedata import GameData
from ..engine import check, sealed_for
from ..engine.core import DECISIONS
from ..engine.crisis import crisis_orders
from ..engine.order_text import format_order
from ..engine.state import State

CLOSERS = ("done", "end_movement", "end_turn", "pass")


def _open(state: State, data: GameData, side: str) -> Iterator[Ord]:
    """The orders side may give now but an armistice or a surrender (3.2, 3.3: open at any
    decision, never the answer to one), one by one (legal_orders', checked by check): a
    Crisis! card first, then the decision's own, as its candidates come (a hand of every
    card makes many)."""
    spec = DECISIONS[state.pending.kind]
    for order in chain(crisis_orders(state, data, side), spec.candidates(state, data, side)):
        if order.kind != "armistice" and check(state, data, order, side) is None:
            yield order


def _only(state: State, data: GameData, side: str) -> Ord | None:
    """The one order open to side, when it is a closer; else None (stops at the second)."""
    found = None
    for order in _open(state, data, side):
        if order.kind not in CLOSERS or found is not None:
            return None
        found = order
    return found


def closer(state: State, data: GameData, side: str | None) -> Ord | None:
    """The order the referee gives for side to close the decision now, or None: the one
    order open to him, a closer, whatever his hand holds (module docstring)."""
    p = state.pending
    if side is None or p is None or state.phase == "over" or p.side != side or \
            sealed_for(state, side) or state.options.get("hidden_templates"):
        return None
    found = _only(state, data, side)
    if found is None:
        return None
    any_hand = state.clone()
    any_hand.hands = {**state.hands, side: [c.ids[0] for c in data.deck.cards]}
    return found if _only(any_hand, data, side) == found else None


def closed_wrongly(state: State, data: GameData, side: str, text: str) -> str | None:
    """Why a record that says the referee closed side's decision with text could not have
    been written so (verify), or None."""
    order = closer(state, data, side)
    player = data.player_words(side)
    if order is None:
        return (f"it says the referee closed {player}'s decision, which was not "
                f"one closed for him: more than one order was open, or the only one was "
                f"not one that closes it alone, or a hand could have opened another")
    if format_order(order) != text:
        return (f"it says the referee closed {player}'s decision with "
                f"{text!r}; the only order open was {format_order(order)!r}")
    return None


def rule_of(state: State) -> str:
    """The rule of the decision pending in state (for the record's heading)."""
    return DECISIONS[state.pending.kind].rule if state.pending is not None else ""


def decision_rule(kind: str | None) -> str:
    """The rule of a decision of this kind, as `log` knows it from the last decision a side
    was asked ('' for none, or a kind this referee lacks: `log` still prints the record)."""
    spec = DECISIONS.get(kind) if kind is not None else None
    return spec.rule if spec is not None else ""
