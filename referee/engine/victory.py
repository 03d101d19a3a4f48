"""Victory points and the level of victory, and the decisive victory that ends the game
(3.0-3.2, 8.3.6); an armistice or a surrender ends it by its orders (armistice.py)."""

from __future__ import annotations

from ..base.plurals import noun
from ..contracts.chartmodels import VictoryLevel
from ..contracts.events_turn import GameEnded
from ..data.gamedata import GameData
from .core import Ctx
from .endings import level_winner, reached_reason
from .state import BOTH, State, other
from .unit_bp import eft_bp

NOBODY = (0, 0, 0, 0)                     # State.board's cell of an area with no units


def eft_vp(state: State, data: GameData) -> int:
    """+1 VP per whole 5 BPs of units in the EFT box, 1914-1917 (3.1; whole fives: our reading);
    none when the game is linked with the game the modifier's `not_when_linked_with` names."""
    mod = next((m for m in data.charts.victory.modifiers.items if m.id == "eft_box"), None)
    if mod is None or data.year(state.turn) not in mod.years or (
            mod.not_when_linked_with and
            mod.not_when_linked_with in data.linked_with(state.options)):
        return 0
    return eft_bp(state, data) // 5


def near_area_vp(state: State, data: GameData) -> list[tuple[str, int]]:
    """The VP of each modifier scored by a unit type in or next to an area, not cumulative
    (8.3.6: +1 while the Paris Gun is in or adjacent to Paris; charts.yaml `unit`, `near_area`)
    as (label, points)."""
    out = []
    for mod, near in data.near_area_modifiers:
        if _near(state, mod.unit, near):
            unit = mod.unit
            where = data.areas[mod.near_area].name if mod.near_area in data.areas else mod.near_area
            out.append((f"the {unit.replace('_', ' ').title()} in or next to {where} "
                        f"({mod.rule or '3.1'})", mod.vp))
    return out


def _near(state: State, unit: str, near: frozenset[str]) -> bool:
    # Plain loops: this runs after every decision (3.2), over every unit on the map.
    for p in state.pieces.values():
        if p.kind == unit and p.area in near:
            return True
    suffix = f":{unit}"
    for a in state.armies.values():
        if a.status == "map" and a.area in near:
            for key, n in a.contents.items():
                if n and key.endswith(suffix):
                    return True
    return False


def vp_breakdown(state: State, data: GameData) -> list[tuple[str, int]]:
    """The modified VP total of the side VP count for (German in TTLM) as (label, points)
    lines (3.1)."""
    year = data.year(state.turn)
    lines: list[tuple[str, int]] = []
    board = state.board(data)
    mine = data.vp_side
    foe = other(mine, data)
    control = state.control
    area_vp = sum(vp for a, vp in data.vp_areas if control.get(a) == mine
                  and board.get(a, NOBODY)[0] != BOTH)     # a Disputed area is nobody's
    lines.append((f"{data.side_name(mine)}-Friendly areas (3.1)", area_vp))
    ent = sum(1 for a in state.armies.values()
              if a.status == "eliminated" and data.nation_side[a.nation] != mine)
    ger = sum(1 for a in state.armies.values()
              if a.status == "eliminated" and data.nation_side[a.nation] == mine)
    # Counted by side (3.1; AAC 3.1's "German Army" is any of the German player's, Austro-
    # Hungarian too), so named by the player: "German armies" would read as one nation's.
    if ent:
        lines.append((f"{ent} eliminated {noun(ent, 'army', 'armies')} of "
                      f"{data.player_words(foe)} (3.1)", ent))
    if ger:
        lines.append((f"{ger} eliminated {noun(ger, 'army', 'armies')} of "
                      f"{data.player_words(mine)} (3.1)", -ger))
    for side in (foe, mine):
        n = state.vp_adjust.get(f"{side}_crisis_unpaid", 0)
        if n:
            card = next((data.card_types[k].title for k in data.crisis_keys    # 9.8, 9.9
                         if data.card_types[k].event_side == other(side, data)),
                        f"{data.side_name(side)} Military Crisis!")
            lines.append((f"{card} not answered (3.1)", n if side == foe else -n))
    eft = eft_vp(state, data)
    if eft:
        lines.append(("units in the EFT box, 1 per 5 BP (3.1)", eft))
    blockade = next((r.vp for r in data.charts.total_blockade.by_year if r.year == year), 0)
    if blockade:
        lines.append((f"Total Blockade {year} (3.1)", blockade))
    lines.extend(near_area_vp(state, data))
    return lines


def level_of(vp: int, data: GameData) -> VictoryLevel:
    """The level of victory of a modified VP total (Victory Chart)."""
    for lv in data.charts.victory.levels:
        if (lv.min is None or vp >= lv.min) and (lv.max is None or vp <= lv.max):
            return lv
    raise ValueError(f"no victory level for {vp}")


def victory_level(state: State, data: GameData) -> tuple[int, VictoryLevel]:
    """The modified VP total (of the side VP count for) and its level of victory (3.1)."""
    vp = sum(v for _, v in vp_breakdown(state, data))
    return vp, level_of(vp, data)


def winning(level: VictoryLevel, data: GameData) -> str | None:
    """Which side a level favours, or None for the stalemate in the middle of the chart."""
    return level_winner(level.id, data)


def check_decisive(ctx: Ctx) -> None:
    """A decisive victory ends the game the moment it is reached (3.2)."""
    s, d = ctx.state, ctx.data
    if s.phase == "over":
        return
    vp, level = victory_level(s, d)
    if level.id in d.charts.victory.game_ends_on:
        ctx.emit(GameEnded(reason=reached_reason(level.name), vp=vp, level=level.id,
                           level_name=level.name))
