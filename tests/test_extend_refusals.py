"""`extend` refused for what the game is now is an order refused (kind order_rejected,
exit 1: docs/scripting.md's table of kinds), whatever the reason: a game over or closed by
its reveal as well as a paused one or one where no side owes orders. A game over gave kind
usage, exit 2, so a script had to read two codes for one refusal. The moderator's own
settings (`deadline --set`, `--pause`) on a game closed or over are refused alike: they
gave kind usage, exit 2, beside `extend`'s exit 1 for the same reason."""

from __future__ import annotations

import json

import pytest


@pytest.fixture
def timed(tmp_path, cli, secret_file):
    j = tmp_path / "g.jsonl"
    r = cli("new", j, "--scenario", "1914", "--game-id", "timed", "--secret-file",
            secret_file, "--deadline", "48h")
    assert r.exit_code == 0, r.stderr
    return j


def refused(cli, journal, *command) -> dict:
    before = journal.read_bytes()
    r = cli(*command, "--format", "json")
    assert r.stdout == "" or "records" not in r.stdout
    error = json.loads(r.stderr)
    assert r.exit_code == error["exit"]
    assert journal.read_bytes() == before
    return error


def test_extend_on_a_game_over_is_an_order_refused(cli, timed):
    assert cli("order", timed, "--as", "german", "surrender").exit_code == 0
    error = refused(cli, timed, "extend", timed, "24h")
    assert (error["kind"], error["exit"]) == ("order_rejected", 1), error
    assert "the game is over" in error["error"]
    r = cli("extend", timed, "german", "24h")
    assert r.exit_code == 1 and r.stderr.count("\n") == 1
    error = refused(cli, timed, "deadline", timed, "--set", "72h")
    assert (error["kind"], error["exit"]) == ("order_rejected", 1), error


def test_extend_on_a_closed_game_is_an_order_refused(cli, timed):
    assert cli("reveal", timed, "--force").exit_code == 0
    error = refused(cli, timed, "extend", timed, "24h")
    assert (error["kind"], error["exit"]) == ("order_rejected", 1), error
    assert "closed" in error["error"]
    for settings in (("--set", "72h"), ("--pause",)):
        again = refused(cli, timed, "deadline", timed, *settings)
        assert (again["kind"], again["exit"]) == (error["kind"], error["exit"]), again
        assert again["error"] == error["error"]


def test_extend_on_a_paused_game_is_an_order_refused_as_before(cli, timed):
    assert cli("deadline", timed, "--pause").exit_code == 0
    error = refused(cli, timed, "extend", timed, "24h")
    assert (error["kind"], error["exit"]) == ("order_rejected", 1), error
