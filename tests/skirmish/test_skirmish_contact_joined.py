"""Card, Hand-to-Hand Combat: a figure that moves into contact with one held in contact from
an earlier melee joins that melee (card melee.contact_owed: "has to fight at least one
round"; "no more than two figures may attack a single defending figure"). Its melee is owed
with the held attacker, and a melee owed is fought with every attacker owed for it, in one
order (the second's +2, the defender's one die): an order naming fewer is refused."""

from __future__ import annotations

import msgspec
from skirmish_cases import ONE_STEP, Table, figure

from referee.table.skirmish.contactnews import contacted_now
from referee.table.skirmish.listed import open_melees
from referee.table.skirmish.report import owed_by_side

OLD = msgspec.structs.replace(ONE_STEP, melee=msgspec.structs.replace(
    ONE_STEP.melee, contact_owed=False))
CONTACT = "move {} mode=assault contact=yes at={} command=yes"


def _held(card=ONE_STEP) -> Table:
    t = Table(red=[figure("R1"), figure("R2")], blue=[figure("B1")], phase="movement",
              card=card)
    t.state.contacts = [{"defender": "B1", "attackers": ["R1"], "turn": 0}]
    t.test("red", CONTACT.format("R2", "B1"), [3])
    return t


def _fresh(card=ONE_STEP) -> Table:
    t = Table(red=[figure("R1"), figure("R2")], blue=[figure("B1")], phase="movement",
              card=card)
    t.test("red", CONTACT.format("R1", "B1"), [3])
    t.test("red", CONTACT.format("R2", "B1"), [3])
    return t


def test_the_figure_joining_a_held_melee_is_told_and_fights_in_it():
    t = _held()
    told, = contacted_now(t.card, t.state)
    assert (told["defender"], told["attackers"]) == ("B1", ["R2"])
    t.until("melee")
    t.test("red", "melee B1 attackers=R1,R2", [5, 5, 3])
    assert t.refusal("red", "done") is None
    assert t.state.contacts == [{"defender": "B1", "attackers": ["R1", "R2"], "turn": 0}]


def test_a_melee_owed_is_refused_with_fewer_attackers_than_owed():
    for t in (_held(), _fresh()):
        t.until("melee")
        assert owed_by_side(t.card, t.state) == {"red": ["melee B1 attackers=R1,R2"]}
        assert [o.facts["attackers"] for o in open_melees(t.card, t.state, "red")] == \
            [["R1", "R2"]]
        for fewer in ("R1", "R2"):
            rule, why = t.refusal("red", f"melee B1 attackers={fewer}")
            assert rule == "Hand-to-Hand Combat" and "melee B1 attackers=R1,R2" in why, why
            assert "\n" not in why
        t.test("red", "melee B1 attackers=R1,R2", [5, 5, 3])
        assert owed_by_side(t.card, t.state) == {}
        assert t.refusal("red", "done") is None


def test_a_card_without_contact_owed_takes_either_attacker_alone():
    t = _fresh(OLD)
    t.until("melee")
    assert t.refusal("red", "melee B1 attackers=R1") is None
    t.test("red", "melee B1 attackers=R1", [4, 4])
    assert t.refusal("red", "done") is None


def test_a_journal_made_before_owed_the_held_attacker_alone():
    t = _held(OLD)
    t.until("melee")
    assert owed_by_side(t.card, t.state) == {"red": ["melee B1 attackers=R1"]}
    t.test("red", "melee B1 attackers=R1", [4, 4])
    assert t.refusal("red", "done") is None
    assert t.refusal("red", "melee B1 attackers=R2") is not None
