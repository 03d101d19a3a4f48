"""A skirmish's end as a script reads it. Played to its end, `status` said `game_over: true`
but its `phase` stayed the fire phase it stopped in (and `firing` the qualities of its step),
the winner only in the `prompt` sentence; a report (`report`, `skirmish report`, `show`) had
no `game_over` at all; and `revealed` was a boolean in the status but the reveal's record
and secret in a report. Now every one of them says `game_over` and `result` (the side that
won or none, the sides beaten, why, and the test, turn and phase it ended with), its phase
`over` once it has ended (`closed` once the dice secret was published before a side was
beaten), and `revealed` the same in all: the record that revealed the secret and the secret,
or null."""

from __future__ import annotations

import json

import jsonschema
import pytest
from skirmish_cases import DUEL, done_until

from referee.contracts.schemas import schema

SECRET = "07" * 32          # the German's heavy machine gun kills B1 with it (record 5)
FIRE = "fire G1 at=B1 range=10 state=halted cover=none dice=5 command=yes"
RESULT = {"winner": "german", "beaten": ["british"],
          "reason": "The British side has no figure left fighting (1 figure killed)",
          "record": 5, "turn": 1, "phase": "fire"}


@pytest.fixture
def duel(cli, tmp_path):
    (tmp_path / "duel.yaml").write_text(DUEL.replace(
        "{id: G1, role: squad_leader, weapon: rifle}",
        "{id: G1, role: squad_leader, weapon: hmg}"), encoding="utf-8")
    (tmp_path / "duel.secret").write_text(SECRET + "\n", encoding="utf-8")
    j = tmp_path / "duel.jsonl"
    r = cli("new", j, "--game", "skirmish", "--scenario", tmp_path / "duel.yaml", "--game-id",
            "duel", "--secret-file", tmp_path / "duel.secret")
    assert r.exit_code == 0, r.output
    return j


def _docs(cli, j) -> dict[str, dict]:
    """The status and each report of the game, as JSON, each held to its schema."""
    out = {}
    for name, args, shape in [
            ("status", ("status", j), "skirmish-status"),
            ("report", ("report", j, "--as", "german"), "skirmish-report"),
            ("skirmish report", ("skirmish", "report", j, "--as", "german"), "skirmish-report"),
            ("show", ("show", j), "skirmish-report")]:
        r = cli(*args, "--format", "json")
        assert r.exit_code == 0, r.output
        out[name] = json.loads(r.stdout)
        jsonschema.Draft202012Validator(schema(shape)).validate(out[name])
    return out


def _ended(cli, j) -> None:
    done_until(cli, j, "fire")
    r = cli("order", j, "--as", "german", FIRE)
    assert r.exit_code == 0 and "B1 killed" in r.stdout, r.output


def test_while_it_goes_on_each_says_no_end_and_the_phase_under_way(cli, duel):
    for name, doc in _docs(cli, duel).items():
        assert (doc["game_over"], doc["result"], doc["revealed"]) == (False, None, None), name
        assert doc["phase"] == "movement", name


def test_at_its_end_each_says_who_won_and_why_and_no_phase_is_under_way(cli, duel):
    _ended(cli, duel)
    for name, doc in _docs(cli, duel).items():
        assert doc["game_over"] is True, name
        assert doc["result"] == RESULT, (name, doc["result"])
        assert doc["phase"] == "over" and doc["firing"] == [], (name, doc["phase"])
        assert doc["revealed"] is None, name


def test_revealed_is_the_reveal_s_record_and_secret_in_the_status_and_every_report(cli, duel):
    _ended(cli, duel)
    assert cli("reveal", duel).exit_code == 0
    for name, doc in _docs(cli, duel).items():
        assert doc["revealed"] == {"record": 6, "secret": SECRET}, (name, doc["revealed"])
        assert doc["game_over"] is True and doc["result"] == RESULT, name
        assert doc["phase"] == "over", name


def test_a_game_closed_before_a_side_was_beaten_has_no_result_and_is_closed(cli, duel):
    """`reveal --force` before the end: nobody won, nothing is asked of anyone."""
    assert cli("reveal", duel, "--force").exit_code == 0
    for name, doc in _docs(cli, duel).items():
        assert (doc["game_over"], doc["result"]) == (False, None), name
        assert doc["phase"] == "closed", name
        assert doc["revealed"] == {"record": 1, "secret": SECRET}, name
        assert doc.get("waiting_on", doc.get("waiting")) == [], name
