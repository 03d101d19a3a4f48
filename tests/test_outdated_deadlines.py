"""A game under older rules or data takes no orders until `referee upgrade` (its `order`
refusal, replay.check_current), and no pass of tick plays it: its deadlines are refused and
shown as a closed game's are. `deadline --set` and `extend` were written to it (exit 0),
and status then listed its deadline due, and past the time `missed`, which no pass would
ever rule."""

from __future__ import annotations

import json

import pytest

from referee.engine.versions import RULES_VERSION


@pytest.fixture
def older(tmp_path, cli, secret_file, monkeypatch):
    """A game with deadlines, made under the rules before the ones this referee decides
    under now (as after an upgrade of the referee)."""
    j = tmp_path / "g.jsonl"
    r = cli("new", j, "--scenario", "1914", "--game-id", "older", "--secret-file",
            secret_file, "--deadline", "48h")
    assert r.exit_code == 0, r.stderr
    monkeypatch.setattr("referee.game.replay.RULES_VERSION", RULES_VERSION + 1)
    return j


def refused(cli, journal, *command) -> dict:
    before = journal.read_bytes()
    r = cli(*command, "--format", "json")
    error = json.loads(r.stderr)
    assert r.exit_code == error["exit"] and r.stderr.count("\n") == 1
    assert journal.read_bytes() == before
    return error


@pytest.mark.parametrize("command", [("deadline", "--set", "72h"), ("extend", "entente", "24h"),
                                     ("extend", "24h"), ("deadline", "--missed", "wait")])
def test_deadlines_of_an_outdated_game_are_refused_as_a_closed_games(cli, older, command):
    assert cli("order", older, "--as", "entente", "done").exit_code == 2   # as it refuses
    error = refused(cli, older, command[0], older, *command[1:])
    assert (error["kind"], error["exit"]) == ("order_rejected", 1), error
    assert f"`referee upgrade {older}`" in error["error"], error


def test_an_outdated_game_shows_no_deadline_running(cli, older):
    for command in ("status", "report"):
        view = json.loads(cli(command, older, "--as", "moderator", "--format", "json").stdout)
        assert view["outdated"]["current_rules"] == RULES_VERSION + 1, view
        assert view["deadlines"]["due"] == [], view["deadlines"]
    text = cli("status", older, "--as", "entente").stdout
    assert "referee upgrade" in text and "due by" not in text, text
