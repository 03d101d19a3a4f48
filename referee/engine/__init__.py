"""The rules engine: decide (orders -> events), evolve (events -> state), legal_orders.

Pure functions over plain data: no files, no printing. The decision kinds
register themselves from flow.py and the rule modules it imports.
"""

from __future__ import annotations

from ..dice import Dice
from ..errors import IllegalOrderError
from ..gamedata import GameData
from . import (  # noqa: F401  (each of these modules registers its decision kinds)
    combat,
    crisis,
    flow,
    losses,
    production,
    reinforce,
    retreats,
    scramble,
    supply,
    victory,
)
from .core import DECISIONS, Ctx, Violation
from .events import Ev, ProductionOrdered, Secret, evolve
from .orders import Ord, format_order
from .state import State


def pending_prompt(state: State, data: GameData) -> str:
    """One human sentence saying what the pending decision is."""
    if state.pending is None:
        return "the game is over" if state.phase == "over" else "nothing is pending"
    return DECISIONS[state.pending.kind].prompt(state, data)


def acting(state: State, side: str) -> bool:
    """Whether side may answer the pending decision now (both sides at once in production)."""
    p = state.pending
    if p is None:
        return False
    if p.side == side:
        return True
    spec = DECISIONS[p.kind]
    return bool(spec.extra.get("both_sides")) and side not in (state.production or {}).get(
        "done", [])


def waiting_on(state: State) -> list[str]:
    """Every side the referee is waiting on, the pending side first."""
    if state.pending is None:
        return []
    first = state.pending.side
    return [first] + [s for s in ("german", "entente") if s != first and acting(state, s)]


def check(state: State, data: GameData, order: Ord, side: str) -> Violation | None:
    """The rule an order breaks now, or None when it is legal (single source of legality)."""
    if state.phase == "over" or state.pending is None:
        return Violation("2.0 VI", "the game is over; no more orders are taken")
    if order.kind == "armistice":
        return victory.armistice_violation(state, data, order, side)
    if _crisis_play(order):
        return crisis.crisis_play_violation(state, data, side, order)
    p = state.pending
    spec = DECISIONS[p.kind]
    if not acting(state, side):
        return Violation(spec.rule, f"it is not the {side} player's decision: the referee is "
                                    f"waiting on the {p.side} player "
                                    f"({spec.prompt(state, data)})")
    if order.kind not in spec.accepts:
        answers = ", ".join(a.replace("_", " ") for a in spec.accepts)
        return Violation(spec.rule, f"'{format_order(order)}' does not answer the decision "
                                    f"now ({spec.prompt(state, data)}); expected: {answers}")
    return spec.check(state, data, order, side)


def _crisis_play(order: Ord) -> bool:
    """Whether an order plays a Military Crisis! card, which any decision of the turn's owner
    takes (9.8, 9.9)."""
    return order.kind == "play" and order.card in crisis.CRISIS_KEYS


def legal_orders(state: State, data: GameData, side: str) -> list[Ord]:
    """Every order side may give now, in canonical order (python-chess legal_moves)."""
    p = state.pending
    if state.phase == "over" or p is None:
        return []
    out: list[Ord] = []
    if acting(state, side):
        spec = DECISIONS[p.kind]
        out = [o for o in spec.candidates(state, data, side)
               if spec.check(state, data, o, side) is None]
        out += [o for o in crisis.crisis_orders(state, data, side)
                if crisis.crisis_play_violation(state, data, side, o) is None]
    out += [o for o in victory.armistice_orders(state, data, side)
            if victory.armistice_violation(state, data, o, side) is None]
    return out


def decide(state: State, data: GameData, order: Ord, side: str, dice: Dice,
           text: str | None = None, in_place: bool = False,
           standing: dict[str, list[dict]] | None = None) -> tuple[list[Ev], State]:
    """Events an order produces (and the state after them); IllegalOrderError if not legal.

    After the order's own events the sequence of play runs on by itself
    through every step that needs no choice, up to the next decision; a
    decisive victory then ends the game at once (3.2). The state given is
    left as it was, unless in_place says the caller has no further use for
    it (verify and random play, which stop at any error). `standing` holds each
    side's standing orders in force: a decision they answer legally is answered
    by the referee (engine/standing.py).
    """
    v = check(state, data, order, side)
    if v is not None:
        raise IllegalOrderError(text or format_order(order), v.rule, v.reason)
    ctx = Ctx(state if in_place else state.clone(), data, dice)
    ctx.standing = standing or {}
    if order.kind == "armistice":
        victory.apply_armistice(ctx, order, side)
    elif _crisis_play(order):
        crisis.play_crisis(ctx, side, order.card, resume=state.pending.kind)
    else:
        DECISIONS[state.pending.kind].apply(ctx, order, side)
    victory.check_decisive(ctx)
    return ctx.events, ctx.state


def sealed_for(state: State, side: str) -> bool:
    """Whether side's orders now go into a sealed plan (7.0: production is secret until both
    sides are done)."""
    p = state.pending
    return (p is not None and bool(DECISIONS[p.kind].extra.get("private"))
            and acting(state, side))


def closes_plans(state: State, side: str, order: Ord) -> bool:
    """Whether order is the 'done' that closes production: every other side is done, so both
    sealed plans are revealed and applied (7.0)."""
    p = state.pending
    if p is None or p.kind != "production" or order.kind != "done":
        return False
    done = state.production.get("done", [])
    return all(s in done for s in state.production.get("plans", {}) if s != side)


def decide_plan(state: State, data: GameData, orders: list[tuple[str, Ord]], side: str,
                dice: Dice, in_place: bool = False) -> tuple[list[Ev], State]:
    """One submission of sealed production orders as one sealed plan (7.0).

    Each order is checked in turn against the plan so far; the record then
    holds a single ProductionOrdered with every order, so the opponent learns
    that a plan was sealed, not how many orders it holds. A 'done' (last)
    closes the plan as it would alone. IllegalOrderError carries `index`,
    the position of the order at fault.
    """
    ctx = Ctx(state if in_place else state.clone(), data, dice)
    sealed: list[str] = []
    done = None
    for i, (text, order) in enumerate(orders):
        v = check(ctx.state, data, order, side) if done is None else Violation(
            "7.0", "the plan is closed by 'done'; no order may follow it in the same plan")
        if v is None and order.kind == "armistice":
            v = Violation("7.0", "an armistice is not part of a sealed production plan; "
                                 "send it on its own")
        if v is not None:
            exc = IllegalOrderError(text or format_order(order), v.rule, v.reason)
            exc.index = i
            raise exc
        if order.kind == "done":
            done = order
            continue
        # Provisional: lets the next order be checked against the plan so far.
        ctx.emit(ProductionOrdered(side=side, secret=Secret(to=side, data={
            "order": format_order(order)})))
        sealed.append(format_order(order))
    ctx.events = [ProductionOrdered(side=side, secret=ctx.secret(side, {"orders": sealed}))]
    if done is not None:
        DECISIONS[ctx.state.pending.kind].apply(ctx, done, side)
    victory.check_decisive(ctx)
    return ctx.events, ctx.state


def is_private(state: State, order: Ord) -> bool:
    """Whether an order's text stays secret to its side: sealed production, hidden templates."""
    from .movement import private_order

    p = state.pending
    if p is not None and DECISIONS[p.kind].extra.get("private") and order.kind != "armistice":
        return True
    return private_order(state, order)


__all__ = ["check", "closes_plans", "decide", "decide_plan", "sealed_for", "evolve", "is_private",
           "legal_orders", "pending_prompt", "waiting_on", "Ctx", "Violation"]
