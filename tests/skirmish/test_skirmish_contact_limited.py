"""Card, Hand-to-Hand Combat: "no more than two figures may attack a single defending
figure". With the card's melee.contact_limited a move into contact with a figure two
already contact (this turn, or held in contact from an earlier melee) is refused, naming
the two. A card without it (a journal made before) took the third move, and refused the
third attacker at the melee order alone."""

from __future__ import annotations

import msgspec
from skirmish_cases import ONE_STEP, Table, figure

from referee.table.skirmish.contacted import contactable

OLD = msgspec.structs.replace(ONE_STEP, melee=msgspec.structs.replace(
    ONE_STEP.melee, contact_limited=False))
HTH = "Hand-to-Hand Combat"
THIRD = "move R3 mode=assault contact=yes at=B1 command=yes"


def _reds():
    return [figure("R1"), figure("R2"), figure("R3")]


def test_a_third_move_into_contact_with_one_defender_is_refused():
    """The patrol's turn 2 as a tester played it: G6 and G2 into B5, then G1 too."""
    t = Table(red=_reds(), blue=[figure("B1")], phase="movement")
    t.test("red", "move R1 mode=assault contact=yes at=B1 command=yes", [3])
    t.test("red", "move R2 mode=manoeuvre contact=yes at=B1 command=yes", [3])
    assert t.refusal("red", THIRD) == (
        HTH, "B1 is contacted already by R1 (record 1) and R2 (record 2): no more than 2 "
             "figures may attack a single defending figure")
    assert contactable(t.state, "red", t.card) == ["B0"]
    assert t.refusal("red", "move R3 mode=assault contact=yes at=B0 command=yes") is None


def test_one_held_from_an_earlier_melee_counts():
    t = Table(red=_reds(), blue=[figure("B1")], phase="movement")
    t.state.contacts = [{"defender": "B1", "attackers": ["R1"], "turn": 0}]
    t.test("red", "move R2 mode=manoeuvre contact=yes at=B1 command=yes", [3])
    assert t.refusal("red", THIRD) == (
        HTH, "B1 is contacted already by R1 (in contact since turn 0) and R2 (record 1): no "
             "more than 2 figures may attack a single defending figure")


def test_a_journal_made_before_took_the_third_move():
    t = Table(red=_reds(), blue=[figure("B1")], phase="movement", card=OLD)
    for fid in ("R1", "R2"):
        t.test("red", f"move {fid} mode=assault contact=yes at=B1 command=yes", [3])
    assert t.refusal("red", THIRD) is None
    t.test("red", THIRD, [3])
    assert contactable(t.state, "red", t.card) == ["B0", "B1"]
    t.until("melee")
    rule, why = t.refusal("red", "melee B1 attackers=R1,R2,R3")
    assert rule == HTH and "no more than 2" in why


def _crossed(card=ONE_STEP) -> Table:
    """B1 moves into contact with R2; R1 then asks to move into contact with B1."""
    card = msgspec.structs.replace(card, unit_turns=False)
    t = Table(red=[figure("R1"), figure("R2")], blue=[figure("B1")], phase="movement",
              card=card)
    t.state.first = "blue"
    t.test("blue", "move B1 mode=assault contact=yes at=R2 command=yes", [3])
    return t


CROSS = "move R1 mode=assault contact=yes at=B1 command=yes"


def test_a_figure_that_moved_into_contact_is_contacted_by_no_other():
    """A figure in a melee fights no other: B1, attacking R2, could not also be fought as
    R1's defender, so the move that would owe that melee is refused."""
    t = _crossed()
    rule, why = t.refusal("red", CROSS)
    assert rule == HTH and "B1 moved into contact with R2 this turn (record" in why, why
    assert "fights no other" in why
    assert "B1" not in contactable(t.state, "red", t.card)
    assert t.refusal("red", "move R1 mode=assault contact=yes at=B0 command=yes") is None


def test_a_figure_held_in_contact_as_an_attacker_is_contacted_by_no_other():
    t = Table(red=[figure("R1"), figure("R2")], blue=[figure("B1")], phase="movement")
    t.state.contacts = [{"defender": "R2", "attackers": ["B1"], "turn": 0}]
    rule, why = t.refusal("red", CROSS)
    assert rule == HTH and "B1 is in contact with R2 as its attacker" in why, why


def test_a_journal_made_before_took_the_move_into_contact_with_an_attacker():
    t = _crossed(OLD)
    assert t.refusal("red", CROSS) is None
