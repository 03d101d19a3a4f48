"""What reading a game loads: the modules `status` and `show` import in a fresh process.

The import floor `make bench` divides by is `import typer, pydantic, yaml`, and
most of what a cold `status` costs beyond replaying is importing. These reads
answer without any of those three packages, and without the standard modules
that only writing, dice, packing game data or introspection need; a top-level
import that drags one back in shows here, not months later in `make bench`.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest


def printed(code: str) -> str:
    """What a fresh interpreter running code prints (it must succeed)."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


# Never loaded by a read: the floor's packages, and what only other work needs.
NOT_FOR_READING = (
    "typer", "pydantic", "pydantic_core", "yaml",     # the floor's packages
    "inspect", "ast", "tokenize", "dataclasses", "typing_extensions",   # introspection
    "secrets", "random", "base64",                              # making secrets and keys
    "gzip", "copy", "weakref",                                  # packing data, deep copies
    "subprocess", "shutil", "tempfile", "email", "argparse",    # mail, files, other CLIs
)

PROBE = """
import io, json, sys
sys.argv = ["referee", *sys.argv[1:]]
from referee.cli.entry import main
out, sys.stdout = sys.stdout, io.StringIO()
try:
    main()
except SystemExit as exc:
    code = exc.code
else:
    code = 0
sys.stdout = out
print(json.dumps({"code": code,
                  "loaded": sorted(m for m in sys.modules if sys.modules[m] is not None)}))
"""


# What the referee needs of the standard library and msgspec anyway: a module of the list
# above that these bring in on some Python version is that version's, not the referee's.
BASELINE = ("import referee, json, hashlib, hmac, pathlib, re, datetime, fcntl; "
            "referee.load_msgspec(); import sys, json; print(json.dumps(sorted(sys.modules)))")


@pytest.fixture(scope="module")
def avoidable() -> set[str]:
    """The modules of NOT_FOR_READING that this Python does not load for the baseline."""
    done = subprocess.run([sys.executable, "-c", BASELINE], capture_output=True, text=True,
                          timeout=120, check=True)
    baseline = {m.split(".")[0] for m in json.loads(done.stdout.splitlines()[-1])}
    return set(NOT_FOR_READING) - baseline


def _loaded(home: Path, *args: str) -> set[str]:
    env = {**os.environ, "REFEREE_HOME": str(home)}
    done = subprocess.run([sys.executable, "-c", PROBE, *args], env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.splitlines()[-1])
    assert report["code"] in (0, None), done.stderr
    return set(report["loaded"])


@pytest.mark.parametrize("args", [("status",), ("show", "--format", "json"),
                                  ("status", "--as", "german", "--format", "json")])
def test_a_read_loads_none_of_the_floor_and_no_writing_module(args, game, tmp_path,
                                                              avoidable):
    assert {"typer", "pydantic", "yaml", "inspect", "secrets"} <= avoidable
    home = tmp_path / "fresh-home"            # cold: no key, no snapshot, no view
    cold = _loaded(home, args[0], str(game), *args[1:])
    warm = _loaded(home, args[0], str(game), *args[1:])      # from its signed view
    for when, loaded in (("cold", cold), ("warm", warm)):
        found = sorted({m.split(".")[0] for m in loaded} & avoidable)
        assert not found, f"{' '.join(args)} ({when}) imports {', '.join(found)}"
    assert "referee.game.replay" in cold     # the probe really ran the command
    # The public's read answered from its signed view prints plain data: no msgspec, no
    # contract class (contracts.names is patterns only).
    assert "--as" in args or not [m for m in warm if m.startswith(("msgspec", "referee.c"
                                  "ontracts.")) and m != "referee.contracts.names"], sorted(warm)


def test_an_order_loads_nothing_only_the_log_needs(game):
    """`order` prints its records and the side's status; the modules that only `log` needs
    to tell a journal's records (the roster's news in words, how each order came, the
    game's time zone) are not loaded for it."""
    loaded = _loaded(Path(os.environ["REFEREE_HOME"]), "order", str(game), "--as", "german",
                     "pass")
    assert "referee.table.ordering" in loaded and "referee.render.record_text" in loaded
    only_log = {"referee.store.rosternews", "referee.render.came", "referee.game.forced",
                "referee.base.addresses", "string"}
    assert not only_log & loaded, sorted(only_log & loaded)


# Loaded by a cold read only where it needs them: msgspec's introspection and JSON Schema
# writer (never), the deadlines' module (a game with deadlines), the MessagePack copy of a
# state and the dice sheets that deciding an order needs, the Unicode tables that fold
# what a player typed, zlib, which inflates an older data version (never a read),
# msgspec's YAML and TOML front ends (never), shlex, which quotes a folder given for a
# journal, `signal`'s enums (the check beside blocks signals with _signal's functions),
# what only an append asks of a journal (its clock, a reveal or a hand-over before it, how
# far a forged one goes) and notes in its mark (the path written), and who holds a lock
# that was held too long.
NOT_FOR_A_COLD_READ = ("msgspec.inspect", "msgspec._json_schema", "referee.game.timeline",
                       "referee.engine.state._CLONE", "referee.store.sheets", "unicodedata",
                       "zlib", "msgspec.yaml", "msgspec.toml", "shlex", "signal",
                       "referee.store.timeorder", "referee.store.revealed",
                       "referee.store.handedover", "referee.store.forgedfrom",
                       "referee.store.writtenat", "referee.store.lockholder")

STANDARD = ("import json, hashlib, hmac, pathlib, re, datetime, fcntl, sys; "
            "print(json.dumps(sorted(sys.modules)))")
SPARED = PROBE.replace("print(json.dumps(", """import referee.engine.state as state
if getattr(state, "_CLONE", True):     # a referee that makes them on import
    sys.modules["referee.engine.state._CLONE"] = state
print(json.dumps(""", 1)


@pytest.fixture(scope="module")
def standard() -> set[str]:
    """The modules this Python loads itself for the standard modules the referee needs."""
    base = subprocess.run([sys.executable, "-c", STANDARD], capture_output=True, text=True,
                          timeout=120, check=True)
    return set(json.loads(base.stdout.splitlines()[-1]))


@pytest.mark.parametrize("args", [("status",), ("show", "--format", "json")])
def test_a_cold_read_of_a_game_without_deadlines_spares_what_it_never_uses(args, game,
                                                                           tmp_path, standard):
    env = {**os.environ, "REFEREE_HOME": str(tmp_path / "home")}
    done = subprocess.run([sys.executable, "-c", SPARED, args[0], str(game), *args[1:]],
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    loaded = set(json.loads(done.stdout.splitlines()[-1])["loaded"])
    assert "referee.game.replay" in loaded and "msgspec.json" in loaded
    spared = set(NOT_FOR_A_COLD_READ) - standard        # what this Python loads itself
    assert not loaded & spared, sorted(loaded & spared)


# The rules' modules a decision needs: those that register the decision kinds (loaded at
# engine/core.DECISIONS's first look), and what they alone import. A game that is over is
# replayed (evolve, apply*.py) and scored (victory.py), and asks no decision.
DECIDING = tuple(f"referee.engine.{m}" for m in (
    "armistice", "battle", "builds", "combat", "crisis", "fire", "flow", "losses", "movement",
    "movement_modes", "production", "reading", "reinforce", "retreats", "room", "scramble",
    "sealed", "standing", "supply", "suppress"))


@pytest.mark.parametrize("args", [("status",), ("show", "--format", "json")])
def test_a_cold_read_of_a_game_that_is_over_loads_no_module_of_the_decisions(args, game,
                                                                           cli, tmp_path):
    in_play = _loaded(tmp_path / "home-in-play", args[0], str(game), *args[1:])
    # Control: a game in play asks its pending decision (card or pass, 2.0 II.1), and the
    # probe sees the modules it loads for it: flow.py's, which registers it, and what flow.py
    # imports (standing.py only answers an order, crisis.py only a crisis or an order).
    assert set(DECIDING) - {"referee.engine.standing", "referee.engine.crisis"} <= in_play
    assert cli("order", game, "--as", "german", "surrender").exit_code == 0     # 3.3
    over = _loaded(tmp_path / "home-over", args[0], str(game), *args[1:])
    assert {"referee.game.replay", "referee.engine.victory", "referee.engine.apply"} <= over
    assert not set(DECIDING) & over, sorted(set(DECIDING) & over)
    # Nor the orders' shapes (contracts/orders.py): no order is listed, read or checked.
    assert "referee.contracts.orders" in in_play and "referee.contracts.orders" not in over


def test_a_cold_status_of_a_game_with_deadlines_loads_what_a_read_of_them_needs(game, cli,
                                                                               tmp_path):
    """The deadlines a status shows come from the walk (dues.py); the commands and mail
    that change or tell them (timeline.py, with the words of each decision and of
    extending from now) are not loaded."""
    assert cli("deadline", game, "--set", "48h").exit_code == 0
    loaded = _loaded(tmp_path / "fresh-home", "status", str(game), "--format", "json")
    assert {"referee.game.clockwalk", "referee.game.dues"} <= loaded
    needless = {"referee.game.timeline", "referee.game.decisionwords",
                "referee.game.extendfromnow"}
    assert not needless & loaded, sorted(needless & loaded)


@pytest.mark.parametrize("args", [("status",), ("show", "--format", "json")])
def test_a_cold_read_of_a_game_in_play_loads_the_module_of_its_decision_alone(args, game,
                                                                             cli, tmp_path):
    """A game with deadlines at production (7.0), its player turns passed (2.0 II.1): the
    walk through them loads none of their modules, nor does the prompt of production, which
    loads production.py and what it imports, not the player turn's, a battle's or a
    crisis'."""
    assert cli("deadline", game, "--set", "48h").exit_code == 0
    for side in ("german", "entente"):
        for text in ("pass", "end turn"):
            assert cli("order", game, "--as", side, text).exit_code == 0
    loaded = _loaded(tmp_path / "fresh-home", args[0], str(game), *args[1:])
    assert {"referee.game.clockwalk", "referee.engine.production"} <= loaded
    others = {f"referee.engine.{m}" for m in ("armistice", "battle", "combat", "crisis",
                                               "flow", "losses", "retreats", "scramble",
                                               "standing", "suppress")}
    assert not others & loaded, sorted(others & loaded)


def test_msgspec_loaded_without_its_unused_submodules_still_has_them():
    """The submodules a read spares load as usual when asked for, and msgspec.json.schema
    loads its writer on its first call."""
    probe = ("import sys, referee; referee.load_msgspec(); import msgspec\n"
             "assert 'msgspec.inspect' not in sys.modules, 'loaded'\n"
             "class A(msgspec.Struct):\n    x: int\n"
             "print(msgspec.json.schema(A)['$defs']['A']['required'])\n"
             "from msgspec import inspect\n"
             "print(inspect.type_info(A).fields[0].name, msgspec.inspect is inspect)\n"
             "import msgspec._json_schema as js\n"
             "print(js.schema_components((A,))[0][0]['$ref'])\n"
             "import msgspec.toml, msgspec.yaml\n"
             "print(msgspec.toml.decode(b'a = 1')['a'], msgspec.yaml.decode(b'b: 2')['b'])")
    assert printed(probe).split() == ["['x']", "x", "True", "#/$defs/A", "1", "2"]


def test_a_public_read_from_its_view_loads_no_typing(game, tmp_path, cli, monkeypatch):
    """`typing` costs about 1.5 ms to import, a twentieth of a read from its view: the
    modules that read serve their annotations as text and import none of it (msgspec, for
    the other reads, loads it anyway)."""
    plain = subprocess.run([sys.executable, "-c", "import json, hashlib, hmac, pathlib, re, "
                            "datetime, fcntl, contextvars, sys; print('typing' in sys.modules)"],
                           capture_output=True, text=True, timeout=120, check=True)
    if plain.stdout.strip() == "True":
        pytest.skip("this Python's standard modules load typing themselves")
    home = tmp_path / "home"
    monkeypatch.setenv("REFEREE_HOME", str(home))
    for args in (("status",), ("show", "--format", "json")):
        assert cli(args[0], game, *args[1:]).exit_code == 0     # its view kept: here will do
        assert "typing" not in _loaded(home, args[0], str(game), *args[1:]), args


def test_the_probe_sees_a_module_a_command_loads(game, tmp_path):
    """Negative control: a command without a quick form shows Typer loaded, and the
    probe's own way of naming modules finds it."""
    loaded = _loaded(tmp_path / "home", "log", str(game))
    assert "typer" in {m.split(".")[0] for m in loaded} & set(NOT_FOR_READING)


def test_a_read_through_the_console_script_prints_everything_before_it_leaves(game, cli,
                                                                               tmp_path):
    """`python -m referee` (the console script's entry) ends a read (status, show, verify)
    without the interpreter's teardown: what it printed must still all arrive, with its
    exit code."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}   # as users have it
    env["REFEREE_HOME"] = str(tmp_path / "home")

    def console(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "referee", *args], env=env,
                              capture_output=True, text=True, timeout=120)

    shown = console("show", str(game), "--format", "json")          # more than a buffer
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout) == json.loads(cli("show", game, "--format", "json").stdout)
    status = console("status", str(game))                           # less than a buffer
    assert status.returncode == 0, status.stderr
    assert status.stdout == cli("status", game).stdout
    verified = console("verify", str(game))                         # through Typer
    assert verified.returncode == 0, verified.stderr
    assert verified.stdout == cli("verify", game).stdout
    missing = console("status", str(tmp_path / "nope.jsonl"), "--format", "json")
    assert missing.returncode == 2 and missing.stdout == ""
    assert json.loads(missing.stderr)["exit"] == 2


# The console script run in a probe that says on stderr each time the cyclic garbage collector
# starts a collection once the script's function is called (what came before, collected).
COLLECTIONS = ("import gc, os, sys; sys.argv = ['referee', *sys.argv[1:]]; "
               "from referee.cli.start import console; gc.collect(); "
               "gc.callbacks.append(lambda phase, info: phase == 'start' and "
               "os.write(2, b'COLLECTED\\n')); console()")


@pytest.mark.parametrize("args", [("status",), ("show", "--format", "json")])
def test_a_read_from_the_console_script_runs_no_garbage_collection(args, game, tmp_path):
    """A read's process leaves little cyclic garbage and ends without the teardown: the
    console script pauses the collector before the referee's first import and never starts
    it again (start.py). Collecting costs 4 to 5 ms of a cold `status` of a campaign: a
    few runs over the modules as they load, and one over every object of the replayed game
    when the collector was started again as the read ended."""
    env = {**os.environ, "REFEREE_HOME": str(tmp_path / "home")}
    for when in ("cold", "from its view"):
        done = subprocess.run([sys.executable, "-c", COLLECTIONS, args[0], str(game),
                               *args[1:]], env=env, capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 0, done.stderr
        assert done.stdout and "COLLECTED" not in done.stderr, (when, done.stderr)


def test_the_collection_probe_sees_a_command_that_is_no_read_collect(game, tmp_path):
    """Negative control of the two tests above and below: a command that is no read
    collects as usual, and the probe sees it."""
    env = {**os.environ, "REFEREE_HOME": str(tmp_path / "home")}
    other = subprocess.run([sys.executable, "-c", COLLECTIONS, "log", str(game)], env=env,
                           capture_output=True, text=True, timeout=120)
    assert other.returncode == 0 and "COLLECTED" in other.stderr, other.stderr


def test_an_order_from_the_console_script_runs_no_garbage_collection(game):
    """An order's process is as short as a read's and leaves as little cyclic garbage: the
    console script pauses the collector for it too, which its imports alone would otherwise
    set running some sixty times. The order is written all the same."""
    done = subprocess.run([sys.executable, "-c", COLLECTIONS, "order", str(game), "--as",
                           "german", "pass"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "German: pass" in done.stdout and "COLLECTED" not in done.stderr, done.stderr
    assert b"\"order\":\"pass\"" in game.read_bytes().splitlines()[-1]


def test_a_read_a_program_runs_in_its_own_process_starts_the_collector_again(game,
                                                                              monkeypatch):
    """entry.main, as a program or a test calls it, pauses the collector for the read only:
    the program's collector runs again after it."""
    import gc

    from referee.cli import entry

    assert gc.isenabled()
    plain = entry.parse(["status", str(game)])
    assert plain is not None
    during, runner = [], entry.RUNNERS["status"]
    monkeypatch.setitem(entry.RUNNERS, "status",
                        lambda **params: during.append(gc.isenabled()) or runner(**params))
    assert entry.run(*plain) == 0
    assert during == [False] and gc.isenabled()


def test_an_order_through_the_console_script_is_written_and_printed_before_it_leaves(game,
                                                                                    cli):
    """An order from the console script ends without the interpreter's teardown too (an
    exit handler registered before it never runs): its record is in the journal, every
    line it printed arrives, and a rejected order still says why with its own exit code."""
    probe = ("import atexit, os, sys; atexit.register(lambda: os.write(2, b'TORN DOWN')); "
             "sys.argv = ['referee', *sys.argv[1:]]; "
             "from referee.cli.entry import console; console()")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}   # as users have it

    def console(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-c", probe, *args], env=env,
                              capture_output=True, text=True, timeout=120)

    done = console("order", str(game), "--as", "german", "pass")
    assert done.returncode == 0, done.stderr
    assert "TORN DOWN" not in done.stderr
    assert done.stdout.startswith("For the German player only: ")
    told = done.stdout.splitlines()[1]
    assert told.startswith("#2 ") and "German: pass" in told
    assert done.stdout.endswith(cli("status", game, "--as", "german").stdout)   # all of it
    assert json.loads(cli("status", game, "--format", "json").stdout)["seq"] == 2
    refused = console("order", str(game), "--as", "entente", "pass")
    assert refused.returncode == 1 and refused.stdout == ""
    assert "TORN DOWN" not in refused.stderr and "2.0" in refused.stderr
    control = console("log", str(game))                         # not an order: torn down
    assert control.returncode == 0 and "TORN DOWN" in control.stderr


def test_a_standard_stream_closed_before_the_referee_starts_is_no_crash(game, tmp_path):
    """`referee status JOURNAL >&-`: Python starts with no stdout; the command, on the quick
    path or Typer's, still runs to its own exit code, and so does an error with stderr
    closed."""
    env = {**os.environ, "REFEREE_HOME": str(tmp_path / "home")}

    def run(args: list[str], fd: int) -> subprocess.CompletedProcess:
        """The command run by a shell that closes the descriptor fd for it."""
        return subprocess.run(["sh", "-c", f'exec "$0" "$@" {fd}>&-', sys.executable, "-m",
                               "referee", *args], env=env, stdin=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True, timeout=120)

    for command in ("status", "log"):
        no_stdout = run([command, str(game)], 1)
        assert no_stdout.returncode == 0, no_stdout.stderr
        assert "Traceback" not in no_stdout.stderr, no_stdout.stderr
    assert run(["status", str(tmp_path / "nope.jsonl")], 2).returncode == 2


def test_pydantic_imported_after_the_compiled_validator_shares_it(tmp_path):
    """The compiled module loaded alone is the one the package takes later: one module in
    the process (pydantic-core's compiled half may be initialised only once), and pydantic
    and the contract's own errors work beside it."""
    code = """
import sys
from referee.contracts.validation import engine, validator
from referee.contracts.records import JournalRecord
alone = engine()
assert "pydantic_core" not in sys.modules
try:
    validator(JournalRecord, objects=False).validate_json(b'{"seq": "x"}')
except alone.ValidationError as exc:
    assert exc.errors(include_url=False)
else:
    raise AssertionError("a record without its fields passed")
import pydantic, pydantic_core
assert pydantic_core.SchemaValidator is alone.SchemaValidator
class M(pydantic.BaseModel):
    n: int
assert M(n="3").n == 3
print("ok")
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.stdout.strip() == "ok", done.stderr


def test_a_compiled_validator_that_will_not_load_alone_comes_with_its_package():
    code = """
import sys
from referee.contracts import validation
def refuse():
    raise ImportError("built to load with its package")
validation._load_compiled = refuse
module = validation.engine()
import pydantic_core
assert module is pydantic_core._pydantic_core
from referee.contracts.records import JournalRecord
assert validation.validator(JournalRecord, objects=False)
print("ok")
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.stdout.strip() == "ok", done.stderr


def test_a_skirmish_read_validates_its_card_without_the_schema_builders(patrol, tmp_path):
    """The skirmish's card and scenario are read from their YAML and validated at every
    command; the compiled validator does it, without core_schema's typed dictionaries."""
    loaded = _loaded(tmp_path / "home", "status", str(patrol))
    assert "pydantic_core._pydantic_core" in loaded and "referee.table.skirmish.loading" in loaded
    found = sorted(m for m in ("pydantic_core.core_schema", "typing_extensions", "pydantic")
                   if m in loaded)
    assert not found, f"a skirmish status imports {', '.join(found)}"


# A read in a probe that says which of the rules' modules were loaded each time the referee
# forks (every journal long enough for a check beside, on any machine).
FORKS = """
import io, json, os, sys
sys.argv = ["referee", *sys.argv[1:]]
from referee.store import checking
checking.BESIDE_BYTES, checking.cores = 1, lambda: 2
forks, real_fork = [], os.fork
def fork():
    forks.append(sorted(m for m in sys.modules if m.startswith("referee.engine")))
    return real_fork()
os.fork = fork
from referee.cli.entry import main
out, sys.stdout = sys.stdout, io.StringIO()
try:
    main()
except SystemExit as exc:
    code = exc.code
sys.stdout = out
print(json.dumps({"code": code, "forks": forks,
                  "engine": "referee.engine.evolve" in sys.modules,
                  "secrets": "referee.contracts.secretparts" in sys.modules}))
"""


def test_a_cold_read_begins_its_check_beside_before_the_rules_load(game, tmp_path):
    """A journal this account never read is checked line by line in a forked process while
    this one loads the rules and the game data and replays: begun before the engine's
    modules load, the check ends well before the replay does (store/checking.py); the
    shapes of the records' secret parts are made by that process alone."""
    env = {**os.environ, "REFEREE_HOME": str(tmp_path / "home")}

    def forks(*args: str) -> dict:
        done = subprocess.run([sys.executable, "-c", FORKS, *args], env=env,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout.splitlines()[-1])

    cold = forks("status", str(game))
    assert cold["code"] in (0, None) and cold["engine"], cold
    assert cold["forks"] == [[]], cold
    # Only the check reads the secret parts' shapes: this process never makes them (a
    # journal too short to be checked beside has them made here, as the probe sees).
    assert not cold["secrets"], cold
    env["REFEREE_HOME"] = str(tmp_path / "other-home")
    done = subprocess.run([sys.executable, "-c", FORKS.replace("BESIDE_BYTES, checking.cores "
                           "= 1,", "BESIDE_BYTES, checking.cores = 1 << 40,"), "status",
                           str(game)], env=env, capture_output=True, text=True, timeout=120)
    alone = json.loads(done.stdout.splitlines()[-1])
    assert alone["forks"] == [] and alone["secrets"], alone
    env["REFEREE_HOME"] = str(tmp_path / "home")
    # From its kept view nothing is replayed, and nothing forked.
    assert forks("status", str(game))["forks"] == []
    # Another read, with the state of the whole journal kept by the first: nothing to
    # replay, nothing forked either.
    again = forks("show", str(game), "--format", "json")
    assert again["code"] in (0, None) and again["forks"] == [], again


# Loaded by no cold read, on a Python whose bare interpreter does not load them itself:
# `platform`, which uuid (imported by msgspec) asks the system's name of once, and
# urllib.parse with ipaddress, which pathlib imports for Path.as_uri alone.
NOT_IMPORTED_BESIDE = ("platform", "urllib.parse", "ipaddress")


@pytest.mark.parametrize("args", [("status",), ("show", "--format", "json")])
def test_a_cold_read_loads_neither_platform_nor_urllib(args, game, tmp_path):
    bare = subprocess.run([sys.executable, "-c", "import sys, json; "
                           "print(json.dumps(sorted(sys.modules)))"],
                          capture_output=True, text=True, timeout=120, check=True)
    spared = set(NOT_IMPORTED_BESIDE) - set(json.loads(bare.stdout.splitlines()[-1]))
    loaded = _loaded(tmp_path / "home", args[0], str(game), *args[1:])
    assert "referee.game.replay" in loaded and "uuid" in loaded and "pathlib" in loaded
    assert not loaded & spared, sorted(loaded & spared)


def test_what_stood_in_for_platform_and_urllib_works_as_before():
    """uuid knows the system it runs on as platform tells it, Path.as_uri quotes as
    urllib.parse does, and both modules import as usual afterwards."""
    probe = ("import sys, referee; referee.load_msgspec(); import uuid, pathlib\n"
             "assert 'platform' not in sys.modules and 'urllib.parse' not in sys.modules\n"
             "print(pathlib.Path('/a b/é').as_uri())\n"
             "import platform, urllib.parse\n"
             "print(uuid._LINUX == (platform.system() == 'Linux'), platform.system() != '')\n"
             "print(urllib.parse.quote_from_bytes(b'a b'), urllib.parse.urlsplit('x://h').netloc)")
    assert printed(probe).split() == ["file:///a%20b/%C3%A9", "True", "True", "a%20b", "h"]


@pytest.mark.skipif(os.name == "nt", reason="Windows has nt: ntpath takes it from there")
def test_pathlib_is_imported_without_searching_the_path_for_windows_own_module():
    """ntpath (which pathlib imports) tries `nt` five times; outside Windows the referee's
    import of pathlib has each try fail at once, not after a search of every folder of the
    path, and leaves `nt` to fail as usual afterwards, ntpath as it was."""
    probe = ("import sys\n"
             "asked = []\n"
             "class Finder:\n"
             "    def find_spec(self, name, path=None, target=None):\n"
             "        asked.append(name)\n"
             "sys.meta_path.insert(0, Finder())\n"
             "import referee, ntpath\n"
             "assert 'pathlib' in sys.modules and 'nt' not in sys.modules\n"
             "print(asked.count('nt'), ntpath.join('a', 'b'), ntpath.abspath('c:/x/../y'))\n"
             "try:\n"
             "    import nt\n"
             "except ModuleNotFoundError as exc:\n"
             "    print(type(exc).__name__, exc.name, asked.count('nt'))")
    assert printed(probe).split() == ["0", "a\\b", "c:\\y", "ModuleNotFoundError", "nt", "1"]


COMPILES = PROBE.replace("from referee.cli.entry import main", """import builtins
compiled, compile_ = [], builtins.compile

def counted(source, filename, *args, **kwargs):
    caller = sys._getframe(1).f_code.co_filename
    if not caller.startswith("<frozen importlib"):     # a module's source, with no bytecode
        compiled.append(repr(source)[:60])
    return compile_(source, filename, *args, **kwargs)

builtins.compile = counted
from referee.cli.entry import main""", 1).replace('"loaded": sorted(',
                                                '"compiled": compiled, "loaded": sorted(', 1)


@pytest.mark.parametrize("args", [("status",), ("show", "--format", "json")])
def test_a_cold_read_compiles_no_text(args, game, tmp_path):
    """The first compile() of a process makes the interpreter's syntax tree types, about a
    hundredth of the import floor: no cold read calls it (a typing forward reference
    written as text, a NamedTuple of annotations kept as text, msgspec's probe of
    typing.ForwardRef would)."""
    env = {**os.environ, "REFEREE_HOME": str(tmp_path / "home")}
    done = subprocess.run([sys.executable, "-c", COMPILES, args[0], str(game), *args[1:]],
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.splitlines()[-1])
    assert "referee.game.replay" in report["loaded"]
    assert report["compiled"] == [], report["compiled"]


def test_msgspec_still_reads_forward_references_after_its_import():
    """typing.ForwardRef is typing's own again once msgspec is loaded, and msgspec resolves a
    class's annotations written as text with it."""
    probe = ("import typing, referee; real = typing.ForwardRef; referee.load_msgspec()\n"
             "import msgspec\nassert typing.ForwardRef is real\n"
             "ns = {}\nexec('from __future__ import annotations\\nimport msgspec\\n"
             "class B(msgspec.Struct):\\n    x: int | None', ns)\n"
             "print(msgspec.json.decode(b'{\"x\": 3}', type=ns['B']).x)")
    assert printed(probe).split() == ["3"]


# Module patterns compiled at their first use (base/lazyre.py) that no cold read uses (those
# of signing.py check a signature, which a read made elsewhere than the moderator's does).
# A game in play is never read for its ending (endings.py); no read in text or JSON unlinks
# what a forum would make a link of, or writes BBCode (render/layout.py, formats.py).
UNCOMPILED = (("referee.base.plurals", "_WRITTEN"),
              ("referee.base.clock", "_DURATION"), ("referee.engine.armies", "_RULE"),
              ("referee.engine.builds", "_FILE_PART"), ("referee.engine.builds", "_BRACKETS"),
              ("referee.engine", "_ENDED_BY"), ("referee.engine.endings", "_READ"),
              ("referee.render.layout", "_LINK_SHAPED"),
              ("referee.render.formats", "_BB_ANGLE"), ("referee.render.formats", "_BB_COLOUR"))
# Each pattern named (of a table of rows, the pattern that ends each row), as it stands.
PATTERNS = PROBE.replace('"loaded": sorted(', '"compiled": [f"{m}.{n}" for m, n in ' +
                        repr(UNCOMPILED) + """ if m in sys.modules
    for p in (lambda v: [x[-1] for x in v] if isinstance(v, tuple) else [v])(
        getattr(sys.modules[m], n))
    if type(p).__name__ != "LazyPattern" or set(vars(p)) != {"_source"}],
    "absent": [m for m, n in """ + repr(UNCOMPILED) + """ if m not in sys.modules],
    "loaded": sorted(""", 1)


@pytest.mark.parametrize("args", [("status",), ("show", "--format", "json")])
def test_a_cold_read_compiles_no_pattern_of_the_paths_it_does_not_take(args, game, tmp_path):
    env = {**os.environ, "REFEREE_HOME": str(tmp_path / "home")}
    done = subprocess.run([sys.executable, "-c", PATTERNS, args[0], str(game), *args[1:]],
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.splitlines()[-1])
    assert report["compiled"] == []
    absent = set(report["absent"]) - {"referee.render.layout", "referee.render.formats"}
    assert not absent, absent           # the probe saw every module of the engine's
    assert args[0] != "status" or not report["absent"]      # and a status renders in text


def test_a_pattern_compiled_at_its_first_use_answers_as_the_compiled_one():
    from referee.base.lazyre import LazyPattern

    lazy, compiled = LazyPattern(r"\(([\d.]+)\)$"), re.compile(r"\(([\d.]+)\)$")
    assert set(vars(lazy)) == {"_source"}
    assert lazy.search("a (5.3)")[1] == compiled.search("a (5.3)")[1] == "5.3"
    assert lazy.sub("", "b (1.2)") == compiled.sub("", "b (1.2)") == "b "
    assert lazy.pattern == compiled.pattern and lazy.match("x") is None
    assert set(vars(lazy)) == {"_source", "search", "sub", "pattern", "match"}
    with pytest.raises(AttributeError):
        lazy.nothing_of_a_pattern  # noqa: B018


OTHER_DOCUMENTS = PROBE.replace('"loaded": sorted(', """"made": sorted(
    n for m in ("referee.contracts.views", "referee.contracts.results") if m in sys.modules
    for n in ("OrderResult", "ReportView", "BoardView", "PlayersView", "InboxResult")
    if hasattr(sys.modules[m], n)), "loaded": sorted(""", 1)


@pytest.mark.parametrize("args", [("status",), ("show", "--format", "json")])
def test_a_read_makes_none_of_the_other_commands_documents(args, game, tmp_path):
    """The order results, reports and their board, the players and the inbox results are
    documents of other commands (contracts/results.py): a read, cold or from its view,
    makes none of their classes."""
    for _ in ("cold", "warm"):
        env = {**os.environ, "REFEREE_HOME": str(tmp_path / "home")}
        done = subprocess.run([sys.executable, "-c", OTHER_DOCUMENTS, args[0], str(game),
                               *args[1:]], env=env, capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout.splitlines()[-1])["made"] == []
