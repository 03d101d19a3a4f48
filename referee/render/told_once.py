"""A sealed plan is told once (2.0 I, 2.0 V.3, 7.0): the record's heading names the plan
as every reader sees it, so the record that seals a whole plan tells neither its sealing nor
its closing again (told three times, the plan read as three). A revealed plan is a heading,
"German's plan revealed:", with the line of each event that carried out its orders under it
(every placement, build, rebuild, entrenchment, upgrade, card bought or discarded, unit
moved into or out of an army, in the order they were carried out; a template hidden from the
reader still hidden, 1.4): the orders as typed are not told again
beside the lines that say them in words; an order no event carried out is named on the
heading, as the board names its areas.
"""

from __future__ import annotations

from .crisis_told import crisis_told
from .phrases import opened, secret_data

# The events that reveal a plan, and those that seal one.
REVEALS = ("PlanRevealed", "ProductionRevealed")
SEALS = ("PlanSealed", "ProductionOrdered")
ENDS = ("PlanClosed", "ProductionDone")


# The first word of the plan orders each event carries out (a template hidden from the
# reader, 1.4, stands for the orders counted hidden; a card drawn only when bought, 7.1).
CARRIES = {"UnitPlaced": "place", "UnitBuilt": "build", "ArmyRebuilt": "rebuild",
           "UnitEntrenched": "entrench", "InfantryUpgraded": "upgrade",
           "CardsDiscarded": "discard", "CardsDrawn": "buy"}


def _carried(ev: dict, reader: str) -> set[str]:
    """The first words of the orders of a plan that ev carried out, as the reader knows them
    ("hidden": an order on a template kept from him); empty for an event of no plan."""
    kind = ev.get("type")
    if kind == "CardsDrawn" and "bought" not in str(ev.get("reason", "")):
        return set()
    if kind in ("CardsDrawn", "CardsDiscarded"):     # the cards' names are not the order's
        return {CARRIES[kind]}
    e = opened(ev, reader)
    if kind == "TemplateChanged":
        return {"hidden"} if e is None else {"build" if e.get("build") else "upgrade"}
    if kind == "UnitMoved":       # a unit into or out of an army within its area (8.1)
        return {"move"} if (e or ev).get("mode") == "reorganise" else set()
    if kind not in CARRIES:
        return set()
    return {"hidden"} if e is None else {CARRIES[kind]}


def under_reveals(events: list[dict], reader: str) -> list[dict]:
    """events with each revealed plan a heading: the events of its side after it that
    carried out its orders moved under it (marked `under_reveal`), and the reveal marked
    with the orders none of them says (`untold`, with those hidden from the reader counted
    in `untold_hidden`) and how many lines it heads (`under`)."""
    at = {ev["side"]: n for n, ev in enumerate(events) if ev.get("type") in REVEALS}
    under: dict[str, list[dict]] = {s: [] for s in at}
    said: dict[str, set[str]] = {s: set() for s in at}
    rest = []
    for n, ev in enumerate(events):
        side = ev.get("side")
        words = _carried(ev, reader) if side in at and n > at[side] else set()
        if words:
            under[side].append({**ev, "under_reveal": True})
            said[side] |= words
        else:
            rest.append(ev)
    out = []
    for ev in rest:
        if ev.get("type") not in REVEALS:
            out.append(ev)
            continue
        side = ev["side"]
        e = opened(ev, reader)
        orders = (e or ev).get("orders") or []
        untold = [o for o in orders if o.split(" ")[0] not in said[side]]
        hidden = 0 if e is not None or "hidden" in said[side] else ev.get("hidden", 0)
        out += [{**ev, "untold": untold, "untold_hidden": hidden, "under": len(under[side])},
                *under[side]]
    return out


def revealed_sides(events: list[dict]) -> set[str]:
    """The sides whose plan the events reveal."""
    return {ev["side"] for ev in events if ev.get("type") in REVEALS}


def told_once(events: list[dict], reader: str, actor: str | None = None) -> list[dict]:
    """The events of a record as its report tells them: the sealing and closing of a whole
    plan by the record's actor left out (its heading names the plan), a seal of a plan the
    record reveals too marked (its orders are told once, revealed), and each revealed plan
    a heading over the events that carried it out; a Crisis! card played told by the crisis
    it declares (crisis_told.py)."""
    events = _heading_says(crisis_told(events), actor, reader)
    shown = revealed_sides(events)
    if not shown:
        return events
    return [{**ev, "revealed_here": True} if ev.get("type") in SEALS and ev.get("side") in shown
            else ev for ev in under_reveals(events, reader)]


def _heading_says(events: list[dict], actor: str | None, reader: str) -> list[dict]:
    """events without the closing of the plan the record's actor sealed whole in it (a seal
    not marked a part, planparts.marked, and its end), and without its sealing too unless
    that names the orders to this reader (his own, not revealed here: the board's names for
    the areas the heading gives as typed): the heading names the plan, so 'German seals a
    production plan (7.0)' and 'German production orders are all in' said it twice more. A
    plan sealed in parts, or a plan of the other side the record closes, keeps its lines. The
    actor's own reinforcement orders sealed (whole or a part) are marked `orders_above`: told
    as sealed, not given again as typed under the heading that gives them so."""
    if actor is None:
        return events
    events = [{**ev, "orders_above": True} if ev.get("type") == "PlanSealed" and
              ev.get("side") == actor else ev for ev in events]
    sealed = any(ev.get("type") in SEALS and ev.get("side") == actor and not ev.get("part")
                 for ev in events)
    ended = any(ev.get("type") in ENDS and ev.get("side") == actor for ev in events)
    if not (sealed and ended):
        return events
    revealed = actor in revealed_sides(events)

    def said(ev: dict) -> bool:
        if ev.get("side") != actor or ev.get("type") not in SEALS + ENDS:
            return True
        return ev.get("type") in SEALS and not revealed and secret_data(ev, reader) is not None

    return [ev for ev in events if said(ev)]
