"""Helpers for the msgspec Structs that model orders, events, journal records and game data.

Structs are defined in C: a class costs microseconds to create and a list of
them is validated from JSON data in one call, so reading a journal does not
pay for building models (the reason the project uses msgspec for them).
"""

from __future__ import annotations

from typing import Any

import msgspec

_FIELDS: dict[type, tuple[str | None, Any, tuple[tuple[str, str], ...]]] = {}


def _layout(cls: type) -> tuple[str | None, Any, tuple[tuple[str, str], ...]]:
    layout = _FIELDS.get(cls)
    if layout is None:
        cfg = cls.__struct_config__
        layout = (cfg.tag_field, cfg.tag,
                  tuple(zip(cls.__struct_fields__, cls.__struct_encode_fields__)))
        _FIELDS[cls] = layout
    return layout


def plain(obj: Any) -> Any:
    """obj as JSON-ready builtins; a Struct's fields that are None are left out.

    Plain dicts and lists keep their None values; tuples become lists. This
    is the form events and orders are written in.
    """
    if isinstance(obj, msgspec.Struct):
        tag_field, tag, fields = _layout(type(obj))
        out: dict[str, Any] = {tag_field: tag} if tag_field else {}
        for name, encoded in fields:
            value = getattr(obj, name)
            if value is not None:
                out[encoded] = plain(value)
        return out
    if isinstance(obj, (list, tuple)):
        return [plain(v) for v in obj]
    if isinstance(obj, dict):
        return {k: plain(v) for k, v in obj.items()}
    return obj
