"""A skirmish's challenge window (the card's Disputes): a fact a side declared may be
disputed by the other side until he has made as many records of his own after its test
as record 0's challenge_window counts (player.md, A skirmish)."""

from __future__ import annotations


def own_since(records: list[dict], seq: int, side: str) -> int:
    """How many of side's own records follow record seq: the window is counted in the
    disputing side's records, so that the declaring side's run of orders (one mail of
    several `done`s) cannot close it before its opponent has acted."""
    return sum(1 for r in records if r["seq"] > seq and r.get("actor") == side)


def closed_fact(disputes: list[dict], record: int, fact: str) -> str | None:
    """Why a fact of record's test may not be disputed now (None: it may): disputed
    already, for the moderator to settle, or settled, his ruling standing."""
    for d in disputes:
        if (d["record"], d["fact"]) != (record, fact):
            continue
        if "ruling" not in d:
            return f"record {record}'s {fact} is disputed already; the moderator settles it"
        return (f"record {record}'s {fact} is settled: the moderator has ruled on its "
                f"dispute, and a fact is disputed once")
    return None
