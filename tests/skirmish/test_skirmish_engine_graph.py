"""The skirmish engine (referee/engine/skirmish/) in layers like the campaign engine's
(test_import_graph.py): decide and evolve on top, then what the card forbids, the dice
tests and the order text, then the state; and it stands apart from the campaign engine."""

from __future__ import annotations

import ast
from pathlib import Path

from test_import_graph import imports_of

import referee.engine.skirmish
from graphs import find_cycle

PACKAGE = Path(referee.engine.skirmish.__file__).parent
LAYERS = [("__init__",), ("checks",), ("dicetests", "order_text"), ("state",)]


def _imports() -> dict[str, list[tuple[str, int, bool]]]:
    names = {p.stem for p in PACKAGE.glob("*.py")}
    return {n: imports_of((PACKAGE / f"{n}.py").read_text(), n, names) for n in names}


def test_every_skirmish_engine_module_has_a_layer_and_imports_only_lower_ones():
    level = {m: i for i, layer in enumerate(LAYERS) for m in layer}
    graph = _imports()
    assert set(graph) == set(level)
    for mod, targets in graph.items():
        for t, _, _ in targets:
            assert level[t] > level[mod], f"{mod} imports {t} of its own or a higher layer"
    assert find_cycle(graph) is None


def test_the_skirmish_engine_uses_nothing_of_the_campaign_engine():
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 2:
                raise AssertionError(f"{path.name} imports referee.engine.{node.module}")
