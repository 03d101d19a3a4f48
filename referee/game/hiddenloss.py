"""An attrition loss in a hidden army (6.5, 1.4): its owner chooses the unit, and the order
that names it stays his secret, so the record keeps replay's placeholder for an order
between army templates. A reader took that placeholder for a move between armies; the
heading names the record for what it is, from what every reader sees of it: that the army
lost a unit to attrition (the event is public, the unit is not). The journal is untouched,
and the words do not depend on what the army holds."""

from __future__ import annotations

from .replay import PRIVATE

ATTRITION_HIDDEN = "an attrition loss in a hidden army (6.5, 1.4)"


def hidden_loss_heading(text: str, rec: dict) -> str | None:
    """The heading of a record whose hidden order paid an attrition loss of its actor's,
    or None for any other."""
    if text != PRIVATE or rec.get("order") != PRIVATE:
        return None
    if any(ev.get("type") == "AttritionTaken" and ev.get("side") == rec.get("actor")
           for ev in rec.get("events", [])):
        return ATTRITION_HIDDEN
    return None
