"""Card, Sequence of Play: a done closes what its side is asked now (card.yaml
`dones_asked`). A fire step that asks one side alone ends with that side's done; a done the
other side sends, told it is asked nothing, is not taken for what comes next (a melee, a
rally, an unpin lost unseen) until that side has made a record of it, or names the phase."""

from __future__ import annotations

import msgspec
from skirmish_cases import CARD, Table, figure

FACTS = "range=10 state=halted cover=none command=yes"


def _one_sided_step(card=CARD) -> Table:
    """Blue's veteran fires in the first step, red has none: red is asked nothing in it."""
    t = Table(red=[figure("R1", "raw")], blue=[figure("B1", "veteran")], card=card)
    assert t.state.done == ["red"]
    t.test("blue", "done")                  # ends the step: the regulars' step asks both
    assert card.fire_steps[t.state.fire_step] == ["regular", "stubborn", "ferocious"]
    return t


def test_a_done_from_the_side_the_ended_step_asked_nothing_of_is_refused_and_says_why():
    t = _one_sided_step()
    rule, why = t.refusal("red", "done")
    assert rule == "Sequence of Play"
    assert "the fire step of gallant and veteran figures asked nothing of the Red side" in why
    assert "the Blue side's done (#1) ended it" in why
    assert "the fire step of regular, stubborn and ferocious figures now asks the Red and " \
           "Blue sides" in why and "'done fire' closes the Red side's part of it" in why


def test_a_done_naming_the_phase_closes_it_and_a_record_of_the_side_shows_it_has_seen_it():
    t = _one_sided_step()
    assert t.refusal("red", "done fire") is None
    rule, why = t.refusal("red", "done melee")
    assert why.startswith("done melee: the game is in the fire step of regular")
    t.test("red", f"fire R0 at=B1 {FACTS}", [1])      # a record of the new step
    assert t.refusal("red", "done") is None


def test_a_journal_made_before_takes_the_stray_done_as_it_was_played():
    old = msgspec.structs.replace(CARD, dones_asked=False)
    t = _one_sided_step(old)
    assert t.refusal("red", "done") is None
    assert t.refusal("red", "done fire")[1].startswith("done ends the side's part")


def test_a_done_from_a_side_nothing_is_asked_of_now_says_whom_the_game_waits_on():
    t = Table(red=[figure("R1", "raw")], blue=[figure("B1", "veteran")], card=CARD)
    rule, why = t.refusal("red", "done")
    assert rule == "Sequence of Play"
    assert why == "done: nothing is asked of the Red side now (gallant and veteran figures " \
                  "fire now, and the Red side has none fit to fire or has said done for " \
                  "them); the fire step of gallant and veteran figures waits on the Blue side"
