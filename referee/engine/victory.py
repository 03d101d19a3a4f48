"""Victory points and the level of victory (3.0-3.3)."""

from __future__ import annotations

from ..gamedata import GameData, VictoryLevel
from .state import GERMAN, State


def vp_breakdown(state: State, data: GameData) -> list[tuple[str, int]]:
    """The modified German VP total as (label, points) lines (3.1)."""
    year = data.year(state.turn)
    lines: list[tuple[str, int]] = []
    area_vp = sum(data.areas[a].vp for a in data.areas
                  if state.area_state(a, data) == GERMAN)
    lines.append(("German-Friendly areas (3.1)", area_vp))
    ent = sum(1 for a in state.armies.values()
              if a.status == "eliminated" and data.nation_side[a.nation] != GERMAN)
    ger = sum(1 for a in state.armies.values()
              if a.status == "eliminated" and data.nation_side[a.nation] == GERMAN)
    if ent:
        lines.append((f"{ent} eliminated Entente army(ies) (3.1)", ent))
    if ger:
        lines.append((f"{ger} eliminated German army(ies) (3.1)", -ger))
    for key, label in (("entente_crisis_unpaid", "Entente Military Crisis! not answered (3.1)"),
                       ("german_crisis_unpaid", "German Military Crisis! not answered (3.1)")):
        n = state.vp_adjust.get(key, 0)
        if n:
            lines.append((label, n if key.startswith("entente") else -n))
    blockade = next((r.vp for r in data.charts.total_blockade.by_year if r.year == year), 0)
    if blockade:
        lines.append((f"Total Blockade {year} (3.1)", blockade))
    return lines


def level_of(vp: int, data: GameData) -> VictoryLevel:
    """The level of victory of a modified German VP total (Victory Chart)."""
    for lv in data.charts.victory.levels:
        if (lv.min is None or vp >= lv.min) and (lv.max is None or vp <= lv.max):
            return lv
    raise ValueError(f"no victory level for {vp}")


def victory_level(state: State, data: GameData) -> tuple[int, VictoryLevel]:
    """The modified German VP total and its level of victory (3.1)."""
    vp = sum(v for _, v in vp_breakdown(state, data))
    return vp, level_of(vp, data)
