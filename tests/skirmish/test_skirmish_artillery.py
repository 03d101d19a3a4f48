"""The card's Off-table artillery phase (Sequence of Play) waits on the sides a scenario
gives off-table artillery (`off_table_artillery`), and is passed over when none has any,
as in the patrol: no prompt, no mail, no done asked for it. A scenario that does not say,
as in every journal made before the field, keeps the phase waiting on both sides.

tests/fixtures/skirmish-before-artillery/ holds a patrol journal played by the command
line before the field (it stops in turn 1's artillery phase, the British to say done,
after a spotting test in it), its dice secret, and what `status`, `skirmish report` and
`verify` said of it then, byte for byte."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from forging import fixed_key
from skirmish_cases import said_done
from test_skirmish_scenario_file import RAID

from referee.store import signing

FIXTURE = Path(__file__).parent.parent / "fixtures" / "skirmish-before-artillery"
PASSED = "No off-table artillery in this scenario: its phase is passed over"
SPOT = "spot G1 at=B1 range=30 light=day state=halted cover=soft"


def _status(cli, j) -> dict:
    return json.loads(cli("status", j, "--format", "json").stdout)


def _order(cli, j, side: str, text: str):
    return said_done(cli, j, side) if text == "done" else cli("order", j, "--as", side, text)


def test_a_journal_made_before_the_field_reads_and_plays_its_artillery_phase_as_before(
        cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    j = Path("before-artillery.jsonl")
    shutil.copyfile(FIXTURE / "journal.jsonl", j)
    shutil.copyfile(FIXTURE / "journal.jsonl.secret", "before-artillery.jsonl.secret")
    for p in (j, Path("before-artillery.jsonl.secret")):
        p.chmod(0o600)
    said = {"status.txt": ("status", j), "status.json": ("status", j, "--format", "json"),
            "report.txt": ("skirmish", "report", j),
            "report.json": ("skirmish", "report", j, "--format", "json"),
            "report-german.txt": ("skirmish", "report", j, "--as", "german"),
            "verify.txt": ("verify", j)}
    for name, args in said.items():
        r = cli(*args)
        assert r.exit_code == 0, (name, r.output)
        assert r.stdout == (FIXTURE / name).read_text(encoding="utf-8"), name
    # Played on by the holder of its key: the phase still waits on the British, then fire.
    signing.new_key(fixed_key(tmp_path / "keys"))
    assert _status(cli, j)["waiting_on"] == ["british"]
    r = _order(cli, j, "german", "done")
    assert r.exit_code == 1 and "done with this phase already" in r.stderr, r.stderr
    assert _order(cli, j, "british", "done").exit_code == 0
    now = _status(cli, j)
    assert (now["phase"], now["waiting_on"]) == ("fire", ["british", "german"])
    assert "off_table_artillery" not in now
    r = cli("verify", j, "--secret", "before-artillery.jsonl.secret")
    assert r.exit_code == 0 and r.stdout.rstrip().endswith("verify: OK"), r.output


def test_the_patrol_passes_over_the_artillery_phase(cli, patrol):
    """The patrol gives neither side off-table artillery: once both are done moving, the
    fire phase begins; no record, no done, no prompt for the artillery phase, and the
    report and status say why in one line."""
    assert _status(cli, patrol)["off_table_artillery"] == []
    for side in ("british", "german"):
        assert _order(cli, patrol, side, "done").exit_code == 0
    now = _status(cli, patrol)
    assert (now["turn"], now["phase"], now["firing"], now["waiting_on"]) == (
        1, "fire", ["gallant", "veteran"], ["british", "german"])
    assert len(patrol.read_text().splitlines()) == 3         # the header and two done
    assert PASSED in cli("status", patrol).stdout
    report = cli("skirmish", "report", patrol, "--as", "british").stdout
    assert f"turn 1, fire phase (gallant and veteran figures fire now)\nWaiting on the " \
           f"British and German players\n{PASSED}\n" in report, report
    doc = json.loads(cli("skirmish", "report", patrol, "--format", "json").stdout)
    assert doc["off_table_artillery"] == [] and doc["phase"] == "fire"
    # Turn 2 too: from the morale phase straight to movement, and from movement to fire.
    while _status(cli, patrol)["turn"] == 1:
        assert _order(cli, patrol, _status(cli, patrol)["waiting_on"][0], "done"
                      ).exit_code == 0
    phases = []
    while _status(cli, patrol)["phase"] not in phases:
        phases.append(_status(cli, patrol)["phase"])
        for _ in ("british", "german"):         # the German waits for a British unit first
            assert _order(cli, patrol, _status(cli, patrol)["waiting_on"][0], "done"
                          ).exit_code == 0
    assert phases == ["movement", "fire"]
    assert cli("verify", patrol).exit_code == 0


def _raid(cli, tmp_path, artillery: str | None) -> Path:
    """A game of the trench raid (the Germans move first), with off_table_artillery as
    given (None: the scenario does not have the field), both sides done moving."""
    text = RAID if artillery is None else \
        RAID.replace("first: german\n", f"first: german\noff_table_artillery: {artillery}\n")
    (tmp_path / "raid.yaml").write_text(text, encoding="utf-8")
    j = tmp_path / "raid.jsonl"
    r = cli("new", j, "--game", "skirmish", "--scenario", tmp_path / "raid.yaml")
    assert r.exit_code == 0, r.output
    for side in ("german", "british"):
        assert _order(cli, j, side, "done").exit_code == 0
    return j


def test_the_artillery_phase_waits_on_the_side_that_has_some_alone(cli, tmp_path):
    """Off-table artillery for the British alone: the phase waits on them; the German is
    not waited on (his done is refused, saying why), though he may spot in it as a side
    with none fit to fire may in a fire step; the British done ends the phase."""
    j = _raid(cli, tmp_path, "[british]")
    now = _status(cli, j)
    assert (now["phase"], now["waiting_on"], now["off_table_artillery"]) == (
        "artillery", ["british"], ["british"])
    line = "Off-table artillery: British only (its phase waits on no other)"
    assert line in cli("status", j).stdout
    assert f"Waiting on the British player\n{line}\n" in cli("skirmish", "report", j).stdout
    r = _order(cli, j, "german", "done")
    assert r.exit_code == 1, r.output
    assert "the German side has no off-table artillery in this scenario: its phase does " \
           "not wait on it" in " ".join(r.stderr.split()), r.stderr
    assert _order(cli, j, "german", SPOT).exit_code == 0
    assert _order(cli, j, "british", "done").exit_code == 0
    assert _status(cli, j)["phase"] == "fire"
    assert cli("verify", j).exit_code == 0


def test_a_scenario_that_does_not_say_keeps_the_phase_for_both_sides(cli, tmp_path):
    """A scenario without the field (as every journal made before it): the phase waits on
    both sides, and neither report nor status speaks of artillery."""
    j = _raid(cli, tmp_path, None)
    now = _status(cli, j)
    assert (now["phase"], now["waiting_on"]) == ("artillery", ["british", "german"])
    assert "off_table_artillery" not in now
    assert "rtillery:" not in cli("skirmish", "report", j).stdout
    (tmp_path / "both").mkdir()
    both = _raid(cli, tmp_path / "both", "[german, british]")
    assert _status(cli, both)["waiting_on"] == ["british", "german"]
    assert "Off-table artillery: British and German\n" in cli("skirmish", "report", both).stdout


def test_a_scenario_naming_artillery_for_no_side_of_it_is_refused(cli, tmp_path):
    (tmp_path / "bad.yaml").write_text(RAID.replace(
        "first: german\n", "first: german\noff_table_artillery: [french, german, german]\n"),
        encoding="utf-8")
    j = tmp_path / "bad.jsonl"
    r = cli("new", j, "--game", "skirmish", "--scenario", tmp_path / "bad.yaml")
    assert r.exit_code == 3 and not j.exists(), r.output
    assert "off_table_artillery" in r.stderr and "2 items" in r.stderr, r.stderr
    (tmp_path / "bad.yaml").write_text(RAID.replace(
        "first: german\n", "first: german\noff_table_artillery: [french, german]\n"),
        encoding="utf-8")
    r = cli("new", j, "--game", "skirmish", "--scenario", tmp_path / "bad.yaml")
    assert r.exit_code == 3 and not j.exists(), r.output
    assert "'french' is not one of the sides (british, german) (at off_table_artillery[0])" \
        in r.stderr, r.stderr
    (tmp_path / "bad.yaml").write_text(RAID.replace(
        "first: german\n", "first: german\noff_table_artillery: [german, german]\n"),
        encoding="utf-8")
    r = cli("new", j, "--game", "skirmish", "--scenario", tmp_path / "bad.yaml")
    assert r.exit_code == 3 and "'german' is named twice" in r.stderr, r.stderr
