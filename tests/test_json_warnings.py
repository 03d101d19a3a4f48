"""With `--format json`, stderr is one JSON object or nothing: a warning (a journal other
users can read) is carried in the JSON the command prints, as `warnings`, on its result
and on its error object, and printed as no `referee: warning:` line. A script parsing
stderr as JSON failed on the warning line printed before an order's error object. Text
output is as it was."""

from __future__ import annotations

import json

import pytest
from test_json_errors import quick_run

from referee.cli.entry import parse
from referee.store import home

READABLE = "can be read by other users of this machine"


@pytest.fixture
def shared(game, monkeypatch):
    """The test game, readable by other users (mode 644), warned of at every command."""
    game.chmod(0o644)
    monkeypatch.setattr(home, "_WARNED", set())
    return game


def _again(monkeypatch) -> None:
    monkeypatch.setattr(home, "_WARNED", set())     # each command warns, as a new process


@pytest.mark.parametrize("run", ["typer", "console"])
def test_a_refused_order_prints_one_error_object_carrying_the_warning(shared, cli, run):
    argv = ["order", str(shared), "--as", "german", "--format", "json", "end turn"]
    if run == "console":
        assert parse(argv) is not None, "not the quick path"
        code, out, err = quick_run(argv)
    else:
        r = cli(*argv)
        code, out, err = r.exit_code, r.stdout, r.stderr
    assert code == 1
    [line] = err.splitlines()                  # one line: the error object, no warning line
    error = json.loads(line)
    assert error["kind"] == "illegal_order" and READABLE in error["warnings"][0], error
    assert READABLE in json.loads(out)["warnings"][0]


def test_a_result_carries_the_warning_and_stderr_stays_empty(shared, cli, monkeypatch):
    for argv in (["status"], ["show"], ["report", "--since", "0"], ["order", "--as", "german",
                                                                   "pass"]):
        _again(monkeypatch)
        r = cli(argv[0], shared, *argv[1:], "--format", "json")
        assert r.exit_code == 0 and r.stderr == "", (argv, r.stderr)
        assert READABLE in json.loads(r.stdout)["warnings"][0], argv


def test_a_command_printing_no_document_gives_them_as_one_object(shared, cli, monkeypatch):
    r = cli("log", shared, "--format", "json")
    assert r.exit_code == 0
    [line] = r.stderr.splitlines()
    assert json.loads(line)["warnings"][0].endswith("makes it private")
    for record in r.stdout.splitlines():
        assert "warnings" not in json.loads(record)


def test_text_output_keeps_its_warning_line_and_a_private_journal_warns_of_nothing(
        shared, cli, monkeypatch):
    r = cli("status", shared)
    assert r.exit_code == 0 and r.stderr.startswith("referee: warning: ") and READABLE \
        in r.stderr
    shared.chmod(0o600)
    _again(monkeypatch)
    r = cli("status", shared, "--format", "json")
    assert r.stderr == "" and "warnings" not in json.loads(r.stdout)
