"""A message kept as a template (a module's constant holding `{name}` fields) is only ever
used filled in: every use of it in the code is its own `.format(...)`. A template put into
an f-string or joined to other words as it is would reach its reader with a literal
`{why}` in it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import referee
from sourcetrees import tree as source_tree

FIELD = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}")
SOURCE = Path(referee.__file__).parent


def _text(node: ast.AST) -> str | None:
    """A constant string, or one joined of constant strings with +."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _text(node.left), _text(node.right)
        return left + right if left is not None and right is not None else None
    return None


def _trees() -> dict[Path, ast.Module]:
    return {path: source_tree(path)
            for path in sorted(SOURCE.rglob("*.py"))}


def templates(trees: dict[Path, ast.Module]) -> dict[str, Path]:
    """Each module constant that is a template, with its module."""
    found = {}
    for path, tree in trees.items():
        for node in tree.body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and \
                    isinstance(node.targets[0], ast.Name):
                text = _text(node.value)
                if text is not None and FIELD.search(text):
                    found[node.targets[0].id] = path
    return found


def unfilled(trees: dict[Path, ast.Module], names: dict[str, Path]) -> list[str]:
    """Each use of a template that is not its own .format(...), as FILE:LINE NAME."""
    out = []
    for path, tree in trees.items():
        parent = {child: node for node in ast.walk(tree)
                  for child in ast.iter_child_nodes(node)}
        for node in ast.walk(tree):
            name = node.id if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) \
                else node.attr if isinstance(node, ast.Attribute) else None
            if name not in names:
                continue
            up = parent.get(node)
            if isinstance(up, ast.Attribute) and up.attr in ("format", "format_map"):
                continue
            out.append(f"{path.relative_to(SOURCE)}:{node.lineno} {name}")
    return out


def test_every_message_template_is_used_filled_in():
    trees = _trees()
    names = templates(trees)
    assert "PAUSED" in names                # the scan finds the templates it is about
    assert unfilled(trees, names) == []


def test_the_scan_finds_a_template_put_in_as_it_is():
    trees = {Path(SOURCE / "x.py"): ast.parse(
        'WHY = "paused ({why})"\n'
        'def refuse(): raise ValueError(f"extend: {WHY}")\n'
        'def fine(): return WHY.format(why="a deadline")\n')}
    assert unfilled(trees, templates(trees)) == ["x.py:2 WHY"]
