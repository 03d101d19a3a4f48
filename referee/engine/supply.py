"""Supply lines (6.0-6.3, 8.4 note).

A unit is in supply when a line runs from its area, through adjacent
Friendly areas, to a Friendly supply source of its side. No line runs
through an area holding any enemy unit (a 1-strength fort included, 8.4).
A Disputed supply source supplies only the units in it (6.3). ENGLAND is
always in supply (a reconstruction, see games/ttlm/map.yaml).
"""

from __future__ import annotations

from collections import deque

from ..gamedata import GameData
from .state import State, other


def _enemy_unit_in(state: State, data: GameData, area: str, side: str) -> bool:
    foe = other(side)
    if any(f.area == area and data.nation_side[f.nation] == foe for f in state.forts.values()):
        return True
    return state.present(area, foe, data)


def supplied_areas(state: State, data: GameData, side: str) -> set[str]:
    """The areas in which side's units are in supply now (6.2, 6.3)."""
    network: set[str] = set()
    local: set[str] = set()
    start: list[str] = []
    for a in data.map.areas:
        if a.always_supplied:
            local.add(a.id)
        if a.supply_source != side:
            continue
        status = state.status(a.id, side, data)
        if status == "friendly" and not _enemy_unit_in(state, data, a.id, side):
            start.append(a.id)
        elif status in ("friendly", "disputed"):
            local.add(a.id)          # 6.3: a Disputed source feeds only its own area
    todo = deque(start)
    network.update(start)
    while todo:
        here = todo.popleft()
        for n in data.neighbours[here]:
            if n in network:
                continue
            if state.status(n, side, data) == "friendly" and \
                    not _enemy_unit_in(state, data, n, side):
                network.add(n)
                todo.append(n)
    supplied = set(network) | local
    for a in data.areas:
        if a not in supplied and data.neighbours[a] & network:
            supplied.add(a)
    return supplied


def in_supply(state: State, data: GameData, side: str, area: str) -> bool:
    """Whether side's units in area are in supply (6.2)."""
    return area in supplied_areas(state, data, side)
