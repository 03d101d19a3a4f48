"""Card, Hand-to-Hand Combat: "If contacted a figure can't move, and has to fight at least
one round before breaking off. Figures which were in melee last turn can't shot or be shot
at this turn, and if unpinned they may attempt to break off the melee." The figures a melee
leaves standing stay in contact (card.yaml melee.contact_lasts) until one breaks off or
falls."""

from __future__ import annotations

import msgspec
from skirmish_cases import ONE_STEP, Table, figure

from referee.table.skirmish.report import report_document, report_text


def in_contact(dice=(3, 3), red=(), blue=()) -> Table:
    """R1 moves into contact with B1 and attacks it in turn 1's melee (no result with
    3 v 3), then turn 2's movement."""
    t = Table(red=[figure("R1"), *red], blue=[figure("B1"), *blue], phase="movement")
    t.into_contact("red", "R1", at="B1")
    t.test("red", "melee B1 attackers=R1", list(dice))
    t.until("morale")
    t.until("movement")
    assert t.state.turn == 2
    return t


def test_a_contacted_figure_can_t_move_except_to_break_off_unpinned():
    t = in_contact()
    rule, why = t.refusal("red", "move R1 mode=manoeuvre command=yes")
    assert rule == "Hand-to-Hand Combat"
    assert why == ("R1 is in contact with B1 (melee of turn 1): it can't move, except to "
                   "break off (away=yes, unpinned)")
    t.test("red", "move R1 mode=manoeuvre away=yes command=yes", [2])     # breaks off
    assert t.state.contacts == []
    t.test("blue", "move B1 mode=stealthy command=yes")                   # free again


def test_a_pinned_figure_in_contact_can_t_break_off_its_unpinned_enemy_may():
    t = in_contact(dice=(3, 2))                          # B1 3 v R1 2: "1 less: pinned"
    assert t.fig("R1").pins == 1
    t.until("movement")
    rule, why = t.refusal("red", "move R1 mode=rush away=yes command=yes")
    assert rule == "Hand-to-Hand Combat" and why.endswith("and pinned: it can't move")
    t.test("red", "done")
    t.test("blue", "move B1 mode=stealthy away=yes command=yes")


def test_figures_in_contact_must_fight_again_and_done_cannot_skip_it():
    t = in_contact()
    t.until("melee")
    rule, why = t.refusal("red", "done")
    assert rule == "Hand-to-Hand Combat"
    assert "figures in contact must fight" in why and "melee B1 attackers=R1" in why
    assert t.refusal("blue", "done") is None             # the attacker's side fights it
    t.test("red", "melee B1 attackers=R1", [4, 4])
    assert t.refusal("red", "done") is None


def test_a_melee_in_contact_names_every_attacker_in_it_and_no_other_fight():
    t = in_contact(red=[figure("R2")], blue=[figure("B2")])
    t.into_contact("red", "R2", at="B1")                  # turn 2: R2 moves in to join
    rule, why = t.refusal("red", "melee B2 attackers=R1")
    assert rule == "Hand-to-Hand Combat" and "R1 is in contact with B1" in why
    rule, why = t.refusal("blue", "melee R1 attackers=B1")
    assert "that melee is fought as it began" in why
    got = t.test("red", "melee B1 attackers=R1,R2", [3, 3, 1])   # a second joins: +2
    assert {m["id"] for m in got["modifiers"]} == {"second"}
    assert t.state.contacts[0]["attackers"] == ["R1", "R2"]
    t.until("movement")
    t.until("melee")                               # turn 3
    rule, why = t.refusal("red", "melee B1 attackers=R2")
    assert "they fight this melee together (attackers=R1,R2)" in why


def test_a_fallen_figure_ends_its_contact():
    t = Table(red=[figure("R1")], blue=[figure("B1")], phase="movement")
    t.into_contact("red", "R1", at="B1")
    t.test("red", "melee B1 attackers=R1", [5, 1])      # B1 5 v R1 1: "2 or more less"
    assert t.fig("R1").killed
    t.until("morale")
    t.test("red", "morale R trigger=killed", [6])
    t.until("movement")
    t.test("red", "done")
    t.test("blue", "move B1 mode=stealthy command=yes")


def test_figures_held_in_contact_can_t_shoot_or_be_shot_at():
    t = in_contact(red=[figure("R2")])
    t.until("fire")
    t.state.turn = 3                                     # past "last turn", still in contact
    rule, why = t.refusal("red", "fire R2 at=B1 range=3 command=yes")
    assert rule == "Hand-to-Hand Combat" and "B1 is in melee" in why


def test_a_journal_made_before_contact_lasted_keeps_each_melee_apart():
    old = msgspec.structs.replace(ONE_STEP, melee=msgspec.structs.replace(
        ONE_STEP.melee, contact_lasts=False, contact_move=False))
    t = Table(red=[figure("R1")], blue=[figure("B1")], phase="melee", card=old)
    t.test("red", "melee B1 attackers=R1", [3, 3])
    t.until("movement")
    assert t.refusal("red", "move R1 mode=manoeuvre command=yes") is None


def test_the_report_and_status_say_who_is_in_contact_and_what_is_owed():
    t = in_contact()
    t.until("melee")
    doc = report_document({"game_id": "g", "game": "skirmish", "scenario": "cases"}, t.card,
                          t.state)
    assert doc["contacts"] == [{"defender": "B1", "attackers": ["R1"], "turn": 1}]
    assert doc["owed"] == {"red": ["melee B1 attackers=R1"]}
    text = report_text(doc)
    assert "in contact: B1 with R1 (melee of turn 1)" in text
    assert "Red owes, before done (the card compels them): melee B1 attackers=R1" in text


def test_a_figure_that_shot_this_turn_does_not_attack_in_its_melee():
    """The card: "the figure moving into contact can't shoot". A figure that shot in the fire
    phase did not move into contact, so it is no new attacker in the melee phase; one that
    holds a contact of last turn fights on where it stands, and one that moved into contact
    (and so has not shot) attacks."""
    t = Table(red=[figure("R1"), figure("R2")], blue=[figure("B1"), figure("B2")],
              phase="movement")
    t.test("red", "move R2 mode=assault contact=yes at=B1 command=yes", [3])
    t.until("fire")
    t.test("red", "unaimed R1 at=B1 range=30 command=yes", [2])
    t.until("melee")
    rule, why = t.refusal("red", "melee B1 attackers=R1")
    assert rule == "Hand-to-Hand Combat"
    assert why == "R1 fired this turn: the figure moving into contact can't shoot, so it " \
        "did not move into contact"
    assert t.refusal("red", "melee B1 attackers=R2") is None


def test_a_figure_that_moved_into_contact_and_was_pinned_is_refused_for_the_contact():
    """R1 moved into contact and was then pinned: the pin would not stop its fire in its
    own step, the move into contact does ("the figure moving into contact can't shoot"),
    so the refusal names Hand-to-Hand Combat, not If Pinned."""
    from skirmish_cases import CARD
    t = Table(red=[figure("R1", "regular")], blue=[figure("B1", "raw")], phase="movement",
              card=CARD)
    t.test("red", "move R1 mode=assault contact=yes at=B1 command=yes", [3])
    t.until("fire")
    t.fig("R1").pins = 1                    # pinned in the step (by a shot of its own step)
    assert t.refusal("red", "fire R1 at=B1 range=1 state=halted cover=none") == \
        ("Hand-to-Hand Combat", "R1 moved into contact and can't shoot")
