"""The console script's quick path (entry.py) parses what it accepts exactly as Typer does.

Its table (referee/cli/forms.json) is written from the Typer application's commands by
`make docs`. Every form of a corpus, and forms drawn at random from the options the table
declares, is parsed by both: a form the quick path accepts must give the command, the
option values and the positional arguments Click's own parser gives the Typer command;
a form it declines must still be answered by the Typer application (its help, its usage
error, or the command run), never a traceback.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from enum import Enum
from unittest import mock

import pytest
import typer
import typer.testing
from commandclock import START, at
from hypothesis import given, settings
from hypothesis import strategies as st
from ticklines import problem_text

from doors import quick as quick_run
from referee.cli import entry, forms
from referee.cli.app import app
from referee.data.paths import default_games_dir

COMMAND = typer.main.get_command(app)
J = "war.jsonl"                   # never made: a declined form run by Typer stops at it
D = "games"                       # nor this folder


def clicks(argv: list[str]) -> tuple[str, dict] | Exception:
    """(command, parameters) as Click's parser makes them of `referee ARGV`, or its error."""
    try:
        ctx = COMMAND.make_context("referee", list(argv), resilient_parsing=False)
        protected = getattr(ctx, "_protected_args", None) or ctx.protected_args
        name, cmd, rest = COMMAND.resolve_command(ctx, [*protected, *ctx.args])
        sub = cmd.make_context(name, rest, parent=ctx, resilient_parsing=False)
    except (typer.Exit, typer.Abort) as exc:
        return exc
    except Exception as exc:  # noqa: BLE001 - sorted out by the caller
        if type(exc).__module__.split(".")[-1] != "exceptions":   # Click's own errors only
            raise
        return exc
    return name, {k: _plain(v) for k, v in sub.params.items()}


def _plain(value):
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def quick(argv: list[str]) -> tuple[str, dict] | None:
    plain = entry.parse(list(argv))
    return None if plain is None else (plain[0], {k: _plain(v) for k, v in plain[1].items()})


_RUNNER = typer.testing.CliRunner()


def typer_answers(argv: list[str]) -> None:
    """The Typer application answers argv: help, a one-line error or the command's run."""
    with mock.patch.object(typer.testing, "_get_command", lambda _app: COMMAND):
        r = _RUNNER.invoke(app, list(argv), input="")
    assert r.exception is None or isinstance(r.exception, SystemExit), (argv, r.exception)
    assert r.exit_code in (0, 1, 2, 3), (argv, r.exit_code, r.stderr)
    assert all(line.startswith("referee: ") for line in r.stderr.splitlines()), (argv, r.stderr)


def agree(argv: list[str]) -> bool:
    """Whether the quick path accepted argv (and then as Click parses it)."""
    mine, theirs = quick(argv), clicks(argv)
    if mine is None:
        return False
    assert not isinstance(theirs, Exception), f"{argv}: quick path accepts, Click says {theirs!r}"
    assert mine == theirs, f"{argv}: quick path {mine}, Click {theirs}"
    return True


def _corpus() -> list[list[str]]:
    forms_ = [["status", J], ["status", "-"], ["status", ""], ["status", "é.jsonl"],
              ["status", "war\udcff.jsonl"], ["status"], ["status", J, "extra"],
              ["status", "--", J], ["status", J, "--"], ["status", J, "-"],
              ["status", J, "-h"], ["status", "-h"], ["status", J, "--help"],
              ["status", J, "--nosuch"], ["status", J, "--nosuch=1"], ["status", J, "-x"],
              ["status", J, "-5"], ["status", J, "--form", "json"], ["status", J, "--a"],
              ["status", "--games", "games", J], ["--games", "games", "status", J],
              ["status", J, "--as"], ["status", J, "--width"], ["status", J, "--format"]]
    for as_ in ("german", "", "--format", "-h", "--help", "é", "public"):
        forms_ += [["status", J, "--as", as_], ["status", J, f"--as={as_}"],
                   ["status", "--as", as_, J]]
    forms_ += [["status", J, "--as", "german", "--as", "entente"],
               ["status", J, "--as=german", "--as=german"]]
    for dialect in ("common", "bgg", "phpbb", "smf", "SMF", "", "vbulletin"):
        forms_ += [["status", J, "--format", "bbcode", "--bbcode-dialect", dialect],
                   ["show", J, f"--bbcode-dialect={dialect}", "--format=bbcode"]]
    for fmt in ("text", "markdown", "bbcode", "chat", "json", "JSON", "Json", "", "xml", "tex"):
        forms_ += [["status", J, "--format", fmt], ["status", J, f"--format={fmt}"],
                   ["order", J, "--format", fmt, "pass"]]
    for n in ("40", "72", "400", "39", "401", "-72", "0", "٧٢", "72.0", " 72", "+72", "1_00",
              "", "0072", "-0", "x", "99999999999", "4e1"):
        forms_ += [["status", J, "--width", n], ["show", J, f"--width={n}"],
                   ["show", J, "--at", n], ["show", J, f"--at={n}"],
                   ["order", J, "--expect-seq", n, "pass"], ["order", J, f"--expect-seq={n}"]]
    forms_ += [["status", J, "--all"], ["status", J, "--all=true"], ["status", J, "--all=",
               ], ["status", J, "--all", "--all"], ["status", J, "--no-all"],
               ["status", J, "--all", "--as", "moderator", "--width", "100", "--format", "bbcode"],
               ["show", J, "--all"], ["show", J, "--at=2", "--as", "moderator", "--format",
                                      "markdown", "--width", "100"], ["show", J, "--at", "-"],
               ["show", J, "--at", "--width"], ["show", J, "-", "--at", "1"]]
    forms_ += [["order"], ["order", J], ["order", J, "pass"], ["order", J, "-"], ["order", "-"],
               ["order", "-", "-"], ["order", J, "pass", "end turn", "--as", "german"],
               ["order", "--as", "german", J, "move ge-1 liege", "--dice", "3,1"],
               ["order", J, "--file", "-"], ["order", J, "--file=orders.txt"],
               ["order", J, "--file="], ["order", J, "--file", "."], ["order", J, "--dice", "--",
                                                                     "pass"],
               ["order", J, "--", "pass"], ["order", J, "pass", "--"], ["order", J, "pass", "-x"],
               ["order", J, "-5"], ["order", J, "--atomic"], ["order", J, "--no-atomic"],
               ["order", J, "--atomic", "--no-atomic"], ["order", J, "--atomic", "--atomic"],
               ["order", J, "--dry-run", "--atomic", "pass"], ["order", J, "--no-dry-run"],
               ["order", J, "--atomic=1"], ["order", J, "--dry-run="], ["order", J, "--as"],
               ["order", J, "--format=json", "pass", "--as=entente", "--expect-seq", "-3"],
               ["order", J, "é", "--as", "german"], ["order", J, "--dice"]]
    forms_ += [["tick", D], ["tick", D, "--no-map"], ["tick", D, "--map"], ["tick", "--no-map", D],
               ["tick", D, "--format", "json"], ["tick", D, "--format=json", "--no-map"],
               ["tick", D, "--format", "JSON"], ["tick", D, "--format", "markdown"],
               ["tick", D, "--map", "--no-map"], ["tick", D, "--no-map", "--no-map"],
               ["tick", D, "--map=1"], ["tick", D, "--no-map="], ["tick"], ["tick", D, D],
               ["tick", D, "-h"], ["tick", "--", D], ["tick", D, "--interval", "5"],
               ["tick", "-"], ["tick", D, "--format"], ["watch", D]]
    forms_ += [["verify", J], ["verify"], ["verify", J, J], ["verify", J, "--secret", "s.secret"],
               ["verify", J, "--secret=s.secret", "--format", "json"], ["verify", "--key", "K", J],
               ["verify", J, "--export", "public"], ["verify", J, "--export=german", "--secret",
                                                     "-"],
               ["verify", J, "--receipt", "R"], ["verify", J, "--receipt", "R", "--receipt", "S"],
               ["verify", J, "--format", "xml"], ["verify", J, "--format"], ["verify", J, "-h"],
               ["verify", J, "--key", "K", "--key", "L"], ["verify", J, "--secret="]]
    forms_ += [[], ["log", J], ["status-x", J], ["Status", J], ["show"], ["-h"], ["--version"]]
    return forms_


CORPUS = _corpus()


def test_the_table_is_what_the_commands_declare():
    assert forms.FORMS_FILE.read_text(encoding="utf-8") == forms.render(), \
        "referee/cli/forms.json differs from the command line: run `make docs`"
    assert entry.FORMS_FILE == forms.FORMS_FILE


def test_the_table_describes_every_parameter_of_the_quick_commands():
    table = forms.table()
    assert set(table) == {"status", "show", "order", "tick", "verify"}
    for name, declared in table.items():
        cmd = COMMAND.commands[name]
        assert [p["name"] for p in declared["arguments"] + declared["options"]] == \
            [p.name for p in cmd.params if p.param_type_name == "argument"] + \
            [p.name for p in cmd.params if p.param_type_name == "option"]
        for option in declared["options"]:
            assert {"opts", "secondary_opts", "flag", "type", "choices", "min", "max",
                    "multiple", "default"} <= set(option)
    status = {o["name"]: o for o in table["status"]["options"]}
    assert status["format"]["choices"] == ["text", "markdown", "bbcode", "chat", "json"]
    assert status["bbcode_dialect"]["choices"] == ["common", "bgg", "phpbb", "smf"]
    assert status["width"]["type"] == "integer" and status["width"]["min"] == 40
    assert status["all_"]["flag"] and status["as_"]["type"] == "text"
    tick = {o["name"]: o for o in table["tick"]["options"]}
    assert tick["with_map"]["opts"] == ["--map"] and tick["with_map"]["secondary_opts"] == \
        ["--no-map"] and tick["with_map"]["default"] is True
    assert tick["format"]["choices"] == ["text", "json"]
    verify = {o["name"]: o for o in table["verify"]["options"]}
    assert verify["receipt"]["multiple"] and verify["secret"]["type"] == "path"
    assert verify["format"]["choices"] == ["text", "json"]


def test_the_quick_path_runs_every_parameter_it_reads():
    # A parameter the runner does not pass on sends the whole command to Typer: correct,
    # but no longer quick. Add it to the runner in entry.py.
    for name, declared in entry.forms().items():
        names = {p["name"] for p in declared["arguments"] + declared["options"]}
        assert names == set(entry._takes(entry.RUNNERS[name])), name


@pytest.mark.parametrize("argv", CORPUS, ids=repr)
def test_the_quick_path_parses_as_click_or_leaves_the_form_to_typer(argv, tmp_path,
                                                                      monkeypatch):
    monkeypatch.chdir(tmp_path)
    if not agree(argv):
        typer_answers(argv)


def test_the_corpus_has_forms_of_both_kinds():
    accepted = [argv for argv in CORPUS if quick(argv) is not None]
    assert len(accepted) > 60 and len(CORPUS) - len(accepted) > 100


def test_the_common_forms_stay_quick():
    for argv in (["status", J], ["show", J, "--as", "german"], ["status", J, "--format=json"],
                 ["order", J, "--as", "german", "pass", "end turn"], ["show", J, "--at", "3"],
                 ["order", J, "--as", "entente", "--expect-seq", "3", "--format", "json", "-"],
                 ["tick", D], ["tick", D, "--no-map"], ["tick", D, "--format", "json"],
                 ["verify", J], ["verify", J, "--secret", "s.secret", "--format", "json"],
                 ["verify", J, "--export", "public"], ["verify", J, "--key", "K"]):
        assert quick(argv) is not None, argv


def _tokens() -> list[str]:
    """What a random form is made of: every option the table declares, alone and with `=`
    values, the values, and what the quick path must leave to Typer."""
    values = ["text", "json", "markdown", "bbcode", "JSON", "", "german", "moderator", "-",
              "--", "-h", "--help", "--nosuch", "-x", "0", "40", "72", "401", "-3", "007",
              "٣", "1_0", " 3", "+3", "3.0", "x", J, D, "pass", "é"]
    out = list(values)
    for declared in forms.table().values():
        for o in declared["options"]:
            for name in o["opts"] + o["secondary_opts"]:
                out += [name] + [f"{name}={v}" for v in ("json", "3", "", "x", "50")]
    return sorted(set(out))


@given(st.sampled_from(["status", "show", "order", "tick", "verify"]),
       st.lists(st.sampled_from(_tokens()), max_size=7))
@settings(max_examples=400, deadline=None)
def test_random_forms_parse_as_click_parses_them(command, tokens):
    argv = [command, *tokens]
    if not agree(argv):             # declined: Click's parser answers it (a value or an error)
        assert clicks(argv) is not None


def test_the_forms_now_quick_print_what_typer_prints(game, cli, secret_file, tmp_path):
    for form in (("status", "--all"), ("status", "--as", "german", "--width", "50", "--all"),
                 ("show", "--as", "moderator", "--width", "100"),
                 ("order", "--as", "german", "--dry-run", "pass", "end turn", "pass"),
                 ("order", "--as", "german", "--atomic", "pass", "move ge-1 paris"),
                 ("verify",), ("verify", "--secret", secret_file, "--format", "json"),
                 ("verify", "--key", "AAAA-AAAA-AAAA-AAAA"), ("verify", "--export", "german")):
        r = cli(form[0], game, *form[1:])
        assert quick_run(form[0], game, *form[1:]) == (r.exit_code, r.stdout, r.stderr), form
        assert r.stdout or r.stderr
    twin = tmp_path / "twin" / "g.jsonl"
    twin.parent.mkdir()
    assert cli("new", twin, "--scenario", "1914", "--game-id", "test-1914",
               "--secret-file", secret_file).exit_code == 0
    orders = ("--as", "german", "pass", "move ge-1 paris")
    r = cli("order", twin, *orders)
    code, out, err = quick_run("order", game, *orders)
    assert (code, _timeless(out), err) == (r.exit_code, _timeless(r.stdout), r.stderr)
    assert r.exit_code == 1 and _records(game) == _records(twin)


def _timeless(text: str) -> str:
    return re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", "TIME", text)


def _records(journal) -> list[dict]:
    """A journal's records without the times they were written at (nor the hashes of those,
    nor the signatures of the hashes, nor the game's own key)."""
    return [{k: v for k, v in json.loads(line).items()
             if k not in ("at", "created_at", "hash", "prev", "sig", "signing")}
            for line in journal.read_text(encoding="utf-8").splitlines()]


def test_a_quick_tick_prints_what_typers_prints(clock, cli, secret_file, tmp_path):
    """tick from the console script without Typer: the same lines, the same one-line error
    and exit code, in text and in JSON, for a pass with a problem (a game with no mail
    target) and for one that handled all (twin folders: a game writing to an outbox); the
    clock is set, so that both print the same time."""
    lone = tmp_path / "lone" / "g.jsonl"
    lone.parent.mkdir()
    assert cli("new", lone, "--scenario", "1914", "--game-id", "lone",
               "--secret-file", secret_file).exit_code == 0
    for form in ((), ("--format", "json"), ("--no-map",), ("--format=json", "--map")):
        for target in (lone, lone.parent):
            r = cli("tick", target, *form)
            told = r.stderr if "json" in "".join(form) else problem_text(r)
            assert r.exit_code == 3 and "no mail target" in told, (form, r.output)
            assert quick_run("tick", target, *form) == (r.exit_code, r.stdout, r.stderr), form
    runs = []
    for twin in ("a", "b"):
        folder = tmp_path / twin / "games"
        folder.mkdir(parents=True)
        out = tmp_path / twin / "out"
        assert cli("new", folder / "g.jsonl", "--scenario", "1914", "--game-id", "twin",
                   "--secret-file", secret_file, "--player", "german=kaiser@example.org",
                   "--player", "entente=joffre@example.net",
                   "--mail-out", f"outbox:{out}").exit_code == 0
        run = cli if twin == "a" else (lambda *argv: _Ran(*quick_run(*argv)))
        r = run("tick", folder, "--no-map")
        again = run("tick", folder, "--format", "json")
        runs.append([(x.exit_code, x.stdout.replace(str(tmp_path / twin), "ROOT"), x.stderr)
                     for x in (r, again)])
        assert len(list(out.glob("*.eml"))) == 2
    assert runs[0] == runs[1]
    assert runs[0][0][0] == 0 and runs[0][0][1].endswith(
        f"{at(START)} 1 game: all handled\n"), runs[0][0][1]


class _Ran:
    def __init__(self, code: int, out: str, err: str):
        self.exit_code, self.stdout, self.stderr = code, out, err


def _door(argv: list[str], quick_door: bool, **run) -> subprocess.CompletedProcess:
    """argv run by the console script's quick path, or by Typer (`--games` before the
    command sends any form to Typer), in a process of its own, buffered as from cron."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    pre = () if quick_door else ("--games", str(default_games_dir()))
    return subprocess.run([sys.executable, "-m", "referee", *pre, *argv], env=env,
                          timeout=300, **run)


def _gone_reader(argv: list[str], quick_door: bool) -> subprocess.CompletedProcess:
    """argv run with its output going to a pipe whose reader has gone (`| head`)."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        return _door(argv, quick_door, stdout=writer, stderr=subprocess.PIPE)
    finally:
        os.close(writer)


@pytest.mark.parametrize("forms", [pytest.param(((),), id="quick"),
                                   pytest.param(((), ("--format", "json")), id="full")])
def test_a_tick_logged_to_one_file_has_its_lines_before_its_error_by_either_door(
        clock, cli, secret_file, tmp_path, forms):
    """cron's `>>log 2>&1`: the pass's lines, then its one-line error, in that order, by the
    quick path as by Typer (the clock set, so that both print the same time); and a log
    reader gone ends the run as quietly by either. Quick: the text form alone."""
    lone = tmp_path / "lone" / "g.jsonl"
    lone.parent.mkdir()
    assert cli("new", lone, "--scenario", "1914", "--game-id", "lone",
               "--secret-file", secret_file).exit_code == 0
    lone.parent.chmod(0o700)
    (tmp_path / "fixed.secret").chmod(0o600)
    for form in forms:
        argv = ["tick", str(lone.parent), *form]
        quick_, typer_ = (_door(argv, door, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
                          for door in (True, False))
        assert quick_.returncode == typer_.returncode == 3
        assert quick_.stdout == typer_.stdout, form
        lines = quick_.stdout.decode().splitlines()
        if form:
            assert lines[0] == "{" and "no mail target" in lines[-1] and lines[-1].startswith(
                '{"schema_version":1,"error":'), lines
        else:
            assert lines == [f"{at(START)} lone: problem  no mail target: `referee mail {lone} "
                             f"--out TARGET` sets one", f"{at(START)} 1 game: 0 handled, 1 problem",
                             "referee: 1 problem in 1 game (see above)"], lines
        gone = [_gone_reader(argv, door) for door in (True, False)]
        assert [(g.returncode, g.stderr) for g in gone] == [(0, b"")] * 2, form


def test_an_export_that_names_no_reader_names_the_option_given_by_either_door(game, cli):
    for form in (("--export=",), ("--export", "Ger man"), ("--export=", "--format", "json")):
        r = cli("verify", game, *form)
        assert quick_run("verify", game, *form) == (r.exit_code, r.stdout, r.stderr), form
        said = r.stdout + r.stderr
        assert r.exit_code == 2 and "--export " in said and "--as" not in said, said
