"""A sealed plan revealed in the record that sealed it is told once (2.0 I, 2.0 V.3, 7.0):
the record's heading names the plan as every reader sees it, its sealing names no orders,
its revealing lists them with the areas as the board names them. What was carried out is
told beside them where it is a unit's: every build and placement has its line, naming the
army that took the unit (a template hidden from the reader stays hidden, 1.4); an
entrenchment only where it says more than its order (a note on what it gives).
"""

from __future__ import annotations

from collections import Counter

from .entrenchnote import NOTE
from .phrases import opened

# The events that reveal a plan, and those that seal one.
REVEALS = ("PlanRevealed", "ProductionRevealed")
SEALS = ("PlanSealed", "ProductionOrdered")


def _order_of(ev: dict, reader: str) -> str | None:
    """The plan order (as a plan keeps it: areas by id) that an event carried out and says
    no more than, or None: a unit built, rebuilt or placed (its line names where it went and
    into which army), a hidden detail, an event of no plan."""
    e = opened(ev, reader)
    if e is None or ev.get(NOTE):
        return None
    if ev["type"] == "UnitEntrenched":
        return f"entrench {e.get('unit', '')}"
    return None


def revealed_sides(events: list[dict]) -> set[str]:
    """The sides whose plan the events reveal."""
    return {ev["side"] for ev in events if ev.get("type") in REVEALS}


def told_once(events: list[dict], reader: str) -> list[dict]:
    """The events of a record as its report tells them: a seal of a plan the record reveals
    too marked (its orders are told once, revealed), and the events that carry out one
    revealed order each and say no more left out."""
    shown = revealed_sides(events)
    if not shown:
        return events
    left: dict[str, Counter] = {}
    for ev in events:
        if ev.get("type") in REVEALS:
            e = opened(ev, reader)
            left.setdefault(ev["side"], Counter()).update((e or ev).get("orders") or [])
    out = []
    for ev in events:
        if ev.get("type") in SEALS and ev.get("side") in shown:
            out.append({**ev, "revealed_here": True})
            continue
        order = _order_of(ev, reader) if ev.get("side") in left else None
        if order is not None and left[ev["side"]][order] > 0:
            left[ev["side"]][order] -= 1
            continue
        out.append(ev)
    return out
