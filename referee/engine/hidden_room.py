"""What the public position leaves open of a reinforcement plan under hidden army templates
(1.4, 2.0 I, 8.1, 8.2.3).

Whether a side has an arrival to place, or room to make for one (room.py), is counted from
inputs some of which every reader sees and some only their owner. Public: the areas an
arrival may go to (the Game Events chart, their supply and status), the stand-alone units
there, the Out of Supply markers, which army counters stand there, and the arrivals
themselves. Hidden under option 1.4: what each army holds, and so its strength; whether it
is empty decides whether it counts toward the stacking limit (1.2.2), and what it holds
whether its template takes a unit. The same holds of the Commonwealth swap (8.2.3): a UK
infantry standing alone is public, one on an army template is not.

So where no army counter of the side stands in an area one of his arrivals may go to, the
public position settles the answer and the count is read as it is; where one stands, what
it holds may decide it, and the side is asked (his plan stays open) whatever it holds, to
answer 'done' if he finds no place. Likewise for a swap due, wherever an army of his that
could hold the infantry it replaces stands on the map.
"""

from __future__ import annotations

from ..data.gamedata import GameData
from .armies import template_violation
from .state import State


def unsettled(s: State, d: GameData, side: str, areas: list[str]) -> bool:
    """Whether what side's armies hold could decide if he has something to place, room to
    make (areas: those his arrivals may go to) or a swap to make (1.4, 2.0 I, 8.1, 8.2.3);
    asked under hidden templates only."""
    if any(s.armies_in(area, side, d) for area in areas):
        return True
    if not s.swaps_due.get(side):
        return False
    key = f"{d.commonwealth_nation}:infantry"
    return any(a.status == "map" and d.nation_side[a.nation] == side and
               template_violation(s, d, a, {key: 1}) is None for a in s.armies.values())
