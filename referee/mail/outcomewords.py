"""How a line of `inbox` or of a pass of `tick` words what a message did."""

from __future__ import annotations


def outcome_words(records: list[int], reason: str) -> str:
    """'record 7' or 'records 7, 8' applied, else why not."""
    if not records:
        return reason
    return f"record{'s' * (len(records) > 1)} {', '.join(map(str, records))}"
