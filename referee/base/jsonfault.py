"""What is wrong with bytes that should be one JSON value, in the referee's own words.

A JSON reader's wording changes with its releases; the referee says the kind of fault
and the column itself, taking only the place from the standard library's reader.
"""

from __future__ import annotations

import json


class _Constant(ValueError):
    """NaN, Infinity or -Infinity: Python's reader takes them, JSON has no such number."""


def _no_constant(name: str) -> float:
    raise _Constant(name)


def json_fault(data: bytes | str) -> str:
    """Why data is not one JSON value the referee can keep, with the column where it stops."""
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError as exc:
        return f"not UTF-8 text (byte {exc.start + 1} of the line)"
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except _Constant as exc:
        return f"not valid JSON text: {exc} is no JSON number"
    except RecursionError:
        return "not valid JSON text: nested too deep to be a record"
    except json.JSONDecodeError as exc:
        return f"not valid JSON text at column {exc.colno}"
    except ValueError:
        return "not valid JSON text"
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeError:
        return "a text in it is not Unicode (a lone surrogate)"
    except RecursionError:
        pass
    return "not valid JSON text: nested too deep to be a record"
