"""What `explain` adds for the record of a sealed plan (7.0, 2.0 I, 2.0 V.3): the prompt its
side was asked it under, his plan so far counted, and why a 'done' that left arrivals
unplaced was taken."""

from __future__ import annotations

from typing import Any

from ..base.readers import MODERATOR
from ..engine import pending_prompt, sealed_for
from ..engine.reinforce import arrival_words


def own_prompt(state, data, rec: dict, reader: str, shown: str) -> str | None:
    """The prompt the record's side was asked the plan under (his plan so far counted, what
    the last of his orders answered), when reader may see it and it is not the one shown to
    everybody; else None."""
    side = rec["actor"]
    if reader not in (side, MODERATOR) or not sealed_for(state, side):
        return None
    mine = pending_prompt(state, data, side)
    return None if mine == shown else mine


def done_check(state, rec: dict, lines: list[str]) -> list[str]:
    """Why the plan's 'done' was taken with arrivals left (2.0 I: they are placed while a legal
    place exists): none of them had one as the board stood; empty when it left none."""
    if not lines or lines[-1].strip().lower() != "done" or state.pending is None or \
            state.pending.kind != "reinforce":
        return []
    left = [ev["unit"] for ev in rec.get("events", [])
            if ev.get("type") == "ReinforcementLost" and ev.get("side") == rec["actor"]]
    if not left:
        return []
    return [f"'done' was taken with {arrival_words(left)} not placed: no area could take "
            f"{'it' if len(left) == 1 else 'them'} as the board stood, so the plan could end "
            f"(2.0 I: arrivals are placed while a legal place exists)"]


def decision_with_own(decision: dict[str, Any] | None, state, data, rec: dict,
                      reader: str) -> dict[str, Any] | None:
    """The decision as explain shows it, with `own_prompt` (None where own_prompt gives
    none)."""
    if decision is None:
        return None
    return {**decision, "own_prompt": own_prompt(state, data, rec, reader, decision["prompt"])}
