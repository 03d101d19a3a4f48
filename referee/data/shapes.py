"""A game data or scenario file against its contract (pydantic): every error at once, each
in words a moderator editing the YAML understands, at the keys and indexes it is at.

Validation runs in JSON mode and strict, as the fast msgspec twins decode: an array is a
tuple, an integer is never read from text. Each error becomes a ShapeProblem (marks.py), a
line 'FILE: what (at where)' that is placed as 'FILE:LINE:COLUMN: what (at where)' when the
file's text is at hand.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from pydantic import BaseModel, ValidationError

from ..base.errors import quoted
from ..contracts import chartmodels as c_charts
from ..contracts import deckmodels as c_deck
from ..contracts import eventmodels as c_events
from ..contracts import gamemodels as c_game
from ..contracts import mapmodels as c_map
from ..contracts import scenariomodels as c_scenario
from ..contracts import unitmodels as c_units
from .chartmodels import Charts
from .deckmodels import DeckData
from .eventmodels import EventsData
from .gamemodels import GameInfo
from .mapmodels import MapData
from .marks import ShapeError, ShapeProblem
from .scenariomodels import Scenario
from .unitmodels import UnitsData

# The model of each file (its fast twin, as the loader names it) -> its contract.
CONTRACTS: dict[type, type[BaseModel]] = {
    GameInfo: c_game.GameInfo, MapData: c_map.MapData, UnitsData: c_units.UnitsData,
    DeckData: c_deck.DeckData, Charts: c_charts.Charts, EventsData: c_events.EventsData,
    Scenario: c_scenario.Scenario,
}

# What a value of the wrong kind should have been, by pydantic's error type.
KINDS = {
    "int_type": "a whole number", "int_from_float": "a whole number",
    "float_type": "a number", "string_type": "text", "bool_type": "true or false",
    "list_type": "a list", "tuple_type": "a list", "set_type": "a list",
    "dict_type": "a mapping", "model_type": "a mapping", "model_attributes_type": "a mapping",
    "none_required": "nothing",
}
BOUNDS = {"greater_than_equal": ("ge", "at least"), "less_than_equal": ("le", "at most"),
          "greater_than": ("gt", "more than"), "less_than": ("lt", "less than")}
# The text patterns of the contracts, in words (a test checks that each has its words).
PATTERNS = {
    r"^[a-z][a-z0-9_]{0,31}$": "a name of lower-case letters, digits and _, starting with "
                               "a letter (at most 32 characters)",
    r"^F[1-6]$": "a firepower from F1 to F6",
    r"^[A-Z]{1,3}$": "one to three capital letters",
    r"^#[0-9a-fA-F]{6}$": "a colour written #rrggbb",
    r"^[A-Za-z][A-Za-z' -]{0,39}$": "a few words of letters, spaces, ' and - (at most "
                                    "40 characters)",
}


def problems_of(model: type, raw: Any, label: str) -> list[ShapeProblem]:
    """Every error of raw data against the contract of a file's model, in the order of the
    file, each a ShapeProblem of the file named label."""
    try:
        CONTRACTS[model].model_validate_json(json.dumps(raw))
    except ValidationError as exc:
        errors = _merge_unions([_located(e, raw) for e in exc.errors(include_url=False)])
        errors.sort(key=lambda f: _order(f.error.path, raw))
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
    return _Found(ShapeError(tuple(path), _words(e), at_key), union, e["type"], e.get("input"))


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


def _order(path: tuple, raw: Any) -> list[int]:
    """Where in the file a path is, as the positions of its keys and indexes (a missing key
    after its mapping's keys), to list a file's errors from its top down."""
    out = []
    node = raw
    for step in path:
        if isinstance(node, dict):
            keys = list(node)
            out.append(keys.index(step) if step in node else len(keys))
            node = node.get(step)
        elif isinstance(node, list) and isinstance(step, int):
            out.append(step)
            node = node[step] if 0 <= step < len(node) else None
        else:
            out.append(0)
    return out


# ---------------------------------------------------------------- in words

def _words(e: dict) -> str:
    """A pydantic error in the words of someone editing the YAML, naming the value given."""
    kind, ctx, value = e["type"], e.get("ctx") or {}, e.get("input")
    got = f", got {describe(value)}"
    key = "key " if e["loc"][-1:] == ("[key]",) else ""
    if kind == "extra_forbidden":
        return f"unknown key {quoted(str(e['loc'][-1]))}"
    if kind == "missing":
        return f"missing key {quoted(str(e['loc'][-1]))}"
    if kind in KINDS:
        return f"{key}must be {KINDS[kind]}{got}"
    if kind in BOUNDS:
        name, words = BOUNDS[kind]
        return f"{key}must be {words} {_number(ctx.get(name))}{got}"
    if kind == "literal_error":
        head, _, last = str(ctx.get("expected", "")).rpartition(" or ")
        choices = f"one of {head}, {last}" if head else last
        return f"{key}must be {choices}{got}"
    if kind == "string_pattern_mismatch":
        pattern = str(ctx.get("pattern", ""))
        return f"{key}must be {PATTERNS.get(pattern, f'text matching {pattern}')}{got}"
    if kind in ("too_short", "too_long", "string_too_short", "string_too_long"):
        return _length(kind, ctx, key)
    if kind == "finite_number":
        return f"{key}must be a finite number{got}"
    text = str(e.get("msg", "")).replace("Input should be", "must be").replace("Input", "value")
    return f"{key}{text[:1].lower()}{text[1:]}{got}"


def _length(kind: str, ctx: dict, key: str) -> str:
    """A length out of bounds: of a list, or of text."""
    most = kind.endswith("long")
    bound = ctx.get("max_length" if most else "min_length")
    unit = "characters" if kind.startswith("string") else "items"
    got = f", got {ctx['actual_length']}" if "actual_length" in ctx else ""
    return f"{key}must have {'at most' if most else 'at least'} {bound} {unit}{got}"


def _number(value: Any) -> str:
    """A bound as it is written in the data: 90, not 90.0."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def describe(value: Any) -> str:
    """A value given, as the YAML wrote it: 'three', 9, true, nothing, a mapping, a list."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "nothing"
    if isinstance(value, str):
        return quoted(value)
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, (list, tuple)):
        return "a list"
    return str(value)
