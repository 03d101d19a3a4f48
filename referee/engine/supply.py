"""Supply lines (6.0-6.3, 8.4 note).

A unit is in supply when a line runs from its area, through adjacent
Friendly areas, to a Friendly supply source of its side. No line runs
through an area holding any enemy unit (a 1-strength fort included, 8.4).
A Disputed supply source supplies only the units in it (6.3). ENGLAND is
always in supply (a reconstruction, see games/ttlm/map.yaml).
"""

from __future__ import annotations

from collections import deque

from ..contracts.events_combat import FortDestroyed
from ..contracts.events_map import ArmyEliminated, PieceEliminated
from ..contracts.events_production import (
    AttritionDue,
    AttritionTaken,
    BackInSupply,
    FortReduced,
    OutOfSupply,
)
from ..contracts.orders import Lose
from ..data.gamedata import GameData
from .armies import hidden_templates
from .core import Ctx, DecisionSpec, Violation, finish, prompt, register
from .movement import settle, template_ref
from .state import State, other, template_key


def _enemy_unit_in(state: State, data: GameData, area: str, side: str) -> bool:
    foe = other(side, data)
    return area in _fort_areas(state, data, foe) or state.present(area, foe, data)


def _fort_areas(state: State, data: GameData, side: str) -> frozenset[str]:
    """The areas holding a fort of side's, whatever its strength (once per position)."""
    key = ("fort areas", side)
    got = state._cache.get(key)
    if got is None:
        got = state._cache[key] = frozenset(
            f.area for f in state.forts.values() if data.nation_side[f.nation] == side)
    return got


def supplied_areas(state: State, data: GameData, side: str) -> set[str]:
    """The areas in which side's units are in supply now (6.2, 6.3); worked out once per
    position (evolve clears the state's cache): production asks it for every build it lists."""
    key = ("supplied", side)
    got = state._cache.get(key)
    if got is None:
        got = state._cache[key] = _supplied_areas(state, data, side)
    return got


def source_reach(state: State, data: GameData, area: str) -> str | None:
    """What the supply source in area supplies now (6.1-6.3): 'network', its side's units
    along a line of Friendly areas (its area Friendly and free of enemy units); 'own_area',
    only its side's units in its area (Disputed, or an enemy unit there: 6.3, 8.4); 'none',
    no one (its area held by the other side: neither side draws from it). None: no source."""
    side = data.areas[area].supply_source
    if side is None:
        return None
    status = state.status(area, side, data)
    if status == "friendly" and not _enemy_unit_in(state, data, area, side):
        return "network"
    return "own_area" if status in ("friendly", "disputed") else "none"


def _supplied_areas(state: State, data: GameData, side: str) -> set[str]:
    network: set[str] = set()
    local: set[str] = set()
    start: list[str] = []
    for a in data.map.areas:
        if a.always_supplied:
            local.add(a.id)
        if a.supply_source != side:
            continue
        reach = source_reach(state, data, a.id)
        if reach == "network":
            start.append(a.id)
        elif reach == "own_area":
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


# ---------------------------------------------------------------- V.1 supply (6.0)

def _side_of(s: State, d: GameData, ref: str) -> str | None:
    """The side of an army, unit or fort on the map by its id (None when it is not there)."""
    if ref in s.armies:
        unit = s.armies[ref] if s.armies[ref].status == "map" else None
    elif ref in s.pieces:
        unit = s.pieces[ref] if s.pieces[ref].area in d.areas else None
    else:
        unit = s.forts.get(ref)
    return None if unit is None else d.nation_side[unit.nation]


def check_supply(ctx: Ctx) -> None:
    """Find every unsupplied unit of both sides first, then apply attrition (2.0 V.1, 6.5)."""
    s, d = ctx.state, ctx.data
    found: dict[str, list[str]] = {}
    for side in d.sides:
        ok = supplied_areas(s, d, side)
        units = [a.id for a in sorted(s.armies.values(), key=lambda a: a.id)
                 if a.status == "map" and d.nation_side[a.nation] == side and a.area not in ok]
        units += [p.id for p in sorted(s.pieces.values(), key=lambda p: p.id)
                  if p.area in d.areas and d.nation_side[p.nation] == side and p.area not in ok]
        units += [f.id for f in sorted(s.forts.values(), key=lambda f: f.id)
                  if d.nation_side[f.nation] == side and f.area not in ok]
        found[side] = units
    for side, units in found.items():
        back = [u for u in s.oos if u not in units and _side_of(s, d, u) == side]
        if back:                 # AAC 1.2.3: a marker comes off once its unit is found supplied
            ctx.emit(BackInSupply(side=side, units=back))
        ctx.emit(OutOfSupply(side=side, units=units))     # none: the check said so (6.2)
        if not units:
            continue
        need = []
        for ref in units:
            st = ctx.state
            if ref in st.forts:
                f = st.forts[ref]
                if f.strength <= 1:
                    ctx.emit(FortDestroyed(fort=ref, area=f.area, reason="out of supply at "
                                                                         "strength 1 (6.5)"))
                else:
                    ctx.emit(FortReduced(fort=ref, area=f.area, strength=f.strength - 1))
            elif ref in st.pieces:
                p = st.pieces[ref]
                ctx.emit(PieceEliminated(side=side, unit=ref, nation=p.nation, kind=p.kind,
                                         area=p.area, rule="6.5",
                                         reason="a unit on its own out of supply"))
            else:
                a = st.armies[ref]
                if a.strength <= 1:
                    ctx.emit(ArmyEliminated(side=side, army=ref, area=a.area, rule="6.5",
                                            reason="out of supply with one unit or none"))
                elif _losable(st, d, ref):      # 8.3.6: a gun alone pays no loss
                    need.append(ref)
        if need:
            ctx.emit(AttritionDue(side=side, armies=need))

    settle(ctx, list(d.areas))
    next_attrition(ctx)


def next_attrition(ctx: Ctx) -> None:
    """Take each owed attrition loss, asking the owner where he has a choice (6.5).

    With hidden templates (1.4) he is asked even when the army holds one kind it can lose,
    as a Military Crisis! asks him (crisis.py): whether he is asked must not tell the
    opponent how many kinds a hidden army holds.
    """
    s = ctx.state
    owed = (s.production or {}).get("attrition", {})
    for side in ctx.data.sides:
        for army_id in list(owed.get(side, [])):
            kinds = _losable(ctx.state, ctx.data, army_id)
            if len(kinds) == 1 and not hidden_templates(ctx.state):
                _attrition(ctx, side, army_id, kinds[0])
            else:
                prompt(ctx, "attrition", side)
                return
    finish(ctx, "supply")


def _attrition(ctx: Ctx, side: str, army_id: str, key: str) -> None:
    army = ctx.state.armies[army_id]
    nation, kind = key.split(":")
    if hidden_templates(ctx.state):
        # 1.4: that the army loses a unit is public (6.5), which one is its owner's secret.
        ctx.emit(AttritionTaken(side=side, army=army_id, secret=ctx.secret(side, {
            "unit": template_ref(army, key), "nation": nation, "kind": kind})))
    else:
        ctx.emit(AttritionTaken(side=side, army=army_id, unit=template_ref(army, key),
                                nation=nation, kind=kind))


def _losable(s: State, d: GameData, army_id: str) -> list[str]:
    """The template keys an unsupplied army may lose (6.5): any unit it holds but one that
    cannot be taken as a unit loss (8.3.6: the Paris Gun; units.yaml never_a_loss)."""
    never = d.units.kinds_with("never_a_loss")
    return sorted(k for k, n in s.armies[army_id].contents.items()
                  if n and k.split(":")[1] not in never)


def _attrition_candidates(s: State, d: GameData, side: str):
    for army_id in s.production["attrition"].get(side, []):
        army = s.armies[army_id]
        for key in _losable(s, d, army_id):
            yield Lose(unit=template_ref(army, key))


def _attrition_check(s: State, d: GameData, o: Lose, side: str) -> Violation | None:
    owed = s.production["attrition"].get(side, [])
    army_id = o.unit.split(":")[0]
    if army_id not in owed or ":" not in o.unit:
        return Violation("6.5", f"name a unit of an unsupplied army still to lose one: "
                                f"{', '.join(owed)}")
    key = template_key(s, o.unit)[1]
    if not s.armies[army_id].contents.get(key):
        return Violation("6.5", f"army {army_id} holds no such unit")
    kind = key.split(":")[1]
    if kind in d.units.kinds_with("never_a_loss"):
        rule = d.units.unit_types[kind].rule
        return Violation(rule, f"the {kind.replace('_', ' ').title()} cannot be taken as a unit "
                               f"loss ({rule}); army {army_id} loses one of its other units "
                               f"(6.5)")
    return None


def _attrition_apply(ctx: Ctx, o: Lose, side: str) -> None:
    army_id, key = template_key(ctx.state, o.unit)
    _attrition(ctx, side, army_id, key)
    next_attrition(ctx)


def _attrition_prompt(s: State, d: GameData, own: bool = False) -> str:
    """The owner chooses (6.5): 'your choice' to him alone, his name to every other reader."""
    side = s.pending.side
    whose = "your" if own else f"the {d.side_name(side)} player's"
    return (f"each unsupplied army loses one unit of {whose} choice "
            f"({', '.join(s.production['attrition'][side])}) (2.0 V.1, 6.5)")


register(DecisionSpec(
    kind="attrition", rule="6.5", prompt=_attrition_prompt,
    accepts=("lose",), candidates=_attrition_candidates, check=_attrition_check,
    apply=_attrition_apply, extra={"own_prompt": lambda s, d: _attrition_prompt(s, d, True)}))
