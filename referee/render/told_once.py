"""A sealed plan is told once (2.0 I, 2.0 V.3, 7.0): the record's heading names the plan
as every reader sees it, so the record that seals a whole plan tells neither its sealing nor
its closing again (told three times, the plan read as three); a plan revealed in the record
that sealed it lists its orders revealed, with the areas as the board names them. What was
carried out is told beside them where it is a unit's: every build and placement has its line,
naming the army that took the unit (a template hidden from the reader stays hidden, 1.4);
an entrenchment only where it says more than its order (a note on what it gives).
"""

from __future__ import annotations

from collections import Counter

from .entrenchnote import NOTE
from .phrases import opened, secret_data

# The events that reveal a plan, and those that seal one.
REVEALS = ("PlanRevealed", "ProductionRevealed")
SEALS = ("PlanSealed", "ProductionOrdered")
ENDS = ("PlanClosed", "ProductionDone")


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


def told_once(events: list[dict], reader: str, actor: str | None = None) -> list[dict]:
    """The events of a record as its report tells them: the sealing and closing of a whole
    plan by the record's actor left out (its heading names the plan), a seal of a plan the
    record reveals too marked (its orders are told once, revealed), and the events that
    carry out one revealed order each and say no more left out."""
    events = _heading_says(events, actor, reader)
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


def _heading_says(events: list[dict], actor: str | None, reader: str) -> list[dict]:
    """events without the closing of the plan the record's actor sealed whole in it (a seal
    not marked a part, planparts.marked, and its end), and without its sealing too unless
    that names the orders to this reader (his own, not revealed here: the board's names for
    the areas the heading gives as typed): the heading names the plan, so 'German seals a
    production plan (7.0)' and 'German production orders are all in' said it twice more. A
    plan sealed in parts, or a plan of the other side the record closes, keeps its lines."""
    if actor is None:
        return events
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
