"""The decision registry (engine/core.DECISIONS) loads the rules' modules at its first look.

`import referee.engine` imports none of the modules that register decision kinds; the
first look into the registry as a whole imports them all, and what it then holds is what
importing them at start built: the same kinds, each with the same prompt, rule, answers and
functions, battle.py's wrapping of the battle decisions (5.2) included, held by name
whichever of them a process imported first for a name of its own. A look at one kind first
imports that kind's module alone (core.KINDS), and finds the very spec the whole holds.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

# Each kind as the registry holds it, every function named by its module, name and line (a
# closure by what it closes over too), printed as JSON by a fresh interpreter after `first`.
DESCRIBE = """
import json, sys
{first}
import msgspec
from referee.engine.core import DECISIONS

def named(v, depth=0):
    if isinstance(v, msgspec.Struct):
        return {{f: named(getattr(v, f), depth) for f in v.__struct_fields__}}
    if isinstance(v, dict):
        return {{k: named(x, depth) for k, x in sorted(v.items())}}
    if isinstance(v, (tuple, list)):
        return [named(x, depth) for x in v]
    if callable(v):
        code = getattr(v, "__code__", None)
        cells = [c.cell_contents for c in getattr(v, "__closure__", None) or ()]
        return [v.__module__, v.__qualname__, code and code.co_firstlineno,
                [named(c, depth + 1) for c in cells if callable(c)] if depth < 3 else []]
    return v

loaded = sorted(m for m in sys.modules if m.startswith("referee.engine."))
before = list(dict.keys(DECISIONS))
kinds = [[kind, named(spec)] for kind, spec in DECISIONS.items()]
print(json.dumps({{"loaded": loaded, "before": before, "kinds": kinds,
                  "plain": type(DECISIONS).__name__}}))
"""

# The modules the engine's package imported at its own import before it loaded them at the
# registry's first look, in the order it imported them.
EAGER = ("import referee.engine.combat, referee.engine.crisis, referee.engine.flow, "
         "referee.engine.losses, referee.engine.production, referee.engine.reinforce, "
         "referee.engine.retreats, referee.engine.scramble, referee.engine.supply, "
         "referee.engine.standing")
RULES = ("armistice", "battle", "combat", "crisis", "flow", "losses", "movement_modes",
         "production", "reinforce", "retreats", "scramble", "standing", "suppress", "supply")


def described(first: str) -> dict:
    """The registry as a fresh interpreter holds it after running first, then looking."""
    done = subprocess.run([sys.executable, "-c", DESCRIBE.format(first=first)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


@pytest.fixture(scope="module")
def eager() -> dict:
    return described(EAGER)


def test_importing_the_engine_loads_no_module_that_registers_a_kind(eager):
    lazy = described("import referee.engine")
    loaded = {m.rpartition(".")[2] for m in lazy["loaded"]}
    assert not loaded & set(RULES), sorted(loaded & set(RULES))
    assert lazy["before"] == [] and lazy["plain"] == "Registry"
    # Control: the probe sees what importing the modules at start registered.
    assert {m.rpartition(".")[2] for m in eager["loaded"]} >= set(RULES)
    assert sorted(eager["before"]) == [kind for kind, _ in eager["kinds"]]


def test_the_registry_loaded_at_its_first_look_is_the_one_built_at_start(eager):
    lazy = described("import referee.engine")
    assert lazy["kinds"] == eager["kinds"]
    assert [k for k, _ in lazy["kinds"]] == sorted(k for k, _ in lazy["kinds"])
    kinds = dict(eager["kinds"])
    # The decisions of a battle (5.2-5.4, 8.3.4, 13.7) go on through combat's own step.
    wrapped = {k for k, spec in kinds.items() if spec["apply"][1] == "_goes_on.<locals>.apply"}
    assert wrapped == {"scramble", "cavalry_retreat", "defence", "reaction", "losses",
                       "retreat_after", "forced_elimination"}
    # Each answers as the module that registered it first does (the wrapped function).
    assert kinds["losses"]["apply"][3][0][0] == "referee.engine.losses"
    assert {"card_or_pass", "movement", "production", "crisis", "attrition"} <= set(kinds)


@pytest.mark.parametrize("first", ["import referee.render.costs",        # production's
                                   "import referee.render.reports",      # combat's
                                   "import referee.game.planexplain",    # reinforce's
                                   "from referee.engine import flow"])
def test_a_rules_module_imported_before_the_first_look_changes_nothing_the_look_finds(
        first, eager):
    early = described(first)
    assert early["before"], f"{first} registered no kind before the first look"
    assert early["kinds"] == eager["kinds"]


def test_a_module_imported_early_registers_out_of_the_order_the_look_restores(eager):
    """Control of the test above: production.py imported first registers supply's attrition
    (6.0) and its own kinds first, in the order of their modules, not by name."""
    early = described("import referee.render.costs")
    assert early["before"][0] == "attrition" and early["before"] != sorted(early["before"])
    assert eager["before"] != sorted(eager["before"])


def test_the_package_still_gives_the_names_it_gave_from_the_rules_modules():
    code = ("import sys, referee.engine as e\n"
            "assert 'referee.engine.movement' not in sys.modules\n"
            "from referee.engine import private_order, answer_standing\n"
            "from referee.engine.movement import private_order as p\n"
            "from referee.engine.standing import answer as a\n"
            "from referee.engine import flow\n"
            "print(private_order is p, answer_standing is a, flow.resume.__module__,\n"
            "      e.flow is flow, hasattr(e, 'nothing_of_the_engine'))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True", "referee.engine.flow", "True", "False"]


# Another thread looks into the registry while the first look loads it: the load goes on
# once that thread has come to the registry's lock (noted as it asks for it), so the test
# waits on no clock; without the lock it is never asked for, and the wait gives up.
THREADS = """
import threading
import referee.engine
from referee.engine import core
from referee.engine.core import DECISIONS
seen, load, lock = [], DECISIONS.loader, core._LOADING
asked = threading.Event()

class Noted:
    def __enter__(self):
        if threading.current_thread() is not threading.main_thread():
            asked.set()
        return lock.__enter__()

    def __exit__(self, *exc):
        return lock.__exit__(*exc)

def loading():
    other = threading.Thread(target=lambda: seen.append(len(DECISIONS)))
    other.start()
    seen.append(asked.wait(60))
    load()
    seen.append("loaded")

core._LOADING = Noted()
DECISIONS.load_with(loading)
first = len(DECISIONS)
while threading.active_count() > 1:
    threading.enumerate()[-1].join()
print(first, *seen)
"""


def test_a_thread_looking_while_another_loads_the_registry_sees_it_whole():
    done = subprocess.run([sys.executable, "-c", THREADS], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    first, *seen = done.stdout.split()
    assert seen == ["True", "loaded", first] and int(first) >= 20, done.stdout


# An entry of the engine called first in a process, on a game read without looking into the
# registry (open_game replays it): it must load the registry before it calls what the loader
# binds (armistice, crisis, flow, private_order), on every path.
FIRST_CALL = """
import sys
from referee.engine.core import DECISIONS
from referee.engine.reading import parse_order
from referee.game.replay import open_game
import referee.engine as engine
game = open_game(sys.argv[1])
order = parse_order(sys.argv[3], game.data)
unread = type(DECISIONS).__name__
call = getattr(engine, sys.argv[2])
print(unread, call(game.state, game.data, order, "german") if sys.argv[2] == "check"
      else call(game.state, order))
"""


@pytest.mark.parametrize("entry, text, over, said", [
    ("check", "propose armistice", False, "None"),              # 3.2: his to propose
    ("check", "surrender", False, "None"),                      # 3.3
    ("is_private", "pass", True, "False"),                      # no plan: a pass is public
])
def test_an_entry_called_first_loads_the_registry_itself(entry, text, over, said, game, cli):
    if over:
        assert cli("order", game, "--as", "german", "surrender").exit_code == 0   # 3.3
    done = subprocess.run([sys.executable, "-c", FIRST_CALL, str(game), entry, text],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "REFEREE_HOME": str(game.parent / "home")})
    assert done.returncode == 0, done.stderr
    # Control: nothing looked into the registry before the entry was called.
    assert done.stdout.strip().split(maxsplit=1) == ["Unread", said], done.stdout


# A look from within the load (as a rules' module's import would make): it finds what is
# registered so far and does not start the load again.
WITHIN = """
import referee.engine
from referee.engine.core import DECISIONS
seen, load = [], DECISIONS.loader

def loading():
    seen.append(len(DECISIONS))
    load()
    seen.append(len(DECISIONS))

DECISIONS.load_with(loading)
print(len(DECISIONS), *seen)
"""


def test_a_look_from_within_the_load_finds_what_is_registered_so_far():
    done = subprocess.run([sys.executable, "-c", WITHIN], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    whole, before, after = (int(n) for n in done.stdout.split())
    assert before == 0 and after == whole >= 20, done.stdout


def test_the_kinds_declared_beside_the_registry_are_those_it_holds():
    """core.KINDS names every kind and the module that registers it as decide uses it;
    core.SEALED_BOOKS every kind answered in sealed plans, with the very book its SealedPlans
    reads (2.0 I, 2.0 V.3, 7.0)."""
    from referee.engine.core import DECISIONS, KINDS, SEALED_BOOKS

    assert sorted(KINDS) == list(DECISIONS)
    sealed = {k: s.extra["sealed"].book for k, s in DECISIONS.items() if "sealed" in s.extra}
    assert set(sealed) == {"production", "reinforce", "discard_excess"}
    assert sealed.keys() == SEALED_BOOKS.keys()
    assert all(SEALED_BOOKS[k] is book for k, book in sealed.items())
    # Each kind's module as decide uses it: the one that registered the spec's answer last.
    assert {k: s.apply.__module__.rpartition(".")[2] for k, s in DECISIONS.items()} == KINDS


# A game with deadlines replayed and walked from its start in a fresh interpreter: the walk
# asks whom the game waits on after every record, of every kind of decision it passes.
WALKED = """
import sys
from pathlib import Path
from referee.engine.core import DECISIONS
from referee.game.replay import position
from referee.store.journal import Journal
journal = Path(sys.argv[1])
pos = position(Journal(journal), journal.read_bytes(), None, walk=True)
print(type(DECISIONS).__name__, pos.state.pending.kind, *pos.walk.kept()["keys"])
"""


def test_the_deadlines_walk_asks_the_registry_nothing(game, cli):
    """Through a player turn's decisions (card or pass, a pass: 2.0 II.1) to production's
    sealed plans (7.0): which kinds are sealed, and where their plans are, is known beside
    the registry, which the walk leaves unread."""
    assert cli("deadline", game, "--set", "48h").exit_code == 0
    for side in ("german", "entente"):
        for text in ("pass", "end turn"):
            assert cli("order", game, "--as", side, text).exit_code == 0
    done = subprocess.run([sys.executable, "-c", WALKED, str(game)], capture_output=True,
                          text=True, timeout=120,
                          env={**os.environ, "REFEREE_HOME": str(game.parent / "home")})
    assert done.returncode == 0, done.stderr
    # Control: the walk went through to the sealed plans, both sides waited on.
    assert done.stdout.split() == ["Unread", "production", "german", "entente"], done.stdout


# Each kind looked at first, in a fork of an interpreter that imported the engine and looked at
# nothing: what its module alone loaded, and whether the spec found is the very one the
# registry holds once every rules' module is loaded (battle.py's wrapping of a battle's
# decisions included: 5.2), sorted by name as ever.
ONE_KIND = """
import json, os, sys
import referee.engine
from referee.engine.core import DECISIONS, KINDS
{first}
out = {{}}
for kind in sorted(KINDS):
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        spec, found = DECISIONS[kind], kind in DECISIONS and DECISIONS.get(kind)
        unread = type(DECISIONS).__name__
        loaded = sorted(m.rpartition(".")[2] for m in sys.modules
                        if m.startswith("referee.engine."))
        kinds = list(DECISIONS)
        same = DECISIONS[kind] is spec and found is spec
        os.write(w, json.dumps([unread, loaded, same, kinds]).encode())
        os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as got:
        out[kind] = json.loads(got.read())
    os.waitpid(pid, 0)
print(json.dumps(out))
"""


def looked_at_first(first: str = "") -> dict:
    done = subprocess.run([sys.executable, "-c", ONE_KIND.format(first=first)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def test_a_look_at_one_kind_loads_its_module_and_finds_the_spec_of_the_whole(eager):
    from referee.engine.core import KINDS

    seen = looked_at_first()
    whole = [kind for kind, _ in eager["kinds"]]
    for kind, (unread, loaded, same, kinds) in seen.items():
        assert unread == "Unread" and KINDS[kind] in loaded, (kind, loaded)
        assert same and kinds == whole, kind
    # Production's module (7.0) needs none of the player turn's, a battle's or the crisis'.
    assert not {"flow", "combat", "battle", "crisis", "armistice"} & set(
        seen["production"][1]), seen["production"][1]
    # A battle's decisions load battle.py, which wraps them (5.2): not losses.py alone.
    assert "battle" in seen["losses"][1] and "flow" not in seen["losses"][1]


def test_a_look_at_a_kind_without_its_module_named_loads_them_all():
    """Control of the test above: with no loader of one kind's module, a look at one kind
    loads every rules' module, as a look at the whole does."""
    seen = looked_at_first("DECISIONS.load_with(DECISIONS.loader)")
    assert {unread for unread, *_ in seen.values()} == {"Registry"}
    assert all(same and set(RULES) <= set(loaded) for _, loaded, same, _ in seen.values())


# As THREADS, for a look at one kind: another thread looking at the same kind while the first
# look imports its module waits for it, and finds it whole.
KIND_THREADS = THREADS.replace("seen, load, lock = [], DECISIONS.loader, core._LOADING",
                               "seen, load, lock = [], DECISIONS.kind_loader, core._LOADING") \
    .replace("def loading():", "def loading(home):") \
    .replace("target=lambda: seen.append(len(DECISIONS))",
             "target=lambda: seen.append(DECISIONS['production'].rule)") \
    .replace("    load()\n", "    load(home)\n") \
    .replace("DECISIONS.load_with(loading)", "DECISIONS.load_with(DECISIONS.loader, loading)") \
    .replace("first = len(DECISIONS)", "first = DECISIONS['production'].rule") \
    .replace("print(first, *seen)", "print(first, type(DECISIONS).__name__, *seen)")


def test_a_thread_looking_at_a_kind_while_another_loads_its_module_finds_it_whole():
    assert KIND_THREADS.count("production") == 2 and "load(home)" in KIND_THREADS
    done = subprocess.run([sys.executable, "-c", KIND_THREADS], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    # 7.0: production's rule, as the registry holds it; the registry not yet loaded whole.
    assert done.stdout.split() == ["7.0", "Unread", "True", "loaded", "7.0"], done.stdout
