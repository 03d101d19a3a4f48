"""What a skirmish's reports and mails tell a player in words, beside what the rules decide:
who must stand where for a claim, and the like."""

from __future__ import annotations

import json

import msgspec
from skirmish_cases import CARD, ONE_STEP, Table, done_until, figure

from referee.base.errors import IllegalOrderError
from referee.table.skirmish import asking, report, settled
from referee.table.skirmish.formnotes import fire_note
from referee.table.skirmish.listed import forms
from referee.table.skirmish.nearest import FORCES
from referee.table.skirmish.report import owed_lines


def test_a_claim_names_whose_figures_stand_between_which_troops_and_whose_edge():
    """Card, Surrendering: routing troops surrender with "enemy between them and their table
    edge". Said to the claimant as "German may claim, if the enemy is between them and their
    table edge", the enemy read as the British, them as the Germans: the line names the
    claimant's figures, the routing section and its own edge."""
    [line] = owed_lines({}, {"german": ["surrender B reason=routing between=yes within=6"]})
    assert line.startswith("German may claim, if German figures are between the routing "
                           "section and its own table edge and within the distance stated "
                           "(Surrendering): surrender B"), line
    assert "the enemy" not in line and "them" not in line


def test_a_mistyped_figure_is_answered_with_the_nearest_of_his_side():
    """"move V6 ..." was refused "no figure 'V6' (rule Forces)": no hint that B6 was meant,
    and Forces is no heading of the card (the figures are the scenario's forces). The
    refusal names his side's nearest figure and cites the scenario's forces; a name near
    none of his figures gets no guess."""
    t = Table(red=[figure("R1"), figure("R6")], blue=[figure("B6")], phase="movement")
    rule, why = t.refusal("red", "move V6 mode=stealthy command=yes")
    assert (rule, why) == (FORCES, "no figure 'V6' of the Red side (did you mean R6?)")
    assert t.refusal("red", "move r1 mode=stealthy command=yes")[1].endswith(
        "(did you mean R1?)")
    assert "did you mean" not in t.refusal("red", "move XYZQ mode=stealthy command=yes")[1]


def test_an_aimed_shot_gives_its_score_and_the_scores_needed():
    """'D20=7; modifiers +2 marksman, ... -> G5 miss' left the reader to add the modifiers
    and look up the table, where unaimed fire says '(17+ needed)'. With the card's
    aimed_scores the result gives the modified score and the Aimed Fire table's rows; a
    journal made before (no aimed_scores) keeps its results as they were."""
    told = msgspec.structs.replace(ONE_STEP, aimed_scores=True)
    t = Table(red=[figure("R1", "veteran", role="marksman")], blue=[figure("B1")], card=told)
    shot = t.test("red", "fire R1 at=B1 range=10 state=halted cover=hard command=yes", [7])
    assert shot["result"] == "B1 miss (score 7; 15+ pinned, 18+ killed)"  # 7 +2 -2
    before = Table(red=[figure("R1", "veteran")], blue=[figure("B1")])
    assert before.test("red", "fire R1 at=B1 range=10 command=yes", [7])["result"] == "B1 miss"
    assert CARD.aimed_scores


def test_a_quality_a_morale_test_counts_as_is_no_modifier():
    """Morale listed "modifiers +0 stubborn counts as gallant": no modifier, but the quality
    the section tests as (Morale: Stubborn by circumstance). It is said apart."""
    t = {"record": 9, "side": "german", "order": "morale G trigger=killed", "kind": "morale",
         "subject": "G", "facts": {"trigger": "killed"}, "dice": [{"die": 6, "value": 4}],
         "modifiers": [{"id": "counts_as", "value": 0, "rule": "Morale",
                        "why": "stubborn counts as gallant"}],
         "result": "section G passes (D6 4, 3+ as gallant)", "rule": "Morale"}
    assert report.test_lines(t)[1] == ("    D6=4; stubborn counts as gallant -> section G passes "
                                "(D6 4, 3+ as gallant) (Morale)")


def test_the_contacted_side_is_told_of_the_contact_before_his_move_is_refused(cli, tmp_path):
    """After '#1 British: move B5 mode=assault contact=yes at=G6' the German read only 'B5
    may move up to 3"', G6 listed 'active': he learnt of the contact when his move of G6
    was refused. The report says G6 was contacted by B5 in #1, can't move this turn, and
    fights B5 in the melee phase; the forces list says it beside G6."""
    j = tmp_path / "p.jsonl"
    assert cli("new", j, "--game", "skirmish", "--scenario", "patrol", "--dice",
               "manual").exit_code == 0
    assert cli("order", j, "--as", "british", "move B5 mode=assault contact=yes at=G6 "
               "command=yes", "--dice", "3").exit_code == 0
    text = cli("skirmish", "report", j).stdout
    said = " ".join(text.split())
    assert "contacted this turn: G6 by B5 (#1): G6 can't move this turn; it fights B5 in " \
        "the melee phase, and may still fire before it (Hand-to-Hand Combat)" in said, text
    [g6] = [line for line in text.splitlines() if line.strip().startswith("G6 ")]
    assert g6.endswith(": active, contacted by B5: can't move"), g6
    doc = json.loads(cli("skirmish", "report", j, "--format", "json").stdout)
    assert doc["contacted"] == [{"defender": "G6", "attackers": ["B5"], "records": [1],
                                 "fires": True}]


def test_a_side_whose_unit_s_move_is_over_is_told_who_may_still_move(cli, tmp_path):
    """Once a German unit moved after section B, section B's turn was over, but the British
    read only of the German ('the German side may finish moving section G, then done') and
    his move form offered every figure: his B6 move was refused. His decision says section
    B's move is over and only B0 (the platoon commander) may still move; the form offers B0
    alone."""
    j = tmp_path / "p.jsonl"
    assert cli("new", j, "--game", "skirmish", "--scenario", "patrol", "--dice",
               "manual").exit_code == 0
    for side, text in (("british", "move B1 mode=stealthy command=yes"),
                       ("german", "move G1 mode=stealthy command=yes")):
        assert cli("order", j, "--as", side, text).exit_code == 0
    text = cli("skirmish", "report", j, "--as", "british").stdout
    said = " ".join(text.split())
    assert "your section B's move is over: of your figures only B0 may still move)" in said
    assert "  move B0 mode=" in text and "move FIGURE" not in text, text
    german = cli("skirmish", "report", j, "--as", "german").stdout
    assert "move is over" not in german and "  move G2|G3|G4|G5|G6 mode=" in german, german


def test_the_fire_and_melee_forms_name_the_figures_they_are_open_to():
    """'fire FIGURE at=FIGURE' named none of his figures firing in the step, nor those that
    may fire unaimed only, nor the enemy no shot may take ('G6 was in melee last turn');
    'melee FIGURE attackers=FIGURE,FIGURE' when one figure alone may attack one. Named from
    the checks that refuse the orders."""
    t = Table(red=[figure("R1"), figure("R2")], blue=[figure("B1"), figure("B2")])
    t.state.turn = 2
    t.fig("R2").moved = "manoeuvre"                # Movement: manoeuvre fires unaimed only
    t.fig("B2").melee_turn = 1
    assert fire_note(ONE_STEP, t.state, "red") == (
        "(firing now: R0 and R1 aimed or unaimed, R2 unaimed only; no shot may take B2 (B2 "
        "was in melee last turn: it can't shoot or be shot at this turn))")
    assert fire_note(ONE_STEP, t.state, "blue") == "(firing now: B0 and B1 aimed or unaimed)"
    m = Table(red=[figure("R1")], blue=[figure("B1")], phase="movement")
    m.into_contact("red", "R1", at="B1")
    assert forms(ONE_STEP, m.state, "red", ["melee"]) == ["melee B1 attackers=R1"]
    before = msgspec.structs.replace(ONE_STEP, forms_named=False)   # a journal made before
    assert forms(before, m.state, "red", ["melee"]) == ["melee FIGURE attackers=FIGURE,FIGURE"]


def test_a_test_that_pins_tells_the_pins_each_figure_holds_after_it():
    """A 2nd morale failure pins every figure of the section (card: "all figures pinned");
    B2 and B3, pinned already, then held two, which no line said, and a later 'B2 removes 1
    pin, 1 left' puzzled. The test's line ends with the pins each figure holds after it."""
    t = Table(red=[figure("R1")], blue=[figure("B1")], phase="morale")
    t.state.sections["R"].failures, t.state.sections["R"].killed_this_turn = 1, 1
    t.fig("R1").pins = 1
    t.test("red", "morale R trigger=killed", [1])
    assert t.state.tests[-1]["pins_after"] == {"R0": 1, "R1": 2}
    line = report.test_lines(report._test(t.state.tests[-1]))[1]
    assert line.endswith("; pins now: R0 1, R1 2"), line
    before = Table(red=[figure("R1")], blue=[figure("B1")], phase="morale",
                   card=msgspec.structs.replace(ONE_STEP, pins_told=False))
    before.state.sections["R"].failures, before.state.sections["R"].killed_this_turn = 1, 1
    before.test("red", "morale R trigger=killed", [1])
    assert "pins_after" not in before.state.tests[-1]


def test_a_melee_phase_passed_over_is_said_as_the_artillery_phase_is(cli, tmp_path):
    """With no figure in contact the melee phase is passed over; the report said so of the
    off-table artillery phase, and nothing of the melee phase, which the reader looked for.
    It says so too, that turn, and not once a melee was fought or before the phase."""
    j = tmp_path / "p.jsonl"
    assert cli("new", j, "--game", "skirmish", "--scenario", "patrol", "--dice",
               "manual").exit_code == 0
    said = "No figure in contact this turn: its melee phase was passed over"
    assert said not in cli("skirmish", "report", j).stdout
    done_until(cli, j, "morale")
    text = cli("skirmish", "report", j).stdout
    assert text.splitlines()[3] == said, text
    assert json.loads(cli("skirmish", "report", j, "--format", "json").stdout
                      )["melee_passed"] is True


def test_a_mistyped_mode_is_answered_with_the_nearest_the_card_knows():
    """'move B4 mode=manouvre' was refused "mode= is one of assault, manoeuvre, rush,
    stealthy" with no guess, where a mistyped figure gets one. The nearest mode is named
    (a morale test's trigger= likewise); a value near none gets no guess."""
    t = Table(red=[figure("R1")], blue=[figure("B1")], phase="movement")
    rule, why = t.refusal("red", "move R1 mode=manouvre command=yes")
    assert why.startswith("mode= is one of ") and why.endswith("; did you mean manoeuvre?")
    assert "did you mean" not in t.refusal("red", "move R1 mode=xyzzy command=yes")[1]


def test_a_refusal_about_a_figure_cites_the_scenario_in_a_players_words():
    """"B5 is not a figure of the German side (rule the scenario's forces)": no rule has
    that name, and no player reads it as one. The refusal cites the scenario's Forces, the
    heading his report lists the figures under, without calling it a rule."""
    t = Table(red=[figure("R1")], blue=[figure("B1")], phase="movement")
    rule, why = t.refusal("red", "move B1 mode=stealthy command=yes")
    said = str(IllegalOrderError("move B1 mode=stealthy command=yes", rule, why))
    assert said.endswith("B1 is not a figure of the Red side (the scenario's Forces, as "
                         "your report lists them)"), said
    assert "(rule " not in said


def test_unaimed_fire_gives_the_die_the_score_it_is_compared_with_and_what_raised_it():
    """"D20=8; modifiers +1 target in hard cover (at G2) -> G2 not pinned (18+ needed)" read
    as 8 + 1 = 9 against a card that says Stubborn 17 or more: the +1 raises the score
    needed, it is not added to the die. With the card's unaimed_needs the result gives the
    die, the score it is compared with, the quality's score and the modifier raising it, and
    lists no modifier as if added to the die; a journal made before keeps its line."""
    told = msgspec.structs.replace(ONE_STEP, unaimed_needs=True)
    t = Table(red=[figure("R1")], blue=[figure("B1", "stubborn")], card=told)
    shot = t.test("red", "unaimed R1 at=B1 range=30 cover=hard command=yes", [8])
    assert shot["result"] == ("B1 not pinned (18 or more needed: Stubborn 17, +1 target in "
                              "hard cover raising it)")
    line = report.test_lines({**shot, "record": 1, "side": "red",
                              "order": "unaimed R1 at=B1 range=30 cover=hard command=yes"})[1]
    assert "modifiers" not in line and line.startswith("    D20=8 -> B1 not pinned"), line
    smg = Table(red=[figure("R1", weapon="smg")], blue=[figure("B1")], card=told)
    burst = smg.test("red", "unaimed R1 at=B1 range=5 command=yes", [3, 13, 2])
    assert burst["result"] == ("B1 pinned (13 or more needed: Regular 15, -2 firer using "
                               "automatic fire lowering it)")
    before = Table(red=[figure("R1")], blue=[figure("B1", "stubborn")])
    old = before.test("red", "unaimed R1 at=B1 range=30 cover=hard command=yes", [8])
    assert old["result"] == "B1 not pinned (18+ needed)"
    assert "; modifiers +1 target in hard cover (at B1)" in report.test_lines(
        {**old, "record": 1, "side": "red", "order": "unaimed"})[1]
    assert CARD.unaimed_needs


def test_a_void_test_of_a_journal_made_before_keeps_its_line():
    """A journal made before voids_told: the void shot's line gives its dice and modifiers,
    then "-> void: ..."; with it, void leads, and the modifiers are gone."""
    shot = {"record": 3, "side": "red", "order": "fire R1 at=B1 range=90", "kind": "fire",
            "dice": [{"die": 20, "value": 19}], "rule": "Aimed Fire (D20)", "facts": {},
            "effects": [], "modifiers": [{"id": "marksman", "value": 2, "why": "marksman",
                                          "who": "B1"}], "result": "void: out of range"}
    assert report.test_lines(settled.told_void(ONE_STEP, shot))[1] == \
        "    D20=19; modifiers +2 marksman (at B1) -> void: out of range (Aimed Fire (D20))"
    told = settled.told_void(msgspec.structs.replace(ONE_STEP, voids_told=True), shot)
    assert report.test_lines(told)[1] == "    void: out of range; D20=19 counted for nothing " \
        "(Aimed Fire (D20))"
    assert CARD.voids_told and not ONE_STEP.voids_told


def test_a_melee_says_an_outcome_both_attackers_reach_once():
    """"B5 3 v G6 1: G6 killed; B2 8 v G6 1: G6 killed" told the kill twice. With the card's
    said_once the attackers reaching one outcome share it; different outcomes stay apart;
    a journal made before keeps its line."""
    told = msgspec.structs.replace(ONE_STEP, said_once=True)
    t = Table(red=[figure("R1"), figure("R2")], blue=[figure("B1")], phase="movement",
              card=told)
    t.into_contact("red", "R1", "R2", at="B1")
    got = t.test("red", "melee B1 attackers=R1,R2", [1, 3, 6])
    assert got["result"] == "R1 3 v B1 1, R2 8 v B1 1: B1 killed"
    mixed = Table(red=[figure("R1"), figure("R2")], blue=[figure("B1")], phase="movement",
                  card=told)
    mixed.into_contact("red", "R1", "R2", at="B1")
    assert mixed.test("red", "melee B1 attackers=R1,R2", [3, 1, 3])["result"] == \
        "R1 1 v B1 3: R1 killed; R2 5 v B1 3: B1 killed"
    before = Table(red=[figure("R1"), figure("R2")], blue=[figure("B1")], phase="movement")
    before.into_contact("red", "R1", "R2", at="B1")
    assert before.test("red", "melee B1 attackers=R1,R2", [1, 3, 6])["result"] == \
        "R1 3 v B1 1: B1 killed; R2 8 v B1 1: B1 killed"
    assert CARD.said_once


def test_a_report_under_the_readers_decision_does_not_say_it_waits_on_him():
    """"Your decision: ..." then "Waiting on the British player" in the report under it: said
    twice. With the card's said_once the line is left out when it names the reader alone
    and his decision is asked; kept when it names the other side too, and when not asked."""
    doc = {"game_id": "g", "scenario": "s", "turn": 1, "phase": "movement",
           "waiting": ["red"], "owed": {}, "tests": [], "disputes": [], "sections": [],
           "figures": [{"id": f"{s[0].upper()}1", "side": s, "section": None, "pins": 0,
                        "quality": "regular", "weapon": "rifle", "state": "active"}
                       for s in ("red", "blue")]}
    asked = ["Your decision: turn 1, movement phase."]
    assert "Waiting on" not in report.report_text(
        asking.told_once(doc, "red", asked, True))
    assert "Waiting on the Red player" in report.report_text(
        asking.told_once(doc, "red", asked, False))
    both = {**doc, "waiting": ["red", "blue"]}
    assert "Waiting on the Red and Blue players" in report.report_text(
        asking.told_once(both, "red", asked, True))
    assert "Waiting on the Red player" in report.report_text(
        asking.told_once(doc, "red", ["Waiting on the Red player: ..."], True))
