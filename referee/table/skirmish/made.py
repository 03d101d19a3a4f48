"""A record in a line or two: as `order` and `log` tell it; and, one a mail made that is no
test and no ruling, as the answer to the mail names it under its number: a side's done,
with the phase (and the fire step) it ended for him; any other order (a dispute) as it was
given."""

from __future__ import annotations

from ...base.errors import OrderError
from ...render.documents import side_name
from . import decider as sk
from .report import test_lines


def record_lines(rec: dict) -> str:
    """A record as `order` and `log` tell it: a test in two lines, else one."""
    test = rec.get("test")
    if test is not None:
        return "\n".join(test_lines({**test, "record": rec["seq"], "side": rec["actor"],
                                     "order": rec["order"]}))
    return f"#{rec['seq']} {side_name(rec['actor'])}: {rec['order']} recorded"


def made_line(table, rec: dict) -> str:
    """'#4 British: done (turn 1, movement phase)', '#6 British: done (turn 1, fire phase,
    gallant and veteran figures)', '#5 British: dispute record=3 fact=mode value=rush'."""
    head = f"#{rec['seq']} {side_name(rec['actor'])}:"
    card = table.game().card
    try:
        done = sk.parse_order(rec["order"], card).kind == "done"
    except OrderError:      # no order of the card's (a record of the moderator's): as given
        done = False
    if not done:
        return f"{head} {rec['order']}"
    before = table.game(upto=rec["seq"] - 1)
    firing = sk.firing_now(card, before.state)
    step = f", {' and '.join(firing)} figures" if firing else ""
    return f"{head} done (turn {rec['turn']}, {rec['phase']} phase{step})"
