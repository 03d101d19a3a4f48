"""How the log tells movement, area control, units leaving the map outside a battle and
reinforcements (4.x, 8.1, 15.4.1, 2.0 I, 8.2.3), one function per event kind."""

from __future__ import annotations

from ..base.plurals import a_or_an
from .phrases import area, kind_name, opened, side, unprinted

# Imported for annotations only: the quick paths do without the typing module.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..data.gamedata import GameData
    from .phrases import Wording

_MODES = {"normal": "moves", "rail": "moves by rail (4.4)",
          "strategic": "moves strategically (4.5)", "sea": "crosses by sea (4.6)",
          "reserves": "moves with Strategic Reserves! (9.6)",
          "evacuate": "is evacuated by sea (14.2.4)",
          "reorganise": "is reorganised within its area (8.1)",
          "scramble": "scrambles (13.7)"}


# ---------------------------------------------------------------- movement

def _mode(ev: dict, data: GameData) -> str:
    if ev["mode"] == "eft":
        into = data.eft_box is not None and ev["to_area"] == data.eft_box.id
        return ("moves " + ("into" if into else "out of") +
                " the Eastern Front Transit box")
    return _MODES[ev["mode"]]


def _route(ev: dict, data: GameData) -> str:
    return " - ".join(area(a, data) for a in ev.get("path", []))


def _hidden_move(ev: dict, data: GameData, mode: str) -> str:
    """A move whose details are kept from the reader (1.4): an army's move is public, what
    it takes in is not; a unit's move between templates is not at all; a unit scrambling
    out of an army moves in public, the army it left is not (13.7)."""
    if ev["mode"] == "scramble":
        return (f"{side(ev, data)} scrambles a unit from one of his armies (13.7): "
                f"{area(ev['from_area'], data)} - {_route(ev, data)} (hidden, 1.4)")
    if ev.get("unit"):
        dug = " (entrenched, 4.3)" if ev.get("entrenched") else ""
        return (f"{side(ev, data)} {ev['unit']} {mode}: {area(ev['from_area'], data)} - "
                f"{_route(ev, data)}, taking in units standing there (hidden, 1.4){dug}")
    return (f"{side(ev, data)} moves a unit between army templates in "
            f"{area(ev['to_area'], data)} (hidden, 1.4)")


def _unit_moved(ev: dict, data: GameData, reader: str) -> str:
    mode = _mode(ev, data)
    details = ev
    sec = ev.get("secret")
    if isinstance(sec, dict):
        if "data" not in sec or reader not in ("moderator", sec.get("to")):
            return _hidden_move(ev, data, mode)
        details = sec["data"]
    what = details.get("unit")
    if details.get("from_army"):
        what = f"{kind_name(details['kind'])} from {details['from_army']}"
        if details.get("new_id"):
            what += f" (now {details['new_id']})"
    route = _route(ev, data)
    text = f"{side(ev, data)} {what} {mode}"
    if route:
        text += f": {area(ev['from_area'], data)} - {route}"
    if details.get("into"):
        text += f", into {details['into']}"
    if details.get("taking"):
        text += f", taking in {', '.join(details['taking'])}"
    if ev.get("entrenched"):
        text += " (entrenched, 4.3)"
    return text


# ---------------------------------------------------------------- area control (4.1, 5.1.1)

def _area_control_changed(ev: dict, data: GameData, reader: str) -> str:
    who = data.side_name(ev["control"]) if ev["control"] else "nobody"
    return f"{area(ev['area'], data)} is now {who}-Friendly (4.1)"


def _became_disputed(ev: dict, data: GameData, reader: str) -> str:
    if ev.get("lost_alone"):
        # 8.3.2-8.3.6: what entered cannot stay alone, so the battle may never come.
        return (f"{area(ev['area'], data)} is now Disputed (5.1.1), but what entered cannot "
                f"stay there alone: without Friendly infantry-type units it is eliminated "
                f"at the end of the Movement phase ({ev['lost_alone']}), and a battle is "
                f"fought there only if other units of its side are there then")
    return (f"{area(ev['area'], data)} is now Disputed: a battle must be fought there "
            f"(5.1.1)")


# ---------------------------------------------------------------- units leaving the map

def _piece_eliminated(ev: dict, data: GameData, reader: str) -> str:
    e = opened(ev, reader)
    if e is None:
        return f"{side(ev, data)} loses a unit from one of his armies (hidden, 1.4)"
    return (f"{side(ev, data)} {kind_name(e['kind'])} {e['unit']} in "
            f"{area(e['area'], data)} eliminated: {e['reason']} ({e['rule']})")


def _army_eliminated(ev: dict, data: GameData, reader: str) -> str:
    return (f"{side(ev, data)} army {ev['army']} in {area(ev['area'], data)} eliminated: "
            f"{ev['reason']} ({ev['rule']})")


def _army_suppressed(ev: dict, data: GameData, reader: str) -> str:
    e = opened(ev, reader)
    where = "in another army there (hidden, 1.4)" if e is None else \
        f"into {e['into']}" if e.get("into") else \
        f"standing alone as {', '.join(e['new_ids'])}"
    return (f"{side(ev, data)} suppresses army {ev['army']} in {area(ev['area'], data)}; its "
            f"units stay, {where} (15.4.1)")


# ---------------------------------------------------------------- reinforcements (2.0 I)

def _reinforcements_due(ev: dict, data: GameData, reader: str) -> str:
    items = ", ".join(i["unit"].replace(":", " ") for i in ev["items"]) or "nothing"
    swaps = "; the " + ", ".join(sw["name"] for sw in ev.get("swaps", [])) + \
        " unit swaps in (8.2.3)" if ev.get("swaps") else ""
    return f"{side(ev, data)} reinforcements (2.0 I): {items}{swaps}"


def _unit_placed(ev: dict, data: GameData, reader: str) -> str:
    e = opened(ev, reader)
    if e is None:
        return f"{side(ev, data)} places a reinforcement into one of his armies (hidden, 1.4)"
    if ":" not in e["unit"]:            # an army's counter arrives (2.0 I)
        return f"{side(ev, data)} places army {e['unit']} in {area(e['area'], data)}"
    # The army that took the unit, or the unit standing alone under its new id (8.1).
    into = f" into army {e['into']}" if e.get("into") else ""
    now = f" as {e['new_id']}" if e.get("new_id") else ""
    return (f"{side(ev, data)} places {e['unit'].replace(':', ' ')}{now} in "
            f"{area(e['area'], data)}{into}")


def _reinforcement_lost(ev: dict, data: GameData, reader: str) -> str:
    return (f"{side(ev, data)} reinforcement {ev['unit'].replace(':', ' ')} does not arrive: "
            f"{ev['reason']}")


def _commonwealth_swapped(ev: dict, data: GameData, reader: str) -> str:
    e = opened(ev, reader)
    nation = (data.commonwealth_nation or "").upper()
    if e is None:
        return (f"The {ev['name']} unit takes the place of {a_or_an(nation)} infantry unit "
                f"in one of the {side(ev, data)} armies (8.2.3; hidden, 1.4)")
    if not e.get("replaced"):
        return (f"The {ev['name']} swap does not take place: no {nation} infantry on the map "
                f"(8.2.3)")
    return (f"The {ev['name']} unit takes the place of {e['replaced']} in "
            f"{area(e['area'], data)} (8.2.3)")


WORDING: dict[str, Wording] = {
    "UnitMoved": _unit_moved,
    "AreaControlChanged": _area_control_changed,
    "BecameDisputed": _became_disputed,
    "EnemyAreaEntered": unprinted,          # BecameDisputed tells it
    "PieceEliminated": _piece_eliminated,
    "ArmyEliminated": _army_eliminated,
    "ArmySuppressed": _army_suppressed,
    "ReinforcementsDue": _reinforcements_due,
    "UnitPlaced": _unit_placed,
    "ReinforcementLost": _reinforcement_lost,
    "CommonwealthSwapped": _commonwealth_swapped,
}
