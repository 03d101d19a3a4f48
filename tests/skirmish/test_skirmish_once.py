"""One roll per test, as the card gives it (card.yaml `attempts`): a second attempt in the
same turn (unpin, rally) or phase (spot, per target) is refused with the card's line and
nothing is recorded, so a player cannot roll until he likes the result. The expected
limits are read off the card's lines quoted in each test."""

from __future__ import annotations

import json
import re
from pathlib import Path

import msgspec
import pytest
from skirmish_cases import CARD, ONE_STEP, Table, done_until, figure, said_done

from referee.table.skirmish.checks import claims


def test_one_unpin_roll_per_pinned_figure_a_turn():
    """Card, Morale & Rallying off pins: "To become Unpinned: Roll a number of D6. 5-6
    needed to remove one pin", a test of the morale phase, which comes once a turn."""
    t = Table(red=[figure("R1", "regular")], phase="morale")
    t.fig("R1").pins = 2
    t.test("red", "unpin R1 command=yes", [1, 2])              # no pin removed
    rule, why = t.refusal("red", "unpin R1 command=yes")
    assert rule == "To become Unpinned" and "this turn already" in why and "record 1" in why
    t.state.turn += 1
    assert t.refusal("red", "unpin R1 command=yes") is None


def test_one_rally_attempt_per_section_a_turn():
    """Card, Rallying: "Unit may attempt to rally if it spent the turn stationary. It takes
    a morale test, and one morale marker is removed if successful": one attempt for the
    turn it stood still."""
    t = Table(phase="morale")
    t.state.sections["R"].failures = 2
    assert "does not rally" in t.test("red", "rally R", [1])["result"]
    rule, why = t.refusal("red", "rally R")
    assert rule == "Rallying" and "this turn already" in why
    t.state.turn += 1
    assert t.refusal("red", "rally R") is None


def test_one_spotting_roll_per_spotter_and_target_a_phase():
    """Card, Visibility: "Roll needed to Spot: (D6)" per spotter and target; a spotter may
    try another target, and the same one again in the next phase that spots."""
    t = Table(red=[figure("R1", "regular")], blue=[figure("B1"), figure("B2")],
              phase="movement")
    far = "range=100 light=day state=halted cover=soft"
    assert "not spotted" in t.test("red", f"spot R1 at=B1 {far}", [1])["result"]
    rule, why = t.refusal("red", f"spot R1 at=B1 {far}")
    assert rule == "Visibility" and "at B1 this phase already" in why
    assert t.refusal("red", f"spot R1 at=B2 {far}") is None
    t.state.phase = 2                                        # the fire phase spots too
    assert t.refusal("red", f"spot R1 at=B1 {far}") is None


def test_a_second_roll_is_refused_through_the_journal_and_records_nothing(cli, patrol):
    """The same limit at the command line: exit 1, one line with the card's line, the
    journal byte for byte as it was."""
    far = "range=100 light=day state=halted cover=soft"
    r = cli("skirmish", "order", patrol, "--as", "british", f"spot B2 at=G1 {far}")
    assert r.exit_code == 0, r.output
    before = patrol.read_bytes()
    r = cli("order", patrol, "--as", "british", f"spot B2 at=G1 {far}")
    assert r.exit_code == 1 and patrol.read_bytes() == before
    [line] = r.stderr.strip().splitlines()
    assert "this phase already" in line and "(rule Visibility)" in line


def test_the_platoon_commander_is_listed_with_his_own_side(cli, patrol):
    """The patrol's British platoon commander B0 is in no section: the report's forces list
    him under the British, never after the last (German) section."""
    text = cli("skirmish", "report", patrol).stdout
    forces = text.split("Forces:", 1)[1].splitlines()
    at = {line.split()[0]: i for i, line in enumerate(forces) if line.strip()}
    assert at["British:"] < at["B0"] < at["German:"], forces
    assert "platoon commander" in forces[at["B0"]]


@pytest.mark.parametrize("text,fact", [
    ("unpin B1 command=yes dice=9999", "dice"),
    ("rally B light=night", "light"),
    ("spot B2 at=G1 range=100 light=day state=halted cover=soft command=yes", "command"),
    ("move B2 mode=stealthy command=yes range=5", "range"),
])
def test_a_fact_the_test_does_not_read_is_refused(cli, patrol, text, fact):
    """A fact no line of the card reads for that test (the removing of pins counts no dice
    declared, a rally reads no light...) would be recorded as if it counted: refused, naming
    the fact and the ones the test takes; nothing recorded."""
    before = patrol.read_bytes()
    r = cli("order", patrol, "--as", "british", text)
    assert r.exit_code != 0 and patrol.read_bytes() == before
    assert f"{fact}=: {text.split()[0]} does not read it" in r.stderr, r.stderr


def test_the_player_s_guide_lists_every_order_with_exactly_the_facts_it_takes():
    """docs/player.md's table of skirmish orders: one row per order the referee reads, each
    naming every fact the order takes and no other (order_text.READS)."""
    import re
    from pathlib import Path

    from skirmish_cases import CARD

    from referee.table.skirmish.order_text import KINDS, READS, parse_order

    text = (Path(__file__).parents[2] / "docs" / "player.md").read_text(encoding="utf-8")
    table = text.split("### Every skirmish order and the facts it takes", 1)[1]
    rows = [r for r in table.split("\n\n")[2].splitlines()[2:]]
    found = {}
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        found[cells[0].strip("`")] = set(re.findall(r"`(\w+)=", cells[2]))
        example = parse_order(cells[3].strip("`"), CARD)         # each example reads
        assert example.kind == cells[0].strip("`")
        assert set(example.facts) <= set(READS[example.kind])
    assert set(found) == set(KINDS)
    assert {k: set(v) for k, v in READS.items()} == found


def test_done_cannot_skip_the_morale_tests_the_card_compels(cli, tmp_path):
    """Card, Morale: a section tests "if a figure of the section is killed" this turn: one
    test for each figure killed. In the morale phase the owning side's `done` is refused
    until it has taken them; status and the report say what is owed."""
    j = tmp_path / "m.jsonl"
    assert cli("new", j, "--game", "skirmish", "--scenario", "patrol", "--dice",
               "manual").exit_code == 0

    def order(side, text, *dice):
        if text == "done":
            return said_done(cli, j, side)
        return cli("order", j, "--as", side, text, *(("--dice", ",".join(dice)) if dice
                                                      else ()))

    done_until(cli, j, "fire")                                   # movement, artillery
    assert order("german", "fire G5 at=B1 range=10 state=halted cover=none command=yes",
                 "18").exit_code == 0                            # 18+: killed
    done_until(cli, j, "morale")                                 # fire, melee
    before = j.read_bytes()
    r = order("british", "done")
    assert r.exit_code == 1 and j.read_bytes() == before
    assert "owes 1: morale B trigger=killed first" in r.stderr and "(rule Morale)" in r.stderr
    assert order("german", "done").exit_code == 0                # the German owes nothing
    status = json.loads(cli("status", j, "--format", "json").stdout)
    assert status["owed"] == {"british": ["morale B trigger=killed"]}
    assert "British owes, before done" in cli("skirmish", "report", j).stdout
    # His own report says it once, where it asks him, the JSON whole as before.
    mine = cli("skirmish", "report", j, "--as", "british").stdout
    assert "British owes" not in mine and mine.count("morale B trigger=killed") == 1
    assert "the card compels: morale B trigger=killed." in " ".join(mine.split())
    assert json.loads(cli("skirmish", "report", j, "--as", "british", "--format", "json"
                          ).stdout)["owed"] == {"british": ["morale B trigger=killed"]}
    assert "British owes, before done" in cli("skirmish", "report", j, "--as", "german").stdout
    assert order("british", "morale B trigger=killed", "6").exit_code == 0
    assert json.loads(cli("status", j, "--format", "json").stdout)["owed"] == {}
    assert order("british", "done").exit_code == 0               # turn 2 begins


def test_a_melee_is_one_fight_a_turn_each_attacker_once_and_a_defender_dies_once():
    """Card, Hand-to-Hand Combat: "+2 if 2nd attacker": two attackers fight the defender as
    one melee, declared together; a second melee order against him (which would roll his
    die again and lose the +2), an attacker named twice or fighting twice, are refused. A
    defender beaten by both dies once: one death for his section's morale."""
    t = Table(red=[figure("R1"), figure("R2"), figure("R3")],
              blue=[figure("B1"), figure("B2")], phase="movement")
    t.into_contact("red", "R1", "R2", at="B1")
    rule, why = t.refusal("red", "melee B1 attackers=R1,R1")
    assert rule == "Hand-to-Hand Combat" and "R1 is named twice" in why
    got = t.test("red", "melee B1 attackers=R1,R2", [1, 6, 6])   # B1 1; R1 6; R2 6+2
    assert got["result"] == "R1 6 v B1 1: B1 killed; R2 8 v B1 1: B1 killed"
    assert [e for e in got["effects"] if e.get("killed")] == [{"figure": "B1", "killed": 1}]
    assert t.state.sections["B"].killed_this_turn == 1
    rule, why = t.refusal("red", "melee B2 attackers=R1")
    assert rule == "Hand-to-Hand Combat" and "R1 has fought a melee this turn" in why


def test_a_second_attacker_ordered_apart_is_refused():
    t = Table(red=[figure("R1"), figure("R2")], blue=[figure("B1")], phase="movement")
    t.into_contact("red", "R1", "R2", at="B1")
    rule, why = t.refusal("red", "melee B1 attackers=R1")     # card contact_owed: both owed
    assert rule == "Hand-to-Hand Combat" and "named in one order" in why
    t = Table(red=[figure("R1"), figure("R2")], blue=[figure("B1")], phase="movement",
              card=msgspec.structs.replace(ONE_STEP, melee=msgspec.structs.replace(
                  ONE_STEP.melee, contact_owed=False)))
    t.into_contact("red", "R1", "R2", at="B1")
    t.test("red", "melee B1 attackers=R1", [3, 3])
    rule, why = t.refusal("red", "melee B1 attackers=R2")
    assert rule == "Hand-to-Hand Combat" and "both attackers are named in one order" in why


def test_no_stealthy_move_into_contact():
    """Card: figures can't rush into contact, "only assault or manoeuvre"."""
    t = Table(red=[figure("R1")], phase="movement")
    rule, why = t.refusal("red", "move R1 mode=stealthy contact=yes command=yes")
    assert rule == "Hand-to-Hand Combat" and "stealthy into contact" in why
    assert t.refusal("red", "move R1 mode=manoeuvre contact=yes at=B0 command=yes") is None


def test_figures_in_melee_last_turn_can_t_shoot_or_be_shot_at():
    """Card, Hand-to-Hand Combat: "Figures which were in melee last turn can't shot or be
    shot at this turn" (and this turn, while the melee lasts)."""
    t = Table(red=[figure("R1"), figure("R2")], blue=[figure("B1"), figure("B2")],
              phase="movement")
    t.into_contact("red", "R1", at="B1")
    t.test("red", "melee B1 attackers=R1", [3, 3])               # no result
    t.until("fire")                                              # the next turn's fire
    assert t.state.turn == 2
    rule, why = t.refusal("red", "fire R1 at=B2 range=10 command=yes")
    assert rule == "Hand-to-Hand Combat" and "R1 was in melee last turn" in why
    rule, why = t.refusal("red", "fire R2 at=B1 range=10 command=yes")
    assert "B1 was in melee last turn" in why
    assert t.refusal("red", "fire R2 at=B2 range=10 command=yes") is None
    t.state.turn, t.state.contacts = 3, []                       # broken off in turn 2
    assert t.refusal("red", "fire R1 at=B1 range=10 command=yes") is None


def test_the_enemy_may_claim_the_surrender_of_a_routing_section():
    """Card, Surrendering: "Gallant troops never surrender. Others do if routing troops have
    enemy between them and their table edge, and within 6"". The referee cannot see the
    table, so the enemy, who may claim it, is asked (status and report list the claim) and
    states the distances; the owner may dispute them like any declared fact."""
    t = Table(red=[figure("R1")], blue=[figure("B1"), figure("B2", "gallant")],
              phase="morale")
    rule, why = t.refusal("red", "surrender B reason=routing between=yes within=5")
    assert rule == "Surrendering" and "not routing" in why
    assert claims(CARD, t.state, "red") == []
    t.state.sections["B"].failures = 2
    assert claims(CARD, t.state, "red") == [
        "surrender B reason=routing between=yes within=6"]
    assert claims(CARD, t.state, "blue") == []
    got = t.test("red", "surrender B reason=routing between=yes within=5")
    assert got["result"] == "B0, B1 surrender (B2 never surrender: gallant)"
    assert t.fig("B1").surrendered and not t.fig("B2").surrendered


def test_every_test_the_card_table_names_exists():
    """docs/rules.md's table of the card's lines names the tests that hold them."""
    root = Path(__file__).resolve().parents[2]
    text = (root / "docs" / "rules.md").read_text(encoding="utf-8")
    table = text[text.index("### Every line of the card"):]
    named = set(re.findall(r"`(test_[a-z0-9_]+)`", table))
    defined = {m for p in (root / "tests" / "skirmish").glob("test_*.py")
               for m in re.findall(r"^def (test_[a-z0-9_]+)\(", p.read_text(), re.M)}
    assert len(named) > 40 and named <= defined, sorted(named - defined)
