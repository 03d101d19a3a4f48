"""A game data or scenario file against its contract (pydantic): every error at once, each
in words a moderator editing the YAML understands, at the keys and indexes it is at.

Validation runs in JSON mode and strict, as msgspec decodes the same classes: an array is a
tuple, an integer is never read from text. Each error becomes a ShapeProblem (marks.py), a
line 'FILE: what (at where)' that is placed as 'FILE:LINE:COLUMN: what (at where)' when the
file's text is at hand.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from ..contracts.validation import engine, validator
from ..contracts.words import KINDS, describe, words
from .marks import ShapeError, ShapeProblem

ValidationError = engine().ValidationError     # pydantic-core's, loaded alone


def problems_of(model: type, raw: Any, label: str) -> list[ShapeProblem]:
    """Every error of raw data against a file's contract, in the order of the file, each a
    ShapeProblem of the file named label."""
    try:
        validator(model, objects=False).validate_json(json.dumps(raw))
    except ValidationError as exc:
        errors = _merge_unions([_located(e, raw) for e in exc.errors(include_url=False)])
        ranks: dict[int, dict] = {}
        errors.sort(key=lambda f: _order(f.error.path, raw, ranks))
        return [ShapeProblem(label, f.error, raw) for f in errors]
    return []


# ---------------------------------------------------------------- from pydantic's loc

class _Found(NamedTuple):
    """A pydantic error located in the data, and the union member it is about, if any."""

    error: ShapeError
    union: tuple[tuple, str] | None     # the path of the union's value, the member's name
    kind: str                           # pydantic's error type
    value: Any                          # the value given


def _located(e: dict, raw: Any) -> _Found:
    """A pydantic error with its loc turned into a path of the data's keys and indexes.

    A loc names a union's member (`str`, `dict[...]`) beside the keys: a step the data
    does not have is such a member, except the last of a missing key, which is that key.
    """
    path: list = []
    union = None
    node = raw
    loc = e["loc"]
    at_key = e["type"] == "extra_forbidden"
    for i, step in enumerate(loc):
        if step == "[key]":
            at_key = True
        elif isinstance(node, dict) and isinstance(step, str) and step in node:
            path.append(step)
            node = node[step]
        elif isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
            path.append(step)
            node = node[step]
        elif e["type"] == "missing" and i == len(loc) - 1:
            path.append(step)
        elif union is None:
            union = (tuple(path), str(step))
    return _Found(ShapeError(tuple(path), words(e), at_key), union, e["type"], e.get("input"))


def _merge_unions(found: list[_Found]) -> list[_Found]:
    """One error where a value fits no member of a union (`must be a mapping or text`), and
    only the errors of the member whose form it has otherwise."""
    members: dict[tuple, dict[str, list[_Found]]] = {}
    for f in found:
        if f.union is not None:
            members.setdefault(f.union[0], {}).setdefault(f.union[1], []).append(f)
    out = [f for f in found if f.union is None]
    for where, by_member in members.items():
        fitting = [fs for fs in by_member.values()
                   if not all(f.error.path == where and f.kind in KINDS for f in fs)]
        if fitting:
            out.extend(f for fs in fitting for f in fs)
            continue
        first = next(iter(by_member.values()))[0]
        kinds = list(dict.fromkeys(KINDS[fs[0].kind] for fs in by_member.values()))
        message = f"must be {' or '.join(kinds)}, got {describe(first.value)}"
        out.append(_Found(ShapeError(where, message), None, "union", first.value))
    return out


def _order(path: tuple, raw: Any, ranks: dict[int, dict]) -> list[int]:
    """Where in the file a path is, as the positions of its keys and indexes (a missing key
    after its mapping's keys), to list a file's errors from its top down; ranks keeps each
    mapping's key positions, worked out once for all the errors (20,000 unknown keys took
    seconds to sort when each looked its key up in a list of them)."""
    out = []
    node = raw
    for step in path:
        if isinstance(node, dict):
            rank = ranks.get(id(node))
            if rank is None:
                rank = ranks[id(node)] = {key: n for n, key in enumerate(node)}
            out.append(rank.get(step, len(rank)))
            node = node.get(step)
        elif isinstance(node, list) and isinstance(step, int):
            out.append(step)
            node = node[step] if 0 <= step < len(node) else None
        else:
            out.append(0)
    return out
