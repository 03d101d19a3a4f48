"""A move of the turn settled by the moderator marks its figure as ruled (card
settled_moves): how it moved (Movement: the Fire? column), whether it moved into contact
(Hand-to-Hand Combat: "no charge moves", "the figure moving into contact can't shoot"), and,
a move it could not make (void), no move at all. A test taken before the ruling stands."""

from __future__ import annotations

import json

import msgspec
from skirmish_cases import ONE_STEP, Table, done_until, figure

from referee.table.skirmish import decider as sk


def _game(cli, tmp_path):
    j = tmp_path / "m.jsonl"
    assert cli("new", j, "--game", "skirmish", "--scenario", "patrol", "--dice",
               "manual").exit_code == 0

    def order(side, text, *dice, ok=True):
        r = cli("order", j, "--as", side, text, *(("--dice", ",".join(dice)) if dice else ()))
        assert (r.exit_code == 0) == ok, (text, r.stdout, r.stderr)
        return r
    return j, order


def _ruled(order, n: int, fact: str, value: str, *dice: str) -> None:
    order("german", f"dispute record={n} fact={fact} value={value}")
    order("moderator", f"settle record={n} fact={fact} value={value}", *dice)


def test_a_contact_settled_away_is_no_move_into_contact(cli, tmp_path):
    """B2's assault declared contact=yes; ruled no: B2 is no new attacker in the melee."""
    j, order = _game(cli, tmp_path)
    order("british", "move B2 mode=assault contact=yes at=G1 command=yes", "3")
    _ruled(order, 1, "contact", "no")
    order("british", "move B3 mode=assault contact=yes at=G1 command=yes", "3")   # a melee to come
    done_until(cli, j, "melee")
    r = order("british", "melee G1 attackers=B2", "2", "5", ok=False)
    assert "did not move into contact" in r.stderr, r.stderr


def test_a_contact_settled_in_bars_the_shot_and_lets_the_figure_attack(cli, tmp_path):
    """B2's assault declared contact=no; ruled yes: B2 moved into contact, so it can't
    shoot, and attacks in the melee."""
    j, order = _game(cli, tmp_path)
    order("british", "move B2 mode=assault contact=no command=yes", "3")
    order("german", "dispute record=1 fact=contact value=yes")
    order("moderator", "settle record=1 fact=contact value=yes at=G1")
    done_until(cli, j, "fire", step="regular")
    r = order("british", "unaimed B2 at=G1 range=3 command=yes", "12", ok=False)
    assert "B2 moved into contact and can't shoot" in r.stderr, r.stderr
    done_until(cli, j, "melee")
    order("british", "melee G1 attackers=B2", "2", "5")
    assert cli("verify", j).exit_code == 0


def test_a_mode_settled_is_the_mode_the_figure_moved_by(cli, tmp_path):
    """B2 declared a rush (no fire), ruled a manoeuvre: unaimed fire is open to it; B3
    declared a manoeuvre, ruled a rush: it may not fire."""
    j, order = _game(cli, tmp_path)
    order("british", "move B2 mode=rush command=yes", "3", "3")
    _ruled(order, 1, "mode", "manoeuvre")
    order("british", "move B3 mode=manoeuvre command=yes", "3")
    _ruled(order, 4, "mode", "rush", "2")       # the rush's second die
    done_until(cli, j, "fire", step="veteran")
    r = order("british", "unaimed B3 at=G2 range=10 command=yes", "12", ok=False)
    assert "B3 moved rush this turn and may not fire" in r.stderr, r.stderr
    done_until(cli, j, "fire", step="regular")
    order("british", "unaimed B2 at=G1 range=10 command=yes", "12")
    doc = json.loads(cli("skirmish", "report", j, "--format", "json").stdout)
    moved = {f["id"]: f["moved"] for f in doc["figures"]}
    assert (moved["B2"], moved["B3"]) == ("manoeuvre", "rush")


def test_a_move_ruled_void_is_no_move(cli, tmp_path):
    """B2's manoeuvre declared a leader in command range; ruled none, the move is void
    ("cannot move: no leader is within command range"): B2 did not move, and may fire
    aimed, which a manoeuvre would have barred."""
    j, order = _game(cli, tmp_path)
    order("british", "move B2 mode=manoeuvre command=yes", "3")
    _ruled(order, 1, "command", "no")
    doc = json.loads(cli("skirmish", "report", j, "--format", "json").stdout)
    (b2,) = [f for f in doc["figures"] if f["id"] == "B2"]
    assert b2["moved"] is None
    done_until(cli, j, "fire", step="regular")
    order("british", "fire B2 at=G2 range=10 state=halted cover=none command=yes", "3")
    assert cli("verify", j).exit_code == 0


def test_a_melee_fought_before_the_ruling_stands(cli, tmp_path):
    """B2 moved into contact and fought G1 (G1 pinned); the German then disputes the
    contact and the moderator rules it away: the melee's dice were rolled and stand, B2
    no longer counts as having moved into contact, and the journal verifies."""
    j, order = _game(cli, tmp_path)
    order("british", "move B2 mode=assault contact=yes at=G1 command=yes", "3")
    done_until(cli, j, "melee")
    order("british", "melee G1 attackers=B2", "2", "5")
    _ruled(order, 1, "contact", "no")
    doc = json.loads(cli("skirmish", "report", j, "--format", "json").stdout)
    melee = [t for t in doc["tests"] if t["kind"] == "melee"]
    assert [t["result"] for t in melee] == ["B2 5 v G1 4: G1 pinned"], melee
    assert {f["id"]: f["pins"] for f in doc["figures"]}["G1"] == 1
    assert cli("verify", j).exit_code == 0


def test_a_break_off_ruled_void_leaves_the_figures_in_contact(cli, tmp_path):
    """Turn 1's melee leaves B2 and G1 standing, in contact. In turn 2 B2 moves away to
    break off; ruled not away, its move is void (in contact, it moves only to break off):
    it stood, so the contact holds and the British owe its melee before their done."""
    j, order = _game(cli, tmp_path)
    order("british", "move B2 mode=assault contact=yes at=G1 command=yes", "3")
    done_until(cli, j, "melee")
    order("british", "melee G1 attackers=B2", "2", "4")          # 4 v 4: both stand
    done_until(cli, j, "movement", turn=2)
    r = order("british", "move B2 mode=rush away=yes command=yes", "3", "3")
    n = int(r.stdout.split()[0].lstrip("#"))
    _ruled(order, n, "away", "no")
    done_until(cli, j, "melee", turn=2)
    r = order("british", "done", ok=False)
    assert "figures in contact must fight" in r.stderr, r.stderr
    order("british", "melee G1 attackers=B2", "4", "4")


def _rule(t: Table, test: dict, fact: str, value, void: bool = False) -> None:
    """The moderator's ruling on record 1 (test): fact set to value, the test void or not."""
    ruled = {**test, "facts": {**test["facts"], fact: value},
             **({"result": "void: ruled so", "effects": []} if void else {})}
    t.seq += 1
    sk.evolve(t.card, t.state, {"actor": "moderator", "order": "settle", "settle": {
        "record": 1, "fact": fact, "value": value, "test": ruled}}, t.seq)


def _settled(card, fact: str, value) -> sk.SkState:
    """R1 moved into contact (record 1), then the moderator's ruling set a fact of it."""
    t = Table(red=[figure("R1")], blue=[figure("B1")], phase="movement", card=card)
    test = t.test("red", "move R1 mode=assault contact=yes at=B1 command=yes", [3])
    _rule(t, test, fact, value)
    return t.state


def test_a_break_off_ruled_void_then_made_again_breaks_off_again():
    """R1, in contact with B1 since an earlier turn, moves away: the contact ends; a ruling
    voids the move (it stood: the contact holds); a later one on another of its facts makes
    it again (it broke off after all)."""
    t = Table(red=[figure("R1")], blue=[figure("B1")], phase="movement")
    t.state.contacts = [{"defender": "B1", "attackers": ["R1"], "turn": 0}]
    test = t.test("red", "move R1 mode=rush away=yes command=yes", [3, 3])
    assert t.state.contacts == []
    _rule(t, test, "command", False, void=True)
    assert t.state.contacts == [{"defender": "B1", "attackers": ["R1"], "turn": 0}]
    assert t.fig("R1").moved is None
    _rule(t, test, "mode", "rush")
    assert t.state.contacts == [] and t.fig("R1").moved == "rush"


def test_a_journal_made_before_keeps_the_move_as_declared():
    """A card without settled_moves (a journal made before) replays as played: the figure
    keeps the contact its move declared; this card's ruling takes it away."""
    old = msgspec.structs.replace(ONE_STEP, settled_moves=False)
    assert _settled(old, "contact", False).figures["R1"].contact is True
    assert _settled(ONE_STEP, "contact", False).figures["R1"].contact is False
