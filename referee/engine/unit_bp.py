"""What units are worth in Build Points: a unit's build cost (7.6), and the units in the EFT
box summed (2.0 V.4, 3.1).

Below the rules of building and production: the victory points (3.1) count the EFT box's
units by it after every order, and a read of a game that is over counts them without those
rules.
"""

from __future__ import annotations

from ..data.gamedata import GameData
from .state import State


def build_cost(d: GameData, unit: str) -> int:
    """BP cost of a unit (7.6): its type's cost_bp in units.yaml (TTLM: tanks and Stoßtruppen
    2, Commonwealth rebuilt 2, others 1)."""
    nation, kind = unit.split(":")
    return d.units.cost(kind)


def eft_bp(s: State, d: GameData) -> int:
    """The BP value of the units in the EFT box (build costs, an army 1 BP) (2.0 V.4, 3.1)."""
    # Summed directly: the decisive-victory check asks after every order (3.1, 3.2).
    box = d.eft_box.id if d.eft_box else None
    bp = sum(build_cost(d, f"{p.nation}:{p.kind}") for p in s.pieces.values()
             if box is not None and p.area == box)
    for a in s.armies.values():
        if a.status == "eft":
            bp += d.units.cost("army") + sum(build_cost(d, key) * n
                                             for key, n in a.contents.items())
    return bp
