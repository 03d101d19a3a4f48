"""A dry run at the order that closes a sealed plan (7.0, 2.0 I, 2.0 V.3): checked as the
real run checks it, and stopped only where its result rests on the other side's plan."""

from __future__ import annotations

from ..base.errors import OrderError, quoted
from ..engine import decide_plan, plan_label, sealed_sides
from .drydice import DryDice, DryStop


def others_planned(state, side: str) -> list[str]:
    """The other sides asked for a sealed plan now: the ones whose plans closing this side's
    reveals (none: closing it reveals nothing this side cannot know)."""
    return [s for s in sealed_sides(state) if s != side]


def dry_close(batch, i: int, run: int, step: int, moot: str | None) -> tuple[int, int, str | None]:
    """plan_at for a dry run whose orders from i close the side's sealed plan.

    With no other side's plan to reveal, the plan is decided as the real run decides it (the
    dry run goes on past it). Else each of its orders is first checked against the plan so
    far, as the real run checks them (a refusal is told as the real run tells it); then the
    orders before the closing one are decided, and the dry run stops at that one, legal,
    since its result waits on the other side's sealed plan."""
    q, state = batch.q, batch.state
    if not run or not others_planned(state, q.side):
        return run, step, moot
    probe = DryDice(batch.header["game_id"], batch.seq + 1)
    try:
        decide_plan(state, batch.data, list(zip(q.texts[i:i + step], batch.parsed[i:i + step])),
                    q.side, probe)
    except DryStop:
        pass                # every order was checked; the reveal would roll
    except OrderError as exc:
        batch.reject(i, run, exc)
    if step > 1:
        return step - 1, step - 1, None      # the plan's orders before the closing one
    batch.stop(f"order {i + 1} ({quoted(q.texts[i])}) is legal and closes "
               f"{plan_label(state)}: its result waits on the other side's sealed plan; the "
               f"dry run stops there", "plans", i + 1)
    raise AssertionError("stop raises")
