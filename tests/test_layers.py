"""The package is a house of layers (DESIGN.md, "Layout"): each folder imports only itself and
the folders below it, and no import circle exists anywhere, function-local imports included.

Bottom to top: base < contracts < store < data < engine < game < render < mail < cli. The
package's own `__init__` (its version) may be imported by every layer; `__main__` stands above
them all.
A function-local import of a referee module says on its line, or the line above, that it is
there for start-up time; every other import stands at the top of its module.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import referee
from graphs import find_cycle
from sourcetrees import parsed

PACKAGE = Path(referee.__file__).parent
LAYERS = ("base", "contracts", "store", "data", "engine", "game", "render", "table", "mail",
          "cli")
ROOT = {"__init__": -1, "__main__": len(LAYERS)}         # the version below all; -m above all


def module_name(path: Path) -> str:
    """`data.gamedata` for referee/data/gamedata.py, `game` for referee/game/__init__.py."""
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts = parts[:-1]
    return ".".join(parts)


def layer_of(module: str) -> int:
    """The rank of a module's layer (ValueError for a module outside every layer)."""
    if module in ROOT:
        return ROOT[module]
    return LAYERS.index(module.split(".")[0])


@cache
def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))
            if "_compiled" not in p.parts}


def _package_of(module: str, path: Path) -> list[str]:
    parts = module.split(".") if module not in ROOT else []
    return parts if path.name == "__init__.py" else parts[:-1]


def _target(node: ast.ImportFrom, package: list[str]) -> str | None:
    if node.level == 0:
        name = node.module or ""
        if name != "referee" and not name.startswith("referee."):
            return None
        return name[len("referee."):] if name != "referee" else ""
    base = package[:len(package) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _resolve(name: str, known: set[str]) -> str:
    """The module an imported name lives in: itself when a module, else its longest prefix."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or "__init__"


def _module_level(body: list[ast.stmt]) -> set[int]:
    """The statements run when the module is imported: its body, and the bodies of its
    module-level `if` and `try` blocks (an `if TYPE_CHECKING:` import is not in a function)."""
    out: set[int] = set()
    for node in body:
        out.add(id(node))
        if isinstance(node, (ast.If, ast.Try)):
            for part in (node.body, node.orelse, getattr(node, "finalbody", []),
                         *[h.body for h in getattr(node, "handlers", [])]):
                out |= _module_level(part)
    return out


def imports_of(source: str, module: str, path: Path,
               known: set[str]) -> list[tuple[str, int, bool]]:
    """(module imported, line, function-local?) for every referee import in one source."""
    tree = parsed(source)
    top = _module_level(tree.body)
    out: list[tuple[str, int, bool]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = _target(node, _package_of(module, path))
            if base is None:
                continue
            names = [f"{base}.{a.name}" if base else a.name for a in node.names]
            targets = {_resolve(n, known) for n in names}
        elif isinstance(node, ast.Import):
            targets = {_resolve(a.name[len("referee."):], known) for a in node.names
                       if a.name.startswith("referee.")}
        else:
            continue
        out += [(t, node.lineno, id(node) not in top) for t in sorted(targets) if t != module]
    return out


@cache
def graph() -> dict[str, list[tuple[str, int, bool]]]:
    known = set(modules())
    return {m: imports_of(p.read_text(encoding="utf-8"), m, p, known)
            for m, p in modules().items()}


def against_layers(g: dict[str, list[tuple[str, int, bool]]]) -> list[str]:
    """Every import of a module from a layer above the importer's."""
    return [f"{m}:{line} imports {t} ({LAYERS[layer_of(t)]} is above "
            f"{LAYERS[layer_of(m)] if m not in ROOT else m})"
            for m, edges in sorted(g.items()) for t, line, _ in edges
            if layer_of(t) > layer_of(m)]


def unexplained_local_imports(g: dict[str, list[tuple[str, int, bool]]]) -> list[str]:
    """Function-local imports whose line, or the line above, does not say `start-up`."""
    out = []
    for m, edges in sorted(g.items()):
        lines = modules()[m].read_text(encoding="utf-8").splitlines() if m in modules() else []
        for t, line, local in edges:
            near = " ".join(lines[max(0, line - 2):line])
            if local and "start-up" not in near:
                out.append(f"{m}:{line} imports {t} inside a function without a start-up reason")
    return sorted(set(out))


def test_every_module_stands_in_a_layer():
    outside = [m for m in modules() if m not in ROOT and m.split(".")[0] not in LAYERS]
    assert not outside, f"module(s) in no layer folder: {', '.join(outside)}"
    loose = [m for m in modules() if "." not in m and m not in ROOT and m not in LAYERS]
    assert not loose, f"loose module(s) beside the layers: {', '.join(loose)}"


def test_each_layer_imports_only_the_layers_below_it():
    wrong = against_layers(graph())
    assert not wrong, "imports against the layers:\n" + "\n".join(wrong)


def test_the_whole_package_has_no_import_circle():
    cycle = find_cycle(graph())
    assert cycle is None, "import circle: " + " -> ".join(cycle or [])


def test_function_local_imports_say_why():
    wrong = unexplained_local_imports(graph())
    assert not wrong, "\n".join(wrong)


def test_the_graph_sees_every_form_of_import():
    # A reader blind to one form would pass a package that breaks the rule that way.
    src = ("from . import journal, home\n"
           "from ..data.gamedata import GameData\n"
           "from .. import game as g\n"
           "import referee.cli.app\n"
           "from referee.render import text\n"
           "def f():\n"
           "    from ..engine.core import Ctx\n"
           "if TYPE_CHECKING:\n"
           "    from ..data.gamedata import Area\n")
    known = {"store.journal", "store.home", "store.dice", "data.gamedata", "game", "cli.app",
             "render.text", "engine.core", "engine"}
    edges = imports_of(src, "store.dice", PACKAGE / "store" / "dice.py", known)
    assert sorted(edges) == sorted([
        ("store.journal", 1, False), ("store.home", 1, False), ("data.gamedata", 2, False),
        ("game", 3, False), ("cli.app", 4, False), ("render.text", 5, False),
        ("engine.core", 7, True), ("data.gamedata", 9, False)])


def test_the_checks_fail_on_the_circles_the_package_once_had():
    # compiled <-> datastore; datacheck -> gamedata -> dataload -> datacheck; game <-> verify;
    # impassable <-> svgmap: each as it stood, one must be found, and a layer breach named.
    old = {"data.compiled": [("data.datastore", 141, True)],
           "data.datastore": [("data.compiled", 118, True)]}
    assert find_cycle(old) in (["data.compiled", "data.datastore", "data.compiled"],
                               ["data.datastore", "data.compiled", "data.datastore"])
    old = {"data.datacheck": [("data.gamedata", 1, False)],
           "data.gamedata": [("data.dataload", 922, True)],
           "data.dataload": [("data.datacheck", 369, True)]}
    assert find_cycle(old) is not None
    old = {"game.replay": [("game.verify", 907, False)],
           "game.verify": [("game.replay", 185, True)]}
    assert find_cycle(old) is not None
    old = {"render.impassable": [("render.svgmap", 26, False)],
           "render.svgmap": [("render.impassable", 263, True)]}
    assert find_cycle(old) is not None
    assert against_layers({"game.audit": [("render.text", 117, True)]}) == [
        "game.audit:117 imports render.text (render is above game)"]
    assert against_layers({"engine.core": [("store.dice", 16, False)]}) == []


# Files that are data tables or generated, and may run longer than a module should.
LONG_FILES_ALLOWED: dict[str, str] = {}
MAX_FILE_LINES = 600
MAX_FUNCTION_LINES = 80


def long_parts(path: Path) -> list[str]:
    """The file itself when over MAX_FILE_LINES, and each function over MAX_FUNCTION_LINES."""
    source = path.read_text(encoding="utf-8")
    name = module_name(path)
    out = []
    if source.count("\n") > MAX_FILE_LINES and name not in LONG_FILES_ALLOWED:
        out.append(f"{name}: {source.count(chr(10))} lines")
    for node in ast.walk(parsed(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = node.end_lineno - node.lineno + 1
            if length > MAX_FUNCTION_LINES:
                out.append(f"{name}.{node.name}: {length} lines")
    return out


def test_modules_and_functions_stay_short():
    # A reader holds a function on one screen and a module in one sitting.
    wrong = [part for p in modules().values() for part in long_parts(p)]
    assert not wrong, "too long:\n" + "\n".join(wrong)


def test_the_length_check_sees_a_long_function(tmp_path):
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION_LINES))
    (tmp_path / "m.py").write_text(f"def f():\n{body}\n")
    global PACKAGE
    saved, PACKAGE = PACKAGE, tmp_path
    try:
        assert long_parts(tmp_path / "m.py") == [f"m.f: {MAX_FUNCTION_LINES + 1} lines"]
    finally:
        PACKAGE = saved


def test_the_guides_list_the_layers_this_test_checks_in_its_order():
    """CONTRIBUTING.md (its chain `base` < … < `cli`) and design.md (its table, bottom
    first) name the layers of LAYERS, in that order, and no others."""
    import re

    root = Path(__file__).parent.parent
    chain = re.search(r"one folder each, bottom first: (`[a-z]+`(?:\s*<\s*`[a-z]+`)+)",
                      (root / "CONTRIBUTING.md").read_text(encoding="utf-8"))
    assert chain, "CONTRIBUTING.md: no chain of layers"
    assert tuple(re.findall(r"`([a-z]+)`", chain.group(1))) == LAYERS
    table = re.findall(r"^\| ([a-z]+) \| `referee/\1/` \|",
                       (root / "docs" / "design.md").read_text(encoding="utf-8"), re.M)
    assert tuple(table) == LAYERS
    words = ("eight", "nine", "ten")
    for doc in ("CONTRIBUTING.md", "docs/design.md"):
        said = re.search(r"The package is (\w+) layers", (root / doc).read_text("utf-8"))
        assert said and said.group(1) == words[len(LAYERS) - 8], doc


def _shared_basenames() -> set[str]:
    """The module names used in more than one folder of referee/."""
    names = [p.name for p in (Path(referee.__file__).parent).rglob("*.py")]
    return {n for n in names if names.count(n) > 1}


def test_a_module_name_in_two_folders_is_one_idea_that_design_md_names():
    """Each name shared by modules of two folders is listed, with its reason, in design.md's
    list of names used in more than one folder; a new shared name (two `transport.py`, one
    for rail moves and one for mail) fails until it is renamed or justified there."""
    text = (Path(referee.__file__).parent.parent / "docs" / "design.md").read_text("utf-8")
    start = text.index("A name is used\nin more than one folder only where")
    end = text.index("Every command and every mail pass opens its game through", start)
    listed = set(re.findall(r"`([a-z_]+\.py)`", text[start:end]))
    assert _shared_basenames() == listed, (sorted(_shared_basenames() - listed),
                                           sorted(listed - _shared_basenames()))
