"""The package's source parsed once in a test process.

Several checks read the code itself (layers and lengths, message templates, printed rule
numbers, the engine's literals), each over much of referee/: a
whole pass of parsing costs over a second, and each check did its own. Every check reads
the trees and changes none; a tree is parsed again when its file's text is not the text
it was parsed from. The trees are kept for the whole process, as the game data is, and
so are frozen out of the garbage collector's reach as conftest.py freezes that: its full
passes walked the half million nodes of the package's trees again and again."""

from __future__ import annotations

import ast
import gc
from functools import cache
from pathlib import Path


@cache
def _parsed(text: str) -> ast.Module:
    found = ast.parse(text)
    gc.freeze()
    return found


def tree(path: Path) -> ast.Module:
    """The syntax tree of the file at path, to read and never to change."""
    return parsed(path.read_text(encoding="utf-8"))


def parsed(source: str) -> ast.Module:
    """The syntax tree of source, to read and never to change."""
    return _parsed(source)
