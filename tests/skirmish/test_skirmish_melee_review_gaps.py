"""Card, Hand-to-Hand Combat: cases the contact_owed / contact_limited rules still misread.
A figure pinned after moving into contact "halts 4" away from defending figure": the report
and what is owed treat it as no contact, so it should neither fill one of the defender's two
places nor bar others from contacting it. A moderator's ruling is told from a melee order by
its kind, not by how its first word is spelt."""

from __future__ import annotations

from skirmish_cases import Table, figure

from referee.table.skirmish import decider as sk
from referee.table.skirmish.contactnews import contacted_now
from referee.table.skirmish.report import owed_by_side

CONTACT = "move {} mode=assault contact=yes at={} command=yes"


def _halted() -> Table:
    t = Table(red=[figure("R1"), figure("R2"), figure("R3")],
              blue=[figure("B1"), figure("B2")], phase="movement")
    t.test("red", CONTACT.format("R1", "B1"), [3])
    t.fig("R1").pins = 1            # pinned by B1's fire after its move: halted 4" short
    return t


def test_a_figure_halted_by_a_pin_may_be_contacted():
    t = _halted()
    assert contacted_now(t.card, t.state) == []     # the report: no contact
    assert t.refusal("blue", CONTACT.format("B2", "R1")) is None


def test_a_figure_halted_by_a_pin_fills_no_place_of_the_defender():
    t = _halted()
    t.test("red", CONTACT.format("R2", "B1"), [3])
    assert t.refusal("red", CONTACT.format("R3", "B1")) is None
    t.test("red", CONTACT.format("R3", "B1"), [3])
    t.until("melee")
    assert owed_by_side(t.card, t.state) == {"red": ["melee B1 attackers=R2,R3"]}


def test_a_ruling_spelt_settle_or_Settle_is_taken_alike():
    t = Table(red=[figure("R1"), figure("R2")], blue=[figure("B1")], phase="movement")
    t.test("red", CONTACT.format("R1", "B1"), [3])
    t.test("red", CONTACT.format("R2", "B1"), [3])
    t.until("melee")
    said = [sk.check(t.card, t.state, sk.SkOrder(
        "melee", "B1", {"attackers": ["R1"]},
        sk.parse_order(f"{word} record=9 fact=attackers value=R1", t.card).text), "red")
        for word in ("settle", "Settle")]
    assert said == [None, None]
