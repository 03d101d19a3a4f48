"""The figures an enemy moved into contact with this turn (card melee.contact_holds), as a
report tells them to both sides before the melee is fought: who contacted whom, in which
record, that the contacted figure can't move this turn, the melee to come, and what it may
still do meanwhile (Hand-to-Hand Combat). A move's result names its own distance alone, so
the contacted side learnt of it only when a move of that figure was refused."""

from __future__ import annotations

from .checks import (
    FIRES,
    check_fire,
    check_melee,
    contact_of,
    fighting,
    in_melee_now,
    joining,
    may_fire,
)
from .contacted import contacted_by, moved_in
from .order_text import SkOrder


def contacted_now(card, state) -> list[dict]:
    """Each figure contacted this turn and not yet in its melee: the defender, the figures
    that contacted it and the records of their moves, and whether it may still fire
    before the melee (as may_fire takes it, whatever the step)."""
    out = []
    if card.melee.contact_owed and past_melee(card, state):
        return out                  # its melee fought, or no longer standing: told no more
    for g in state.figures.values():
        by = joining(card, state, g) if card.melee.contact_owed and contact_of(state, g.id) \
            else [f for f in contacted_by(state, g.id) if not card.melee.contact_owed
                  or check_melee(card, state, g, [f]) is None]  # halted by a pin: no contact
        if not by or not fighting(state, g.id) or g.melee_turn == state.turn or g.attackers:
            continue
        out.append({"defender": g.id, "attackers": [f.id for f in by],
                    "records": [moved_in(state, f.id) for f in by],
                    # card defender_fire: fire at the figures contacting it, as taken
                    "fires": fires_at(card, state, g, by) if card.melee.defender_fire
                    else may_fire(card, state, g, any_step=True)})
    return out


def fires_at(card, state, g, by) -> bool:
    """Whether defender g may still fire, of either kind and whatever the step, at one of
    the figures by that contacted it, as check_fire takes such an order (a defender that
    moved, or one a melee of last turn bars, does not; its fire at others is no part of
    its melee)."""
    held = in_melee_now(card, state)
    return any(check_fire(card, state, SkOrder(kind, g.id, {"at": [a.id], "range": 0,
                                                            "command": True}),
                          g, [a], True, held) is None
               for kind in FIRES for a in by)


def contacted_lines(contacted: list[dict], rule: str = "Hand-to-Hand Combat") -> list[str]:
    """The report's lines of contacted_now: 'G6 contacted by B5 (#30): G6 can't move this
    turn; it fights B5 in the melee phase, and may still fire before it (rule ...)'."""
    out = []
    for c in contacted:
        by = ", ".join(f"{a} (#{n})" if n is not None else a
                       for a, n in zip(c["attackers"], c["records"]))
        d = c["defender"]
        fires = ", and may still fire before it" if c.get("fires") else ""
        out.append(f"contacted this turn: {d} by {by}: {d} can't move this turn; it fights "
                   f"{', '.join(c['attackers'])} in the melee phase{fires} ({rule})")
    return out


def melee_passed(card, state) -> bool:
    """Whether this turn's melee phase was passed over, no figure in contact (card
    melee_passed_over, decider._begin): the game is past it in the turn, and no test was
    taken in it."""
    phases = [p.phase for p in card.sequence]
    if not (card.melee_passed_over and card.melee.contact_move and "melee" in phases):
        return False
    if state.over() or state.phase <= phases.index("melee"):
        return False
    if card.melee.contact_owed and any(f.contact and fighting(state, f.id)
                                       for f in state.figures.values()):
        return False        # the phase was not passed over: a figure moved into contact
    return not any(t["turn"] == state.turn and t["phase"] == "melee" for t in state.tests)


def past_melee(card, state) -> bool:
    """Whether the game is past this turn's melee phase (or over)."""
    phases = [p.phase for p in card.sequence]
    return state.over() or "melee" in phases and state.phase > phases.index("melee")
