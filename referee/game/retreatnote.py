"""What a retreat offered costs beside the move: an army carrying Siege Guns (or the Paris
Gun) that retreats loses them, for they never retreat and go with their retreating army
(8.3.3, 8.3.6). The orders open say so beside the retreat they offer, not only the event
after it."""

from __future__ import annotations

from ..base.plurals import counted
from ..data.gamedata import GameData
from ..engine.state import State

# The decisions that offer a retreat of the battle's units (5.4.1-5.4.3).
RETREATS = ("cavalry_retreat", "defence", "retreat_after")


def retreat_notes(state: State, data: GameData, side: str | None) -> list[str]:
    """One sentence for each army of side in the battle whose retreat would eliminate units
    that never retreat, with their rule; none when no retreat is asked of side."""
    p = state.pending
    if side is None or p is None or p.kind not in RETREATS or p.side != side or \
            not state.battle:
        return []
    notes = []
    for army in state.armies_in(state.battle["area"], side, data):
        lost = {kind: n for key, n in sorted(army.contents.items())
                if n and data.units.has(kind := key.split(":")[1], "never_retreats")}
        for kind, n in lost.items():
            what = counted(n, kind.replace("_", " "))
            rule = data.units.unit_types[kind].rule
            notes.append(f"If {army.id} retreats, its {what} {'is' if n == 1 else 'are'} "
                         f"eliminated: {'it never retreats' if n == 1 else 'they never retreat'}"
                         f" ({rule}).")
    return notes
