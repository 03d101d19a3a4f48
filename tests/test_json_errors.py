"""A command run with `--format json` that fails prints one JSON error object on stderr, through
both front doors (the Typer application and the console script's quick path); the exit codes
have one table, in docs/scripting.md (the README points to it), and each kind of error its
stable name there too."""

from __future__ import annotations

import contextlib
import io
import json
import re
import subprocess
import sys
from pathlib import Path
from unittest import mock

import jsonschema
import pytest
from pydantic import TypeAdapter

import gamecalls as g
from referee.base import errors
from referee.cli.entry import main as referee_main
from referee.cli.entry import parse
from referee.contracts.outputs import OUTPUTS

ROOT = Path(__file__).resolve().parent.parent
KEYS = {"schema_version", "error", "kind", "rule", "exit"}


def error_object(stderr: str, code: int) -> dict:
    """The one error object stderr holds: one line, the documented keys, the exit code."""
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    obj = json.loads(lines[0])
    assert KEYS <= set(obj) and obj["exit"] == code
    jsonschema.Draft202012Validator(TypeAdapter(OUTPUTS["error"]).json_schema(by_alias=True)).validate(obj)
    TypeAdapter(OUTPUTS["error"]).validate_json(lines[0])
    return obj


def damaged(journal: Path) -> Path:
    """The journal with record 2 edited after it was written (verify: record 2, exit 3)."""
    assert not g.submit(journal, "german", ["pass"]).rejected
    lines = journal.read_bytes().split(b"\n")
    lines[2] = lines[2].replace(b'"german"', b'"entente"', 1)
    journal.write_bytes(b"\n".join(lines))
    return journal


def exported(journal: Path) -> Path:
    """The Entente's redacted export of the journal, beside it, as a player holds it."""
    assert not g.submit(journal, "german", ["pass"]).rejected
    export = journal.with_name("entente.jsonl")
    from referee.store.chain import redact
    from referee.store.journal import canonical

    export.write_bytes(b"".join(canonical(redact(json.loads(line), "entente")) + b"\n"
                                for line in journal.read_bytes().splitlines()))
    export.chmod(0o600)
    return export


# id: (a function of the journal giving the arguments, exit code, kind, rule)
TYPER_CASES = {
    "no journal": (lambda j: ["status", j.with_name("nosuch.jsonl")], 2, "usage", None),
    "unreadable order": (lambda j: ["order", j, "--as", "german", "fly to the moon"], 1,
                         "order_syntax", None),
    "illegal order": (lambda j: ["order", j, "--as", "entente", "pass"], 1, "illegal_order",
                      "2.0 II.1"),
    "dry run": (lambda j: ["order", j, "--as", "german", "--dry-run", "end turn"], 1,
                "illegal_order", "2.0 II.1"),
    "no such record": (lambda j: ["explain", j, "99"], 2, "usage", None),
    "bad receipt": (lambda j: ["verify", j, "--receipt", "1:nothex"], 2, "usage", None),
    "unknown option": (lambda j: ["log", j, "--bogus"], 2, "usage", None),   # click's own
    "bad value": (lambda j: ["show", j, "--at", "x"], 2, "usage", None),
    "damaged journal": (lambda j: ["verify", damaged(j)], 3, "journal", None),
    "standing orders of no side": (lambda j: ["standing", j, "--as", "nobody", "--add",
                                              "no cavalry retreat"], 2, "usage", None),
    "standing order it cannot read": (lambda j: ["standing", j, "--as", "german", "--add",
                                                 "win the war"], 1, "order_syntax", None),
    "standing orders listed for no side": (lambda j: ["standing", j, "--as", "nobody"], 2,
                                           "usage", None),
    "export for no reader": (lambda j: ["verify", j, "--export", "nobody"], 2, "usage", None),
    "skirmish keys of a campaign": (lambda j: ["skirmish", "keys", j], 2, "usage", None),
    "deadline not a duration": (lambda j: ["deadline", j, "--set", "soon"], 2, "usage", None),
    "extension nobody owes": (lambda j: ["extend", j, "24h"], 1, "order_rejected", None),
    "export replayed": (lambda j: ["status", exported(j), "--as", "entente"], 3, "journal", None),
    "export explained": (lambda j: ["explain", exported(j), "2", "--as", "entente"], 3,
                         "journal", None),
}
# What the error must name, for the cases whose option is easily misnamed: the option given.
NAMED = {"export for no reader": "--export 'nobody'", "deadline not a duration": "--set 'soon'",
         "export replayed": "a redacted export", "export explained": "a redacted export",
         "extension nobody owes": "extend: no side owes orders with a deadline now",
         "standing order it cannot read": "'win the war'"}


def folder(journal: Path) -> dict[str, bytes]:
    """Every file beside the journal, with its bytes: what a refused command must leave."""
    return {p.name: p.read_bytes() for p in sorted(journal.parent.iterdir()) if p.is_file()}


@pytest.mark.parametrize("case", list(TYPER_CASES))
def test_the_typer_application_prints_one_error_object(case, game, cli):
    args, code, kind, rule = TYPER_CASES[case]
    argv = args(game)
    before = folder(game)
    r = cli(*argv, "--format", "json")
    obj = error_object(r.stderr, code)
    assert r.exit_code == code and obj["kind"] == kind and obj["rule"] == rule
    assert folder(game) == before, "a refused command changed the game's folder"
    assert NAMED.get(case, "") in obj["error"]
    assert not re.search(r"\b[A-Z]\w*(Error|Exception)\b", obj["error"]), "Python's words"
    if kind == "journal":               # the record at fault: the one edited, the first redacted
        assert obj["record"] == {"damaged journal": 2}.get(case, 1)
    text = cli(*argv)                          # the text line says the same, unchanged
    assert text.exit_code == code and text.stderr == f"referee: {obj['error']}\n"


# A skirmish's errors, as a campaign's: (arguments, exit code, kind); {j} is its journal.
SKIRMISH_CASES = {
    "order of no side": (["skirmish", "order", "{j}", "--as", "nobody", "done"], 2, "usage"),
    "order of the public": (["skirmish", "order", "{j}", "--as", "public", "done"], 2, "usage"),
    "the same by order": (["order", "{j}", "--as", "nobody", "done"], 2, "usage"),
    "an order it cannot read": (["skirmish", "order", "{j}", "--as", "british", "fly"], 1,
                                "order_syntax"),
}


@pytest.mark.parametrize("case", list(SKIRMISH_CASES))
def test_a_skirmish_prints_one_error_object(case, patrol, cli):
    args, code, kind = SKIRMISH_CASES[case]
    before = folder(patrol)
    r = cli(*[a.format(j=patrol) for a in args], "--format", "json")
    assert r.exit_code == code and error_object(r.stderr, code)["kind"] == kind
    assert folder(patrol) == before


def test_a_players_export_is_read_by_log_dice_and_verify(game, cli):
    """What player.md promises a player holding only his export: log and dice read it, and
    verify --export checks it (chain only); the commands that replay refuse it (above)."""
    export = exported(game)
    for argv, name in ((["log", export, "--as", "entente"], None),
                       (["dice", export, "--as", "entente"], "dice-counts"),
                       (["verify", export, "--export", "entente"], "verify-result")):
        r = cli(*argv, "--format", "json")
        assert r.exit_code == 0 and r.stderr == "", (argv, r.stderr)
        if name is not None:
            jsonschema.Draft202012Validator(TypeAdapter(OUTPUTS[name]).json_schema(
                by_alias=True)).validate(json.loads(r.stdout))
    assert json.loads(r.stdout)["result"] == "chain_only"


def test_a_rejected_order_prints_its_result_and_the_error_object(game, cli):
    r = cli("order", game, "--as", "german", "pass", "move be-1 paris", "--format", "json")
    result = json.loads(r.stdout)
    assert result["rejected"]["index"] == 1 and len(result["applied"]) == 1
    obj = error_object(r.stderr, 1)
    assert obj["kind"] in ("illegal_order", "order_syntax")
    assert "order 1 was applied, order 2" in obj["error"]   # not "orders 1-1 were"


def test_game_data_problems_are_one_object_with_every_problem(tmp_path, cli):
    from datacopy import copy_game

    games = copy_game(tmp_path)
    path = games / "ttlm" / "map.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace(
        "neighbours: [cologne, eifel, trier, pfalz]", "neighbours: [cologne, eifel, trier]"),
        encoding="utf-8")
    r = cli("games", "check", games / "ttlm", "--format", "json")
    obj = error_object(r.stderr, 3)
    assert obj["kind"] == "game_data" and any("pfalz" in p for p in obj["problems"])
    assert len(obj["problems"]) == 1, obj["problems"]       # pfalz no longer a neighbour
    assert obj["error"].startswith("1 problem in the game data")


def test_an_internal_error_is_an_object_too(game, cli, monkeypatch):
    def boom(*a, **k):
        raise RuntimeError("surprise")
    from referee.table import Table

    monkeypatch.setattr(Table, "game", boom)
    r = cli("area", game, "liege", "--format", "json")
    obj = error_object(r.stderr, 4)
    assert obj["kind"] == "internal" and "surprise" in obj["error"]


def test_a_broken_invariant_in_autoplay_is_an_object(game, cli, monkeypatch):
    from referee.game import autoplay

    real = autoplay.autoplay

    def failing(*a, **k):
        out = real(*a, **k)
        out.failure = "record 5 (a test)"
        return out
    monkeypatch.setattr(autoplay, "autoplay", failing)
    r = cli("autoplay", game, "--until", "1", "--format", "json")
    assert r.exit_code == 3 and json.loads(r.stdout)["failure"] == "record 5 (a test)"
    assert error_object(r.stderr, 3)["kind"] == "invariant"


# ---------------------------------------------------------------- the quick path

def quick_run(argv: list[str]) -> tuple[int, str, str]:
    """The console script's entry point in this process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with mock.patch.object(sys, "argv", ["referee", *argv]), \
            contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            referee_main()
            code = 0
        except SystemExit as exc:
            code = exc.code or 0
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("argv,code,kind", [
    (["status", "{j}.nope", "--format", "json"], 2, "usage"),
    (["show", "{j}", "--at", "99", "--format", "json"], 2, "usage"),
    (["order", "{j}", "--as", "german", "--format", "json", "fly to the moon"], 1,
     "order_syntax"),
    (["order", "{j}", "--as", "entente", "--format=json", "pass"], 1, "illegal_order"),
    (["status", "{j}", "--format", "json", "--as", "nobody"], 2, "usage"),
])
def test_the_console_script_prints_one_error_object(argv, code, kind, game):
    argv = [a.format(j=game) for a in argv]
    assert parse(argv) is not None, "not the quick path"
    got, out, err = quick_run(argv)
    assert got == code and error_object(err, code)["kind"] == kind
    if argv[0] == "order":
        assert json.loads(out)["rejected"]["index"] == 0
    text = [a for a in argv if a not in ("--format", "json", "--format=json")]
    assert quick_run(text)[2] == f"referee: {json.loads(err)['error']}\n"


def test_the_console_script_hands_a_bad_option_to_typer_which_answers_in_json(game):
    assert parse(["status", str(game), "--format", "json", "--width", "3"]) is None
    code, _, err = quick_run(["status", str(game), "--format", "json", "--width", "3"])
    assert code == 2 and error_object(err, 2)["kind"] == "usage"
    code, _, err = quick_run(["status", str(game), "--format", "jsn"])   # not known as JSON
    assert code == 2 and err.startswith("referee: ")


def test_python_dash_m_prints_one_error_object(game):
    out = subprocess.run([sys.executable, "-m", "referee", "status", f"{game}.nope", "--format",
                          "json"], capture_output=True, text=True)
    assert error_object(out.stderr, out.returncode)["kind"] == "usage" and out.returncode == 2


def _imported(runs: list[str]) -> list[str]:
    """The pydantic and contract modules a process running these command lines imports, and
    typing_extensions and inspect (what pydantic-core's schema builders bring in)."""
    script = ("import sys; from referee.cli.entry import main\n"
              "for argv in sys.argv[1:]:\n"
              "    sys.argv = ['referee', *argv.split('|')]\n"
              "    try: main()\n"
              "    except SystemExit: pass\n"
              "print(sorted(m for m in sys.modules if m.startswith(('pydantic', "
              "'referee.contracts')) or m in ('typing_extensions', 'inspect')), "
              "file=sys.stderr)\n")
    out = subprocess.run([sys.executable, "-c", script, *runs], capture_output=True, text=True)
    return eval(out.stderr.splitlines()[-1])      # noqa: S307 - the list this script printed


# What only validation imports of the contracts layer: a read decodes the contract classes
# with msgspec and never validates with pydantic.
VALIDATION = ["referee.contracts.check", "referee.contracts.validation", "referee.contracts.words"]


def test_the_quick_paths_never_import_pydantic(game):
    """status and show in JSON, failing or not, answer without pydantic or pydantic-core; an
    order validates its records with pydantic-core's compiled validator, from the contract
    classes, never importing pydantic itself nor the typed dictionaries of core_schema (and
    the typing_extensions they load), a third of the import floor."""
    read = _imported([f"status|{game}|--format|json", f"show|{game}|--format|json",
                      f"status|{game}.nope|--format|json"])
    assert "referee.contracts.records" in read, read
    assert not [m for m in read if m.startswith("pydantic") or m in VALIDATION], read
    written = _imported([f"order|{game}|--as|german|--format|json|pass"])
    assert set(VALIDATION) <= set(written), written
    assert "pydantic_core._pydantic_core" in written and not [
        m for m in written if m.startswith("pydantic.") or m in (
            "pydantic", "pydantic_core.core_schema", "typing_extensions", "inspect")]


# ---------------------------------------------------------------- one table of exit codes

def _section(text: str, title: str) -> str:
    start = text.index(f"\n{title}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end > 0 else None]


def test_the_exit_codes_have_one_table_which_the_readme_points_to():
    """One table of exit codes among the hand-written documents, in docs/scripting.md, holding
    every code the referee exits with; the README only points to it."""
    docs = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]
    tables = [p.relative_to(ROOT).as_posix() for p in docs
              if re.search(r"^\| code \|", p.read_text(encoding="utf-8"), re.M)]
    assert tables == ["docs/scripting.md"], f"one table of exit codes: {tables}"
    scripting = (ROOT / "docs" / "scripting.md").read_text(encoding="utf-8")
    table = _section(scripting, "## Exit codes and errors")
    codes = [int(m) for m in re.findall(r"^\| (\d+) \|", table, re.M)]
    constants = {v for k, v in vars(errors).items() if k.startswith("EXIT_")}
    assert codes == sorted({0, *constants})
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "(docs/scripting.md#exit-codes-and-errors)" in readme


def test_every_kind_of_error_is_documented_with_its_exit_code():
    kinds = {}
    for cls in vars(errors).values():
        if isinstance(cls, type) and issubclass(cls, errors.RefereeError):
            assert "kind" in vars(cls), f"{cls.__name__} has no kind of its own"
            assert re.fullmatch(r"[a-z]+(_[a-z]+)*", cls.kind)
            kinds[cls.kind] = cls
    assert len(kinds) == len([c for c in vars(errors).values()
                              if isinstance(c, type) and issubclass(c, errors.RefereeError)])
    text = (ROOT / "docs" / "scripting.md").read_text(encoding="utf-8")
    rows = dict((m[1], int(m[2])) for m in re.finditer(r"^\| [^|]+ \| `(\w+)` \| (\d+) \|",
                                                       text, re.M))
    for kind, cls in kinds.items():
        if cls not in (errors.RefereeError,):
            assert rows.get(kind) == cls.exit_code, f"docs/scripting.md: {kind}"
    assert rows.get("internal") == errors.EXIT_INTERNAL and rows.get("invariant") == 3
    assert rows.get("interrupted") == errors.EXIT_INTERRUPTED


@pytest.mark.parametrize("json_errors", [False, True])
def test_an_interrupted_command_says_so_with_its_documented_code(json_errors, capsys):
    """Ctrl-C (or a SIGINT from the script that ran it) stops a command at the boundary: one
    line, or one error object, and the code the table gives, like every other stop."""
    from referee.cli.commands import guard

    def interrupted():
        raise KeyboardInterrupt
    code = guard(interrupted, json_errors=json_errors)
    err = capsys.readouterr().err
    if json_errors:
        assert error_object(err, code)["kind"] == "interrupted"
    else:
        assert err == f"referee: {errors.INTERRUPTED}\n"
    table = _section((ROOT / "docs" / "scripting.md").read_text(encoding="utf-8"),
                     "## Exit codes and errors")
    assert re.search(rf"^\| {code} \| interrupted", table, re.M)


def _every_error_class() -> set[type]:
    """Every RefereeError of the referee, wherever it is defined (the mail layer has its own),
    once each module is imported."""
    import importlib
    import pkgutil

    import referee

    for module in pkgutil.walk_packages(referee.__path__, "referee."):
        if not module.name.endswith("__main__"):       # that one runs the command line
            importlib.import_module(module.name)
    found, todo = set(), [errors.RefereeError]
    while todo:
        for sub in todo.pop().__subclasses__():
            found.add(sub)
            todo.append(sub)
    return found


def test_every_kind_a_command_can_print_is_documented_with_its_exit_code():
    """An error class outside referee/base/errors.py (tick's `transport`) prints its kind in
    the error object too: a script reads it from the same table."""
    text = (ROOT / "docs" / "scripting.md").read_text(encoding="utf-8")
    rows = dict((m[1], int(m[2])) for m in re.finditer(r"^\| [^|]+ \| `(\w+)` \| (\d+) \|",
                                                       text, re.M))
    for cls in _every_error_class():
        assert rows.get(cls.kind) == cls.exit_code, \
            f"docs/scripting.md: {cls.kind} ({cls.__module__}.{cls.__name__})"


@pytest.mark.parametrize("json_errors", [False, True])
def test_an_interrupt_before_the_boundary_is_told_as_at_it(json_errors, capsys, monkeypatch,
                                                             tmp_path):
    """Ctrl-C while the console script still imports the referee (a third of a second of a
    cold start) is the same line or error object and exit 130, never a traceback."""
    from referee.cli import entry, start

    def interrupted(*_args, **_kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr(entry, "console", interrupted)
    argv = ["referee", "dice", str(tmp_path / "war.jsonl")]
    monkeypatch.setattr(sys, "argv", argv + (["--format", "json"] if json_errors else []))
    monkeypatch.setattr(sys, "stdout", sys.stdout)
    monkeypatch.setattr(sys, "stderr", sys.stderr)
    try:
        with pytest.raises(SystemExit) as stop:
            start.console()
    except KeyboardInterrupt:
        pytest.fail("the interrupt left the console script as a traceback")
    assert stop.value.code == errors.EXIT_INTERRUPTED
    err = capsys.readouterr().err
    if json_errors:
        assert error_object(err, stop.value.code)["kind"] == "interrupted"
    else:
        assert err == f"referee: {errors.INTERRUPTED}\n"


@pytest.mark.parametrize("argv,said", [
    (["status", "{j}", "--width", "10"], "referee: --width 10: at least 40 columns"),
    (["report", "{j}", "--width=500"], "referee: --width 500: at most 400 columns"),
    (["status", "{j}", "--width", "abc"], "referee: --width abc: a whole number of columns"),
    (["sheet", "new", "-o", "{j}.sheet", "--links", "abc"], "referee: --links abc: a whole number"),
    (["sheet", "new", "-o", "{j}.sheet", "--links", "0"], "referee: --links 0: at least 1"),
    (["watch", "{j}", "--interval", "0"], "referee: --interval 0: at least 1 second"),
    (["watch", "{j}", "--interval", "abc"], "referee: --interval abc: a number of seconds"),
    # an empty value is named as empty, not left to the library's words
    (["order", "{j}", "--as", "german", "--expect-seq", "", "pass"],
     "referee: --expect-seq '': a whole number"),
    (["status", "{j}", "--width="], "referee: --width '': a whole number of columns"),
])
def test_a_width_out_of_its_range_is_said_in_the_options_words(argv, said, game, cli):
    """--width 10 was answered "Invalid value for '--width': Input should be greater than or
    equal to 40", a validation library's words."""
    r = cli(*[a.format(j=game) for a in argv])
    assert r.exit_code == 2 and r.stderr == said + "\n", r.stderr
