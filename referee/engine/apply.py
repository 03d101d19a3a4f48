"""How each event changes the state: the handlers behind events.evolve.

One function per event type, in the order of events.py. They apply facts
and check nothing: legality was settled by decide() before the event was
written.
"""

from __future__ import annotations

import msgspec

from ..data.gamedata import GameData
from .events import (
    HANDLERS,
    AreaControlChanged,
    ArmisticeProposed,
    ArmisticeRefused,
    ArmyEliminated,
    ArmyRebuilt,
    ArmySuppressed,
    AttritionDue,
    AttritionTaken,
    BackInSupply,
    BattleBegan,
    BattleCancelled,
    BattleDeclared,
    BattleEnded,
    BattleStep,
    BecameDisputed,
    BiplaneReacts,
    BonusDesignated,
    CardPlayed,
    CardRemoved,
    CardsDiscarded,
    CardsDrawn,
    CardsStacked,
    CombatCardPlayed,
    CombatPhaseBegan,
    CombatPhaseEnded,
    CommonwealthSwapped,
    CrisisDeclared,
    CrisisEnded,
    CrisisUnitRemoved,
    DecisionPending,
    DecisionSkipped,
    DeckShuffled,
    EftLossesDue,
    EftUnitLost,
    EnemyAreaEntered,
    FireResolved,
    FortDestroyed,
    FortReduced,
    GameEnded,
    HitsLost,
    HitsToPay,
    InfantryUpgraded,
    LossTaken,
    OffensiveDowngraded,
    OutOfSupply,
    Passed,
    PhaseBegan,
    PieceEliminated,
    PlayerTurnBegan,
    PlayerTurnEnded,
    ProductionBegan,
    ProductionDone,
    ProductionEnded,
    ProductionOrdered,
    ProductionRevealed,
    ReinforcementLost,
    ReinforcementsDue,
    RulesUpgraded,
    SeasonAdvanced,
    SecretRevealed,
    StandingApplied,
    UnitBuilt,
    UnitEntrenched,
    UnitMoved,
    UnitPlaced,
    UnitRetreated,
)
from .state import Decision, Piece, State, TurnState, template_key


def _phase(s: State, e: PhaseBegan, d: GameData) -> None:
    s.phase = e.phase
    s.turn = e.turn
    if e.phase != "player_turn":
        s.player = None
        s.turn_state = None
    if e.phase == "reinforcements":
        s.consecutive_passes = 0
    if e.phase == "production":
        s.production = {}


def _turn_began(s: State, e: PlayerTurnBegan, d: GameData) -> None:
    s.phase = "player_turn"
    s.player = e.side
    # 2.0 II.1: cards drawn after a pass discard are playable from the next player turn on.
    s.locked = {side: [] for side in (*s.locked, e.side)}
    s.turn_state = TurnState(side=e.side, friendly_at_start=[
        a for a in d.areas if s.control.get(a) == e.side and not s.disputed(a, d)])


def _passed(s: State, e: Passed, d: GameData) -> None:
    s.turn_state.mode = "pass"


def _turn_ended(s: State, e: PlayerTurnEnded, d: GameData) -> None:
    s.consecutive_passes = s.consecutive_passes + 1 if e.counts_as_pass else 0
    s.turn_state = None


def _season(s: State, e: SeasonAdvanced, d: GameData) -> None:
    s.turn = e.turn


def _pending(s: State, e: DecisionPending, d: GameData) -> None:
    s.pending = Decision(e.kind, e.side, dict(e.info))


def _skipped(s: State, e: DecisionSkipped, d: GameData) -> None:
    """Nothing changes: the events that follow carry the skipped decision's answer."""


def _standing(s: State, e: StandingApplied, d: GameData) -> None:
    """Nothing changes: the events that follow carry the standing answer."""


def _ended(s: State, e: GameEnded, d: GameData) -> None:
    s.phase = "over"
    s.pending = None
    s.result = {"reason": e.reason, "vp": e.vp, "level": e.level, "level_name": e.level_name}


def _shuffled(s: State, e: DeckShuffled, d: GameData) -> None:
    order = e.secret.data["order"]
    s.draw_pile = list(order)
    shuffled = set(order)
    s.discard = [c for c in s.discard if c not in shuffled]


def _stacked(s: State, e: CardsStacked, d: GameData) -> None:
    s.draw_pile[:0] = e.secret.data["cards"]


def _drawn(s: State, e: CardsDrawn, d: GameData) -> None:
    cards = e.secret.data["cards"]
    del s.draw_pile[:len(cards)]
    s.hands.setdefault(e.side, []).extend(cards)
    if e.locked:
        s.locked.setdefault(e.side, []).extend(cards)


def _played(s: State, e: CardPlayed, d: GameData) -> None:
    s.hands[e.side].remove(e.card)
    s.discard.append(e.card)
    ts = s.turn_state
    if ts is not None and ts.side == e.side:
        ts.cards_played += 1
        if e.as_ in ("offensive", "limited_offensive") or d.cards[e.card].offensive and \
                e.as_ == e.key:
            ts.card = e.card
            ts.card_as = e.as_
            ts.mode = "limited" if e.as_ == "limited_offensive" else "offensive"


def _discarded(s: State, e: CardsDiscarded, d: GameData) -> None:
    for c in e.cards:
        s.hands[e.side].remove(c)
        s.discard.append(c)
    if e.reason == "pass" and s.turn_state is not None:
        s.turn_state.discarded = True


def _removed(s: State, e: CardRemoved, d: GameData) -> None:
    if e.card in s.discard:
        s.discard.remove(e.card)
    s.removed_cards.append(e.card)


def _upgraded_rules(s: State, e: RulesUpgraded, d: GameData) -> None:
    """The rules and data the next records are decided under change; the position does not."""


def _revealed(s: State, e: SecretRevealed, d: GameData) -> None:
    s.revealed = True        # the dice are predictable now: no order is taken any more


def _take_piece(s: State, ref: str) -> None:
    """Remove a stand-alone piece, or one unit from an army template (ARMY:nation:kind)."""
    if ref in s.pieces:
        del s.pieces[ref]
        return
    army, key = template_key(s, ref)
    contents = s.armies[army].contents
    contents[key] -= 1
    if not contents[key]:
        del contents[key]


def _join(army, key: str, n: int = 1) -> None:
    """Put n units of a kind on an army's template."""
    army.contents[key] = army.contents.get(key, 0) + n


def _put_piece(s: State, pid: str, nation: str, kind: str, area: str,
               entrenched: bool = False) -> None:
    """Stand a unit alone on the map; ids are never reused, so the serial follows the id."""
    s.pieces[pid] = Piece(pid, nation, kind, area, entrenched)
    prefix, _, num = pid.rpartition("-")
    if num.isdigit():
        s.serial[prefix] = max(s.serial.get(prefix, 0), int(num))


def _replace_unit(s: State, ref: str, key: str, new_id: str | None, d: GameData) -> None:
    """A unit of another kind (from the pool) takes the place of ref, alone or on its template."""
    nation, kind = key.split(":")
    if ref in s.pieces:
        old = s.pieces.pop(ref)
        _put_piece(s, new_id, nation, kind, old.area,
                   old.entrenched and kind in d.units.entrenching)
    else:
        army_id, _ = template_key(s, ref)
        _take_piece(s, ref)
        _join(s.armies[army_id], key)
    s.pool[nation][kind] -= 1


def _details(e) -> dict:
    """An event's details: from its secret part when it has one (hidden templates, 1.4)."""
    return e.secret.data if e.secret is not None else msgspec.structs.asdict(e)


def _moved(s: State, e: UnitMoved, d: GameData) -> None:
    m = _details(e)
    unit, into, ts = m["unit"], m["into"], s.turn_state
    if unit in s.armies:
        army = s.armies[unit]
        if e.mode == "eft":
            army.status = "eft" if e.to_area == "eft" else "map"
            army.area = None if e.to_area == "eft" else e.to_area
        else:
            army.area = e.to_area
        for pid in m["taking"]:
            p = s.pieces.pop(pid)
            key = f"{p.nation}:{p.kind}"
            _join(army, key)
        army.entrenched = e.entrenched
        moved = unit
    else:
        if unit in s.pieces:
            piece = s.pieces[unit]
            nation, kind = piece.nation, piece.kind
        else:
            nation, kind = template_key(s, unit)[1].split(":")
        _take_piece(s, unit)
        if into:
            _join(s.armies[into], f"{nation}:{kind}")
            moved = None
            if ts is not None:
                ts.received.append(into)
                onto = ts.joined.setdefault(into, {})
                onto[f"{nation}:{kind}"] = onto.get(f"{nation}:{kind}", 0) + 1
        else:
            new_id = m["new_id"] or unit
            _put_piece(s, new_id, nation, kind, e.to_area, e.entrenched)
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


def _to_pool(s: State, nation: str, kind: str, n: int = 1) -> None:
    row = s.pool.setdefault(nation, {})
    row[kind] = row.get(kind, 0) + n


def _piece_gone(s: State, e: PieceEliminated, d: GameData) -> None:
    m = _details(e)
    _take_piece(s, m["unit"])
    _to_pool(s, m["nation"], m["kind"])
    _unmark(s, m["unit"])


def _army_gone(s: State, e: ArmyEliminated, d: GameData) -> None:
    army = s.armies[e.army]
    _unmark(s, e.army)
    for key, n in army.contents.items():
        nation, kind = key.split(":")
        _to_pool(s, nation, kind, n)
    if s.battle is not None and e.rule == "5.4":     # for a forced retreat it could not make
        s.battle["forced_out"] = s.battle.get("forced_out", 0) + 1
    army.contents = {}
    army.status = "eliminated"
    army.area = None
    army.entrenched = False


def _suppressed(s: State, e: ArmySuppressed, d: GameData) -> None:
    army = s.armies[e.army]
    into = _details(e)["into"]
    if into:
        target = s.armies[into]
        for key, n in army.contents.items():
            _join(target, key, n)
    else:
        for pid, key in e.new_ids.items():
            nation, kind = key.split(":")
            _put_piece(s, pid, nation, kind, e.area,
                       army.entrenched and kind in d.units.entrenching)
    army.contents = {}
    army.status = "suppressed"
    _unmark(s, e.army)
    army.area = None
    army.entrenched = False
    s.suppressed_turn[e.side] = s.turn


def _crisis(s: State, e: CrisisDeclared, d: GameData) -> None:
    s.crisis = {"side": e.side, "target": e.target, "card": e.card, "name": e.name,
                "count": e.count, "left": e.count, "nations": list(e.nations),
                "kinds": list(e.kinds), "resume": e.resume}


def _crisis_unit(s: State, e: CrisisUnitRemoved, d: GameData) -> None:
    m = _details(e)
    _take_piece(s, m["unit"])
    _to_pool(s, m["nation"], m["kind"])
    s.crisis["left"] -= 1


def _crisis_end(s: State, e: CrisisEnded, d: GameData) -> None:
    if not e.answered:          # the card's unpaid_vp, counted for the side that failed (3.1)
        key = f"{e.side}_crisis_unpaid"
        ct = d.cards.get(s.crisis["card"])
        s.vp_adjust[key] = s.vp_adjust.get(key, 0) + abs(ct.unpaid_vp if ct and ct.unpaid_vp
                                                         is not None else 1)
    s.crisis = None


def _combat_began(s: State, e: CombatPhaseBegan, d: GameData) -> None:
    s.combat = {"attacker": e.side, "compulsory": list(e.compulsory),
                "declared": list(e.compulsory), "resolved": [], "cancelled": [],
                "cards": [], "weather": False, "bonus": [], "markers": []}


def _declared(s: State, e: BattleDeclared, d: GameData) -> None:
    s.combat["declared"].append(e.area)


def _combat_card(s: State, e: CombatCardPlayed, d: GameData) -> None:
    s.hands[e.side].remove(e.card)
    s.discard.append(e.card)
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
        s.discard.append(e.card)
    elif e.how == "fort":
        fort = s.forts[e.unit]
        fort.strength -= 1
    else:
        _take_piece(s, e.unit)
        _to_pool(s, e.nation, e.kind)
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
    _unmark(s, e.fort)
    s.removed_forts.append(e.fort)


def _retreated(s: State, e: UnitRetreated, d: GameData) -> None:
    into = _details(e).get("into")
    if into is not None:
        # 8.1: it joined an army there; it takes no part in a battle this phase (5.4),
        # for it may join only an army with no battle still to fight.
        _take_piece(s, e.unit)
        _join(s.armies[into], f"{e.nation}:{e.kind}")
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
            _take_piece(s, e.unit)
            marker = e.new_id
        _put_piece(s, marker, e.nation, e.kind, e.to_area)
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
    m = _details(e)
    _drop_arrival(s, e.side, m["unit"])
    if ":" not in m["unit"]:
        army = s.armies[m["unit"]]
        army.status, army.area, army.entrenched, army.contents = "map", m["area"], False, {}
        return
    _add_unit(s, m["unit"], m["area"], m["into"], e.new_id)


def _add_unit(s: State, key: str, area: str, into: str | None, new_id: str | None) -> None:
    nation, kind = key.split(":")
    s.pool[nation][kind] -= 1
    if into:
        _join(s.armies[into], key)
    else:
        _put_piece(s, new_id, nation, kind, area)


def _lost_arrival(s: State, e: ReinforcementLost, d: GameData) -> None:
    _drop_arrival(s, e.side, e.unit)


def _swapped(s: State, e: CommonwealthSwapped, d: GameData) -> None:
    due = s.swaps_due.get(e.side, [])
    if due:
        due.pop(0)
    m = _details(e)
    if m["replaced"] is None:
        return
    s.swapped.append(e.unit)
    nation = d.commonwealth_nation
    _replace_unit(s, m["replaced"], f"{nation}:commonwealth", m["new_id"], d)
    _to_pool(s, nation, "infantry")


def _oos(s: State, e: OutOfSupply, d: GameData) -> None:
    s.production = s.production or {}
    s.production.setdefault("oos", {})[e.side] = list(e.units)
    s.oos = sorted({*s.oos, *e.units})          # each gets an OoS marker (1.2.3, 6.5)


def _back_in_supply(s: State, e: BackInSupply, d: GameData) -> None:
    s.oos = [u for u in s.oos if u not in e.units]


def _unmark(s: State, unit: str) -> None:
    """An eliminated unit's OoS marker comes off with it (AAC 1.2.3)."""
    if unit in s.oos:
        s.oos.remove(unit)


def _fort_reduced(s: State, e: FortReduced, d: GameData) -> None:
    s.forts[e.fort].strength = e.strength


def _attrition_due(s: State, e: AttritionDue, d: GameData) -> None:
    s.production.setdefault("attrition", {})[e.side] = list(e.armies)


def _attrition(s: State, e: AttritionTaken, d: GameData) -> None:
    m = _details(e)
    _take_piece(s, m["unit"])
    _to_pool(s, m["nation"], m["kind"])
    s.production["attrition"][e.side].remove(e.army)


def _production_began(s: State, e: ProductionBegan, d: GameData) -> None:
    s.production = s.production or {}
    s.production.update({"bp": dict(e.bp), "plans": {x: [] for x in d.sides},
                         "done": [], "revealed": False})


def _ordered(s: State, e: ProductionOrdered, d: GameData) -> None:
    data = e.secret.data
    if "orders" in data:                        # one sealed plan (7.0)
        s.production["plans"][e.side].extend(data["orders"])
    else:
        s.production["plans"][e.side].append(data["order"])


def _production_done(s: State, e: ProductionDone, d: GameData) -> None:
    s.production["done"].append(e.side)


def _revealed_plan(s: State, e: ProductionRevealed, d: GameData) -> None:
    s.production["revealed"] = True


def _built(s: State, e: UnitBuilt, d: GameData) -> None:
    m = _details(e)
    _add_unit(s, m["unit"], m["area"], m["into"], e.new_id)


def _rebuilt(s: State, e: ArmyRebuilt, d: GameData) -> None:
    army = s.armies[e.army]
    army.status, army.area, army.entrenched, army.contents = "map", e.area, False, {}


def _entrenched(s: State, e: UnitEntrenched, d: GameData) -> None:
    (s.armies.get(e.unit) or s.pieces[e.unit]).entrenched = True


def _upgraded(s: State, e: InfantryUpgraded, d: GameData) -> None:
    _replace_unit(s, _details(e)["unit"], f"{d.stoss_nation}:stosstruppen", e.new_id, d)
    _to_pool(s, d.stoss_nation, "infantry")


def _eft_due(s: State, e: EftLossesDue, d: GameData) -> None:
    s.production["eft_losses"] = e.losses


def _eft_lost(s: State, e: EftUnitLost, d: GameData) -> None:
    m = _details(e)
    _take_piece(s, m["unit"])
    _to_pool(s, m["nation"], m["kind"])
    s.production["eft_losses"] -= 1


def _production_ended(s: State, e: ProductionEnded, d: GameData) -> None:
    s.production = None
    if not d.info.rules.oos_markers_persist:
        s.oos = []               # TTLM: the markers of this Check Supply Status phase come off


def _proposed(s: State, e: ArmisticeProposed, d: GameData) -> None:
    s.armistice = e.side


def _refused(s: State, e: ArmisticeRefused, d: GameData) -> None:
    s.armistice = None


def _plans_opened(s: State, e, d: GameData) -> None:
    s.sealed = {"kind": e.kind, "plans": {side: [] for side in e.sides}, "done": []}


def _plan_sealed(s: State, e, d: GameData) -> None:
    s.sealed["plans"][e.side].extend(e.secret.data["orders"])


def _plan_closed(s: State, e, d: GameData) -> None:
    s.sealed["done"].append(e.side)


def _plan_revealed(s: State, e, d: GameData) -> None:
    s.sealed = None


HANDLERS.update({
    "PhaseBegan": _phase, "PlayerTurnBegan": _turn_began, "Passed": _passed,
    "PlayerTurnEnded": _turn_ended, "SeasonAdvanced": _season, "DecisionPending": _pending,
    "DecisionSkipped": _skipped,
    "StandingApplied": _standing,
    "GameEnded": _ended, "DeckShuffled": _shuffled, "CardsStacked": _stacked,
    "CardsDrawn": _drawn,
    "CardPlayed": _played, "CardsDiscarded": _discarded, "CardRemoved": _removed,
    "SecretRevealed": _revealed, "RulesUpgraded": _upgraded_rules, "UnitMoved": _moved,
    "AreaControlChanged": _control,
    "BecameDisputed": _disputed, "EnemyAreaEntered": _entered, "PieceEliminated": _piece_gone,
    "ArmyEliminated": _army_gone, "ArmySuppressed": _suppressed, "CrisisDeclared": _crisis,
    "CrisisUnitRemoved": _crisis_unit, "CrisisEnded": _crisis_end,
    "CombatPhaseBegan": _combat_began, "BattleDeclared": _declared,
    "CombatCardPlayed": _combat_card, "BonusDesignated": _bonus,
    "OffensiveDowngraded": _downgraded, "BattleCancelled": _cancelled,
    "BattleBegan": _battle_began, "BattleStep": _step, "FireResolved": _fired,
    "HitsToPay": _to_pay, "LossTaken": _loss, "HitsLost": _hits_lost,
    "FortDestroyed": _fort_gone, "UnitRetreated": _retreated, "BiplaneReacts": _reacts,
    "BattleEnded": _battle_ended, "CombatPhaseEnded": _combat_ended,
    "ReinforcementsDue": _due, "UnitPlaced": _placed, "ReinforcementLost": _lost_arrival,
    "CommonwealthSwapped": _swapped, "OutOfSupply": _oos, "FortReduced": _fort_reduced,
    "BackInSupply": _back_in_supply,
    "AttritionDue": _attrition_due, "AttritionTaken": _attrition,
    "ProductionBegan": _production_began, "ProductionOrdered": _ordered,
    "ProductionDone": _production_done, "ProductionRevealed": _revealed_plan,
    "UnitBuilt": _built, "ArmyRebuilt": _rebuilt, "UnitEntrenched": _entrenched,
    "InfantryUpgraded": _upgraded, "EftLossesDue": _eft_due, "EftUnitLost": _eft_lost,
    "ProductionEnded": _production_ended, "ArmisticeProposed": _proposed,
    "ArmisticeRefused": _refused, "PlansOpened": _plans_opened, "PlanSealed": _plan_sealed,
    "PlanClosed": _plan_closed, "PlanRevealed": _plan_revealed,
})

