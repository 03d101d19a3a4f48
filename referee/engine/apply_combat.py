"""How the events of the combat phase change the state (2.0 II.3-4, 5.0-5.4)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..contracts.events_combat import (
    BattleBegan,
    BattleCancelled,
    BattleDeclared,
    BattleEnded,
    BattleStep,
    BiplaneReacts,
    BonusDesignated,
    CombatCardPlayed,
    CombatPhaseBegan,
    CombatPhaseEnded,
    FireResolved,
    FortDestroyed,
    HitsLost,
    HitsToPay,
    LossTaken,
    OffensiveDowngraded,
    UnitRetreated,
)
from ..data.gamedata import GameData
from .apply_units import (
    back_to_pool,
    details,
    join,
    onto_discard,
    put_piece,
    take_piece,
    unmark,
)
from .state import State


def _combat_began(s: State, e: CombatPhaseBegan, d: GameData) -> None:
    s.combat = {"attacker": e.side, "compulsory": list(e.compulsory),
                "declared": list(e.compulsory), "resolved": [], "cancelled": [],
                "cards": [], "weather": False, "bonus": [], "markers": []}


def _declared(s: State, e: BattleDeclared, d: GameData) -> None:
    s.combat["declared"].append(e.area)


def _combat_card(s: State, e: CombatCardPlayed, d: GameData) -> None:
    s.hands[e.side].remove(e.card)
    onto_discard(s, [e.card], d)
    s.combat["cards"].append({"side": e.side, "key": e.key, "area": e.area})
    if e.key == "bad_weather":
        s.combat["weather"] = True


def _bonus(s: State, e: BonusDesignated, d: GameData) -> None:
    s.combat["bonus"].append(e.area)


def _downgraded(s: State, e: OffensiveDowngraded, d: GameData) -> None:
    ts = s.turn_state
    ts.card_as = e.after
    ts.mode = {"offensive": "offensive", "limited_offensive": "limited"}.get(e.after,
                                                                             "weather_pass")
    if s.combat is not None:
        s.combat["bonus"] = []


def _cancelled(s: State, e: BattleCancelled, d: GameData) -> None:
    s.combat["declared"].remove(e.area)
    s.combat["cancelled"].append(e.area)


def _battle_began(s: State, e: BattleBegan, d: GameData) -> None:
    s.battle = {"area": e.area, "attacker": e.attacker, "defender": e.defender,
                "surprise": e.surprise, "step": "start", "dogfighters": [], "reacting": [],
                "instead": [], "after_to": {}, "forced": 0, "pay": None, "fired": {},
                "armies_retreated": []}


def _step(s: State, e: BattleStep, d: GameData) -> None:
    s.battle["step"] = e.step


def _fired(s: State, e: FireResolved, d: GameData) -> None:
    b = s.battle
    b["forced"] += e.forced_retreats
    forcing = b.setdefault("forcing", [])   # what forced them: unit kinds and card keys
    for g in e.groups:
        why = g.source if g.kind == "card" else g.kind
        if g.forces_retreat and g.hits and why not in forcing:
            forcing.append(why)
    b["fired"][f"{e.phase}:{e.side}"] = [e.hits, e.siege_hits]
    if e.phase == "dogfight":
        b["dogfighters"] += [g.source for g in e.groups]


def _to_pay(s: State, e: HitsToPay, d: GameData) -> None:
    s.battle["pay"] = {"side": e.side, "hits": e.hits, "siege": e.siege_hits,
                       "target": e.target}


def _loss(s: State, e: LossTaken, d: GameData) -> None:
    pay = s.battle["pay"]
    if e.how == "ersatz":
        s.hands[e.side].remove(e.card)
        onto_discard(s, [e.card], d)
    elif e.how == "fort":
        fort = s.forts[e.unit]
        fort.strength -= 1
    else:
        back_to_pool(s, e.unit, e.nation, e.kind)
    pay["siege"] -= e.siege_hits
    pay["hits"] -= e.hits


def _hits_lost(s: State, e: HitsLost, d: GameData) -> None:
    pay = s.battle["pay"]
    if e.pool in ("hits", "all"):
        pay["hits"] = 0
    if e.pool in ("siege", "all"):
        pay["siege"] = 0


def _fort_gone(s: State, e: FortDestroyed, d: GameData) -> None:
    del s.forts[e.fort]
    unmark(s, e.fort)
    s.removed_forts.append(e.fort)


def _retreated(s: State, e: UnitRetreated, d: GameData) -> None:
    into = details(e).get("into")
    if into is not None:
        # 8.1: it joined an army there; it takes no part in a battle this phase (5.4),
        # for it may join only an army with no battle still to fight.
        take_piece(s, e.unit)
        join(s.armies[into], f"{e.nation}:{e.kind}")
        if s.battle is not None and e.how == "after":
            s.battle["after_to"][e.side] = e.to_area
        return
    if e.unit in s.armies:
        army = s.armies[e.unit]
        army.area = e.to_area
        army.entrenched = False
        marker = e.unit
    else:
        if e.unit in s.pieces:
            del s.pieces[e.unit]
            marker = e.unit
        else:
            take_piece(s, e.unit)
            marker = e.new_id
        put_piece(s, marker, e.nation, e.kind, e.to_area)
    if s.combat is not None:
        s.combat["markers"].append(marker)
    if s.battle is not None:
        if e.unit in s.armies:
            s.battle["armies_retreated"].append(e.unit)
        if e.how == "instead":
            s.battle["instead"].append(marker)
        elif e.how == "after":
            s.battle["after_to"][e.side] = e.to_area


def _reacts(s: State, e: BiplaneReacts, d: GameData) -> None:
    s.battle["reacting"].append(e.unit)
    if e.on:
        s.battle.setdefault("react_on", {})[e.unit] = e.on


def _battle_ended(s: State, e: BattleEnded, d: GameData) -> None:
    s.combat["resolved"].append(e.area)
    s.battle = None


def _combat_ended(s: State, e: CombatPhaseEnded, d: GameData) -> None:
    s.combat = None
    s.battle = None


BY_TYPE: dict[type, Callable[[State, Any, GameData], None]] = {
    CombatPhaseBegan: _combat_began, BattleDeclared: _declared,
    CombatCardPlayed: _combat_card, BonusDesignated: _bonus,
    OffensiveDowngraded: _downgraded, BattleCancelled: _cancelled,
    BattleBegan: _battle_began, BattleStep: _step, FireResolved: _fired,
    HitsToPay: _to_pay, LossTaken: _loss, HitsLost: _hits_lost, FortDestroyed: _fort_gone,
    UnitRetreated: _retreated, BiplaneReacts: _reacts, BattleEnded: _battle_ended,
    CombatPhaseEnded: _combat_ended,
}

# These move, add and remove no unit: the board stays as it was (evolve.BOARD_AREAS).
NO_UNIT_MOVES = (CombatPhaseBegan, BattleDeclared, CombatCardPlayed, BonusDesignated,
                 OffensiveDowngraded, BattleCancelled, BattleBegan, BattleStep,
                 FireResolved, HitsToPay, BiplaneReacts, BattleEnded,
                 CombatPhaseEnded)
