"""Card, Hand-to-Hand Combat: "if contacted a figure ... has to fight at least one round
before breaking off". With the card's melee.contact_owed the side whose figure moved into
contact this turn owes that melee before its done, while the contact stands (both still
fighting, the mover not halted by a pin it may not ignore), and every report tells the same
story of it. A card without it (a journal made before) let a side say done without it."""

from __future__ import annotations

import json

import msgspec
from skirmish_cases import ONE_STEP, Table, done_until, figure

from referee.table.skirmish.asking import compelled
from referee.table.skirmish.report import owed_by_side

OLD = msgspec.structs.replace(ONE_STEP, melee=msgspec.structs.replace(
    ONE_STEP.melee, contact_owed=False))
HTH = "Hand-to-Hand Combat"


def _order(cli, j, side, text, dice=None):
    return cli("order", j, "--as", side, text, *(("--dice", dice) if dice else ()))


def test_a_contact_made_this_turn_owes_its_melee_before_done():
    t = Table(red=[figure("R1")], blue=[figure("B1")], phase="movement")
    t.test("red", "move R1 mode=assault contact=yes at=B1 command=yes", [3])
    t.until("fire")
    t.until("melee")
    assert owed_by_side(t.card, t.state) == {"red": ["melee B1 attackers=R1"]}
    assert compelled(owed_by_side(t.card, t.state)["red"]) == \
        " Before your done, the card compels: melee B1 attackers=R1."
    rule, why = t.refusal("red", "done")
    assert rule == HTH and "melee B1 attackers=R1" in why, why
    assert t.refusal("blue", "done") is None             # the defender's side owes none
    t.test("red", "melee B1 attackers=R1", [4, 4])
    assert t.refusal("red", "done") is None


def test_a_journal_made_before_took_done_without_the_melee():
    t = Table(red=[figure("R1")], blue=[figure("B1")], phase="movement", card=OLD)
    t.test("red", "move R1 mode=assault contact=yes at=B1 command=yes", [3])
    t.until("melee")
    assert owed_by_side(t.card, t.state) == {}
    assert t.refusal("red", "done") is None
    t.until("morale")                                    # as it was played


def test_an_attacker_halted_by_a_pin_owes_no_melee_a_bold_one_does():
    t = Table(red=[figure("R1"), figure("R2", quality="gallant")], blue=[figure("B1"),
              figure("B2")], phase="movement")
    t.test("red", "move R1 mode=assault contact=yes at=B1 command=yes", [3])
    t.test("red", "move R2 mode=assault contact=yes at=B2 command=yes", [3])
    t.fig("R1").pins = t.fig("R2").pins = 1           # pinned in the fire phase
    t.until("melee")
    assert owed_by_side(t.card, t.state) == {"red": ["melee B2 attackers=R2"]}
    t.fig("R2").killed = True                          # the contact no longer stands
    assert owed_by_side(t.card, t.state) == {}
    assert t.refusal("red", "done") is None


def test_the_patrol_s_melee_is_owed_and_every_mail_tells_it_alike(cli, tmp_path):
    """G6 assaults into contact with B5; in the melee phase the German's plain done is
    refused in one line naming the melee owed, and the journal is unchanged. Once fought,
    no report says the phase was passed over, nor that B5 fights G6 in it."""
    j = tmp_path / "p.jsonl"
    assert cli("new", j, "--game", "skirmish", "--scenario", "patrol", "--dice",
               "manual").exit_code == 0
    r = _order(cli, j, "british", "done")
    assert r.exit_code == 0, r.stderr
    r = _order(cli, j, "german", "move G6 mode=assault contact=yes at=B5 command=yes", "3")
    assert r.exit_code == 0, r.stderr
    done_until(cli, j, "melee")
    now = json.loads(cli("status", j, "--format", "json").stdout)
    assert now["owed"] == {"german": ["melee B5 attackers=G6"]}
    before = j.read_bytes()
    r = _order(cli, j, "german", "done melee")
    if "closes" in r.stderr:
        r = _order(cli, j, "german", "done")
    assert r.exit_code == 1 and r.stdout == ""
    line, = r.stderr.strip().splitlines()
    assert "melee B5 attackers=G6" in line and f"(rule {HTH})" in line, line
    assert j.read_bytes() == before
    assert _order(cli, j, "german", "melee B5 attackers=G6", "4,4").exit_code == 0
    done_until(cli, j, "morale")
    for side in ("british", "german"):
        report = cli("skirmish", "report", j, "--as", side).stdout
        assert "passed over\n" not in report.replace(
            "No off-table artillery in this scenario: its phase is passed over\n", "")
        assert "it fights G6 in the melee phase" not in report, report
    assert cli("verify", j).exit_code == 0


def test_a_walked_through_melee_phase_is_not_told_as_passed_over():
    """A mover halted by a pin leaves the phase to its dones: it was not passed over."""
    from referee.table.skirmish.contactnews import contacted_now, melee_passed
    card = msgspec.structs.replace(ONE_STEP, melee_passed_over=True)
    t = Table(red=[figure("R1")], blue=[figure("B1")], phase="movement", card=card)
    t.test("red", "move R1 mode=assault contact=yes at=B1 command=yes", [3])
    t.fig("R1").pins = 1
    t.until("melee")
    assert contacted_now(t.card, t.state) == []
    t.until("morale")
    assert not melee_passed(t.card, t.state)
