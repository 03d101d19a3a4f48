"""What a side's production orders cost, for a person planning them by mail (7.0-7.6).

Every number comes from the game data (engine/builds.py reads it): a unit's cost_bp in
units.yaml, the other orders' costs in charts.yaml build_points.costs. A plan is costed
order by order as the engine costs it, so that what the mail says and what the referee
charges cannot differ.
"""

from __future__ import annotations

import msgspec

from ..base.errors import OrderError
from ..data.gamedata import GameData
from ..engine.builds import cost_menu, entrench_limit, order_costs
from ..engine.reading import parse_order
from ..engine.state import State


class Costed(msgspec.Struct, frozen=True):
    """One production order and the BP it adds to its plan."""

    text: str
    bp: int


class PlanCosts(msgspec.Struct):
    """A plan costed: each order's BP, the side's BP this phase, spent, left; closed: the
    plan is complete (after 'done', BP left are lost, 7.0)."""

    bp: int
    orders: list[Costed]
    spent: int
    left: int
    closed: bool


def plan_costs(state: State, data: GameData, bp: int, texts: list[str],
               closed: bool) -> PlanCosts:
    """The orders of a plan (their text as the plan keeps them) costed one by one."""
    orders, kept = [], []
    for text in texts:
        try:
            orders.append(parse_order(text, data))
            kept.append(text)
        except OrderError:
            continue                    # not a production order: it costs nothing here
    each = order_costs(state, data, orders)
    spent = sum(each)
    return PlanCosts(bp, [Costed(t, c) for t, c in zip(kept, each)], spent, bp - spent, closed)


def menu(state: State, data: GameData, side: str) -> list[tuple[str, str, int, str]]:
    """What each kind of order costs side now (engine/builds.cost_menu)."""
    return cost_menu(state, data, side)


def entrenching_cap(state: State, data: GameData) -> int | None:
    """The most BP a side may spend on entrenchment this turn, if limited (7.4)."""
    return entrench_limit(state, data)


def worked_example(state: State, data: GameData, side: str, legal: list[str],
                   bp: int) -> PlanCosts | None:
    """A plan made of side's own legal orders, one of each kind that costs something (cards,
    a unit, an entrenchment), as many as his BP pay for; None when he has no such order."""
    picks: list[str] = []
    for verb in ("buy", "build", "entrench", "rebuild", "upgrade"):
        found = next((t for t in legal if t.split(" ", 1)[0] == verb and " into " not in t), None)
        if verb == "buy":
            found = next((t for t in legal if t == "buy 2"), found)
        if found is None:
            continue
        trial = plan_costs(state, data, bp, [*picks, found], True)
        if trial.left >= 0:
            picks.append(found)
    if not picks:
        return None
    return plan_costs(state, data, bp, picks, True)
