"""player.md, A skirmish: "Only the orders that can be legal are listed". The forms a
report lists are derived from the checks that refuse the orders: an order the referee
would refuse for every figure of the side is not listed, nor a value no order could take."""

from __future__ import annotations

import json

from skirmish_cases import DUEL, done_until


def _new(cli, tmp_path, scenario="patrol"):
    j = tmp_path / "g.jsonl"
    if scenario == "duel":
        (tmp_path / "duel.yaml").write_text(DUEL, encoding="utf-8")
        scenario = tmp_path / "duel.yaml"
    r = cli("new", j, "--game", "skirmish", "--scenario", scenario, "--dice", "manual")
    assert r.exit_code == 0, r.stderr

    def order(side, text, *dice):
        r = cli("order", j, "--as", side, text, *(("--dice", ",".join(dice)) if dice else ()))
        assert r.exit_code == 0, r.stderr
    return j, order


def _listed(cli, j, side: str) -> list[str]:
    """The forms his report lists, each on one line (its continuations joined)."""
    lines = cli("skirmish", "report", j, "--as", side).stdout.splitlines()
    start = next(n for n, line in enumerate(lines) if line.endswith("between |):")) + 1
    forms: list[str] = []
    for line in lines[start:]:
        if not line.strip():
            break
        if line.startswith("    "):
            forms[-1] += " " + line.strip()
        else:
            forms.append(line.strip())
    return forms


def test_melee_is_not_listed_when_every_figure_of_the_side_has_fired(cli, tmp_path):
    """Card, Hand-to-Hand Combat: "the figure moving into contact can't shoot"."""
    j, order = _new(cli, tmp_path, "duel")
    order("german", "done")
    order("british", "move B1 mode=assault contact=yes at=G1 command=yes", "3")
    done_until(cli, j, "fire")
    order("german", "fire G1 at=B1 range=1 state=moving cover=none command=yes", "1")
    done_until(cli, j, "melee")
    assert not any(f.startswith("melee") for f in _listed(cli, j, "german"))
    # The one melee open to him, named whole (formnotes.py, listed._melee_form).
    assert "melee G1 attackers=B1" in _listed(cli, j, "british")
    r = cli("order", j, "--as", "german", "melee B1 attackers=G1")
    assert r.exit_code == 1 and "G1 fired this turn" in r.stderr


def test_a_routing_section_is_offered_only_the_rush_away(cli, tmp_path):
    """Card, Morale: "2nd Failure: ... only move away from enemy, using Rush move"."""
    j, order = _new(cli, tmp_path)
    done_until(cli, j, "morale")
    order("german", "morale G trigger=tank", "1")
    order("german", "morale G trigger=tank", "1")
    done_until(cli, j, "movement", turn=2)
    order("british", "done")
    assert "move FIGURE mode=rush away=yes contact=no command=yes|no" in \
        _listed(cli, j, "german")
    r = cli("order", j, "--as", "german", "move G2 mode=manoeuvre away=yes command=yes")
    assert r.exit_code == 1 and "moves only away from the enemy, by rush" in r.stderr


def test_unaimed_fire_and_spotting_take_one_target(cli, tmp_path):
    """Card, Unaimed Fire: one figure a test (and a spotting test one target); aimed fire
    names several only with a weapon that fires at several (an LMG's 4" radius)."""
    j, order = _new(cli, tmp_path)
    done_until(cli, j, "fire", step="regular")
    listed = _listed(cli, j, "british")
    assert any(f.startswith("unaimed FIGURE at=FIGURE range=N") for f in listed), listed
    assert any(f.startswith("spot FIGURE at=FIGURE range=N") for f in listed), listed
    assert any(f.startswith("fire FIGURE at=FIGURE,FIGURE range=N") for f in listed), listed
    r = cli("order", j, "--as", "british", "unaimed B2 at=G1,G2 range=10 command=yes")
    assert r.exit_code == 1 and "unaimed fire is at one figure" in r.stderr
    (tmp_path / "duel").mkdir()
    j, order = _new(cli, tmp_path / "duel", "duel")
    done_until(cli, j, "fire")
    assert any(f.startswith("fire FIGURE at=FIGURE range=N") for f in _listed(cli, j, "german"))


def test_a_dispute_open_to_the_reader_is_listed_with_his_decision(cli, tmp_path):
    """player.md, A skirmish: the opponent may dispute a declared fact within the challenge
    window; a reader asked for his decision is told so in the list of his orders too."""
    j, order = _new(cli, tmp_path)
    assert "dispute" not in " ".join(_listed(cli, j, "british"))
    order("british", "move B2 mode=manoeuvre command=yes", "3")
    listed = _listed(cli, j, "german")
    assert listed[-2:] == ["dispute record=N fact=KEY value=VALUE", "done"], listed
    assert not any(f.startswith("dispute") for f in _listed(cli, j, "british"))


def test_the_side_whose_unit_moves_second_is_told_he_waits_not_asked(cli, tmp_path):
    """Card, Sequence of Play: "Movement (alternate units)", the scenario's first side
    first: until a British unit has moved, no German move can be taken, so the German is
    told he waits; once it has, he is asked."""
    j, order = _new(cli, tmp_path)
    german = cli("skirmish", "report", j, "--as", "german").stdout
    assert "Your decision" not in german and "Nothing is asked of you now" in german
    assert "\nWaiting on the British player: turn 1, movement phase (units move in" in german
    assert json.loads(cli("status", j, "--format", "json").stdout)["waiting_on"] == ["british"]
    r = cli("order", j, "--as", "german", "move G2 mode=manoeuvre command=yes")
    assert r.exit_code == 1 and "units move in turn" in r.stderr
    order("british", "move B2 mode=manoeuvre command=yes", "3")
    german = cli("skirmish", "report", j, "--as", "german").stdout
    assert "Your decision: turn 1, movement phase (units move in turn: a German" in german
    assert any(f.startswith("move FIGURE") for f in _listed(cli, j, "german"))
    assert json.loads(cli("status", j, "--format", "json").stdout)["waiting_on"] == [
        "british", "german"]


def test_the_side_told_he_waits_is_told_too_what_he_may_still_send(cli, tmp_path):
    """While the British unit moves first, the German may still spot or say done (check
    takes them; no surrender, with no figure in a melee nor a section routing, card
    surrender.melee_checked): his report says so in one line, after "Nothing is asked"."""
    j, order = _new(cli, tmp_path)
    german = cli("skirmish", "report", j, "--as", "german").stdout
    said = " ".join(german.split("Nothing is asked of you now.", 1)[1].split())
    assert "You may still send, though the game does not wait on you: spot FIGURE " \
           "at=FIGURE" in said
    assert "surrender " not in said and "; done. Reply keeping the Order key line your " \
        "mail gives." in said
    r = cli("order", j, "--as", "german", "spot G2 at=B2 range=4 light=day state=halted "
                                          "cover=none")
    assert r.exit_code == 0, r.stderr
    british = cli("skirmish", "report", j, "--as", "british").stdout
    assert "You may still send" not in british


def test_the_side_finishing_its_unit_is_told_so_not_that_the_other_moves_next(cli, tmp_path):
    """rules.md, Sequence of play: units move in turn, and check takes a figure of a section
    the side began moving (move_turn). Once a British figure of section B has moved, the
    British mail does not only say a German unit is next, which reads as a refusal of the
    move B3 it then takes: it says he may finish moving section B, or say done."""
    j, order = _new(cli, tmp_path)
    order("british", "move B2 mode=manoeuvre command=yes", "3")
    british = " ".join(cli("skirmish", "report", j, "--as", "british").stdout.split())
    said = "turn 1, movement phase (units move in turn: a German unit next; until it " \
           "moves, the British side may finish moving section B): the tests"
    assert f"Your decision: {said}" in british, british
    german = " ".join(cli("skirmish", "report", j, "--as", "german").stdout.split())
    assert f"Your decision: {said}" in german, german
    order("british", "move B3 mode=manoeuvre command=yes", "3")
    r = cli("order", j, "--as", "british", "move B0 mode=manoeuvre command=yes", "--dice", "3")
    assert r.exit_code == 0, r.stderr
    status = " ".join(cli("status", j).stdout.split())
    assert "(units move in turn: a German unit next;" in status, status


def test_a_dispute_is_offered_only_while_a_test_of_the_other_side_is_open_to_it(cli,
                                                                                tmp_path):
    """player.md, A skirmish: a side disputes a fact the other side declared, within his
    challenge window. A side the game does not wait on is offered a dispute only when a
    test of the other side's is open to it (ending.disputable, as his order list reads it),
    not before the other side has made any test."""
    j, order = _new(cli, tmp_path)
    german = " ".join(cli("skirmish", "report", j, "--as", "german").stdout.split())
    assert "Nothing is asked of you now" in german and "dispute" not in german, german
    order("british", "done")
    british = " ".join(cli("skirmish", "report", j, "--as", "british").stdout.split())
    assert "Nothing is asked of you now" in british and "dispute" not in british, british
    order("german", "move G2 mode=manoeuvre command=yes", "3")
    british = " ".join(cli("skirmish", "report", j, "--as", "british").stdout.split())
    assert "Meanwhile you may dispute a fact the other side declared, within the " \
           "challenge window: dispute record=N fact=KEY value=VALUE" in british, british


def test_a_figure_killed_in_its_own_fire_step_is_told_to_fire_still(cli, tmp_path):
    """player.md, A skirmish: the figures of one fire step fire at the same time, so one
    killed by an enemy of its own step still fires in it. The order list that offers its
    fire says so beside the fire forms, since the forces call it killed."""
    j, order = _new(cli, tmp_path)
    done_until(cli, j, "fire", step="veteran")
    order("german", "fire G5 at=B3 range=20 state=halted command=yes", "20")
    listed = _listed(cli, j, "british")
    note = "(B3 was killed in this fire step and still fires in it: the figures of one " \
           "step fire together)"
    fires = [n for n, f in enumerate(listed) if f.startswith(("fire ", "unaimed "))]
    # After the note of the figures firing now (formnotes.py).
    assert fires and listed[fires[-1] + 1].startswith("(firing now: ") and \
        listed[fires[-1] + 1].endswith(f") {note}"), listed
    order("british", "fire B3 at=G5 range=20 state=halted cover=soft command=yes", "1")
    assert note not in _listed(cli, j, "british")
