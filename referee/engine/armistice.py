"""Armistice and surrender: the orders either player may give at any time of the game
(3.2, 3.3), judged by the level of victory as it stands (victory.py).

Only deciding an order needs them: a read of a game loads them with the decision kinds
(engine/__init__.py).
"""

from __future__ import annotations

from ..contracts.events_turn import (
    ArmisticeLapsed,
    ArmisticeProposed,
    ArmisticeRefused,
    ArmisticeWithdrawn,
    GameEnded,
)
from ..contracts.orders import Armistice, Ord
from ..data.gamedata import GameData
from .core import Ctx, Violation
from .endings import armistice_reason, surrender_reason
from .state import State, other
from .victory import victory_level, winning


def armistice_orders(s: State, d: GameData, side: str):
    """Orders a side may give at any time: propose an armistice, or withdraw his own, or
    accept or refuse the other's; resign."""
    if s.phase == "over":
        return
    if s.armistice is None:
        yield Armistice(act="propose")
    elif s.armistice == side:
        yield Armistice(act="withdraw")
    else:
        yield Armistice(act="accept")
        yield Armistice(act="refuse")
    yield Armistice(act="surrender")


def armistice_violation(s: State, d: GameData, o: Armistice, side: str) -> Violation | None:
    """Why an armistice order is illegal now (3.2, 3.3)."""
    if o.act == "propose":
        if s.armistice is not None:
            return Violation("3.2", f"the {d.side_name(s.armistice)} player's proposal is "
                                    f"still open")
        return None
    if o.act == "withdraw":
        if s.armistice != side:
            return Violation("3.2", f"the {d.side_name(side)} player has no armistice proposal "
                                    f"open to withdraw")
        return None
    if o.act in ("accept", "refuse"):
        if s.armistice is None or s.armistice == side:
            return Violation("3.2", "there is no armistice proposal from the other side to "
                                    f"answer{_ended(s, d, side)}")
        return None
    vp, level = victory_level(s, d)
    if winning(level, d) == side:
        return Violation("3.3", f"a player may not resign while he is winning "
                                f"({level.name}, {vp} VP)")
    return None


def _ended(s: State, d: GameData, side: str) -> str:
    """How the other side's last proposal ended, when it lapsed (2.0 VI) or was withdrawn
    and none has been made since, as a refusal's tail; empty otherwise."""
    e = s.armistice_ended
    if s.armistice is not None or e is None or e["side"] == side:
        return ""
    who = f"the {d.side_name(e['side'])} player"
    if e["how"] == "lapsed":
        return f": {who}'s proposal lapsed with the end of {e['season']} (2.0 VI)"
    return f": {who} withdrew his proposal in {e['season']}"


def apply_armistice(ctx: Ctx, o: Ord, side: str) -> None:
    """Record a proposal or refusal; end the game on acceptance or surrender (3.2, 3.3)."""
    s, d = ctx.state, ctx.data
    vp, level = victory_level(s, d)
    if o.act == "propose":
        ctx.emit(ArmisticeProposed(side=side))
    elif o.act == "withdraw":
        ctx.emit(ArmisticeWithdrawn(side=side))
    elif o.act == "refuse":
        ctx.emit(ArmisticeRefused(side=side))
    elif o.act == "accept":
        ctx.emit(GameEnded(reason=armistice_reason(other(side, d)), vp=vp, level=level.id,
                           level_name=level.name))
    else:
        levels = d.charts.victory.levels
        i = [lv.id for lv in levels].index(level.id)
        shift = d.charts.victory.surrender_shift
        j = max(0, i - shift) if side == d.vp_side else min(len(levels) - 1, i + shift)
        ctx.emit(GameEnded(reason=surrender_reason(side), vp=vp, level=levels[j].id,
                           level_name=levels[j].name))


def lapse_armistice(ctx: Ctx) -> None:
    """At the end of a season (2.0 VI) a proposal still open ends: 3.2's armistice is
    offered to end the war as things stand (the French: the present level applies), and
    what stands changes with the next season. Only once the other side has had a decision
    to make, or given an order, after it (armistice_heard.py): one he could not yet answer
    stands to the end of the next season."""
    s = ctx.state
    if s.armistice is not None and s.armistice_heard:
        ctx.emit(ArmisticeLapsed(side=s.armistice, season=ctx.data.label(s.turn)))
