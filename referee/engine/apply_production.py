"""How the events of the production phase change the state (2.0 V, 6.5, 7.0)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..contracts.events_production import (
    ArmyRebuilt,
    AttritionDue,
    AttritionTaken,
    BackInSupply,
    EftLossesDue,
    EftUnitLost,
    FortReduced,
    InfantryUpgraded,
    OutOfSupply,
    ProductionBegan,
    ProductionDone,
    ProductionEnded,
    ProductionOrdered,
    ProductionRevealed,
    TemplateChanged,
    UnitBuilt,
    UnitEntrenched,
)
from ..data.gamedata import GameData
from .apply_units import add_unit, back_to_pool, details, replace_unit, to_pool
from .state import State


def _oos(s: State, e: OutOfSupply, d: GameData) -> None:
    s.production = s.production or {}
    s.production.setdefault("oos", {})[e.side] = list(e.units)
    s.oos = sorted({*s.oos, *e.units})          # each gets an OoS marker (1.2.3, 6.5)


def _back_in_supply(s: State, e: BackInSupply, d: GameData) -> None:
    s.oos = [u for u in s.oos if u not in e.units]


def _fort_reduced(s: State, e: FortReduced, d: GameData) -> None:
    s.forts[e.fort].strength = e.strength


def _attrition_due(s: State, e: AttritionDue, d: GameData) -> None:
    s.production.setdefault("attrition", {})[e.side] = list(e.armies)


def _attrition(s: State, e: AttritionTaken, d: GameData) -> None:
    m = details(e)
    back_to_pool(s, m["unit"], m["nation"], m["kind"])
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
    m = details(e)
    add_unit(s, m["unit"], m["area"], m["into"], e.new_id)


def _rebuilt(s: State, e: ArmyRebuilt, d: GameData) -> None:
    army = s.armies[e.army]
    army.status, army.area, army.entrenched, army.contents = "map", e.area, False, {}


def _entrenched(s: State, e: UnitEntrenched, d: GameData) -> None:
    (s.armies.get(e.unit) or s.pieces[e.unit]).entrenched = True


def _upgraded(s: State, e: InfantryUpgraded, d: GameData) -> None:
    _upgrade(s, details(e)["unit"], e.new_id, d)


def _upgrade(s: State, unit: str, new_id: str | None, d: GameData) -> None:
    replace_unit(s, unit, f"{d.stoss_nation}:stosstruppen", new_id, d)
    to_pool(s, d.stoss_nation, "infantry")


def _template_changed(s: State, e: TemplateChanged, d: GameData) -> None:
    change = e.secret.data
    if change.get("build"):
        m = change["build"]
        add_unit(s, m["unit"], m["area"], m["into"], None)
    else:
        _upgrade(s, change["upgrade"], None, d)


def _eft_due(s: State, e: EftLossesDue, d: GameData) -> None:
    s.production["eft_losses"] = e.losses


def _eft_lost(s: State, e: EftUnitLost, d: GameData) -> None:
    m = details(e)
    back_to_pool(s, m["unit"], m["nation"], m["kind"])
    s.production["eft_losses"] -= 1


def _production_ended(s: State, e: ProductionEnded, d: GameData) -> None:
    s.production = None
    if not d.info.rules.oos_markers_persist:
        s.oos = []               # TTLM: the markers of this Check Supply Status phase come off


BY_TYPE: dict[type, Callable[[State, Any, GameData], None]] = {
    OutOfSupply: _oos, BackInSupply: _back_in_supply, FortReduced: _fort_reduced,
    AttritionDue: _attrition_due, AttritionTaken: _attrition,
    ProductionBegan: _production_began, ProductionOrdered: _ordered,
    ProductionDone: _production_done, ProductionRevealed: _revealed_plan, UnitBuilt: _built,
    ArmyRebuilt: _rebuilt, UnitEntrenched: _entrenched, InfantryUpgraded: _upgraded,
    TemplateChanged: _template_changed,
    EftLossesDue: _eft_due, EftUnitLost: _eft_lost, ProductionEnded: _production_ended,
}

# These move, add and remove no unit: the board stays as it was (evolve.BOARD_AREAS).
NO_UNIT_MOVES = (OutOfSupply, BackInSupply, AttritionDue, ProductionBegan,
                 ProductionOrdered, ProductionDone, ProductionRevealed, UnitEntrenched,
                 EftLossesDue, ProductionEnded)
