"""How the events of units on the map change the state: moves, eliminations, crises, arrivals."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..contracts.events_map import (
    AreaControlChanged,
    ArmyEliminated,
    ArmySuppressed,
    BecameDisputed,
    CommonwealthSwapped,
    CrisisDeclared,
    CrisisEnded,
    CrisisUnitRemoved,
    EnemyAreaEntered,
    PieceEliminated,
    ReinforcementLost,
    ReinforcementsDue,
    UnitMoved,
    UnitPlaced,
)
from ..data.gamedata import GameData
from .apply_units import (
    add_unit,
    back_to_pool,
    details,
    join,
    put_piece,
    replace_unit,
    take_piece,
    to_pool,
    unmark,
)
from .state import State, template_key


def _moved(s: State, e: UnitMoved, d: GameData) -> None:
    # Its details from its secret part when it has one (hidden templates, 1.4), else its own
    # fields as they are, not a dict of all of them (details): a cold read of a campaign
    # replays some 1,900 moves.
    m = e.secret.data if e.secret is not None else None
    unit, into = (m["unit"], m["into"]) if m is not None else (e.unit, e.into)
    ts = s.turn_state
    if unit in s.armies:
        army = s.armies[unit]
        if e.mode == "eft":
            into_box = e.to_area == d.eft_box.id
            army.status = "eft" if into_box else "map"
            army.area = None if into_box else e.to_area
        else:
            army.area = e.to_area
        for pid in m["taking"] if m is not None else e.taking:
            p = s.pieces.pop(pid)
            key = f"{p.nation}:{p.kind}"
            join(army, key)
        army.entrenched = e.entrenched
        moved = unit
    else:
        if unit in s.pieces:
            piece = s.pieces[unit]
            nation, kind = piece.nation, piece.kind
        else:
            nation, kind = template_key(s, unit)[1].split(":")
        take_piece(s, unit)
        if into:
            join(s.armies[into], f"{nation}:{kind}")
            moved = None
            if ts is not None:
                ts.received.append(into)
                onto = ts.joined.setdefault(into, {})
                onto[f"{nation}:{kind}"] = onto.get(f"{nation}:{kind}", 0) + 1
        else:
            new_id = (m["new_id"] if m is not None else e.new_id) or unit
            put_piece(s, new_id, nation, kind, e.to_area, e.entrenched)
            moved = new_id
    if e.from_area == d.sea_home and e.to_area != d.sea_home:
        s.keep_apart = {k: v for k, v in s.keep_apart.items() if unit not in (k, v)}
    if ts is not None and e.mode != "scramble":     # 13.7: the defender's shift, not a move
        if moved is not None:
            ts.moved.append(moved)
        if e.mode == "reserves":
            ts.reserves_moves += 1
        else:
            ts.moves += 1
        if e.mode == "rail":
            ts.rail += 1
        elif e.mode == "strategic":
            ts.strategic += 1
        elif e.mode == "sea":
            ts.sea += 1


def _control(s: State, e: AreaControlChanged, d: GameData) -> None:
    s.control[e.area] = e.control


def _disputed(s: State, e: BecameDisputed, d: GameData) -> None:
    if s.turn_state is not None and e.area not in s.turn_state.became_disputed:
        s.turn_state.became_disputed.append(e.area)


def _entered(s: State, e: EnemyAreaEntered, d: GameData) -> None:
    if s.turn_state is not None and e.area not in s.turn_state.enemy_entered:
        s.turn_state.enemy_entered.append(e.area)


def _piece_gone(s: State, e: PieceEliminated, d: GameData) -> None:
    m = details(e)
    back_to_pool(s, m["unit"], m["nation"], m["kind"])
    unmark(s, m["unit"])


def _army_gone(s: State, e: ArmyEliminated, d: GameData) -> None:
    army = s.armies[e.army]
    unmark(s, e.army)
    for key, n in army.contents.items():
        nation, kind = key.split(":")
        to_pool(s, nation, kind, n)
    if s.battle is not None and e.rule == "5.4":     # for a forced retreat it could not make
        s.battle["forced_out"] = s.battle.get("forced_out", 0) + 1
    army.contents = {}
    army.status = "eliminated"
    army.area = None
    army.entrenched = False


def _suppressed(s: State, e: ArmySuppressed, d: GameData) -> None:
    army = s.armies[e.army]
    into = details(e)["into"]
    if into:
        target = s.armies[into]
        for key, n in army.contents.items():
            join(target, key, n)
    else:
        for pid, key in e.new_ids.items():
            nation, kind = key.split(":")
            put_piece(s, pid, nation, kind, e.area,
                      army.entrenched and kind in d.units.entrenching)
    army.contents = {}
    army.status = "suppressed"
    unmark(s, e.army)
    army.area = None
    army.entrenched = False
    s.suppressed_turn[e.side] = s.turn


def _crisis(s: State, e: CrisisDeclared, d: GameData) -> None:
    s.crisis = {"side": e.side, "target": e.target, "card": e.card, "name": e.name,
                "count": e.count, "left": e.count, "nations": list(e.nations),
                "kinds": list(e.kinds), "resume": e.resume,
                "resume_side": e.resume_side or e.side}


def _crisis_unit(s: State, e: CrisisUnitRemoved, d: GameData) -> None:
    m = details(e)
    back_to_pool(s, m["unit"], m["nation"], m["kind"])
    s.crisis["left"] -= 1


def _crisis_end(s: State, e: CrisisEnded, d: GameData) -> None:
    if not e.answered:          # the card's unpaid_vp, counted for the side that failed (3.1)
        key = f"{e.side}_crisis_unpaid"
        ct = d.cards.get(s.crisis["card"])
        s.vp_adjust[key] = s.vp_adjust.get(key, 0) + abs(ct.unpaid_vp if ct and ct.unpaid_vp
                                                         is not None else 1)
    s.crisis = None


def _due(s: State, e: ReinforcementsDue, d: GameData) -> None:
    s.arrivals[e.side] = [dict(i) for i in e.items]
    s.swaps_due[e.side] = [dict(i) for i in e.swaps]


def _drop_arrival(s: State, side: str, unit: str) -> None:
    items = s.arrivals.get(side, [])
    for i, item in enumerate(items):
        if item["unit"] == unit:
            del items[i]
            return


def _placed(s: State, e: UnitPlaced, d: GameData) -> None:
    m = details(e)
    _drop_arrival(s, e.side, m["unit"])
    if ":" not in m["unit"]:
        army = s.armies[m["unit"]]
        army.status, army.area, army.entrenched, army.contents = "map", m["area"], False, {}
        return
    add_unit(s, m["unit"], m["area"], m["into"], e.new_id)


def _lost_arrival(s: State, e: ReinforcementLost, d: GameData) -> None:
    _drop_arrival(s, e.side, e.unit)


def _swapped(s: State, e: CommonwealthSwapped, d: GameData) -> None:
    due = s.swaps_due.get(e.side, [])
    if due:
        due.pop(0)
    m = details(e)
    if m["replaced"] is None:
        return
    s.swapped.append(e.unit)
    nation = d.commonwealth_nation
    replace_unit(s, m["replaced"], f"{nation}:commonwealth", m["new_id"], d)
    to_pool(s, nation, "infantry")


BY_TYPE: dict[type, Callable[[State, Any, GameData], None]] = {
    UnitMoved: _moved, AreaControlChanged: _control, BecameDisputed: _disputed,
    EnemyAreaEntered: _entered, PieceEliminated: _piece_gone, ArmyEliminated: _army_gone,
    ArmySuppressed: _suppressed, CrisisDeclared: _crisis, CrisisUnitRemoved: _crisis_unit,
    CrisisEnded: _crisis_end, ReinforcementsDue: _due, UnitPlaced: _placed,
    ReinforcementLost: _lost_arrival, CommonwealthSwapped: _swapped,
}


def _moved_areas(s: State, e: UnitMoved, d: GameData) -> set | None:
    """The areas whose units a move changes: where it goes, where the unit, the army whose
    template it leaves, the pieces it takes along and the army it joins stand before it;
    None (the whole board again) when the state does not hold them."""
    m = e.secret.data if e.secret is not None else None     # as _moved reads them
    unit, into, taking = (m.get("unit"), m.get("into"), m.get("taking")) if m is not None \
        else (e.unit, e.into, e.taking)
    areas = {e.from_area, e.to_area}
    holder = s.armies.get(unit) or s.pieces.get(unit)
    if holder is None and isinstance(unit, str) and ":" in unit:
        holder = s.armies.get(unit.partition(":")[0])
    joined = s.armies.get(into) if into else None
    taken = [s.pieces.get(pid) for pid in taking or ()]
    if holder is None or into and joined is None or None in taken:
        return None
    areas.update(x.area for x in (holder, joined, *taken) if x is not None)
    return areas


# These move, add and remove no unit: the board stays as it was (evolve.BOARD_AREAS).
NO_UNIT_MOVES = (AreaControlChanged, BecameDisputed, EnemyAreaEntered,
                 CrisisDeclared, CrisisEnded, ReinforcementsDue)
BOARD_AREAS = {UnitMoved: _moved_areas}
