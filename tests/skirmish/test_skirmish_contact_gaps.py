"""Card, Hand-to-Hand Combat: cases the card's melee.contact_owed, contact_limited and
defender_fire once misread (a melee joined, two melees crossed, a fire told that would be
refused) and If Pinned's move into contact, each read now as the quick reference says."""

from __future__ import annotations

import msgspec
from skirmish_cases import ONE_STEP, Table, figure

from referee.table.skirmish.contactnews import contacted_now
from referee.table.skirmish.report import owed_by_side

CONTACT = "move {} mode=assault contact=yes at={} command=yes"


def test_a_move_into_contact_with_a_figure_held_in_contact_is_owed_its_melee():
    t = Table(red=[figure("R1"), figure("R2")], blue=[figure("B1")], phase="movement")
    t.state.contacts = [{"defender": "B1", "attackers": ["R1"], "turn": 0}]
    t.test("red", CONTACT.format("R2", "B1"), [3])      # the second attacker the limit allows
    t.until("melee")
    assert owed_by_side(t.card, t.state) == {"red": ["melee B1 attackers=R1,R2"]}
    assert t.refusal("red", "melee B1 attackers=R1") is not None     # R2 left out
    t.test("red", "melee B1 attackers=R1,R2", [5, 5, 3])
    assert t.refusal("red", "done") is None


def test_each_melee_owed_when_the_phase_begins_can_be_fought():
    card = msgspec.structs.replace(ONE_STEP, unit_turns=False)
    t = Table(red=[figure("R1"), figure("R2")], blue=[figure("B1")], phase="movement",
              card=card)
    t.state.first = "blue"
    t.test("blue", CONTACT.format("B1", "R2"), [3])
    if t.refusal("red", CONTACT.format("R1", "B1")) is not None:
        return                       # read as: B1, in contact with R2, is contacted no more
    t.test("red", CONTACT.format("R1", "B1"), [3])
    t.until("melee")
    owed = owed_by_side(t.card, t.state)
    assert owed == {"red": ["melee B1 attackers=R1"], "blue": ["melee R2 attackers=B1"]}
    t.test("blue", "melee R2 attackers=B1", [4, 4])
    assert t.refusal("red", "melee B1 attackers=R1") is None


def test_may_still_fire_is_told_only_when_it_may_fire_at_its_contactor():
    t = Table(red=[figure("R1")], blue=[figure("B1")], phase="movement")
    t.state.turn = 3
    t.fig("R1").melee_turn = 2                     # its defender of turn 2 fell
    t.test("red", CONTACT.format("R1", "B1"), [3])
    t.until("fire")
    assert t.refusal("blue", "unaimed B1 at=R1 range=2 cover=none command=yes") is not None
    told, = contacted_now(t.card, t.state)
    assert not told["fires"], told


def test_a_pinned_figure_does_not_move_away_into_contact():
    t = Table(red=[figure("R1", quality="gallant"), figure("R2"), figure("R3")],
              blue=[figure("B1")], phase="movement")
    t.fig("R1").pins = 1
    away = "move R1 mode=assault away=yes contact=yes at=B1 command=yes"
    assert t.refusal("red", away) is not None
