"""The skirmish package (referee/table/skirmish/) in layers like the campaign engine's
(test_import_graph.py): the kind on top, then its autoplay and random play (which play
through what is below them, as a player's orders), then the journal's life, what a mail asks and how
many of its tests it tells in full, how it names a record, what `explain` tells, then how
the game ended, then decide and evolve, a move as ruled and a player's note quoted, what
the card forbids, the dice tests, the order text and the facts a fire reads, then the state
and what keys the dice; and its rules stand apart from the campaign engine."""

from __future__ import annotations

import ast
from pathlib import Path

from test_import_graph import imports_of

import referee.table.skirmish
from graphs import find_cycle

PACKAGE = Path(referee.table.skirmish.__file__).parent
LAYERS = [("__init__", "kind"), ("mailed",), ("reported", "autoplayed"),
          ("asking", "brief", "explained", "made", "ruled", "randomplay", "held"),
          ("ending", "listed", "formnotes", "dryrun"),
          ("life",), ("decider", "report", "loading"), ("contactnews",),
          ("settled", "quotednotes", "contacted", "dones", "endresult", "disputewait"),
          ("checks",),
          ("dicetests", "order_text", "readable", "turns"),
          ("state", "window", "dicekeys", "nearest")]


def _imports() -> dict[str, list[tuple[str, int, bool]]]:
    names = {p.stem for p in PACKAGE.glob("*.py")}
    return {n: [t for t in imports_of((PACKAGE / f"{n}.py").read_text(), n, names)
                if t[0] in names] for n in names}


def test_every_skirmish_module_has_a_layer_and_imports_only_lower_ones():
    level = {m: i for i, layer in enumerate(LAYERS) for m in layer}
    graph = _imports()
    assert set(graph) == set(level)
    for mod, targets in graph.items():
        for t, _, _ in targets:
            assert level[t] > level[mod], f"{mod} imports {t} of its own or a higher layer"
    assert find_cycle(graph) is None


def test_the_skirmish_uses_nothing_of_the_campaign_engine():
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                module = node.module or ""
                assert not (node.level == 3 and module.split(".")[0] == "engine"), path.name
                assert not module.startswith("referee.engine"), path.name
