"""Where a path of keys, indexes and ids points in a YAML text: the line and column of its
node, so that a problem line names the place an editor jumps to (FILE:LINE:COLUMN).

A problem of a file's shape (shapes.py) is a ShapeProblem: a line 'FILE: what (at where)'
that keeps the keys and indexes it is at; a problem the cross-file checks find is a
DataProblem (problems.py), whose path may name a list item by its id. Both are placed once
the file's text is at hand, as 'FILE:LINE:COLUMN: what (at where)'. A document read from a
snapshot has no text: its lines stay unplaced.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

import yaml

from .problems import Item, Problem, named

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_STR = "tag:yaml.org,2002:str"


class Marks:
    """The nodes of one YAML text with their places, composed the first time one is asked.

    The text is one that was read already (dataload.read_yaml checked its limits), so
    composing it again is safe; it is done only when a problem needs a place.
    """

    def __init__(self, text: str):
        self.text = text
        self._root: Any = None
        self._composed = False

    def root(self) -> Any:
        """The document's top node, or None when the text cannot be composed."""
        if not self._composed:
            self._composed = True
            try:
                self._root = yaml.compose(self.text, Loader=_Loader)
            except (yaml.YAMLError, ValueError, RecursionError):
                self._root = None
        return self._root

    def place(self, path: tuple | list, at_key: bool = False) -> tuple[int, int] | None:
        """(line, column), both from 1, of the node path leads to: its key's when at_key
        (an unknown key, a key of the wrong form); the deepest node there is when the path
        goes on beyond the file (a missing key: the mapping that lacks it). In a list, a
        step of text is the item of that id or key (areas.pfalz), or of that value."""
        node = self.root()
        if node is None:
            return None
        for i, step in enumerate(path):
            child, key = _child(node, step)
            if child is None:
                break
            node = key if at_key and i == len(path) - 1 else child
        return node.start_mark.line + 1, node.start_mark.column + 1


def _child(node: Any, step: Any) -> tuple[Any, Any]:
    """(the value node, its key node) a key or index leads to from node, or (None, None)."""
    if isinstance(node, yaml.MappingNode) and isinstance(step, str) and \
            not isinstance(step, Item):
        return _index(node, lambda: ((_key_text(k), (v, k)) for k, v in node.value)) \
            .get(step, (None, None))
    if isinstance(node, yaml.SequenceNode) and isinstance(step, int) and not \
            isinstance(step, bool) and 0 <= step < len(node.value):
        return node.value[step], node.value[step]
    if isinstance(node, yaml.SequenceNode) and isinstance(step, str):
        return _index(node, lambda: ((_named(i), (i, i)) for i in node.value)) \
            .get(step, (None, None))
    return None, None


def _index(node: Any, entries) -> dict:
    """The node's children by name, the first of each name, made once per node: a file of
    twenty thousand problems was searched child by child for each (a minute and more)."""
    index = getattr(node, "_referee_index", None)
    if index is None:
        index = {}
        for name, found in entries():
            index.setdefault(name, found)
        node._referee_index = index
    return index


def _named(item: Any) -> str | None:
    """What a list item is named by: its value (a scalar), or its id or key (a mapping)."""
    if isinstance(item, yaml.ScalarNode):
        return _key_text(item)
    if isinstance(item, yaml.MappingNode):
        for key, value in item.value:
            if _key_text(key) in ("id", "key") and isinstance(value, yaml.ScalarNode):
                return _key_text(value)
    return None


def _key_text(key: Any) -> str | None:
    """A mapping key as the data has it: the JSON text of its value (1914 is '1914')."""
    if not isinstance(key, yaml.ScalarNode):
        return None
    if key.tag == _STR:
        return key.value
    try:
        value = yaml.load(key.value, Loader=_Loader)
        return json.loads(json.dumps({value: 0}, default=str)).popitem()[0]
    except (yaml.YAMLError, TypeError, ValueError):
        return key.value


class ShapeError(NamedTuple):
    """One error of a file's shape: where in its data, what, and whether at the key."""

    path: tuple
    message: str
    at_key: bool = False


class ShapeProblem(Problem):
    """A problem line 'FILE: what (at where)' that knows the keys and indexes it is at, so
    that its line and column can be named when the file's text is at hand."""

    error: ShapeError

    def __new__(cls, label: str, error: ShapeError, raw: Any) -> ShapeProblem:
        where = dotted(error.path, raw)
        line = super().__new__(cls, f"{label}: {error.message} (at {where})")
        line.label, line.error, line.where = label, error, where
        line.message, line.path, line.at_key = error.message, error.path, error.at_key
        return line


def dotted(path: tuple | list, raw: Any) -> str:
    """A readable path, naming list items by their id or key: areas[3](liege).vp."""
    parts: list[str] = []
    node = raw
    for key in path:
        if isinstance(key, int):
            item = node[key] if isinstance(node, list) and key < len(node) else None
            name = (item.get("id") or item.get("key")) if isinstance(item, dict) else None
            parts.append(named(key, name).shown if isinstance(name, str) else f"[{key}]")
        else:
            parts.append(("." if parts else "") + str(key))
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            node = None
    return "".join(parts) or "(top)"
