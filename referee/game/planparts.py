"""A sealed plan given in parts (7.0, 2.0 I, 2.0 V.3): a record that seals orders of a plan
its side has not ended in that record (no 'done', nor its last arrival placed) is told as a
part of the plan, not yet ended; only the record that ends it reads as the plan sealed.
The journal is untouched: the records keep their placeholder and events as written, and
these words are worked out from them when they are shown: the same in a report, in `log`
and in `explain`."""

from __future__ import annotations

from ..engine import plan_labels
from .hiddenloss import hidden_loss_heading
from .replay import SEALED_PLAN

# The events that seal orders into a plan, and those that end one.
SEALS = ("ProductionOrdered", "PlanSealed")
ENDS = ("ProductionDone", "PlanClosed")


def marked(events: list[dict]) -> list[dict]:
    """events, each that seals orders into a plan its side does not end later in the same
    record marked ("part": True) for its wording: a copy, the record left as it is."""
    out = []
    for i, ev in enumerate(events):
        if ev.get("type") in SEALS and not any(
                e.get("type") in ENDS and e.get("side") == ev.get("side") for e in events[i + 1:]):
            ev = {**ev, "part": True}
        out.append(ev)
    return out


def is_part(rec: dict) -> bool:
    """Whether rec seals orders of a plan its side has not ended in it."""
    return any(ev.get("part") for ev in marked(rec.get("events", [])))


def heading_order(text: str, rec: dict) -> str:
    """The order a record's heading shows: a sealed plan's placeholder, when the record is a
    part of the plan its side had not ended there, says so ('part of a sealed production plan
    (7.0)'); a hidden order that paid an attrition loss, as one (hiddenloss.py); any other
    text as it is."""
    if (loss := hidden_loss_heading(text, rec)) is not None:
        return loss
    if text == rec.get("order") and (text == SEALED_PLAN or text in plan_labels()) and \
            is_part(rec):
        return f"part of {text}"
    return text
