"""A skirmish takes no observers: `new --game skirmish` refuses observer=ADDRESS on one
line (exit 2, nothing written) rather than dropping the address without a word, as it
did (`"observers": 0`, and `players` listing none)."""

from __future__ import annotations

import json


def test_a_new_skirmish_refuses_an_observer_and_writes_nothing(cli, tmp_path, secret_file):
    j = tmp_path / "p.jsonl"
    r = cli("new", j, "--game", "skirmish", "--scenario", "patrol", "--secret-file",
            secret_file, "--player", "british=b@x.org", "--player", "observer=o@x.org",
            "--format", "json")
    assert r.exit_code == 2, r.stdout
    assert r.stdout == ""
    error = json.loads(r.stderr)
    assert error["kind"] == "usage" and error["exit"] == 2
    assert "observer=o@x.org" in error["error"] and "skirmish takes no observers" in \
        error["error"]
    assert not j.exists() and not (tmp_path / "p.jsonl.secret").exists()
    assert list(tmp_path.iterdir()) == [secret_file]
    r = cli("new", j, "--game", "skirmish", "--scenario", "patrol", "--secret-file",
            secret_file, "--player", "Observer=o@x.org")
    assert r.exit_code == 2 and r.stderr.count("\n") == 1 and "no observers" in r.stderr
    assert not j.exists()


def test_a_new_skirmish_takes_its_sides_addresses_still(cli, tmp_path, secret_file):
    j = tmp_path / "p.jsonl"
    r = cli("new", j, "--game", "skirmish", "--scenario", "patrol", "--secret-file",
            secret_file, "--player", "british=b@x.org", "--format", "json")
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["players"] == ["british"]


def test_the_help_of_player_says_a_skirmish_takes_no_observer(cli):
    assert "a skirmish takes none" in " ".join(cli("new", "--help").stdout.split())
