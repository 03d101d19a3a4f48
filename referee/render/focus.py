"""The areas a picture marks: where a battle must be or is being fought, and the areas the
decision asked now concerns (a ring on the whole map, and the close-up of a mail).
"""

from __future__ import annotations

from ..data.gamedata import GameData
from ..engine.state import State


def battle_areas(state: State, data: GameData) -> set[str]:
    """Areas where a battle must be or is being fought now: Enemy areas made Disputed by this
    movement phase, before battles are declared (5.1.1), declared and not yet resolved battles
    (2.0 II.3), and the battle being fought."""
    out: set[str] = set()
    ts = state.turn_state
    if ts is not None and state.combat is None and state.pending is not None and \
            state.pending.kind in ("movement", "crisis"):
        out |= {a for a in ts.became_disputed if state.area_state(a, data) == "disputed"}
    if state.combat:
        out |= set(state.combat.get("declared", [])) - set(state.combat.get("resolved", []))
    if state.battle:
        out.add(state.battle["area"])
    return out


def unit_area(state: State, unit: str) -> str | None:
    """Where a unit (an army or a counter standing alone) is on the map now, if it is."""
    army = state.armies.get(unit)
    if army is not None:
        return army.area if army.status == "map" else None
    piece = state.pieces.get(unit)
    return piece.area if piece is not None else None


def decision_areas(state: State, data: GameData) -> list[str]:
    """The areas the decision asked now concerns, in the map's order: the battle being fought;
    else the battles declared or to declare; else the areas the decision names and those the
    units moved in this player turn stand in; none for a decision about no area (a card to
    play, production)."""
    if state.pending is None or state.phase == "over":
        return []
    areas = data.areas
    if state.battle and state.battle.get("area") in areas:
        return [state.battle["area"]]
    found = set(battle_areas(state, data))
    if not found:
        found |= {v for v in state.pending.info.values() if isinstance(v, str) and v in areas}
        ts = state.turn_state
        if ts is not None and state.pending.kind in ("movement", "pass_move", "crisis",
                                                      "declare_battles"):
            found |= {a for a in (unit_area(state, u) for u in ts.moved) if a in areas}
    return [a.id for a in data.map.areas if a.id in found]
