"""How the log tells sealed plans, supply and the production phase (2.0 I, 2.0 V, 6.5, 7.x),
one function per event kind."""

from __future__ import annotations

from ..base.plurals import counted
from .entrenchnote import NOTE
from .phrases import (
    area,
    box_owner,
    kind_name,
    opened,
    readable_orders,
    revealed_orders,
    side,
    unit_named,
    unprinted,
)

# Imported for annotations only: the quick paths do without the typing module.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..data.gamedata import GameData
    from .phrases import Wording

_PLANS = {"reinforce": "reinforcement placements (2.0 I)",
          "discard_excess": "discards over the card limit (2.0 V.3)"}


# ---------------------------------------------------------------- sealed plans

def _plans_opened(ev: dict, data: GameData, reader: str) -> str:
    """The plans now owed, told as owed: the record opens them, and each side's plan comes
    later (its PlanSealed), so 'German gives sealed discards' read as done before he sent
    them."""
    what = _PLANS.get(ev["kind"], ev["kind"])
    both = len(ev["sides"]) > 1
    return (f"{' and '.join(data.side_name(s) for s in ev['sides'])} "
            f"{'owe' if both else 'owes'} sealed {what}; sealed until "
            f"{'both are' if both else 'it is'} in")


def _plan_sealed(ev: dict, data: GameData, reader: str) -> str:
    e = opened(ev, reader)
    what = "part of a plan" if ev.get("part") else "a plan"
    if e is None or ev.get("revealed_here"):        # its orders told revealed (told_once)
        return f"{side(ev, data)} seals {what}"
    if not e["orders"]:
        return f"{side(ev, data)} adds no orders to the plan"
    if ev.get("orders_above"):      # the record's heading gives them as typed (told_once)
        return f"{side(ev, data)} seals {what}"
    return f"{side(ev, data)} seals {what}: {'; '.join(e['orders'])}"


def _plan_closed(ev: dict, data: GameData, reader: str) -> str:
    return f"{side(ev, data)} plan is complete"


def _plan_revealed(ev: dict, data: GameData, reader: str) -> str:
    return f"{_whose(ev, data)} plan revealed:{revealed_orders(ev, data, reader)}"


def _whose(ev: dict, data: GameData) -> str:
    """'German's' heading a plan told over the events that carried it out (told_once), else
    'German' as a line of its own has said it."""
    return f"{side(ev, data)}'s" if "untold" in ev else side(ev, data)


# ---------------------------------------------------------------- supply (6.5)

def _out_of_supply(ev: dict, data: GameData, reader: str) -> str:
    if not ev["units"]:
        return f"Supply checked (2.0 V.1, 6.2): no {side(ev, data)} unit is out of supply"
    return f"{side(ev, data)} units out of supply (6.5): {', '.join(ev['units'])}"


def _back_in_supply(ev: dict, data: GameData, reader: str) -> str:
    return (f"{side(ev, data)} units in supply again, their OoS markers come off (AAC 1.2.3): "
            f"{', '.join(ev['units'])}")


def _fort_reduced(ev: dict, data: GameData, reader: str) -> str:
    return f"Fort {ev['fort']} out of supply drops to {ev['strength']} (6.5)"


def _attrition_due(ev: dict, data: GameData, reader: str) -> str:
    return (f"{side(ev, data)} unsupplied armies must each lose a unit: "
            f"{', '.join(ev['armies'])} (6.5)")


def _attrition_taken(ev: dict, data: GameData, reader: str) -> str:
    e = opened(ev, reader)
    what = "a unit (which one is hidden, 1.4)" if e is None else kind_name(e["kind"])
    return f"{side(ev, data)} army {ev['army']} loses {what} (out of supply, 6.5)"


# ---------------------------------------------------------------- production (7.x)

def _production_began(ev: dict, data: GameData, reader: str) -> str:
    points = ", ".join(f"{data.side_name(x)} {n}" for x, n in ev["bp"].items())
    return f"Build Points (7.0): {points}; orders are sealed until both sides are done"


def _production_ordered(ev: dict, data: GameData, reader: str) -> str:
    sec = ev.get("secret") or {}
    # A part of the plan its side has not ended in the same record (game/planparts.py).
    what = "part of a production plan (7.0)" if ev.get("part") else \
        "a production plan (7.0)"
    if "data" in sec and reader in ("moderator", sec.get("to")) and \
            not ev.get("revealed_here"):            # its orders told revealed (told_once)
        orders = sec["data"].get("orders")
        if orders is None:
            return f"{side(ev, data)} production order (sealed): {sec['data']['order']}"
        if not orders:      # a 'done' alone: it ends the plan, whatever parts it sealed before
            return f"{side(ev, data)} adds no orders to the production plan (7.0)"
        return f"{side(ev, data)} seals {what}: {'; '.join(readable_orders(orders, data))}"
    if "orders" in (sec.get("data") or {}) or ev.get("secret", {}).get("digest"):
        return f"{side(ev, data)} seals {what}"
    return f"{side(ev, data)} gives a sealed production order"


def _production_done(ev: dict, data: GameData, reader: str) -> str:
    return f"{side(ev, data)} production orders are all in"


def _production_revealed(ev: dict, data: GameData, reader: str) -> str:
    e = ev if ev.get("lost") is not None else opened(ev, reader)
    if e is None or e.get("lost") is None:          # 1.4: what the hidden orders cost
        cost = f"{ev['spent']} BP spent on the orders shown; the rest is hidden, 1.4; 7.0"
    else:
        # The BP left unspent, lost at the phase's end (7.0): not those spent on a card
        # over the card limit, which the plan's costs told lost as well (7.1).
        cost = f"{e['spent']} BP spent, {e['lost']} left unspent and lost, 7.0"
    what = "production plan" if "untold" in ev else "production"
    return f"{_whose(ev, data)} {what} revealed ({cost}):{revealed_orders(ev, data, reader)}"


def _unit_built(ev: dict, data: GameData, reader: str) -> str:
    e = opened(ev, reader)
    if e is None:
        return f"{side(ev, data)} builds a unit into one of his armies (hidden, 1.4)"
    # The army that took the unit, or the unit standing alone under its new id (7.2, 8.1).
    into = f" into army {e['into']}" if e.get("into") else ""
    now = f" ({e['new_id']})" if e.get("new_id") else ""
    return (f"{side(ev, data)} builds {e['unit'].replace(':', ' ')}{now} in "
            f"{area(e['area'], data)}{into} ({e['cost']} BP)")


def _army_rebuilt(ev: dict, data: GameData, reader: str) -> str:
    return (f"{side(ev, data)} rebuilds army {ev['army']}, empty, in "
            f"{area(ev['area'], data)} (7.3)")


def _unit_entrenched(ev: dict, data: GameData, reader: str) -> str:
    note = f": {ev[NOTE]}" if ev.get(NOTE) else ""     # a report's (entrenchnote.py)
    return f"{side(ev, data)} {ev['unit']} entrenches (7.4){note}"


def _infantry_upgraded(ev: dict, data: GameData, reader: str) -> str:
    e = opened(ev, reader)
    if e is None:
        return (f"{side(ev, data)} upgrades an infantry unit in one of his armies to "
                f"Stoßtruppen (7.5; hidden, 1.4)")
    now = f" (now {e['new_id']})" if e.get("new_id") else ""
    return f"{side(ev, data)} {e['unit']}{now} upgraded to Stoßtruppen (7.5)"


def _template_changed(ev: dict, data: GameData, reader: str) -> str:
    e = opened(ev, reader)
    if e is None:
        return (f"{side(ev, data)} builds or upgrades a unit in one of his armies "
                f"(hidden, 1.4)")
    if e.get("build"):
        return _unit_built({**ev, "secret": None, **e["build"]}, data, reader)
    return _infantry_upgraded({**ev, "secret": None, "unit": e["upgrade"]}, data, reader)


# ---------------------------------------------------------------- the EFT box (2.0 V.4)

def _eft_losses_due(ev: dict, data: GameData, reader: str) -> str:
    e = opened(ev, reader)
    value = "units of hidden BP value (1.4)" if e is None else f"{e['bp']} BP of units"
    return (f"EFT box: {value}, {counted(len(ev['dice']), 'die', 'dice')} "
            f"[{' '.join(map(str, ev['dice']))}]: {counted(ev['losses'], 'loss', 'losses')} "
            f"(2.0 V.4)")


def _eft_unit_lost(ev: dict, data: GameData, reader: str) -> str:
    e = opened(ev, reader)
    if e is None:
        return (f"{box_owner(data)} loses a unit of an army in the EFT box (2.0 V.4; hidden, "
                f"1.4)")
    return (f"{box_owner(data)} loses {unit_named(e['unit'], e['kind'], data)} in the EFT "
            f"box (2.0 V.4)")


WORDING: dict[str, Wording] = {
    "PlansOpened": _plans_opened,
    "PlanSealed": _plan_sealed,
    "PlanClosed": _plan_closed,
    "PlanRevealed": _plan_revealed,
    "OutOfSupply": _out_of_supply,
    "BackInSupply": _back_in_supply,
    "FortReduced": _fort_reduced,
    "AttritionDue": _attrition_due,
    "AttritionTaken": _attrition_taken,
    "ProductionBegan": _production_began,
    "ProductionOrdered": _production_ordered,
    "ProductionDone": _production_done,
    "ProductionRevealed": _production_revealed,
    "UnitBuilt": _unit_built,
    "ArmyRebuilt": _army_rebuilt,
    "UnitEntrenched": _unit_entrenched,
    "InfantryUpgraded": _infantry_upgraded,
    "TemplateChanged": _template_changed,
    "EftLossesDue": _eft_losses_due,
    "EftUnitLost": _eft_unit_lost,
    "ProductionEnded": unprinted,
}
