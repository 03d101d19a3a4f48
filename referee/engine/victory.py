"""Victory points, the level of victory, armistice and surrender (3.0-3.3, 8.3.6)."""

from __future__ import annotations

from ..base.plurals import noun
from ..contracts.chartmodels import VictoryLevel
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
from .endings import armistice_reason, level_winner, reached_reason, surrender_reason
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
