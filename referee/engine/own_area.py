"""A move whose path begins with the area its unit already stands in (4.1, 8.1).

A path names the areas a unit enters, never the one it leaves, so "move uk-c-01 Amiens
into uk-5" for a unit in Amiens enters nothing. What the player most likely meant, to join
an army in the same area, is an order of its own (`move UNIT into ARMY`, 8.1): the
refusal gives it, rather than telling him that Amiens is not adjacent to Amiens.
"""

from __future__ import annotations

from ..contracts.orders import Move
from ..data.gamedata import GameData
from .core import Violation
from .order_text import format_order
from .state import State


def named_own_area(s: State, d: GameData, o: Move, at: str, side: str) -> Violation | None:
    """Why a move naming the area its unit stands in (at) first is refused, with the order
    that joins an army there when it names one of side's armies there; None when its path
    does not begin there."""
    if not o.path or o.path[0] != at:
        return None
    name = d.areas[at].name
    here = {a.id for a in s.armies_in(at, side, d)}
    if o.into in here and len(o.path) == 1 and not o.taking:
        joins = format_order(Move(unit=o.unit, into=o.into))
        return Violation("8.1", f"{o.unit} is in {name} already; to join {o.into} there, name "
                                f"no area: '{joins}'")
    return Violation("4.1", f"{o.unit} is in {name} already; a move names the areas it "
                            f"enters, never the one it leaves")
