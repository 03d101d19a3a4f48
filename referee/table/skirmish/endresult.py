"""How a skirmish ended, as data: the phase a view names once nothing is under way, and the
result (who won, who was beaten and why, the test and the step it ended with) that `status`
and every report give beside `game_over` (the card names no end: the referee's reading is
that a side with no figure left fighting has lost, rules.md "End of the game and the dice
secret"; ending.py says it in words)."""

from __future__ import annotations

from ...base.plurals import counted, upper_first
from ...render.documents import side_name
from .state import SkState


def phase_now(card, state: SkState) -> str:
    """The phase a view names: the card's phase under way; `over` once a side has no
    figure left fighting (as a campaign's phase once it has ended), `closed` once the dice
    secret was published before that (`reveal --force`: no order is taken)."""
    if state.over():
        return "over"
    return "closed" if state.revealed is not None else card.sequence[state.phase].phase


def result_of(card, state: SkState) -> dict | None:
    """The game's result once it is over (None before): the side that won (None when
    neither has a figure left fighting), the sides beaten, why in words, the record of the
    test it ended with (as its prompt names it), and the turn and phase it ended in."""
    if not state.over():
        return None
    left = state.fighting()
    last = state.tests[-1]["record"] if state.tests else None
    return {"winner": left[0] if left else None,
            "beaten": [s for s in state.sides if s not in left],
            "reason": beaten_words(card, state), "record": last, "turn": state.turn,
            "phase": card.sequence[state.phase].phase}


def beaten_words(card, state: SkState) -> str:
    """'The British side has no figure left fighting (1 figure killed)': the side (or both)
    with no figure left fighting, and how its figures left the fight."""
    beaten = [s for s in state.sides if s not in state.fighting()]
    gone = "; ".join(f"{side_name(s) if len(beaten) > 1 else ''} {_gone(card, state, s)}"
                     .strip() for s in beaten)
    whose = f"the {side_name(beaten[0])} side has" if len(beaten) == 1 else "neither side has"
    return f"{upper_first(whose)} no figure left fighting ({gone})"


def _gone(card, state: SkState, side: str) -> str:
    """How a side's figures left the fight: killed, surrendered, dispersed with their
    section, each count with the card's line."""
    figs = [f for f in state.figures.values() if f.side == side]
    killed = sum(f.killed for f in figs)
    surrendered = sum(f.surrendered for f in figs)
    dispersed = sum(f.active for f in figs)
    return ", ".join([*([f"{counted(killed, 'figure')} killed"] if killed else []),
                      *([f"{surrendered} surrendered ({card.surrender.rule})"]
                        if surrendered else []),
                      *([f"{dispersed} dispersed with "
                         f"{'its' if dispersed == 1 else 'their'} section ({card.morale.rule})"]
                        if dispersed else [])])
