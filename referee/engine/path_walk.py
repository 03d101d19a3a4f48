"""A normal move's path walked area by area: adjacency, area status, a Limited Offensive's one
Enemy area and full areas passed through (4.1, 4.2, 9.1.2, 1.2.2).

What the areas of a path allow depends on the counter and the path alone, not on what the
move does where it ends (join an army, take units in): the legal orders of a position ask
it again for every such move, so each counter's path is walked once and its answer kept
until the next event (State._cache, cleared by evolve).
"""

from __future__ import annotations

from ..base.plurals import a_or_an
from ..data.gamedata import GameData
from .core import Violation
from .state import State, other


def through_full(s: State, d: GameData, m, area: str) -> Violation | None:
    """Why counter m may not pass through area: side's units there are at the stacking limit
    already (1.2.2)."""
    if m.counts() and s.stack_count(area, m.side, d) >= d.units.stacking_limit:
        return Violation("1.2.2", f"{m.ref} may not pass through {d.areas[area].name}: it "
                                  f"already holds {d.units.stacking_limit} "
                                  f"{d.side_name(m.side)} units")
    return None


def walk_violation(s: State, d: GameData, m, path: tuple[str, ...]) -> Violation | None:
    """Why counter m (a movement.Mover) may not walk path from its area now, or None; kept
    until the next event for each counter and path."""
    key = ("walk", m.ref, tuple(path))
    cache = s._cache
    if key not in cache:
        cache[key] = _walk(s, d, m, path)
    return cache[key]


def _walk(s: State, d: GameData, m, path: tuple[str, ...]) -> Violation | None:
    side, ts = m.side, s.turn_state
    enemy = other(side, d)
    cur, cur_status = m.area, s.status(m.area, side, d)
    entered: list[str] = list(ts.enemy_entered)
    for i, area in enumerate(path):
        if area not in d.neighbours[cur]:
            return Violation("4.1", f"{d.areas[area].name} is not adjacent to "
                                    f"{d.areas[cur].name}")
        st = s.status(area, side, d)
        if st == "neutral":
            return Violation("4.1", f"{d.areas[area].name} is Neutral and may not be entered")
        if st == "enemy":
            v = _enemy_entry(d, ts.mode, cur, cur_status, area, entered)
            if v:
                return v
            entered.append(area)
        if i < len(path) - 1:
            if st == "enemy" and s.present(area, enemy, d):
                return Violation("4.1", f"{d.areas[area].name} is an Enemy area holding enemy "
                                        f"units: entering it makes it Disputed and a Battle "
                                        f"Area at once (5.1.1), so {m.ref}'s move ends there")
            v = through_full(s, d, m, area)
            if v:
                return v
        # What the area is, for the next step, once this unit stands in it (4.1).
        if s.present(area, enemy, d):
            cur_status = "disputed"
        elif m.holds(d):
            cur_status = "friendly"
        else:
            cur_status = st
        cur = area
    return None


def _enemy_entry(d: GameData, mode: str, cur: str, cur_status: str, area: str,
                 entered: list[str]) -> Violation | None:
    """Why a step from cur into area, an Enemy area, is refused (2.0 II.1, 4.2, 9.1.2)."""
    if mode not in ("offensive", "limited"):
        return Violation("2.0 II.1", f"{d.areas[area].name} is an Enemy area; without "
                                     f"an Offensive card no unit may enter one, even "
                                     f"an empty one (4.2)")
    if cur_status != "friendly":
        return Violation("4.2", f"a unit may never move from {a_or_an(cur_status.title())} "
                                f"area ({d.areas[cur].name}) into an Enemy area "
                                f"({d.areas[area].name})")
    if mode == "limited" and area not in entered and entered:
        return Violation("9.1.2", f"{a_or_an(d.card_title('limited_offensive'))} enters "
                                  f"one Enemy area only; "
                                  f"{d.areas[entered[0]].name} was already entered")
    return None
