"""What docs/scripting.md promises a bot that drives the referee from a script, held to it
where a careless bot found it otherwise: each JSON document on stdout is UTF-8 JSON, and
each refusal is told as the exit codes table and the error object say."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest


def _referee(*argv: str | bytes | Path) -> subprocess.CompletedProcess:
    """`python -m referee ARGV` in a process of its own, its output as bytes."""
    args = [a if isinstance(a, bytes) else str(a) for a in argv]
    return subprocess.run([sys.executable, "-m", "referee", *args], capture_output=True,
                          env=dict(os.environ), timeout=60)


def _error_object(stderr: bytes) -> dict:
    """The one error object on stderr, past the warnings (text lines, as documented)."""
    lines = [line for line in stderr.decode("utf-8").splitlines()
             if not line.startswith("referee: warning: ")]
    assert len(lines) == 1, stderr
    return json.loads(lines[0])


def test_an_order_not_utf8_is_echoed_in_json_that_is_utf8(game: Path):
    """A bot's argument with a byte that is not UTF-8 (0xff) is an order syntax error whose
    order-result on stdout is still UTF-8 JSON, the order quoted with the byte's escape."""
    before = game.read_bytes()
    out = _referee("order", game, "--as", "german", "--format", "json", b"move \xff paris")
    assert out.returncode == 1, out.stderr
    result = json.loads(out.stdout.decode("utf-8"))
    assert result["rejected"]["order"] == "move \udcff paris"
    assert b"\\udcff" in out.stdout
    error = _error_object(out.stderr)
    assert error["kind"] == "order_syntax" and error["exit"] == 1
    assert game.read_bytes() == before


@functools.cache
def _schema(name: str) -> jsonschema.Draft202012Validator:
    """The JSON Schema `referee schema NAME` prints, asked of the script once a process: it
    prints the same text each time, and a process each document costs more than the test."""
    done = _referee("schema", name)
    assert done.returncode == 0, done.stderr
    return jsonschema.Draft202012Validator(json.loads(done.stdout))


def _valid(document: dict, name: str) -> None:
    """document matches the JSON Schema `referee schema NAME` prints."""
    _schema(name).validate(document)


def test_a_stale_expect_seq_prints_its_order_result_too(game: Path):
    """docs/scripting.md: a rejected `order --format json` prints its order-result on
    stdout (with `rejected`) and the error object on stderr; a stale --expect-seq is such a
    rejection (exit 1), and stdout was empty."""
    assert _referee("order", game, "--as", "german", "pass").returncode == 0
    before = game.read_bytes()
    out = _referee("order", game, "--as", "german", "--expect-seq", "1", "--format", "json",
                   "end turn", "pass")
    assert out.returncode == 1, out.stderr
    assert _error_object(out.stderr)["kind"] == "stale_view"
    result = json.loads(out.stdout)
    _valid(result, "order-result")
    assert result["applied"] == [] and result["not_applied"] == ["pass"]
    assert result["rejected"]["order"] == "end turn"
    assert "--expect-seq" in result["rejected"]["error"]
    assert game.read_bytes() == before


@pytest.mark.parametrize("games", [pytest.param(("aac",), id="quick"),
                                   pytest.param(("ttlm", "aac"), id="full")])
def test_games_list_names_the_sides_a_script_passes_to_as(tmp_path: Path, games):
    """A bot that does not know the rules learns the sides of a game from `games list`, not
    from the text of the error a wrong `--as` gives: each is a reader `status --as` takes,
    and the side waited on at the start is one of them."""
    listed = json.loads(_referee("games", "list", "--format", "json").stdout)
    _valid(listed, "games-list")
    for game in games:
        entry = next(g for g in listed["games"] if g["id"] == game)
        assert len(entry["sides"]) == 2, entry
        journal = tmp_path / f"{game}.jsonl"
        assert _referee("new", journal, "--game", game, "--scenario", "1914").returncode == 0
        for side in entry["sides"]:
            out = _referee("status", journal, "--as", side, "--format", "json")
            assert out.returncode == 0, out.stderr
            assert json.loads(out.stdout)["reader"] == side
        status = json.loads(_referee("status", journal, "--format", "json").stdout)
        assert status["waiting_on"] in entry["sides"]


def test_an_order_to_a_game_over_is_illegal_citing_the_rule_that_ended_it(game: Path):
    """A game over takes no order: a bot is told so as every illegal order is, its error
    object and its order-result citing the rule that ended the game (here a surrender, 3.3;
    kind `illegal_order`, exit 1), as the engine refuses each order of an ended game."""
    assert _referee("order", game, "--as", "german", "surrender").returncode == 0
    before = game.read_bytes()
    out = _referee("order", game, "--as", "german", "--format", "json", "pass")
    assert out.returncode == 1, out.stderr
    error = _error_object(out.stderr)
    assert (error["kind"], error["rule"], error["exit"]) == ("illegal_order", "3.3", 1)
    result = json.loads(out.stdout)
    _valid(result, "order-result")
    assert result["rejected"]["rule"] == "3.3" and result["applied"] == []
    assert "the game is over" in result["rejected"]["error"]
    assert game.read_bytes() == before


def test_an_atomic_batch_refused_names_every_order_it_did_not_apply(game: Path, cli):
    """docs/scripting.md: `not_applied` holds every order of the batch besides the one
    rejected that was not applied; with --atomic, which applies none, the orders before the
    rejected one too, as a batch refused whole names all its others."""
    before = game.read_bytes()
    r = cli("order", game, "--as", "german", "--atomic", "--format", "json",
            "pass", "move ge-1 cologne", "bogus order", "end turn")
    assert r.exit_code == 1, r.output
    result = json.loads(r.stdout)
    _valid(result, "order-result")
    assert result["applied"] == [] and result["rejected"]["index"] == 2
    assert result["not_applied"] == ["pass", "move ge-1 cologne", "end turn"]
    assert game.read_bytes() == before


def test_every_order_result_names_its_reader(game: Path, cli):
    """docs/scripting.md: an order-result's `reader` is the acting side, whether its batch
    was applied, rejected by the rules, refused whole (a paused game) or only checked."""
    def reader(*args: str, code: int) -> str:
        r = cli("order", game, "--as", "german", "--format", "json", *args)
        assert r.exit_code == code, r.output
        result = json.loads(r.stdout)
        _valid(result, "order-result")
        return result["reader"]

    assert reader("--dry-run", "pass", code=0) == "german"
    assert reader("--dry-run", "end turn", code=1) == "german"
    assert reader("end turn", code=1) == "german"
    assert cli("deadline", game, "--set", "48h").exit_code == 0
    assert cli("deadline", game, "--pause").exit_code == 0
    assert reader("pass", code=1) == "german"
    assert reader("--dry-run", "pass", code=1) == "german"
