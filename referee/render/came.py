"""How a side's order came, when it did not come by his own mail: the words and the ⚑ mark
every output that tells a record gives it, the reports and mails (reports.py), `log`
(table/ordering.py) and `explain` (audit.py), so that they cannot drift apart
(docs/security.md, How each order came).

A side's record says how it came in `by` (game/replay.py): "mail", "hand" (entered at the
referee, `order --as`), "deadline" (the referee's default at a missed deadline) or
"referee" (the only order open, which the referee gave to close the decision:
game/forced.py). `by` is no secret part: every reader's copy of the record holds it (`log
--format json`, an export). A hand order and a default are marked for that side and the
moderator: what others gave for his side. The referee's closing is marked for every
reader, with the rule of the decision it closed: it rests on facts every reader sees.
"""

from __future__ import annotations

FLAG = "⚑"
HAND = f"{FLAG} entered by hand at the referee"
DEFAULT = f"{FLAG} the referee's default: the deadline passed"


def closed(rule: str) -> str:
    """The mark of an order the referee gave as the only one open, at a decision of `rule`."""
    return f"{FLAG} closed by the referee: the only order open ({rule})"


def came(rec: dict, reader: str, rule: str) -> str | None:
    """The mark reader is shown of how rec's order came (None: none for him); rule: the rule
    of the decision pending before rec (said when the referee closed it)."""
    how = rec.get("by")
    if how == "referee":
        return closed(rule)
    if how not in ("hand", "deadline") or reader not in (rec.get("actor"), "moderator"):
        return None
    return DEFAULT if how == "deadline" else HAND


def came_note(rec: dict, reader: str, rule: str) -> str:
    """The mark as a record's heading ends with it: ' — ⚑ …', or nothing."""
    words = came(rec, reader, rule)
    return f" — {words}" if words else ""
