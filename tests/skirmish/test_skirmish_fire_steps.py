"""Card, Sequence of Play: "Firing (in order of troop quality)". The referee names the
qualities that fire now (card.yaml fire_steps) and both sides fire their figures of those
qualities, so neither side can shut the other's better figures out by firing a worse one
first. The figures of one step fire at the same time."""

from __future__ import annotations

import dataclasses
import json
import shutil

import msgspec
from skirmish_cases import CARD, Table, figure

from referee.base.errors import GameDataError, IllegalOrderError
from referee.data.paths import default_games_dir
from referee.table.skirmish import life
from referee.table.skirmish.loading import load_skirmish
from referee.table.skirmish.nearest import FORCES

FACTS = "range=10 state=halted cover=none command=yes"


def stepped(red=(), blue=()) -> Table:
    return Table(red=red, blue=blue, card=CARD)


def test_the_best_qualities_fire_first_and_a_worse_figure_waits_its_step():
    t = stepped(red=[figure("R1", "raw"), figure("R2", "veteran")],
                blue=[figure("B1", "veteran")])
    assert CARD.fire_steps[0] == ["gallant", "veteran"]
    rule, why = t.refusal("red", f"fire R1 at=B1 {FACTS}")
    assert rule == "Sequence of Play" and "gallant and veteran figures fire now" in why
    assert "raw ones fire in a later step" in why


def test_firing_a_raw_figure_first_cannot_shut_out_the_enemys_veterans():
    """The lever of the old reading: a Raw figure fired first barred every better figure of
    both sides for the phase. Now the Raw figure waits, and the Veteran fires."""
    t = stepped(red=[figure("R1", "raw")], blue=[figure("B1", "veteran")])
    assert t.refusal("red", f"fire R1 at=B1 {FACTS}") is not None
    assert t.test("blue", f"fire B1 at=R1 {FACTS}", [1])["result"] == \
        "R1 miss (score 1; 15+ pinned, 18+ killed)"


def test_a_side_with_nothing_of_the_step_is_not_waited_on_and_steps_follow_in_order():
    t = stepped(red=[figure("R1", "raw")], blue=[figure("B1", "veteran"), figure("B2", "raw")])
    assert t.state.done == ["red"]                 # red has no gallant nor veteran figure
    rule, why = t.refusal("red", "done")
    assert "gallant and veteran figures fire now" in why
    t.test("blue", "done")                         # Blue's veterans are done:
    assert CARD.fire_steps[t.state.fire_step] == ["regular", "stubborn", "ferocious"]
    assert t.state.done == []                      # both have Regulars (squad leaders R0, B0)
    t.test("red", f"fire R0 at=B1 {FACTS}", [1])
    t.test("red", "done")
    t.test("blue", "done")
    assert CARD.fire_steps[t.state.fire_step] == ["raw", "irregular"]
    assert t.state.done == []
    assert t.refusal("blue", f"fire B1 at=R1 {FACTS}")[1].endswith("fired in an earlier step")
    t.test("red", f"fire R1 at=B1 {FACTS}", [1])
    t.test("red", "done")
    t.test("blue", "done")
    assert CARD.sequence[t.state.phase].phase == "morale"   # no figure in contact: no melee


def test_a_step_with_no_figure_fit_to_fire_is_passed_over():
    t = stepped(red=[figure("R1", "raw")], blue=[figure("B1", "raw")])
    assert CARD.fire_steps[t.state.fire_step] == ["regular", "stubborn", "ferocious"]


def test_figures_of_one_step_fire_at_the_same_time():
    """A Veteran killed by an enemy Veteran in their step still fires in it; one pinned in
    it still fires too. Killed before its step began, a figure does not fire."""
    t = stepped(red=[figure("R1", "veteran"), figure("R2", "veteran")],
                blue=[figure("B1", "veteran"), figure("B2", "veteran")])
    t.test("red", f"fire R1 at=B1 {FACTS}", [20])              # 18-20: killed
    t.test("red", f"fire R2 at=B2 {FACTS}", [16])              # 15-17: pinned
    assert t.fig("B1").killed and t.fig("B2").pins == 1
    assert t.test("blue", f"fire B1 at=R1 {FACTS}", [20])["result"].startswith("R1 killed")
    assert t.refusal("blue", f"fire B2 at=R2 {FACTS}") is None
    t.test("red", "done")
    t.test("blue", "done")
    rule, why = t.refusal("red", f"fire R0 at=B0 {FACTS}") or (None, None)
    assert rule is None                                        # R0, a Regular, fires now
    assert t.refusal("blue", f"fire B1 at=R0 {FACTS}")[1] == "B1 is killed"


def test_a_journal_made_before_fire_steps_replays_and_verifies_as_it_was_played(tmp_path):
    """Record 0 holds the card whole: a card without fire_steps keeps the one-by-one order,
    where a Regular fires after a Veteran and no Veteran after a Raw one."""
    data = load_skirmish(default_games_dir() / "skirmish")
    old = dataclasses.replace(
        data, card=msgspec.structs.replace(data.card, fire_steps=[]),
        scenarios={k: msgspec.structs.replace(sc, off_table_artillery=None)   # made before
                   for k, sc in data.scenarios.items()})                     # it too
    j = tmp_path / "old.jsonl"
    life.create_skirmish(j, old, "patrol", dice_mode="manual")
    for side in ("british", "german") * 2:                     # movement, artillery
        life.submit(j, side, "done")
    life.submit(j, "british", f"fire B2 at=G2 {FACTS}", [1])   # a Regular, no step to wait
    life.submit(j, "british", f"fire B6 at=G2 {FACTS}", [1])   # a Raw one
    assert "order of troop quality" in str(_refused(j, "german", f"fire G5 at=B1 {FACTS}"))
    lines, _ = life.verify_skirmish(j)
    assert lines[-1].startswith("every record keeps its contract")


def _refused(j, side, text):
    try:
        life.submit(j, side, text, [1])
    except IllegalOrderError as exc:
        return exc
    raise AssertionError(f"{text!r} was taken")


def test_a_card_whose_fire_steps_leave_out_a_quality_is_refused(tmp_path):
    folder = tmp_path / "skirmish"
    shutil.copytree(default_games_dir() / "skirmish", folder)
    card = folder / "card.yaml"
    card.write_text(card.read_text().replace("  - [raw, irregular]\n",
                                             "  - [irregular, regular]\n"))
    try:
        load_skirmish(folder)
    except GameDataError as exc:
        text = str(exc)
    else:
        raise AssertionError("a card without raw in its fire steps was taken")
    assert "fire_steps: missing (raw)" in text and "named twice (regular)" in text


STEALTHY = "move G5 mode=stealthy command=yes"
G5_FIRES = "fire G5 at=B1 range=10 state=halted cover=none command=yes"


def _to_the_veterans_step(cli, j) -> dict:
    """The patrol's movement, the German's only Veteran (G5) moving stealthily: the
    status of the gallant and veteran step that follows."""
    for side, text in (("british", "done"), ("german", STEALTHY), ("german", "done")):
        r = cli("order", j, "--as", side, text)
        assert r.exit_code == 0, r.stderr
    return json.loads(cli("status", j, "--format", "json").stdout)


def test_a_side_with_no_figure_of_the_step_able_to_fire_is_not_waited_on(cli, patrol):
    """G5 may not fire after a stealthy move (Movement: the Fire? column), so the German
    has no figure fit to fire in the step: he is not waited on nor asked, as the order
    list and the refusal of his fire read it."""
    now = _to_the_veterans_step(cli, patrol)
    assert (now["firing"], now["waiting_on"]) == (["gallant", "veteran"], ["british"])
    report = cli("skirmish", "report", patrol, "--as", "german").stdout
    assert "Your decision" not in report and "Nothing is asked of you now" in report
    r = cli("order", patrol, "--as", "german", G5_FIRES)
    assert r.exit_code == 1 and "has none fit to fire" in r.stderr, r.stderr
    assert cli("order", patrol, "--as", "british", "done").exit_code == 0
    now = json.loads(cli("status", patrol, "--format", "json").stdout)
    assert now["firing"] == ["regular", "stubborn", "ferocious"]


def test_a_journal_made_before_waits_on_the_side_as_it_was_played(cli, tmp_path):
    """Its card (record 0) has no steps_wait_on_fit: the step waits on the German though
    G5 cannot fire, his done is taken there, and the journal verifies."""
    data = load_skirmish(default_games_dir() / "skirmish")
    assert data.card.steps_wait_on_fit
    old = dataclasses.replace(data, card=msgspec.structs.replace(data.card,
                                                                 steps_wait_on_fit=False))
    j = tmp_path / "old.jsonl"
    life.create_skirmish(j, old, "patrol")
    now = _to_the_veterans_step(cli, j)
    assert now["waiting_on"] == ["british", "german"]
    assert cli("order", j, "--as", "german", "done").exit_code == 0
    assert cli("order", j, "--as", "british", "done").exit_code == 0
    assert cli("order", j, "--as", "british", "fire B2 at=G5 range=10 state=halted "
               "cover=none command=yes").exit_code == 0
    r = cli("verify", j)
    assert r.exit_code == 0 and "every test follows from its facts and dice" in r.stdout


def test_a_shot_at_a_figure_killed_earlier_in_the_step_names_the_kill():
    """B1, killed by R1 in their step, still fires in it, but is no target for R2: the
    refusal says it was killed and in which record, not only that no such enemy is on the
    table."""
    t = stepped(red=[figure("R1", "veteran"), figure("R2", "veteran")],
                blue=[figure("B1", "veteran")])
    t.test("red", f"fire R1 at=B1 {FACTS}", [20])              # record 1: B1 killed
    assert t.refusal("red", f"fire R2 at=B1 {FACTS}") == (
        FORCES, "B1 is no enemy figure on the table: it was killed in record 1")
    assert t.refusal("red", f"fire R2 at=B9 {FACTS}") == (
        FORCES, "'B9' is no enemy figure on the table")
