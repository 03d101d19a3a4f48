"""Validation by the contracts where a process must stay quick: records appended and audited,
orders read.

pydantic-core (pydantic's validation engine) validates by the schema
validation.py derives from the contract classes; the schema is built on first
use, in a few milliseconds, and kept for the process. Only the verdict is
wanted here, so the validator makes no objects.
"""

from __future__ import annotations

from typing import Any

from .validation import engine, validator
from .words import words


def _quick(name: str) -> Any:
    """The contract a quick path checks, by its schema name (as in schemas.SCHEMAS)."""
    if name == "orders":
        from .orders import Order  # start-up: only the reader of JSON orders needs it

        return Order
    from .records import JournalHeader, JournalRecord  # start-up: only checks need them

    return {"journal-header": JournalHeader, "journal-record": JournalRecord}[name]


def problems(name: str, data: bytes, json_errors: bool = True) -> list[tuple[tuple, str]]:
    """Every way the JSON document `data` breaks the contract `name`: (where, what in plain
    words). With json_errors false, bytes that are not JSON at all are left to the caller
    (verify: the chain check says a torn line is torn, and how to mend it)."""
    try:
        validator(_quick(name), objects=False).validate_json(data)
    except engine().ValidationError as exc:
        return [(tuple(e["loc"]), words(e)) for e in exc.errors(include_url=False)
                if json_errors or e["type"] != "json_invalid"]
    return []


def where(loc: tuple) -> str:
    """A location as a JSON path: $.events[0].UnitMoved.unit."""
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc)
