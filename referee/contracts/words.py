"""Validation errors in plain words: what a person editing a file or reading `verify` needs.

Free of pydantic: it reads the error dictionaries pydantic and pydantic-core give.
"""

from __future__ import annotations

from typing import Any

from ..base.errors import quoted
from ..base.jsonfault import json_fault
from .names import portable_pattern

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
    r"^[a-z][a-z0-9_]{0,31}\Z": "a name of lower-case letters, digits and _, starting with "
                                "a letter (at most 32 characters)",
    r"^F[1-6]\Z": "a firepower from F1 to F6",
    r"^[A-Z]{1,3}\Z": "one to three capital letters",
    r"^[A-Z][A-Za-z-]{0,3}\Z": "one to four letters or -, the first a capital",
    r"^#[0-9a-fA-F]{6}\Z": "a colour written #rrggbb",
    r"^[A-Za-z][A-Za-z' -]{0,39}\Z": "a few words of letters, spaces, ' and - (at most "
                                     "40 characters)",
    r"^[a-z][a-z0-9_-]{0,31}\Z": "a name of lower-case letters, digits, _ and -, starting "
                                 "with a letter (at most 32 characters)",
    r"^[A-Za-z0-9:][A-Za-z0-9.:-]{0,252}\Z": "a host name or address",
}


def words(e: dict) -> str:
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
        shown = PATTERNS.get(pattern, f"text matching {portable_pattern(pattern)}")
        return f"{key}must be {shown}{got}"
    if kind in ("too_short", "too_long", "string_too_short", "string_too_long"):
        return _length(kind, ctx, key)
    if kind == "union_tag_invalid":
        field = str(ctx.get("discriminator", "")).strip("'")
        tag = quoted(str(ctx.get("tag", "")))
        return f"unknown {field} {tag}; one of {ctx.get('expected_tags')}"
    if kind == "union_tag_not_found":
        return f"missing key {quoted(str(ctx.get('discriminator', '')).strip(chr(39)))}"
    if kind == "json_invalid":
        return json_fault(value) if isinstance(value, (str, bytes)) else "not valid JSON text"
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
