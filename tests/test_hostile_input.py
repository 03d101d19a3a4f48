"""Hostile input: whatever a user types or sends, one clear line per problem and a stable exit.

The rule under test: for anything a user can type or send (a YAML file, an
order, an option value, a journal), the referee prints one line per problem
on stderr, prefixed "referee: ", never a traceback and never "internal
error", and exits 1 (an order rejected), 2 (bad usage: a bad option value,
a missing or unreadable file named on the command line) or 3 (a damaged
journal, game data or scenario file). Exit 4 or a crash or a hang is a
failure. A rejected order leaves the journal byte for byte as it was.
"""

from __future__ import annotations

import json
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from forging import forget_mark, resign
from sharedgames import kept

from doors import console, quick
from referee.base.errors import QUOTE_LIMIT
from referee.data.paths import default_games_dir
from referee.store.journal import canonical, record_hash

TTLM = default_games_dir() / "ttlm"
SCENARIO_1914 = TTLM / "scenarios" / "1914.yaml"
# The referee's own target for refusing any hostile file is 1 s of work, Python's start
# included. What is bounded is the processor time the child spent (a bomb expanding, a parser
# looping), not the wall clock, so a machine loaded by other work does not fail the test.
TARGET_SECONDS = 1.0
LIMIT_SECONDS = 2.0
PROBLEMS_FOUND = re.compile(r"^referee: (\d+) problems? found$")


def _clean(text: str) -> None:
    """No traceback and no internal error in what the referee printed."""
    assert "Traceback" not in text
    assert "internal error" not in text


def _one_line(stderr: str) -> str:
    """The single 'referee: ' line of stderr (warnings about shared files aside); with
    --format json the error object, read back as that line."""
    lines = [ln for ln in stderr.splitlines() if not ln.startswith("referee: warning:")]
    assert len(lines) == 1, stderr
    if lines[0].startswith("{"):
        return "referee: " + json.loads(lines[0])["error"]
    assert lines[0].startswith("referee: ")
    return lines[0]


def _cpu_of_children() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


# The attacks that could run away or crash the interpreter run in a process of their own;
# the others, refused the same way, in this one (a process each costs ten times the time).
# A hang meets the child's time limit, generous so that a busy machine's slow start is not
# taken for one.
OWN_PROCESS = ("billion_laughs", "deep_block_nesting", "deep_flow_list", "python_tag",
               "over_1_mib")


def _refusing(case: str, *args, timeout: float = 60,
              cwd: Path | None = None) -> tuple[subprocess.CompletedProcess, float]:
    """The referee run on a hostile file: in a process of its own for the attacks of
    OWN_PROCESS, else in this one (same entry point, same output); (what it printed, the
    processor seconds it used)."""
    if any(name in case for name in OWN_PROCESS):
        return _subprocess(*args, timeout=timeout, cwd=cwd)
    from conftest import Cli

    before, start = Path.cwd(), time.process_time()
    try:
        if cwd is not None:
            os.chdir(cwd)
        r = Cli()(*args)
    finally:
        os.chdir(before)
    out = subprocess.CompletedProcess(list(args), r.exit_code, r.stdout, r.stderr)
    return out, time.process_time() - start


def _in_process(*args) -> tuple[subprocess.CompletedProcess, float]:
    """The console script's dispatch run in this process (doors.console: a hang is stopped
    and fails the test); what it printed and the processor seconds it used."""
    start = time.process_time()
    code, stdout, stderr = console(*args)
    return (subprocess.CompletedProcess(list(args), code, stdout, stderr),
            time.process_time() - start)


def _subprocess(*args: str, timeout: float = 60,
                cwd: Path | None = None) -> tuple[subprocess.CompletedProcess, float]:
    """Run `python -m referee ARGS` (a fresh process: a segfault or a runaway is caught here);
    returns what it printed and the processor seconds it used (a hang hits the timeout)."""
    start = _cpu_of_children()
    out = subprocess.run([sys.executable, "-m", "referee", *map(str, args)],
                         capture_output=True, text=True, env=dict(os.environ), timeout=timeout,
                         cwd=cwd)
    return out, _cpu_of_children() - start




# ---------------------------------------------------------------- A. hostile YAML

def _billion_laughs() -> str:
    """The alias bomb: nine levels of nine aliases each (9**9 strings once expanded)."""
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    prev = "a"
    for name in "bcdefghi":
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 9) + "]")
        prev = name
    return "\n".join(lines) + "\n"


def _deep_block(depth: int = 1000) -> str:
    """A mapping nested `depth` levels deep in block style (one-space indents)."""
    return "".join(" " * i + f"k{i}:\n" for i in range(depth)) + " " * depth + "v\n"


def _scenario_text() -> str:
    return SCENARIO_1914.read_text(encoding="utf-8")


def _scenario_with(old: str, new: str) -> str:
    """The built-in 1914 scenario with one piece of text replaced."""
    text = _scenario_text()
    assert old in text, old
    return text.replace(old, new, 1)


HAND = "hand: {german: 5, entente: 4}"
START = 'start: {turn: 1, label: "SUMMER 1914"}'

# name -> the file's bytes (built lazily: some are large)
FORMAT_ATTACKS = {
    "billion_laughs": lambda: _billion_laughs().encode(),
    "deep_flow_list": lambda: b"[" * 100_000 + b"]" * 100_000,
    "deep_block_nesting": lambda: _deep_block().encode(),
    "empty_file": lambda: b"",
    "only_tilde": lambda: b"~\n",
    "only_null": lambda: b"null\n",
    "recursive_alias": lambda: b"a: &x [*x]\n",
    "python_tag": lambda: b'!!python/object/apply:os.system ["echo pwned > PWNED"]\n',
    "python_tag_nested": lambda: b'id: !!python/object/apply:os.system ["echo pwned > PWNED"]\n',
    "invalid_utf8": lambda: b'id: "1914"\ntitle: "\xff\xfe\xc3("\n',
    "over_1_mib": lambda: b"# " + b"x" * (1 << 20) + b"\nid: x\n",
    "top_level_list": lambda: b"- 1\n- 2\n",
    "top_level_string": lambda: b"just some words\n",
}
SCENARIO_ATTACKS = {
    "huge_integer_hand": lambda: _scenario_with(HAND, "hand: {german: " + "9" * 5000
                                                + ", entente: 4}").encode(),
    "large_integer_hand": lambda: _scenario_with(HAND, f"hand: {{german: {10**30}, "
                                                       f"entente: 4}}").encode(),
    "large_integer_turn": lambda: _scenario_with(START, f'start: {{turn: {10**30}, '
                                                        f'label: "x"}}').encode(),
    "negative_hand": lambda: _scenario_with(HAND, "hand: {german: -1, entente: 4}").encode(),
    "string_for_int": lambda: _scenario_with(HAND, "hand: {german: five, entente: 4}").encode(),
    "float_for_int": lambda: _scenario_with(START, 'start: {turn: 1.5, label: "x"}').encode(),
    "list_for_mapping": lambda: _scenario_with(START, "start: [1, 2]").encode(),
    "mapping_for_list": lambda: _scenario_with("eft_box: []", "eft_box: {a: 1}").encode(),
}
# What each problem line must say (besides naming the file), where it matters.
# The place (:LINE:COLUMN:) is counted by hand from the attack's text: the 33rd bracket of
# the deep list, the 33rd key of the deep nest, the first alias (`b: &b [` is 7 wide).
SAYS = {
    "billion_laughs": ":2:8: uses the alias *a", "recursive_alias": ":1:8: uses the alias *x",
    "deep_flow_list": ":1:33: nested more than 32 levels deep",
    "deep_block_nesting": ":33:33: nested more than 32 levels deep",
    "empty_file": ":1:1: the file is empty", "only_tilde": ":1:1: the file is empty",
    "only_null": ":1:1: the file is empty", "invalid_utf8": ":2:9: not UTF-8 text",
    "over_1_mib": "larger than",
    "huge_integer_hand": "cards.hand.german", "large_integer_hand": "cards.hand.german",
    "negative_hand": "cards.hand.german", "string_for_int": "cards.hand.german",
    "large_integer_turn": "start.turn", "float_for_int": "start.turn",
    "list_for_mapping": "start", "mapping_for_list": "eft_box",
    "python_tag": ":1:1: uses the tag !!python/object/apply:os.system",
    "python_tag_nested": ":1:5: uses the tag !!python/object/apply:os.system",
}


def _assert_refused(out: subprocess.CompletedProcess, elapsed: float, names: str,
                    says: str | None, case: str = "") -> list[str]:
    """Exit 3, fast, no traceback, every line prefixed, the file named; returns the lines."""
    _clean(out.stderr + out.stdout)
    assert out.returncode == 3, (out.returncode, out.stderr)
    assert elapsed < LIMIT_SECONDS, f"{case}: {elapsed:.2f} s (target {TARGET_SECONDS} s)"
    lines = out.stderr.splitlines()
    assert lines and all(ln.startswith("referee: ") for ln in lines), out.stderr
    problems = [ln for ln in lines if not PROBLEMS_FOUND.match(ln)]
    assert problems and all(names in ln for ln in problems), out.stderr
    if says is not None:
        assert any(says.casefold() in ln.casefold() for ln in problems), out.stderr
    assert "pwned" not in out.stdout
    return lines


@pytest.mark.parametrize("case", [*FORMAT_ATTACKS, *SCENARIO_ATTACKS])
def test_a_hostile_scenario_file_is_refused_and_no_journal_is_made(tmp_path, case):
    attack = {**FORMAT_ATTACKS, **SCENARIO_ATTACKS}[case]
    bad = tmp_path / f"{case}.yaml"
    bad.write_bytes(attack())
    journal = tmp_path / "j.jsonl"
    out, elapsed = _refusing(case, "new", journal, "--scenario", bad, timeout=60, cwd=tmp_path)
    _assert_refused(out, elapsed, str(bad), SAYS.get(case), case)
    assert not journal.exists() and not Path(f"{journal}.secret").exists()
    assert not (tmp_path / "PWNED").exists()          # the python tag never ran


def test_a_scenario_that_would_make_a_header_no_reader_takes_is_refused(cli, tmp_path):
    """A scenario's free-form `status` nested 30 levels passes the YAML reader, and made a
    record 0 that nests past chain.DEEPEST: a game no command could read. Refused before
    anything is written."""
    text = SCENARIO_1914.read_text(encoding="utf-8")
    assert "\nstatus:\n" in text
    scenario = tmp_path / "deep.yaml"
    scenario.write_text(text.replace("\nstatus:\n", "\nstatus:\n  deep: " + "[" * 30 + "1"
                                     + "]" * 30 + "\n", 1), encoding="utf-8")
    r = cli("new", tmp_path / "g.jsonl", "--scenario", scenario)
    _clean(r.output)
    assert r.exit_code == 2 and "nests deeper than" in _one_line(r.stderr), r.stderr
    assert list(tmp_path.glob("g.jsonl*")) == []


def test_a_scenario_of_thousands_of_unknown_keys_is_placed_without_a_search_each(
        cli, tmp_path, monkeypatch):
    """Each problem is placed at its line (data/marks.py): the children of a node were
    searched one by one for every problem, so 20,000 unknown keys took 33 s and 100,000
    over a minute. Each node's children are now indexed once."""
    from referee.data import marks

    looked = []
    real = marks._key_text
    monkeypatch.setattr(marks, "_key_text", lambda node: looked.append(1) or real(node))
    scenario = tmp_path / "keys.yaml"
    scenario.write_text("".join(f"k{i}: 1\n" for i in range(2_000)), encoding="utf-8")
    r = cli("new", tmp_path / "g.jsonl", "--scenario", scenario)
    _clean(r.output)
    assert r.exit_code == 3 and "k1999" in r.stderr
    assert len(looked) < 20 * 2_000, len(looked)


def test_thousands_of_problems_are_put_in_file_order_with_each_mapping_read_once():
    """The problems of a file are listed from its top down: each problem looked its key up
    in a fresh list of its mapping's keys, so 20,000 unknown keys took 3.5 s to sort. The
    keys of a mapping are now read once for all its problems."""
    from referee.contracts.scenariomodels import Scenario
    from referee.data.shapes import problems_of

    class Counted(dict):
        reads = 0

        def __iter__(self):
            Counted.reads += 1
            return super().__iter__()

    raw = Counted({f"k{i}": 1 for i in range(2_000)})
    found = problems_of(Scenario, raw, "keys.yaml")
    assert [p for p in found if "unknown key" in str(p)][-1].endswith("(at k1999)"), found[-1]
    assert [str(p).split("'")[1] for p in found if "unknown key" in str(p)] == list(raw)
    assert Counted.reads < 10, Counted.reads


def test_a_directory_given_as_the_scenario_file_is_bad_usage(tmp_path):
    folder = tmp_path / "scenario.yaml"
    folder.mkdir()
    journal = tmp_path / "j.jsonl"
    out, elapsed = _in_process("new", journal, "--scenario", folder)
    _clean(out.stderr + out.stdout)
    # A directory named on the command line is a bad option value (exit 2), as for --secret.
    assert out.returncode == 2 and elapsed < LIMIT_SECONDS
    assert str(folder) in _one_line(out.stderr)
    assert not journal.exists()


def _data_copy(tmp_path: Path) -> Path:
    root = tmp_path / "games" / "ttlm"
    shutil.copytree(TTLM, root)
    return root


# Which file of a data directory each case breaks, and with what.
DATA_CASES = {
    **{f"map.yaml:{k}": ("map.yaml", v) for k, v in FORMAT_ATTACKS.items()},
    **{f"scenarios/1914.yaml:{k}": ("scenarios/1914.yaml", v)
       for k, v in SCENARIO_ATTACKS.items()},
    "units.yaml:large_integer_count": (
        "units.yaml", lambda: (TTLM / "units.yaml").read_text(encoding="utf-8").replace(
            "infantry: 35,", f"infantry: {10**30},", 1).encode()),
    "units.yaml:list_for_mapping": (
        "units.yaml", lambda: (TTLM / "units.yaml").read_text(encoding="utf-8").replace(
            "  be: {army: 1,  infantry: 3, fort: 3}", "  be: [1, 3, 3]", 1).encode()),
    "map.yaml:string_for_int": (
        "map.yaml", lambda: (TTLM / "map.yaml").read_text(encoding="utf-8").replace(
            "    vp: 1\n", "    vp: one\n", 1).encode()),
    "map.yaml:huge_coordinates": (
        "map.yaml", lambda: (TTLM / "map.yaml").read_text(encoding="utf-8").replace(
            "at: [50.63, 5.57]", f"at: [{10**30}, .nan]", 1).encode()),
}
DATA_SAYS = {
    "units.yaml:large_integer_count": "counter_mix.ge.infantry",
    "units.yaml:list_for_mapping": "counter_mix.be",
    "map.yaml:string_for_int": "vp",
    "map.yaml:huge_coordinates": "(liege).at",
}


def _problem_lines(out: subprocess.CompletedProcess) -> list[str]:
    """The problem lines, checked against the final count line."""
    lines = out.stderr.splitlines()
    counted = PROBLEMS_FOUND.match(lines[-1])
    assert counted, f"no final count line: {out.stderr}"
    problems = lines[:-1]
    assert int(counted.group(1)) == len(problems) >= 1, out.stderr
    return problems


@pytest.mark.parametrize("case", list(DATA_CASES))
def test_a_hostile_file_in_a_data_directory_is_listed(tmp_path, case):
    rel, attack = DATA_CASES[case]
    root = _data_copy(tmp_path)
    (root / rel).write_bytes(attack())
    out, elapsed = _refusing(case, "games", "check", root, timeout=60, cwd=tmp_path)
    says = DATA_SAYS.get(case, SAYS.get(case.partition(":")[2]))
    _assert_refused(out, elapsed, "", says, case)
    problems = _problem_lines(out)
    assert any(ln.startswith(f"referee: {rel}:") for ln in problems), out.stderr
    assert not (tmp_path / "PWNED").exists()          # the python tag never ran


def test_a_directory_in_place_of_a_data_file(tmp_path):
    root = _data_copy(tmp_path)
    (root / "scenarios" / "1914.yaml").unlink()
    (root / "scenarios" / "1914.yaml").mkdir()
    out, elapsed = _in_process("games", "check", root)
    _assert_refused(out, elapsed, "", "is a directory", "dir")
    assert _problem_lines(out) == [
        "referee: scenarios/1914.yaml: is a directory, not a YAML file of game data"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_in_place_of_a_data_file_does_not_hang(tmp_path):
    root = _data_copy(tmp_path)
    (root / "map.yaml").unlink()
    os.mkfifo(root / "map.yaml")
    out, elapsed = _in_process("games", "check", root)
    _assert_refused(out, elapsed, "", "not a regular file", "fifo")


def test_every_problem_of_a_data_directory_is_listed_with_a_count(tmp_path):
    root = _data_copy(tmp_path)
    (root / "map.yaml").write_text(_billion_laughs())
    (root / "deck.yaml").write_bytes(b"[" * 100_000)
    units = (root / "units.yaml").read_text(encoding="utf-8")
    (root / "units.yaml").write_text(units.replace("version: 1", "version: " + "9" * 5000, 1))
    (root / "scenarios" / "1916.yaml").write_text("~\n")
    scen = _scenario_with(HAND, "hand: {german: -1, entente: 4}")
    (root / "scenarios" / "1918.yaml").write_text(scen.replace("last_turn: 23", "last_turn: x"))
    out, elapsed = _subprocess("games", "check", root)
    _assert_refused(out, elapsed, "", None, "several")
    problems = _problem_lines(out)
    for name, says in (("map.yaml", ":2:8: uses the alias"),
                       ("deck.yaml", ":1:33: nested more than 32 levels deep"),
                       ("units.yaml", "digits"), ("scenarios/1916.yaml", ":1:1: the file is empty"),
                       ("scenarios/1918.yaml", "cards.hand.german"),
                       ("scenarios/1918.yaml", "last_turn")):
        hits = [ln for ln in problems if ln.startswith(f"referee: {name}:") and says in ln]
        assert len(hits) == 1, (name, says, out.stderr)


# What the referee says of a YAML text, whatever the YAML library says: each case's place is
# counted by hand in its text (LINE:COLUMN from 1).
YAML_WORDS = [
    ("[" * 40 + "]" * 40, "1:33: nested more than 32 levels deep"),
    ("a: 1\nb: " + "[" * 40 + "]" * 40 + "\n", "2:36: nested more than 32 levels deep"),
    ("a: |\n  " + "[" * 40 + "\n  it's\nb: " + "{" * 33 + "\n",
     "4:36: nested more than 32 levels deep"),
    ("a: &x [1]\nb: *x\n", "2:4: uses the alias *x; aliases are not allowed in game data"),
    ("id: !!python/object/apply:os.system [x]\n",
     "1:5: uses the tag !!python/object/apply:os.system; tags are not allowed in game data"),
    ("a:\n  b: " + "9" * 200 + "\n", "2:6: a number of 200 digits"),
    ("a: 1\nb: 2\na: 3\n", "3:1: the key 'a' is given twice in one mapping"),
    ("a: 1\n---\nb: 2\n", "2:1: a second YAML document begins here"),
    ("a:\n\tb: 1\n", "2:1: not valid YAML: a tab; YAML indents with spaces"),
    ("a: [1, 2\nb: 3\n", "2:2: not valid YAML: the structure breaks here"),
    ('a: "abc\nb: 2\n', "3:1: not valid YAML: a quote, bracket or indentation out of place"),
    ("a: 1\nb: x\x07y\n", "2:5: the character U+0007 is not allowed in a YAML file"),
    ("a: 1\nb: 2020-13-45\n", "2:4: '2020-13-45' looks like a date or a number but is not"),
    ("", "1:1: the file is empty"),
]


class _Reworded:
    """The yaml module as another release might be: every error it raises is worded
    otherwise, and a deep flow list is refused before any of its nodes is reported (as
    PyYAML 6.0.4's LibYAML does), with a place of its own choosing."""

    def __init__(self, real):
        self._real = real

    def __getattr__(self, name):
        return getattr(self._real, name)

    def _reword(self, run):
        try:
            yield from run
        except self._real.YAMLError as exc:
            for attr in ("problem", "context", "note", "reason"):
                if getattr(exc, attr, None) is not None:
                    setattr(exc, attr, "zzz nested alias tag digits empty")
            exc.args = ("zzz",)
            raise

    def parse(self, text, Loader):
        if "[" * 20 in text or "{" * 20 in text:
            mark = self._real.Mark("<text>", 0, 0, 1000, None, None)
            raise self._real.scanner.ScannerError(None, None, "zzz", mark)
        return self._reword(self._real.parse(text, Loader=Loader))

    def load(self, text, Loader):
        return next(self._reword(iter([self._real.load(text, Loader=Loader)])))


@pytest.mark.parametrize("reworded", [False, True], ids=["this-release", "reworded"])
def test_a_yaml_file_is_refused_in_the_referees_words_at_its_place(tmp_path, monkeypatch,
                                                                   reworded):
    import yaml

    from referee.data import yamltext
    from referee.data.dataload import read_yaml

    if reworded:
        monkeypatch.setattr(yamltext, "yaml", _Reworded(yaml))
    for i, (text, says) in enumerate(YAML_WORDS):
        path = tmp_path / f"{i}.yaml"
        path.write_text(text, encoding="utf-8")
        problems: list[str] = []
        assert read_yaml(path, problems, "x.yaml") is None
        assert len(problems) == 1 and problems[0].startswith(f"x.yaml:{says}"), (text, problems)
        assert "zzz" not in problems[0]


def test_a_yaml_text_with_brackets_in_quotes_comments_and_block_text_is_read(tmp_path):
    """The referee's own count of nesting skips what opens nothing: 40 brackets in quotes,
    a comment, a plain value and a block of text."""
    many = "[" * 40
    text = (f"a: [1, {{b: 'it''s {many}'}}]  # {many} a comment\n"
            f"c: it's {many}\n"
            f"d: |\n  {many}\n  'unclosed\n"
            f'e: "{{{{ \\" {many}"\n')
    path = tmp_path / "ok.yaml"
    path.write_text(text, encoding="utf-8")
    problems: list[str] = []
    value = read_yaml_for_test(path, problems)
    assert not problems
    assert value == {"a": [1, {"b": f"it's {many}"}], "c": f"it's {many}",
                     "d": f"{many}\n'unclosed\n", "e": f'{{{{ " {many}'}


def read_yaml_for_test(path, problems):
    from referee.data.dataload import read_yaml

    return read_yaml(path, problems)


# ---------------------------------------------------------------- B. typed input

def _order_both_ways(cli, game: Path, *args: str) -> list[tuple[int, str]]:
    """Run `order GAME ARGS` through Typer and through the quick path: [(code, stderr)]."""
    r = cli("order", game, *args)
    _clean(r.stdout + r.stderr)
    code, out, err = quick("order", str(game), *args)
    _clean(out + err)
    return [(r.exit_code, r.stderr), (code, err)]


@pytest.mark.parametrize("number", ["²", "٣", "３", "1" * 990, "-1", "0", "1e3"])
def test_buy_takes_only_ascii_digits(game, cli, number):
    before = game.read_bytes()
    for code, err in _order_both_ways(cli, game, "--as", "german", f"buy {number}"):
        assert code == 1, err
        line = _one_line(err)
        # One line, bounded: the order and the word each cut at QUOTE_LIMIT with '…'.
        assert "is not a number of cards" in line and len(line) < 3 * QUOTE_LIMIT
        assert game.read_bytes() == before


@pytest.mark.parametrize("order", [
    '{"verb":' * 1000 + "1" + "}" * 1000,
    '{"verb":"play","card":' + "[" * 5000 + "]" * 5000 + "}"])
def test_an_order_in_json_nested_past_pythons_recursion_is_refused(game, cli, order, data):
    """A JSON order nested a thousand levels deep took msgspec past Python's recursion (an
    internal error, and by mail a traceback at every pass of tick): refused, exit 1, as
    longer than any order; and read from a journal (where no length is checked), refused
    as nested too deep."""
    from referee.base.errors import OrderSyntaxError
    from referee.engine.reading import parse_order

    before = game.read_bytes()
    r = cli("order", game, "--as", "german", order)
    _clean(r.output)
    assert r.exit_code == 1 and "an order is at most" in _one_line(r.stderr)
    assert game.read_bytes() == before
    with pytest.raises(OrderSyntaxError, match="nested deeper than any order"):
        parse_order(order, data)


def test_more_reminders_than_a_deadline_keeps_are_bad_usage(game, cli, tmp_path):
    """Eleven reminders broke the record's contract as built (an internal error, and `new`
    left a half-made game): refused before anything is written."""
    eleven = ",".join(f"{h}h" for h in range(1, 12))
    before = game.read_bytes()
    r = cli("deadline", game, "--reminders", eleven)
    assert r.exit_code == 2 and "at most 10" in _one_line(r.stderr)
    assert game.read_bytes() == before
    fresh = tmp_path / "n.jsonl"
    r = cli("new", fresh, "--scenario", "1914", "--deadline", "48h", "--reminders", eleven)
    assert r.exit_code == 2 and "at most 10" in _one_line(r.stderr)
    assert list(tmp_path.glob("n.jsonl*")) == []


def test_an_order_file_that_is_not_utf8_is_bad_usage(game, cli, tmp_path):
    bad = tmp_path / "orders.txt"
    bad.write_bytes(b"pass\n\xff\xfe\n")
    before = game.read_bytes()
    for code, err in _order_both_ways(cli, game, "--as", "german", "--file", str(bad)):
        assert code == 2 and "not UTF-8" in _one_line(err)
    for missing in (tmp_path / "nope.txt", tmp_path):
        for code, err in _order_both_ways(cli, game, "--as", "german", "--file", str(missing)):
            assert code == 2 and str(missing) in _one_line(err)
    assert game.read_bytes() == before


def test_verify_with_a_directory_as_the_secret(game, cli, tmp_path):
    r = cli("verify", game, "--secret", tmp_path)
    _clean(r.output)
    assert r.exit_code == 2 and "directory" in _one_line(r.stderr)


@pytest.mark.parametrize("at", ["999999", "-5", "99999999999999999999"])
def test_show_at_a_record_the_journal_does_not_have(game, cli, at):
    r = cli("show", game, "--at", at)
    _clean(r.output)
    assert r.exit_code == 2 and "--at" in _one_line(r.stderr)
    assert r.stdout == ""
    if len(at) < 10:
        code, out, err = quick("show", str(game), "--at", at)
        _clean(out + err)
        assert code == 2 and "--at" in _one_line(err) and out == ""


@pytest.mark.parametrize("args,says", [
    (["show", "J", "--format", "yaml"], "--format"), (["show", "J", "--at", "abc"], "--at"),
    (["status", "J", "--bogus"], "--bogus"), (["show"], "journal"),
    (["order", "J", "--as"], "--as"),
    (["log", "J", "--since", "x"], "--since"), (["no-such-command"], "no-such-command"),
    (["new", "J2", "--scenario"], "--scenario"),
], ids=lambda a: "-".join(a) if isinstance(a, list) else "")
def test_a_bad_argument_is_one_line_and_exit_2(game, cli, args, says):
    argv = [str(game) if a == "J" else str(game.with_name("new.jsonl")) if a == "J2" else a
            for a in args]
    r = cli(*argv)
    for code, out, err in ((r.exit_code, r.stdout, r.stderr), _console(*argv)):
        _clean(out + err)
        assert code == 2, err
        assert says in _one_line(err)
        assert "Usage:" not in err and "╭" not in err, err     # no usage box
    assert not game.with_name("new.jsonl").exists()


def _console(*argv: str) -> tuple[int, str, str]:
    """The console script's own dispatch (the quick path hands these to Typer)."""
    return console(*argv)


@pytest.mark.parametrize("dice", ["²", "３", "٣", "3,²", "1" * 5000])
def test_manual_dice_take_only_ascii_digits(tmp_path, cli, dice):
    p = tmp_path / "m.jsonl"
    assert cli("new", p, "--scenario", "1914", "--dice", "manual").exit_code == 0
    before = p.read_bytes()
    for code, err in _order_both_ways(cli, p, "--as", "german", "pass", "--dice", dice):
        assert code == 1 and "dice rejected" in _one_line(err)
        assert len(_one_line(err)) < 400
    assert p.read_bytes() == before


COMMANDS_ON_A_PATH = [
    ("status",), ("show",), ("log",), ("verify",), ("order", "--as", "german", "pass"),
    ("reveal", "--force"), ("repair",), ("standing", "--as", "german"), ("upgrade",),
]


@pytest.mark.parametrize("command", COMMANDS_ON_A_PATH, ids=lambda c: c[0])
def test_a_journal_that_is_a_directory(cli, tmp_path, command):
    folder = tmp_path / "g.jsonl"
    folder.mkdir()
    r = cli(command[0], folder, *command[1:])
    _clean(r.output)
    assert r.exit_code == 2 and str(folder) in _one_line(r.stderr)
    if command[0] in ("status", "show", "order"):
        code, out, err = quick(command[0], str(folder), *command[1:])
        _clean(out + err)
        assert code == 2 and str(folder) in _one_line(err)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_journal_that_is_a_fifo_does_not_hang(tmp_path):
    fifo = tmp_path / "g.jsonl"
    os.mkfifo(fifo)
    for command in COMMANDS_ON_A_PATH:
        out, elapsed = _in_process(command[0], fifo, *command[1:])
        _clean(out.stdout + out.stderr)
        assert out.returncode == 2, (command, out.stderr)
        assert "regular file" in _one_line(out.stderr) and elapsed < LIMIT_SECONDS


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_secret_or_an_orders_file_that_is_a_fifo_does_not_hang(game, tmp_path):
    fifo = tmp_path / "planted"
    os.mkfifo(fifo)
    for argv in (["order", game, "--as", "german", "--file", fifo],
                 ["verify", game, "--secret", fifo]):
        out, elapsed = _in_process(*argv)
        _clean(out.stdout + out.stderr)
        assert out.returncode == 2 and "not a regular file" in _one_line(out.stderr), out.stderr
        assert elapsed < LIMIT_SECONDS
    # A FIFO planted where a game's secret is looked for (beside the journal).
    beside = tmp_path / "beside.jsonl"
    _in_process("new", beside, "--scenario", "1914")
    secret = beside.with_name(beside.name + ".secret")
    secret.unlink()
    os.mkfifo(secret)
    before = beside.read_bytes()
    out, elapsed = _in_process("order", beside, "--as", "german", "pass")
    assert out.returncode == 2 and "not a regular file" in out.stderr, out.stderr
    assert elapsed < LIMIT_SECONDS and beside.read_bytes() == before


def test_an_orders_file_over_a_mebibyte_is_refused(game, cli, tmp_path):
    big = tmp_path / "orders.txt"
    big.write_text("pass\n" * 300_000)
    before = game.read_bytes()
    r = cli("order", game, "--as", "german", "--file", big)
    assert r.exit_code == 2 and "larger than" in _one_line(r.stderr)
    assert game.read_bytes() == before


# ---------------------------------------------------------------- C. well-chained, wrong shape

OPENING = [("german", ["play offensive", "move ge-1 liege", "move ge-4:cavalry ardennes",
                       "end movement", "done", "done"]),
           ("german", ["done"])]


def _play_opening(place: Path, mp) -> None:
    """The `game` fixture's game in place (g.jsonl, its secret in fixed.secret), played
    through OPENING."""
    from conftest import FIXED_SECRET, Cli

    cli = Cli()
    (place / "fixed.secret").write_text(FIXED_SECRET + "\n")
    r = cli("new", place / "g.jsonl", "--scenario", "1914", "--game-id", "test-1914",
            "--secret-file", place / "fixed.secret")
    assert r.exit_code == 0, r.stderr
    for side, orders in OPENING:
        r = cli("order", place / "g.jsonl", "--as", side, *orders)
        assert r.exit_code == 0, r.stderr


@pytest.fixture
def played(tmp_path, tmp_path_factory) -> Path:
    """The 1914 game after the Liège opening: cards, moves, a battle and dice in its records.
    The test's own (tmp_path/g.jsonl, its secret in tmp_path/fixed.secret, as `game` makes
    it): a copy of one played once for the process, which the tests here each break a
    different way, with the referee home that played it (its key, marks and snapshots)
    copied into the test's, and the place of the secret noted again, as `new` notes it."""
    made = kept(tmp_path_factory.getbasetemp(), "hostile-input-played", _play_opening)
    made.back(to=tmp_path, secret=("g.jsonl", "fixed.secret"))
    return tmp_path / "g.jsonl"


def _records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_bytes().splitlines()]


def _write_chained(records: list[dict], start: int, path: Path) -> None:
    """Write records with the hash chain valid again from record `start` on, signed by the
    holder of the game's key, who also forgets his referee's mark of the record it last
    wrote (the journal is no older copy: only its shape is wrong)."""
    out = []
    for i, rec in enumerate(records):
        if i >= start:
            rec = {k: v for k, v in rec.items() if k != "hash"}
            if i > 0:
                rec["prev"] = out[i - 1]["hash"]
            rec = resign(rec)
        out.append(rec)
    path.write_bytes(b"".join(canonical(r) + b"\n" for r in out))
    forget_mark(path)


def _assert_chained(path: Path) -> None:
    """Every line is canonical and linked to the one before: only the shape is wrong."""
    prev = None
    for line in path.read_bytes().splitlines():
        rec = json.loads(line)
        assert canonical(rec) == line and rec.get("prev") == prev
        assert rec["hash"] == record_hash(rec)
        prev = rec["hash"]


def _event(rec: dict, kind: str) -> dict:
    return next(e for e in rec["events"] if e.get("type") == kind)


def _first_dice_record(records: list[dict]) -> int:
    return next(j for j, r in enumerate(records) if j and r.get("dice"))


def _deep_list(depth: int) -> list:
    v: list = []
    for _ in range(depth):
        v = [v]
    return v


# A value of each JSON type, and the extremes: a number beyond 64 bits, a deep nest.
ODD_VALUES = [7, "x", [], {}, None, True, 10**40, 1.5, -1, "", _deep_list(200), ["a", 1],
              {"type": "Nothing"}]
UNTOUCHABLE = ("hash", "prev")       # re-chaining rewrites them anyway


def _locations(obj, path=()):
    """Every (container path, key) in a record, except the chain's own fields."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            if not path and k in UNTOUCHABLE:
                continue
            yield path, k
            yield from _locations(v, (*path, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield path, i
            yield from _locations(v, (*path, i))


def _at(obj, path):
    for k in path:
        obj = obj[k]
    return obj


def _mutate_anywhere(rec: dict, rng: random.Random) -> str:
    """Delete one key or replace one value with one of another type."""
    path, key = rng.choice(list(_locations(rec)))
    parent = _at(rec, path)
    if isinstance(parent, dict) and rng.random() < 0.3:
        del parent[key]
        return f"del {'/'.join(map(str, (*path, key)))}"
    value = rng.choice(ODD_VALUES)
    parent[key] = value
    return f"{'/'.join(map(str, (*path, key)))} = {str(value)[:30]}"


def _strings(obj) -> set[str]:
    """Every string value in obj (ids of cards, areas and units among them)."""
    if isinstance(obj, str):
        return {obj}
    if isinstance(obj, dict):
        return set().union(*map(_strings, obj.values())) if obj else set()
    if isinstance(obj, list):
        return set().union(*map(_strings, obj)) if obj else set()
    return set()


def _mutate_meaning(rec: dict, rng: random.Random, words: list[str]) -> str:
    """Keep the type, change the meaning: a string becomes another id, a number another."""
    spots = [(p, k) for p, k in _locations(rec)
             if isinstance(_at(rec, p)[k], (str, int)) and not isinstance(_at(rec, p)[k], bool)]
    path, key = rng.choice(spots)
    parent = _at(rec, path)
    if isinstance(parent[key], str):
        parent[key] = rng.choice(words)
    else:
        parent[key] = rng.choice([-1, 0, 2, 5, 23, 99, 2**31, 2**63])
    return f"{'/'.join(map(str, (*path, key)))} = {str(parent[key])[:30]}"


def _events_of(rec: dict) -> list[dict]:
    return [e for e in rec.get("events", []) if isinstance(e, dict)]


def _mutate_events(rec: dict, rng: random.Random) -> str:
    """The event list's shape: a dict, strings, a missing or unknown type, a wrong field."""
    events = _events_of(rec)
    choice = rng.randrange(6)
    if choice == 0:
        rec["events"] = {"0": events[0] if events else {}}
        return "events = dict"
    if choice == 1:
        rec["events"] = [e.get("type", "?") for e in events] or ["PhaseBegan"]
        return "events = strings"
    if not events:
        rec["events"] = [{"type": "NoSuchEvent"}]
        return "events = [unknown]"
    ev = rng.choice(events)
    if choice == 2:
        ev.pop("type", None)
        return "event without type"
    if choice == 3:
        ev["type"] = rng.choice(["NoSuchEvent", "", "secret", "Ev", "__class__"])
        return f"event type {ev['type']!r}"
    fields = [k for k in ev if k != "type"]
    if not fields:
        ev["extra"] = 1
        return "event extra field"
    field = rng.choice(fields)
    ev[field] = rng.choice(ODD_VALUES)
    return f"event {ev.get('type')}.{field} = {str(ev[field])[:30]}"


def _mutate_dice(rec: dict, rng: random.Random) -> str:
    """One die out of range, of another type, or absent where a record rolled none."""
    value = rng.choice([0, 7, "3", 1.0, -1, 10**40, None, [3]])
    dice = rec.get("dice") or [1]
    dice[rng.randrange(len(dice))] = value
    rec["dice"] = dice
    return f"dice {dice}"


def _mutate_fields(rec: dict, rng: random.Random) -> str:
    """seq, actor, the order text, or a field the record should not have."""
    choice = rng.randrange(4)
    if choice == 0:
        rec["seq"] = float(rec["seq"])
        return "seq float"
    if choice == 1:
        rec["actor"] = rng.choice(["moderator", "nobody", "German", ""])
        return f"actor {rec['actor']}"
    if choice == 2:
        rec["order"] = rng.choice(["", "x" * 10_000, "pass", "reveal secret", "set up",
                                   "{\"kind\": \"pass\"}", 5])
        return "order text"
    rec[rng.choice(["private_order", "unknown_field"])] = rng.choice(ODD_VALUES + [
        {"to": "german", "salt": "00", "data": {}},
        {"to": "german", "digest": "00"}])
    return "private_order / unknown field"


HEADER_KEYS = ("scenario_data", "options", "dice", "game", "game_id", "scenario",
               "data_digest", "schema_version", "kind", "created_at", "rules_version")


def _mutate_header(rec: dict, rng: random.Random) -> str:
    """Record 0: its scenario, options, dice commitment, game and game id among others."""
    key = rng.choice(HEADER_KEYS)
    if key == "scenario_data" and rng.random() < 0.7:
        return "scenario_data/" + _mutate_anywhere(rec["scenario_data"], rng)
    if key == "options" and rng.random() < 0.5:
        rec["options"] = rng.choice([{"hidden_templates": 1}, {"no_such_option": True},
                                     {"hidden_templates": True}, {}])
        return f"options {rec['options']}"
    if key == "dice" and rng.random() < 0.5:
        rec["dice"] = rng.choice([{"mode": "manual", "commitment": rec["dice"]["commitment"]},
                                  {"mode": "loaded", "commitment": "0" * 64},
                                  {"mode": "committed"}, "committed"])
        return f"dice {rec['dice']}"
    if key in ("game", "game_id") and rng.random() < 0.5:
        rec[key] = rng.choice(["../../etc", "", "x" * 500, "ttlm/../ttlm", "nosuchgame"])
        return f"{key} {rec[key][:20]}"
    if rng.random() < 0.3:
        del rec[key]
        return f"del header {key}"
    rec[key] = rng.choice(ODD_VALUES)
    return f"header {key} = {str(rec[key])[:30]}"


def _mutant(records: list[dict], rng: random.Random) -> tuple[list[dict], int, str]:
    """A deep copy of records with one structural mutation; (records, index, what)."""
    recs = json.loads(json.dumps(records))
    kind = rng.choices(["anywhere", "meaning", "events", "dice", "fields", "header"],
                       weights=[4, 4, 4, 2, 2, 3])[0]
    if kind == "header":
        return recs, 0, _mutate_header(recs[0], rng)
    i = rng.randrange(1, len(recs))
    if kind == "anywhere":
        what = _mutate_anywhere(recs[i], rng)
    elif kind == "meaning":
        words = sorted(_strings(records[1:]) - {r["hash"] for r in records})
        what = _mutate_meaning(recs[i], rng, words)
    elif kind == "events":
        what = _mutate_events(recs[i], rng)
    elif kind == "dice":
        dice_records = [j for j, r in enumerate(recs) if j and r.get("dice")]
        i = rng.choice(dice_records) if rng.random() < 0.7 else i
        what = _mutate_dice(recs[i], rng)
    else:
        what = _mutate_fields(recs[i], rng)
    return recs, i, what


# `make test` reads 12 mutants; `make soak` reads 400 (REFEREE_MUTANTS).
MUTANTS = int(os.environ.get("REFEREE_MUTANTS", "12"))


def _sealable_mutant(records: list[dict], rng: random.Random) -> tuple[list[dict], int, str]:
    """A mutant whose chain is made valid again (every record can be hashed, a secret part
    with a salt that is not text included: it is then no secret part)."""
    recs, i, what = _mutant(records, rng)
    for rec in recs[i:]:
        record_hash(rec)
    return recs, i, what


def _runs(journal: Path, secret: Path) -> list[tuple[str, list[str]]]:
    """Every command and form a mutated journal is run through: (front door, argv)."""
    j = str(journal)
    return [
        ("cli", ["status", j, "--as", "german"]),
        ("cli", ["status", j, "--format", "json"]),
        ("quick", ["status", j, "--as", "german", "--format", "json"]),
        ("cli", ["show", j, "--as", "german", "--format", "text"]),
        ("cli", ["show", j, "--as", "entente", "--format", "json"]),
        ("quick", ["show", j, "--as", "moderator", "--format", "markdown"]),
        ("quick", ["show", j, "--as", "entente", "--at", "3"]),
        ("cli", ["log", j, "--as", "moderator"]),
        ("cli", ["log", j, "--as", "entente", "--format", "json"]),
        ("cli", ["report", j, "--as", "entente", "--since", "0"]),
        ("cli", ["verify", j]),
        ("cli", ["verify", j, "--secret", str(secret)]),
        ("cli", ["standing", j, "--as", "german", "--add", "no combat cards"]),
        ("cli", ["upgrade", j]),
        ("cli", ["order", j, "--as", "german", "pass"]),
        ("quick", ["order", j, "--as", "german", "pass"]),
    ]


def _judge(command: str, code: int, out: str, err: str, path: Path,
           before: bytes) -> list[str]:
    """What is wrong with one run on a mutated journal (nothing, one hopes)."""
    wrong = []
    if "Traceback" in out + err or "internal error" in out + err:
        wrong.append(" ".join(err.split())[:300])
    if code not in (0, 1, 2, 3):
        wrong.append(f"exit {code}")
    if code and not any(ln.startswith(("referee: ", '{"schema_version":1,"error":'))
                        for ln in err.splitlines()):
        wrong.append(f"exit {code} without a 'referee: ' line or an error object")
    if code and command in ("order", "upgrade", "standing") and path.read_bytes() != before:
        wrong.append("the journal changed")
    if code == 3 and not re.search(r"record \d+", err):
        wrong.append(f"a damaged journal without its record number: {err.strip()[:200]}")
    return wrong


def test_well_chained_journals_of_the_wrong_shape(played, cli, secret_file, tmp_path):
    records = _records(played)
    assert len(records) >= 9 and any(r.get("dice") for r in records)
    rng = random.Random(1914)
    hits: dict[str, int] = {}
    codes: dict[str, set[int]] = {}
    failures: list[str] = []
    started = time.process_time()
    for k in range(MUTANTS):
        recs, i, what = _sealable_mutant(records, rng)
        path = tmp_path / f"m{k}.jsonl"
        _write_chained(recs, i, path)
        path.chmod(0o600)
        _assert_chained(path)
        runs = _runs(path, secret_file)
        # Every mutant goes through the orders (both doors) and four more commands in turn.
        chosen = runs[-2:] + [runs[(k * 4 + n) % (len(runs) - 2)] for n in range(4)]
        for door, argv in chosen:
            before = path.read_bytes()
            if door == "cli":
                r = cli(*argv)
                code, out, err = r.exit_code, r.stdout, r.stderr
            else:
                code, out, err = quick(*argv)
            key = f"{door} {' '.join(argv[:1] + argv[2:])}"
            hits[key] = hits.get(key, 0) + 1
            codes.setdefault(key, set()).add(code)
            failures.extend(f"mutant {k} ({what}, record {i}): {key}: {problem}"
                            for problem in _judge(argv[0], code, out, err, path, before))
    assert not failures, f"{len(failures)} failures:\n" + "\n".join(failures[:25])
    elapsed = time.process_time() - started
    assert all(n >= min(20, MUTANTS // 4) for n in hits.values()) and \
        len(hits) == len(_runs(played, secret_file)), hits
    # The mutants are not all refused the same way: some are damaged, some still play.
    assert set().union(*codes.values()) >= {1, 3}, codes
    assert elapsed < 60 * max(1, MUTANTS / 160), f"{elapsed:.1f} s"     # a hang, not a benchmark


# name -> (which record, the mutation, exit of `status`, exit of `verify`): each one named in
# the brief. A mutation of the right shape but the wrong meaning (another actor, another die)
# still reads, and is caught by `verify`, which decides every record again.
NAMED = {
    "events_a_dict": (3, lambda r: r.update(events={"0": r["events"][0]}), 3, 3),
    "events_strings": (3, lambda r: r.update(events=[e["type"] for e in r["events"]]), 3, 3),
    "event_without_type": (3, lambda r: r["events"][0].pop("type"), 3, 3),
    "event_unknown_type": (3, lambda r: r["events"][0].update(type="NoSuchEvent"), 3, 3),
    "event_field_wrong_type": (3, lambda r: _event(r, "UnitMoved").update(to_area=7), 3, 3),
    "secret_cards_not_text": (1, lambda r: _event(r, "CardsDrawn")["secret"]["data"].update(
        cards=[["off-14"], 1]), 3, 3),
    "secret_deck_missing": (1, lambda r: _event(r, "DeckShuffled")["secret"].update(data={}),
                            3, 3),
    "die_0": ("dice", lambda r: r["dice"].__setitem__(0, 0), 3, 3),
    "die_7": ("dice", lambda r: r["dice"].__setitem__(0, 7), 3, 3),
    "die_text": ("dice", lambda r: r["dice"].__setitem__(0, "3"), 3, 3),
    "die_float": ("dice", lambda r: r["dice"].__setitem__(0, 1.0), 3, 3),
    "die_changed": ("dice", lambda r: r["dice"].__setitem__(0, r["dice"][0] % 6 + 1), 0, 3),
    "seq_float": (4, lambda r: r.update(seq=4.0), 3, 3),
    "actor_moderator": (4, lambda r: r.update(actor="moderator"), 0, 3),
    "actor_nobody": (4, lambda r: r.update(actor="nobody"), 3, 3),
    "header_scenario_a_list": (0, lambda r: r.update(scenario_data=[]), 3, 3),
    "header_negative_hand": (0, lambda r: r["scenario_data"]["cards"]["hand"].update(german=-1),
                             3, 3),
    "header_unknown_area": (0, lambda r: r["scenario_data"]["units"][0].update(area="atlantis"),
                            3, 3),
    "header_option_not_bool": (0, lambda r: r["options"].update(hidden_templates=1), 3, 3),
    "header_dice_mode": (0, lambda r: r["dice"].update(mode="loaded"), 3, 3),
    "header_game_a_path": (0, lambda r: r.update(game="../../etc"), 3, 3),
    "header_game_id_empty": (0, lambda r: r.update(game_id=""), 3, 3),
    "header_game_id_a_number": (0, lambda r: r.update(game_id=5), 3, 3),
}


@pytest.mark.parametrize("case", list(NAMED))
def test_a_named_mutation_is_reported_with_its_record(played, cli, tmp_path, case):
    where, mutate, status_code, verify_code = NAMED[case]
    records = _records(played)
    n = _first_dice_record(records) if where == "dice" else where
    mutate(records[n])
    path = tmp_path / "m.jsonl"
    _write_chained(records, n, path)
    path.chmod(0o600)
    _assert_chained(path)
    for argv, want in ((["status", path], status_code), (["verify", path], verify_code)):
        r = cli(*argv)
        _clean(r.output)
        assert r.exit_code == want, (argv[0], r.stderr)
        if want == 3:
            assert f"record {n}" in _one_line(r.stderr), r.stderr
    before = path.read_bytes()
    code, out, err = quick("order", str(path), "--as", "german", "pass")
    _clean(out + err)
    assert code in (1, 3) and path.read_bytes() == before


@pytest.mark.parametrize("depth", [40, 400])
def test_a_record_nested_deeper_than_the_referee_writes_is_damage_to_every_reader(
        played, cli, tmp_path, depth):
    """A decision's free-form `info` nested hundreds of lists deep, signed and chained again
    by the game key's holder: the readers that walk a record (redacting it for `log` and
    `report`) went past Python's recursion, an internal error. No record the referee writes
    nests more than six levels; one deeper than chain.DEEPEST is damaged, for every reader."""
    records = _records(played)
    n = next(i for i, r in enumerate(records) if i and any(
        e.get("type") == "DecisionPending" for e in r.get("events", [])))
    nested: object = 0
    for _ in range(depth):
        nested = [nested]
    _event(records[n], "DecisionPending")["info"]["deep"] = nested
    path = tmp_path / "m.jsonl"
    _write_chained(records, n, path)
    path.chmod(0o600)
    for argv in (["status", path], ["show", path], ["log", path], ["log", path, "--format",
                 "json"], ["report", path, "--as", "german", "--since", "0"],
                 ["explain", path, str(n)], ["verify", path]):
        r = cli(*argv)
        _clean(r.output)
        assert r.exit_code == 3 and _only_checks(argv[0], r.stdout), (argv[0], r.stdout[:200])
        assert f"record {n} is damaged: it nests deeper than" in _one_line(r.stderr), r.stderr


def _only_checks(command: str, stdout: str) -> bool:
    """A reader of damage prints nothing of the game; verify prints the checks it made and
    its verdict, the failed one last."""
    if command != "verify":
        return not stdout
    lines = stdout.splitlines()
    return bool(lines) and lines[-1].startswith("verify: FAILED (") and \
        "records 0-0 " not in stdout and any(": FAILED: " in line for line in lines[:-1])


@pytest.mark.parametrize("actor", ["nobody", "German", "public"])
def test_a_record_by_no_side_of_the_game_is_damage_to_every_reader(played, cli, tmp_path,
                                                                    actor):
    # Sides are the game's data, so the record's shape only bounds the actor's length: each
    # reader checks it against the game's sides before it prints anything (2.0: the two
    # players and the moderator are the only ones who act).
    records = _records(played)
    records[4]["actor"] = actor
    path = tmp_path / "m.jsonl"
    _write_chained(records, 4, path)
    path.chmod(0o600)
    _assert_chained(path)
    for argv in (["log", path], ["log", path, "--format", "json"], ["explain", path, "4"],
                 ["verify", path], ["status", path]):
        r = cli(*argv)
        _clean(r.output)
        assert r.exit_code == 3 and _only_checks(argv[0], r.stdout), (argv[0], r.stdout[:200])
        assert f"record 4 is malformed: its actor {actor!r}" in _one_line(r.stderr), r.stderr


def test_a_secret_part_whose_salt_is_not_text(played, cli):
    lines = played.read_bytes().splitlines()
    rec = json.loads(lines[1])
    _event(rec, "CardsDrawn")["secret"]["salt"] = [1]     # cannot be sealed: the hash is stale
    lines[1] = canonical(rec)
    played.write_bytes(b"\n".join(lines) + b"\n")
    r = cli("status", played)
    _clean(r.output)
    assert r.exit_code == 3 and "record 1" in _one_line(r.stderr)


@pytest.mark.parametrize("edit,says", [
    (lambda h: h["options"].update(no_such_rule=True), "no_such_rule"),
    (lambda h: h.update(game="chess"), "chess"),
    # a folder of the games directory that holds no game (old data versions)
    (lambda h: h.update(game="history"), "'history'"),
    (lambda h: h.update(data_digest={}), "record 0"),
    (lambda h: h.update(rules_version=99), "rules 99"),
    (lambda h: h.update(data_digest="0" * 64), "game data 000000000000"),
])
def test_a_header_the_game_data_cannot_serve_is_named_as_record_0(played, cli, edit, says):
    records = _records(played)
    edit(records[0])
    _write_chained(records, 0, played)
    for argv in (["status", played], ["show", played, "--format", "json"], ["verify", played],
                 ["order", played, "--as", "entente", "pass"]):
        r = cli(*argv)
        _clean(r.output)
        assert r.exit_code == 3, (argv[0], r.stderr)
        assert "record 0" in _one_line(r.stderr) and says in r.stderr, r.stderr


# ---------------------------------------------------------------- found by attacking the trust

def _games_copy(tmp_path: Path, monkeypatch) -> Path:
    root = _data_copy(tmp_path)
    monkeypatch.setenv("REFEREE_GAMES", str(root.parent))
    return root


def _answers(cli, journal: Path) -> list:
    out = []
    for argv in (["status", journal], ["show", journal, "--format", "json"]):
        code, stdout, stderr = quick(*argv)
        r = cli(*argv)
        out.append((code, stdout, r.exit_code, r.stdout))
    return out


def test_an_edit_to_a_data_file_of_any_name_is_seen(tmp_path, monkeypatch, cli, secret_file):
    root = _games_copy(tmp_path, monkeypatch)
    (root / "map.yaml").rename(root / "map.yml")
    _edit_text(root / "game.yaml", "map: map.yaml", "map: map.yml")
    journal = tmp_path / "d.jsonl"
    assert cli("new", journal, "--scenario", "1914", "--secret-file", secret_file).exit_code == 0
    assert {a[0] for a in _answers(cli, journal)} == {0}             # snapshots kept
    _edit_text(root / "map.yml", "name: Ypres", "name: Wipers")
    # The game still opens with the data it was made with (kept by digest at `new`), and
    # takes no order until it is upgraded to the edited data.
    assert {a[0] for a in _answers(cli, journal)} == {0}
    r = cli("order", journal, "--as", "german", "pass")
    assert r.exit_code == 2 and "referee upgrade" in r.stderr
    _forget_kept_data(monkeypatch, tmp_path)
    for code, _, typer_code, _ in _answers(cli, journal):
        assert code == typer_code == 3                  # the data changed: record 0 says so


def test_a_data_folder_that_cannot_be_digested_keeps_nothing(tmp_path, monkeypatch, cli,
                                                              secret_file):
    root = _games_copy(tmp_path, monkeypatch)
    (root / "notes.yaml").write_bytes(b"#" * (2 << 20))        # too large to digest whole
    journal = tmp_path / "d.jsonl"
    assert cli("new", journal, "--scenario", "1914", "--secret-file", secret_file).exit_code == 0
    assert {a[0] for a in _answers(cli, journal)} == {0}
    from referee.store import home
    assert not list(home.cache_dir().rglob("*.view")) and not list(
        home.cache_dir().rglob("*.state"))
    _edit_text(root / "map.yaml", "name: Ypres", "name: Wipers")
    assert {a[0] for a in _answers(cli, journal)} == {0}    # its own data, kept at `new`
    _forget_kept_data(monkeypatch, tmp_path)
    assert {a[0] for a in _answers(cli, journal)} == {3}


def _forget_kept_data(monkeypatch, tmp_path: Path) -> None:
    """No copy of any older data version, neither shipped nor kept by this user's referee,
    and no view made with one."""
    import shutil

    from referee.data import datastore
    from referee.store import home
    shutil.rmtree(home.data_dir("gamedata"), ignore_errors=True)
    shutil.rmtree(home.cache_dir("snapshots"), ignore_errors=True)
    monkeypatch.setattr(datastore, "shipped_dir", lambda: tmp_path / "no-history")
    monkeypatch.setattr(datastore, "_LOADED", {})


def _edit_text(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize("where", ["salt", "header"])
def test_a_string_that_is_not_unicode_is_a_damaged_record(played, cli, where):
    """A lone surrogate (JSON allows the escape, Unicode has no such character)."""
    if where == "salt":        # a secret part's salt: it used to crash the hash check
        lines = played.read_bytes().splitlines()
        lines[1] = lines[1].replace(b'"salt":"', b'"salt":"\\ud800', 1)
        played.write_bytes(b"\n".join(lines) + b"\n")
        n = 1
    else:                      # the game id, chained properly: it used to crash the views
        records = _records(played)
        records[0]["game_id"] = "\ud800" + records[0]["game_id"]
        _write_chained(records, 0, played)
        n = 0
    for argv in (["status", played], ["show", played], ["log", played], ["verify", played]):
        r = cli(*argv)
        _clean(r.output)
        assert r.exit_code == 3 and f"record {n}" in _one_line(r.stderr), (argv, r.stderr)


@pytest.mark.skipif(not os.path.exists("/proc/self/mem"), reason="needs /proc/self/mem")
def test_a_journal_that_cannot_be_read_is_exit_3(tmp_path, cli):
    journal = tmp_path / "m.jsonl"
    journal.symlink_to("/proc/self/mem")
    for argv in (["status", journal], ["log", journal], ["verify", journal]):
        r = cli(*argv)
        _clean(r.output)
        assert r.exit_code == 3 and "cannot be read" in r.stderr, (argv, r.stderr)


def test_a_terminal_without_unicode_still_gets_its_answer(game, tmp_path):
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    before = game.read_bytes()
    for argv in (["order", game, "--as", "german", "pass", "end turn"], ["status", game],
                 ["show", game]):
        out = subprocess.run([sys.executable, "-m", "referee", *map(str, argv)], env=env,
                             capture_output=True, text=True, errors="replace", timeout=60)
        _clean(out.stdout + out.stderr)
        assert out.returncode == 0, (argv, out.stderr)
    assert len(game.read_bytes()) > len(before)


def test_a_first_line_nested_too_deep_is_a_damaged_journal(tmp_path):
    journal = tmp_path / "n.jsonl"
    journal.write_bytes(b"[" * 100_000 + b"]" * 100_000 + b"\n")
    journal.chmod(0o600)
    said = [quick(command, journal) for command in ("status", "show")]
    for command in ("verify", "log"):                # through Typer, in a process of its own
        out, _ = _subprocess(command, journal)
        said.append((out.returncode, out.stdout, out.stderr))
    for code, out, err in said:
        _clean(out + err)
        assert code == 3, err
        assert "record 0 (line 1) is damaged: not valid JSON text: nested too deep" in err


@pytest.mark.parametrize("line, says", [
    (b'{"seq": 0, x}', "not valid JSON text at column 12"),
    (b'{"seq": 0, "a": [1, 2}', "not valid JSON text at column 22"),
    (b'{"seq": "\xff"}', "not UTF-8 text (byte 10 of the line)"),
    (b'{"seq": "\\ud800"}', "a text in it is not Unicode (a lone surrogate)"),
    (b'{"seq": NaN}', "not valid JSON text: NaN is no JSON number"),
    (b'{"seq": 0, "dice": [-Infinity]}', "not valid JSON text: -Infinity is no JSON number"),
])
def test_a_damaged_journal_line_is_told_in_the_referees_words(tmp_path, line, says):
    """The column is counted by hand in the line; the JSON readers' own words never show."""
    journal = tmp_path / "d.jsonl"
    journal.write_bytes(line + b"\n")
    journal.chmod(0o600)
    code, out, err = quick("status", journal)
    _clean(out + err)
    assert code == 3 and f"d.jsonl: record 0 (line 1) is damaged: {says}" in err, err


def test_names_the_system_refuses_are_one_line_not_a_crash(tmp_path, cli, secret_file):
    long = "a" * 300
    for argv in (["new", tmp_path / "q.jsonl", "--scenario", long],
                 ["new", tmp_path / long, "--scenario", "1914"],
                 ["new", tmp_path / "q2.jsonl", "--scenario", "1914", "--secret-file",
                  tmp_path / long],
                 ["--games", tmp_path / long, "status", tmp_path / "b.jsonl"]):
        r = cli(*argv)
        _clean(r.output)
        assert r.exit_code in (2, 3) and len(r.stderr.strip().splitlines()) == 1, argv
    root = _data_copy(tmp_path)
    (root / "game.yaml").write_text((root / "game.yaml").read_text(encoding="utf-8").replace(
        "map: map.yaml", 'map: "map\\0.yaml"'), encoding="utf-8")
    r = cli("games", "check", root)
    _clean(r.output)
    assert r.exit_code == 3 and "cannot name a file" in r.stderr


def test_every_folder_of_this_users_home_is_private(tmp_path, monkeypatch, cli):
    import stat as st

    home_dir = tmp_path / "not" / "yet" / "there"
    monkeypatch.setenv("REFEREE_HOME", str(home_dir))
    from referee.store import home
    home._KEY.clear()
    journal = tmp_path / "h.jsonl"
    assert cli("new", journal, "--scenario", "1914").exit_code == 0
    assert cli("status", journal).exit_code == 0
    for folder in (tmp_path / "not", tmp_path / "not" / "yet", home_dir):
        assert st.S_IMODE(folder.stat().st_mode) == 0o700, folder
