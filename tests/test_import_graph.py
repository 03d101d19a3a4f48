"""The engine's imports form a one-way graph, in layers (DESIGN.md, "The engine").

flow.py owns the sequence of play (rule 2.0): it calls the phase modules and
they return to it; they never call back into flow. Below them the primitives,
then core, then the plain data (state, events, orders). Every import of one
engine module by another counts, the function-local ones too: a module may
import only modules of a lower layer, so no cycle can form. And flow's table
of what comes next covers every step a phase module says it has finished.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import referee.engine
from graphs import find_cycle

ENGINE = Path(referee.engine.__file__).parent

# From the top down; a module imports only modules of the layers below its own.
LAYERS: list[tuple[str, ...]] = [
    ("__init__",),                                      # decide, legal_orders: the entry
    ("flow",),                                          # the sequence of play (2.0)
    ("armistice", "setup", "standing"),                 # phases that start or end the game,
                                                        # answers given ahead
    ("victory",),                                       # the victory points and their level
    ("combat", "crisis", "movement_modes", "production", "suppress"),    # phases
    ("battle",),                                        # the combat phase's battles, fought
    ("builds", "losses", "reinforce", "retreats", "scramble"),    # what phases hand decisions
                                                        # to; what a build costs and needs
    ("room", "sealed", "supply", "hidden_room"),        # room: what moves into armies free
    ("movement",),                                      # primitives: moving and settling
    ("alone", "armies", "cards", "fire", "own_area", "path_walk", "unit_bp"),
    ("core", "intake"),                                 # Ctx, prompt, the decision registry;
                                                        # what a new order's line may hold
    ("apply", "invariants", "reading"),
    ("apply_combat", "apply_map", "apply_production", "apply_turn"),   # evolve's handlers
    ("apply_units", "evolve", "order_text"),            # evolve; the orders' text form
    ("armistice_heard",),                               # whether an armistice was heard (3.2)
    ("endings",),                                       # how a game ended, as data (3.0-3.3)
    ("state", "versions"),
]


def _modules() -> list[str]:
    return sorted(p.stem for p in ENGINE.glob("*.py"))


@cache
def _tree(name: str) -> ast.Module:
    return ast.parse((ENGINE / f"{name}.py").read_text(encoding="utf-8"), filename=f"{name}.py")


def imports_of(source: str | ast.Module, name: str,
               known: set[str]) -> list[tuple[str, int, bool]]:
    """(engine module imported, line, function-local?) for every import in one module's source.

    Relative imports (`from .x import y`, `from . import x`) and absolute ones
    (`referee.engine.x`) both count, wherever they stand: at the top, inside
    a function, a class or an `if` block.
    """
    tree = ast.parse(source, filename=f"{name}.py") if isinstance(source, str) else source
    top = {id(n) for n in tree.body}
    out: list[tuple[str, int, bool]] = []
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.ImportFrom):
            if node.level == 1:
                mod = node.module
            elif node.level == 0 and (node.module or "").startswith("referee.engine"):
                mod = node.module[len("referee.engine"):].lstrip(".") or None
            else:
                continue                                    # outside the engine
            if mod:
                targets = [mod.split(".")[0]]
            else:                                           # from . import x, y
                targets = [a.name for a in node.names]
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("referee.engine."):
                    targets.append(a.name.split(".")[2])
        for t in targets:
            if t in known and t != name:
                out.append((t, node.lineno, id(node) not in top))
    return out


@cache
def graph() -> dict[str, list[tuple[str, int, bool]]]:
    """Every engine module and the engine modules it imports."""
    known = set(_modules())
    return {m: imports_of(_tree(m), m, known) for m in sorted(known)}


def test_the_collector_sees_function_local_and_absolute_imports():
    # Without this, a collector reading only the top of each module would pass by missing
    # the imports made inside functions, which is how the old cycles hid.
    src = ("from .core import Ctx\n"
           "def f():\n"
           "    if True:\n"
           "        from .flow import end_player_turn\n"
           "    from . import combat, losses\n"
           "class C:\n"
           "    def g(self):\n"
           "        import referee.engine.supply\n"
           "        from referee.engine.fire import roll\n"
           "from ..gamedata import GameData\n")
    known = {"core", "flow", "combat", "losses", "supply", "fire", "x"}
    assert sorted(imports_of(src, "x", known)) == sorted([
        ("core", 1, False), ("flow", 4, True), ("combat", 5, True), ("losses", 5, True),
        ("supply", 8, True), ("fire", 9, True)])


def test_engine_modules_import_one_another_at_the_top():
    # Importing any engine module first runs the package's __init__: an engine module
    # imported inside another's function saves no start-up, and would only hide an edge of
    # the graph. The collector sees such imports (the test above). The package's __init__
    # alone imports the rules' modules at their first need (core.DECISIONS's first look, a
    # decision taken): a read of a game that is over loads none of them.
    local = [f"{m}.py:{line} imports {t} inside a function"
             for m, edges in graph().items() for t, line, nested in edges
             if nested and m != "__init__"]
    assert not local, "\n".join(local)


def test_every_engine_module_has_a_layer():
    placed = [m for layer in LAYERS for m in layer]
    assert len(placed) == len(set(placed)), "a module is in two layers"
    missing = sorted(set(_modules()) - set(placed))
    assert not missing, f"engine module(s) in no layer of LAYERS: {', '.join(missing)}"
    gone = sorted(set(placed) - set(_modules()))
    assert not gone, f"LAYERS names module(s) the engine does not have: {', '.join(gone)}"


def test_the_engine_imports_have_no_cycle():
    cycle = find_cycle(graph())
    assert cycle is None, "engine imports go round in a cycle: " + " -> ".join(cycle)


def test_each_module_imports_only_lower_layers():
    level = {m: i for i, layer in enumerate(LAYERS) for m in layer}
    wrong = []
    for m, edges in graph().items():
        for t, line, nested in edges:
            if m in level and t in level and level[t] <= level[m]:
                where = "function-local" if nested else "top-level"
                wrong.append(f"{m}.py:{line} imports {t} ({where}; layer {level[m]} may import "
                             f"only layers below it, {t} is in layer {level[t]})")
    assert not wrong, "imports against the layers:\n" + "\n".join(wrong)


def test_flow_goes_on_from_every_step_a_phase_module_finishes():
    # 2.0: a phase module ends its step with core.finish(ctx, "<step>") and returns; flow.NEXT
    # must name what follows each such step, or the game would stop there.
    from referee.engine import flow

    finished = set()
    for m in _modules():
        for node in ast.walk(_tree(m)):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "finish" \
                    and len(node.args) == 2 and isinstance(node.args[1], ast.Constant):
                finished.add(node.args[1].value)
    assert finished >= {"reinforcements", "combat", "supply", "eft_losses"}
    assert not finished - set(flow.NEXT), f"steps with no next step: {finished - set(flow.NEXT)}"
    assert not set(flow.NEXT) - finished, f"NEXT steps nobody finishes: {set(flow.NEXT) - finished}"


def test_the_table_of_flow_names_functions_that_exist():
    # flow.py's docstring is rule 2.0 with what runs each step (a function, or a decision a
    # player answers): it must stay true.
    import re

    from referee.engine import flow
    from referee.engine.core import DECISIONS

    table = flow.__doc__.split("\n\n")[1].splitlines()
    column = table[0].index("begin_seasonal_turn")           # the table's right-hand column
    runs = [line[column:] for line in table if line[column - 2:column] == "  "]
    functions, decisions = set(), set()
    for r in runs:
        r = re.sub(r"\([a-z]+\.py\)", "", r)                  # "(combat.py)": where it lives
        if r.startswith("decision "):
            decisions |= set(re.findall(r"[a-z_]+", r[len("decision "):]))
        else:
            functions |= set(re.findall(r"[a-z_]+(?:\.[a-z_]+)?", r))
    assert {"begin_seasonal_turn", "combat.begin_combat", "production.eft_losses",
            "advance_season"} <= functions
    assert {"card_or_pass", "movement", "pass_move"} <= decisions
    for name in functions:
        obj = flow
        for part in name.split("."):
            obj = getattr(obj, part, None)
        assert callable(obj), f"flow's table names {name}, which flow cannot reach"
    for kind in decisions:
        assert kind in DECISIONS, f"flow's table names the decision {kind}, which is not one"
