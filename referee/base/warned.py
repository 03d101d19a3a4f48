"""Warnings: a `referee: warning: ` line on stderr, or, for a command run with `--format
json`, a line of the `warnings` list the JSON it prints carries.

A script reads stderr, with `--format json`, as one JSON object: a warning printed there as
a text line (a journal other users can read, before an order refused) broke it. So while
a command runs with `--format json` (commands.guard gathers them), each warning is kept
instead, and every document the command prints carries them all so far, its result on
stdout and its error object on stderr alike; what no document carried (a command whose
output is no document: `log`'s JSONL) is one JSON object on stderr at the end, holding
`warnings` alone. Text output is as it was: each warning its line, when it is met.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

# The warnings of each command run gathering them (the innermost last), and how many of
# them a document printed carried.
_GATHERED: list[dict[str, object]] = []


def warn(line: str) -> None:
    """Tell a warning (its words, without `referee: warning: `): its line on stderr, or,
    under --format json, kept for the JSON the command prints (each once)."""
    if _GATHERED:
        kept = _GATHERED[-1]["lines"]
        if line not in kept:
            kept.append(line)
        return
    sys.stderr.write(f"referee: warning: {line}\n")


@contextmanager
def gathered(on: bool) -> Iterator[None]:
    """While a command runs: with on (--format json), its warnings kept for its JSON."""
    if not on:
        yield
        return
    _GATHERED.append({"lines": [], "carried": 0})
    try:
        yield
    finally:
        _GATHERED.pop()


def carried(doc: dict[str, object]) -> dict[str, object]:
    """The document with the warnings so far as its `warnings` (none: as it is)."""
    if not _GATHERED or not _GATHERED[-1]["lines"]:
        return doc
    state = _GATHERED[-1]
    state["carried"] = len(state["lines"])
    return {**doc, "warnings": list(state["lines"])}


def left() -> list[str]:
    """The warnings no document carried yet."""
    if not _GATHERED:
        return []
    state = _GATHERED[-1]
    return state["lines"][state["carried"]:]
