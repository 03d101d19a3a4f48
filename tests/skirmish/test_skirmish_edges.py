"""Where the skirmish's flow could stall or be bent: a melee owed by figures that can no
longer fight, a surrender the enemy claims for a figure in no melee, a correction that
leaves a contact behind, a step whose fire depends on who mailed first, a correction that
calls for a fact, and a card whose turn opens with its fire."""

from __future__ import annotations

import json

import msgspec
from skirmish_cases import CARD, Table, done_until, figure

from referee.table.skirmish import decider as sk
from referee.table.skirmish import report


def _new(cli, j) -> None:
    assert cli("new", j, "--game", "skirmish", "--scenario", "patrol", "--game-id", "x",
               "--dice", "manual").exit_code == 0


def _order(cli, j, side, text, dice=None):
    return cli("order", j, "--as", side, text, *(["--dice", dice] if dice else []))


def _last(cli, j) -> int:
    return json.loads(cli("status", j, "--format", "json").stdout)["seq"]


def test_a_section_dispersed_in_contact_leaves_it_and_owes_no_melee(cli, tmp_path):
    """Morale: "3rd Failure: Unit disperses". A dispersed section fights no more, so its
    figure in contact owes no melee and the phase can end."""
    j = tmp_path / "p.jsonl"
    _new(cli, j)
    assert _order(cli, j, "british", "move B2 mode=assault contact=yes at=G2 command=yes",
                  "3").exit_code == 0
    done_until(cli, j, "melee")
    assert _order(cli, j, "british", "melee G2 attackers=B2", "3,3").exit_code == 0
    done_until(cli, j, "morale")
    for _ in range(3):
        assert _order(cli, j, "british", "morale B trigger=tank", "1").exit_code == 0
    # No figure is left in contact: turn 2's melee phase is passed over (melee_passed_over).
    done_until(cli, j, "morale", turn=2)
    assert json.loads(cli("status", j, "--format", "json").stdout)["owed"] == {}


def test_the_enemy_claims_the_surrender_of_a_figure_in_a_melee_only():
    """Surrendering: "Individual figures in a melee will also surrender if ...": the enemy
    may claim it for a figure in a melee, not for any figure on the table."""
    t = Table(red=[figure("R1")], blue=[figure("B1")], phase="movement")
    rule, why = t.refusal("blue", "surrender R1 reason=melee enemies=4 closer=yes")
    assert rule == "Surrendering" and "R1 is in no melee" in why
    t = Table(red=[figure("R1")], blue=[figure("B1")], phase="movement")
    t.test("red", "done")
    t.into_contact("blue", "B1", at="R1")
    t.test("blue", "melee R1 attackers=B1", [3, 3])
    assert t.refusal("blue", "surrender R1 reason=melee enemies=4 closer=yes") is None


def test_a_settle_that_drops_an_attacker_releases_him_from_contact(cli, tmp_path):
    j = tmp_path / "p.jsonl"
    _new(cli, j)
    for fid in ("B2", "B3"):
        assert _order(cli, j, "british",
                      f"move {fid} mode=assault contact=yes at=G2 command=yes",
                      "3").exit_code == 0
    done_until(cli, j, "melee")
    assert _order(cli, j, "british", "melee G2 attackers=B2,B3", "3,4,1").exit_code == 0
    n = _last(cli, j)
    assert _order(cli, j, "german", f"dispute record={n} fact=attackers value=B2"
                  ).exit_code == 0
    assert _order(cli, j, "moderator", f"settle record={n} fact=attackers value=B2"
                  ).exit_code == 0
    doc = json.loads(cli("report", j, "--format", "json").stdout)
    assert [c["attackers"] for c in doc["contacts"]] == [["B2"]]


def test_a_void_melee_leaves_no_contact():
    t = Table(red=[figure("R1")], blue=[figure("B1")], phase="movement")
    t.into_contact("red", "R1", at="B1")
    got = t.test("red", "melee B1 attackers=R1", [3, 3])
    void = {**got, "effects": [], "result": "void: R9 is no figure"}
    sk.settle(t.state, {"record": t.seq, "test": void}, t.card)
    assert t.state.contacts == [] and t.fig("B1").attackers == []


def test_a_leader_killed_in_a_fire_step_still_motivates_his_figures_in_it():
    """Figures of one step fire together: killing the enemy's leader first in the step
    must not silence the enemy's figures of that step (Motivation)."""
    t = Table(red=[figure("R1", "veteran")], blue=[figure("B1", "veteran")], card=CARD)
    t.test("red", "fire R1 at=B0 range=10 command=yes", [20])     # blue's only leader
    assert t.refusal("blue", "fire B1 at=R1 range=10 command=yes") is None


def test_a_figure_that_surrendered_does_not_fire_in_its_step():
    t = Table(red=[figure("R1", "veteran")], blue=[figure("B1", "veteran")], card=CARD)
    t.fig("B1").surrendered = True
    assert t.refusal("blue", "fire B1 at=R1 range=10 command=yes")[1] == "B1 is surrendered"


def test_a_side_with_nothing_fit_to_fire_may_still_spot_in_the_fire_phase():
    t = Table(red=[figure("R1", "veteran")], blue=[figure("B1", "veteran")],
              phase="artillery", card=CARD)
    for f in ("R0", "R1"):
        t.fig(f).pins = 1
    t.test("red", "done")
    t.test("blue", "done")
    assert t.card.sequence[t.state.phase].phase == "fire"
    assert t.refusal("red", "spot R1 at=B1 range=100 light=day state=halted cover=soft") is None
    assert "none fit to fire" in t.refusal("red", "done")[1]


def test_a_card_whose_turn_opens_with_its_fire_steps_it_every_turn():
    fire_first = msgspec.structs.replace(CARD, sequence=[CARD.sequence[2], CARD.sequence[0],
                                                         *CARD.sequence[3:]],
                                         melee_passed_over=False)
    t = Table(red=[figure("R1", "veteran")], blue=[figure("B1", "veteran")], phase="morale",
              card=fire_first)
    for _ in range(6):                  # turn 2's fire steps, movement, melee and morale
        for side in ("red", "blue"):
            if side not in t.state.done:
                t.test(side, "done")
    assert (t.state.turn, t.card.sequence[t.state.phase].phase) == (3, "fire")
    assert t.refusal("red", "fire R1 at=B1 range=10 command=yes") is None


def test_a_correction_past_18_inches_asks_for_the_state_and_then_decides(cli, tmp_path):
    """"-1 if target stationary or moving stealthily over 18" away": a range corrected
    past 18" needs the target's state; the moderator's settle is refused until it names
    it, then the shot is decided, not voided."""
    j = tmp_path / "p.jsonl"
    _new(cli, j)
    done_until(cli, j, "fire")
    assert _order(cli, j, "british", "fire B3 at=G5 range=12 command=yes", "20").exit_code == 0
    n = _last(cli, j)
    assert _order(cli, j, "german", f"dispute record={n} fact=range value=24").exit_code == 0
    before = j.read_bytes()
    r = _order(cli, j, "moderator", f"settle record={n} fact=range value=24")
    assert r.exit_code == 1 and "declare state=" in r.stderr and j.read_bytes() == before
    r = _order(cli, j, "moderator", f"settle record={n} fact=range value=24 state=halted")
    assert r.exit_code == 0, r.stderr
    doc = json.loads(cli("report", j, "--format", "json").stdout)
    shot = next(t for t in doc["tests"] if t["record"] == n)
    # 20 +2 marksman -1 halted over 18": 21
    assert shot["result"] == "G5 killed (score 21; 15+ pinned, 18+ killed)"
    # The state the ruling named is shown as ruled; the cover no one stated, as the card's.
    text = report.report_text(doc)
    assert "state=halted (not stated, taken as cover=none) [settled: range 12 → 24, state" \
        in text, text
    assert cli("verify", j).exit_code == 0


def _fire_only(sequence: list) -> list:
    return [p for p in sequence if p["phase"] == "fire"]


def test_a_card_whose_every_phase_is_fire_in_steps_is_refused_as_data(cli, tmp_path):
    """A turn made only of fire in steps passes over every phase while no figure is fit to
    fire, and the next turn's, without end: a game folder's card.yaml so made is refused as
    its other problems are, naming its sequence, and no game is made on it."""
    from datacopy import copy_game

    games = copy_game(tmp_path, lambda docs: docs["card.yaml"].update(
        sequence=_fire_only(docs["card.yaml"]["sequence"])), ("card.yaml",), game="skirmish")
    j = tmp_path / "p.jsonl"
    r = cli("--games", games, "new", j, "--game", "skirmish", "--scenario", "patrol")
    assert r.exit_code == 3, r.output
    assert "referee: card.yaml: sequence: every phase is fire in steps or the off-table " \
        "artillery" in r.stderr, r.stderr
    assert not j.exists()


def test_a_journal_whose_card_is_every_phase_fire_in_steps_is_a_journal_fault(cli, tmp_path):
    """The card a journal's header holds, signed by the game's key (its holder may sign what
    he likes), is read as a game folder's is: a fire-only sequence whose steps no figure
    fits is one line saying the journal cannot be replayed, not a crash, for every reader
    of it (status, report, verify)."""
    from forging import forget_mark, records, write_resigned

    j = tmp_path / "p.jsonl"
    _new(cli, j)
    for side in ("british", "german"):
        assert _order(cli, j, side, "done").exit_code == 0
    recs = records(j)
    head = recs[0]
    head["card_data"] = {**head["card_data"], "fire_steps": [["gallant"]],
                         "sequence": _fire_only(head["card_data"]["sequence"])}
    for f in head["scenario_data"]["forces"]["british"]["platoon_commander"], :
        f["quality"] = "regular"                    # no gallant figure: none ever fit to fire
    write_resigned(j, recs)
    forget_mark(j)
    for argv in (("status", j), ("report", j), ("verify", j)):
        r = cli(*argv)
        assert r.exit_code == 3 and r.stderr.count("\n") == 1, (argv, r.output)
        assert "every phase is fire in steps" in r.stderr, (argv, r.stderr)


def test_a_journal_naming_artillery_for_no_side_of_it_is_a_journal_fault(cli, tmp_path):
    """The scenario a journal's header holds, signed by the game's key, is read as a
    scenario file is: off-table artillery for a side not in it, or one named twice, is one
    line saying so, not a game read as if no side (or one) had any, nor 'verify: OK'."""
    from forging import forget_mark, records, write_resigned

    for named, why in ((["nobody"], "'nobody' is not one of the sides"),
                       (["german", "german"], "'german' is named twice")):
        j = tmp_path / f"{named[0]}{len(named)}.jsonl"
        _new(cli, j)
        recs = records(j)
        recs[0]["scenario_data"]["off_table_artillery"] = named
        write_resigned(j, recs)
        forget_mark(j)
        for argv in (("status", j), ("verify", j)):
            r = cli(*argv)
            assert r.exit_code == 3 and r.stderr.count("\n") == 1, (argv, r.output)
            assert why in r.stderr and "off_table_artillery" in r.stderr, (argv, r.stderr)
