"""Decisions both sides answer at once, each in a sealed plan (2.0 I, 2.0 V.3; 7.0 keeps its
own book and events in production.py).

Each side asked gives his orders in any order of submission; they are sealed
(secret to him) and checked against his own plan so far. His plan closes when
nothing is left for him to decide; when the last plan closes they are all
revealed and applied, German first, by the one `reveal` the decision names.
A side with nothing to decide is not asked at all.
"""

from __future__ import annotations

from collections.abc import Callable

from ..contracts.events_base import Secret
from ..contracts.events_turn import PlanClosed, PlanRevealed, PlanSealed, PlansOpened
from ..contracts.orders import Ord
from ..data.gamedata import GameData
from .core import DECISIONS, SEALED_BOOKS, Ctx, SealedPlans, prompt
from .evolve import KEEPS
from .movement import private_order
from .order_text import format_order
from .reading import parse_order
from .state import State


class NoDice:
    """Stands in for the dice while a plan is worked out ahead (no roll, never written)."""

    def salt(self) -> None:
        """No salt: the worked-out state is never written anywhere."""
        return None


def open_plans(ctx: Ctx, kind: str, sides: list[str]) -> None:
    """Ask every side in sides at once for a sealed plan (the first named is the pending one)."""
    ctx.emit(PlansOpened(kind=kind, sides=list(sides)))
    prompt(ctx, kind, sides[0])


def parsed(s: State, d: GameData, key: tuple, texts: list[str]) -> tuple[Ord, ...]:
    """The orders of a sealed plan, parsed once per state, not once per candidate (7.0)."""
    got = s._cache.get(key)
    if got is None:
        got = s._cache[key] = tuple(parse_order(t, d) for t in texts)
    return got


def own_plan(s: State, d: GameData, side: str) -> tuple[Ord, ...]:
    """The orders of side's sealed plan so far (2.0 I, 2.0 V.3)."""
    return parsed(s, d, ("sealed plan", side), s.sealed["plans"][side])


def planned(s: State, d: GameData, side: str, effect: Callable[[Ctx, Ord, str], None],
            extra: list[Ord] = ()) -> State:
    """The state as side's own plan so far (and extra) would leave it: what his next order is
    checked against; the other side's plan is never looked at."""
    own = own_plan(s, d, side)
    if not own and not extra:
        return s
    got = s._cache.get(("planned", side))
    if got is None:
        got = s._cache[("planned", side)] = _worked_out(s, d, side, effect, own) if own else s
    if not extra:
        return got
    ctx = Ctx(got.clone(), d, NoDice())
    for o in extra:
        effect(ctx, o, side)
    return ctx.state


def _worked_out(s: State, d: GameData, side: str, effect, own: tuple[Ord, ...]) -> State:
    """Side's plan applied to a copy of s: from the plan's state worked out before its last
    orders were sealed (kept through sealing, KEEPS), those orders only; else all of it."""
    start, base = s._cache.get(("planned before", side), (0, None))
    if base is None or start > len(own):
        start, base = 0, s
    ctx = Ctx(base.clone(), d, NoDice())
    if base is not s:       # the plans and the record number as they are now, not then
        import copy  # start-up: copy brings weakref, which reading a game never needs

        ctx.state.sealed, ctx.state.seq = copy.deepcopy(s.sealed), s.seq
    for o in own[start:]:
        effect(ctx, o, side)
    return ctx.state


def _keep_planned(cache: dict) -> dict:
    """Sealing an order changes nothing but the plans: every side's worked-out plan so far
    stays a valid start for its next working out (sealed._worked_out)."""
    out = {}
    for key, got in cache.items():
        if isinstance(key, tuple) and key[0] == "planned":
            plan = got.sealed["plans"].get(key[1], ()) if got.sealed else ()
            out[("planned before", key[1])] = (len(plan), got)
    return out


KEEPS["PlanSealed"] = KEEPS["PlanClosed"] = _keep_planned


def seal_one(ctx: Ctx, o: Ord, side: str) -> None:
    """One order given on its own to a sealed decision: sealed, and the plan closed when it
    leaves nothing more to decide."""
    sealed: SealedPlans = DECISIONS[ctx.state.pending.kind].extra["sealed"]
    ctx.emit(sealed.seal(ctx, side, [format_order(o)], True))
    if sealed.complete(ctx.state, ctx.data, side, []):
        sealed.close(ctx, side)


def close(ctx: Ctx, side: str, kind: str, reveal: Callable[[Ctx, dict], None]) -> None:
    """Close side's plan; ask the next side still open, or reveal and apply every plan."""
    ctx.emit(PlanClosed(side=side, kind=kind))
    b = ctx.state.sealed
    sides = ctx.data.sides
    waiting = [x for x in sides if x in b["plans"] and x not in b["done"]]
    if waiting:
        prompt(ctx, kind, waiting[0])
        return
    texts = {x: list(b["plans"][x]) for x in sides if x in b["plans"]}
    plans = {x: [parse_order(t, ctx.data) for t in texts.get(x, [])] for x in sides}
    for x, orders in texts.items():
        ctx.emit(PlanRevealed(side=x, kind=kind, **revealed(ctx, x, plans[x], orders)))
    reveal(ctx, plans)


def revealed(ctx: Ctx, side: str, orders: list[Ord], texts: list[str],
             owners: dict | None = None) -> dict:
    """What a revealed plan shows everyone (7.0): its orders, except that orders on army
    templates are revealed to their owner only (1.4), counted for the others; owners:
    what else only the owner reads then, beside the whole plan."""
    public = [t for o, t in zip(orders, texts) if not private_order(ctx.state, o)]
    if len(public) == len(texts):
        return {"orders": texts}
    return {"orders": public, "hidden": len(texts) - len(public),
            "secret": ctx.secret(side, {"orders": texts, **(owners or {})})}


def generic(kind: str, rule: str, what: str, reveal: Callable[[Ctx, dict], None],
            complete: Callable[[State, GameData, str, list], bool]) -> SealedPlans:
    """The SealedPlans of a decision kept in State.sealed."""

    def seal(ctx: Ctx, side: str, orders: list[str], final: bool) -> PlanSealed:
        data = {"orders": orders}
        secret = ctx.secret(side, data) if final else Secret(to=side, data=data)
        return PlanSealed(side=side, kind=kind, secret=secret)

    return SealedPlans(label=f"a sealed plan: {what} ({rule})", book=SEALED_BOOKS[kind],
                       seal=seal, close=lambda ctx, side: close(ctx, side, kind, reveal),
                       complete=complete)


def close_plan(ctx: Ctx, side: str) -> None:
    """Close side's plan of the pending sealed decision (its 'done')."""
    DECISIONS[ctx.state.pending.kind].extra["sealed"].close(ctx, side)
