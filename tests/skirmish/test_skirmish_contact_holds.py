"""Card, Hand-to-Hand Combat: "If contacted a figure can't move". With the card's
melee.contact_holds a move into contact names the enemy figure it contacts (`contact=yes
at=G6`); that figure moves no more this turn, and in the melee that follows the mover
attacks it and no other. A card without it (a journal made before) named no one, and the
figure contacted could still move away."""

from __future__ import annotations

import json

import msgspec
from skirmish_cases import ONE_STEP, Table, done_until, figure

from referee.table.skirmish.contacted import standing
from referee.table.skirmish.listed import forms
from referee.table.skirmish.nearest import FORCES

OLD = msgspec.structs.replace(ONE_STEP, melee=msgspec.structs.replace(
    ONE_STEP.melee, contact_holds=False))
HTH = "Hand-to-Hand Combat"


def _order(cli, j, side, text, dice=None):
    return cli("order", j, "--as", side, text, *(("--dice", dice) if dice else ()))


def test_a_figure_contacted_this_turn_can_t_move(cli, tmp_path):
    """The patrol's turn as a tester played it: B5 and B2 move into contact with G6, G4
    and G3 move; then G6 rushes away before the melee. Refused in one line, naming who
    contacted it and the card's line, and the journal is unchanged."""
    j = tmp_path / "p.jsonl"
    assert cli("new", j, "--game", "skirmish", "--scenario", "patrol", "--dice",
               "manual").exit_code == 0
    for side, text, dice in (
            ("british", "move B5 mode=assault contact=yes at=G6 command=yes", "3"),
            ("british", "move B2 mode=manoeuvre contact=yes at=G6 command=yes", "3"),
            ("german", "move G4 mode=manoeuvre command=yes", "3"),
            ("german", "move G3 mode=stealthy command=yes", None)):
        r = _order(cli, j, side, text, dice)
        assert r.exit_code == 0, r.stderr
    before = j.read_bytes()
    r = _order(cli, j, "german", "move G6 mode=rush command=yes", "3,3")
    assert r.exit_code == 1 and r.stdout == ""
    line, = r.stderr.strip().splitlines()
    assert "'move G6 mode=rush command=yes'" in line
    assert "G6 was contacted this turn by B5 (record 1) and B2 (record 2): a contacted " \
        "figure can't move" in line and f"(rule {HTH})" in line, line
    assert j.read_bytes() == before
    assert _order(cli, j, "german", "move G6 mode=rush away=yes command=yes",
                  "3,3").exit_code == 1
    # The German's move form still offers his other figures; G6 is held the whole turn.
    assert _order(cli, j, "german", "move G2 mode=manoeuvre command=yes", "3").exit_code == 0
    done_until(cli, j, "melee")
    assert _order(cli, j, "british", "melee G6 attackers=B5,B2", "3,3,3").exit_code == 0
    assert cli("verify", j).exit_code == 0


def test_a_game_made_before_lets_the_contacted_figure_move():
    """A card without contact_holds (a journal made before) reads no at= on a move, and
    the figure contacted moves on, as it was played."""
    t = Table(red=[figure("R1")], blue=[figure("B1")], phase="movement", card=OLD)
    t.test("red", "move R1 mode=assault contact=yes command=yes", [3])
    assert t.refusal("blue", "move B1 mode=rush command=yes") is None
    rule, why = t.refusal("red", "move R0 mode=assault contact=yes at=B1 command=yes")
    assert rule == "Movement"
    assert why == "at=: a move in this game names no figure it contacts (it takes mode=, " \
        "away=, contact=, command=)"
    assert not any("at=" in f for f in forms(t.card, t.state, "red", ["move"]))


def test_the_same_move_is_refused_with_this_card():
    t = Table(red=[figure("R1")], blue=[figure("B1")], phase="movement")
    t.test("red", "move R1 mode=assault contact=yes at=B1 command=yes", [3])
    assert t.fig("R1").contact_at == "B1"
    rule, why = t.refusal("blue", "move B1 mode=rush command=yes")
    assert (rule, why) == (HTH, "B1 was contacted this turn by R1 (record 1): a contacted "
                                "figure can't move, and fights its melee first")
    assert t.refusal("blue", "move B0 mode=rush command=yes") is None      # not contacted
    t.until("melee")
    t.test("red", "melee B1 attackers=R1", [4, 4])       # the melee owed, a draw
    t.until("movement")              # the next turn: held no longer, it may break off
    t.test("red", "done")
    assert t.state.turn == 2 and \
        t.refusal("blue", "move B1 mode=rush away=yes command=yes") is None


def test_a_move_into_contact_names_one_enemy_figure_standing_on_the_table():
    t = Table(red=[figure("R1"), figure("R2")], blue=[figure("B1"), figure("B2")],
              phase="movement")
    t.fig("B2").killed = True
    move = "move R1 mode=assault command=yes contact=yes"
    assert t.refusal("red", move) == (
        HTH, "declare at=: the enemy figure the move contacts (contact=yes at=FIGURE)")
    assert t.refusal("red", f"{move} at=R2") == (FORCES, "'R2' is no enemy figure on the table")
    assert t.refusal("red", f"{move} at=B9") == (FORCES, "'B9' is no enemy figure on the table")
    assert t.refusal("red", f"{move} at=B2")[1].startswith("B2 is no enemy figure on the "
                                                           "table: it was killed")
    assert t.refusal("red", f"{move} at=B0,B1") == (
        HTH, "a move into contact names one enemy figure: at=FIGURE")
    assert t.refusal("red", "move R1 mode=assault at=B1 command=yes")[0] == HTH
    assert t.refusal("red", f"{move} at=B1") is None
    t.state.sections["B"].dispersed = True           # (the game would be over: checked alone)
    rule, why = standing(t.state, "B1", "red")
    assert rule == "Morale" and why.startswith("B1's section B has dispersed")


def test_the_melee_is_fought_between_the_figures_named():
    t = Table(red=[figure("R1"), figure("R2")], blue=[figure("B1"), figure("B2")],
              phase="movement")
    t.test("red", "move R1 mode=assault contact=yes at=B1 command=yes", [3])
    t.test("red", "move R2 mode=assault contact=yes at=B2 command=yes", [3])
    t.until("melee")
    assert t.refusal("red", "melee B2 attackers=R1") == (
        HTH, "R1 moved into contact with B1 this turn (record 1): it attacks B1, not B2")
    assert t.refusal("red", "melee B1 attackers=R1,R2")[1].startswith("R2 moved into "
                                                                      "contact with B2")
    t.test("red", "melee B1 attackers=R1", [3, 3])
    t.test("red", "melee B2 attackers=R2", [3, 3])
    assert t.state.contacts == [{"defender": "B1", "attackers": ["R1"], "turn": 1},
                                {"defender": "B2", "attackers": ["R2"], "turn": 1}]


def test_the_move_form_offers_at_with_contact():
    t = Table(red=[figure("R1")], blue=[figure("B1")], phase="movement")
    form, = forms(t.card, t.state, "red", ["move"])
    assert "contact=yes|no at=FIGURE command=yes|no" in form, form


def test_a_contact_ruled_away_frees_the_figure_and_one_ruled_in_names_it(cli, tmp_path):
    """The moderator rules B2's contact=yes no: at= goes with it, and G1 may move; he rules
    B3's contact=no yes, naming the figure it contacted: G2 is held."""
    j = tmp_path / "m.jsonl"
    assert cli("new", j, "--game", "skirmish", "--scenario", "patrol", "--dice",
               "manual").exit_code == 0
    assert _order(cli, j, "british", "move B2 mode=assault contact=yes at=G1 command=yes",
                  "3").exit_code == 0
    assert _order(cli, j, "british", "move B3 mode=assault contact=no command=yes",
                  "3").exit_code == 0
    for n, value in ((1, "no"), (2, "yes")):
        assert _order(cli, j, "german", f"dispute record={n} fact=contact value={value}"
                      ).exit_code == 0
    assert _order(cli, j, "moderator", "settle record=1 fact=contact value=no").exit_code == 0
    r = _order(cli, j, "moderator", "settle record=2 fact=contact value=yes")
    assert r.exit_code == 1 and "declare at=" in r.stderr
    assert _order(cli, j, "moderator", "settle record=2 fact=contact value=yes at=G2"
                  ).exit_code == 0
    doc = json.loads(cli("skirmish", "report", j, "--format", "json").stdout)
    assert [x["facts"] for x in doc["tests"] if x["record"] in (1, 2)] == [
        {"command": True, "contact": False, "mode": "assault"},
        {"at": ["G2"], "command": True, "contact": True, "mode": "assault"}]
    assert _order(cli, j, "german", "move G1 mode=rush command=yes", "3,3").exit_code == 0
    r = _order(cli, j, "german", "move G2 mode=rush command=yes", "3,3")
    assert r.exit_code == 1 and "G2 was contacted this turn by B3 (record 2)" in r.stderr
    assert cli("verify", j).exit_code == 0
