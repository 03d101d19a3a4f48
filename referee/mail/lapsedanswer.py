"""An armistice answered in a reply to an older mail (3.2), once the proposal it answers
has lapsed (2.0 VI) or been withdrawn: the reply is stale and not applied, as any is, and
it says too that the proposal is gone and when, in the words the latest mail's answer would
give, so that the player does not answer it again to learn that."""

from __future__ import annotations

from ..base.errors import OrderError, cited, quoted
from ..engine.armistice import armistice_violation
from ..engine.reading import parse_order
from ..table import Table

ANSWERS = ("accept", "refuse")


def lapsed_answer(table: Table, side: str, lines: list[tuple[int, str]]) -> str | None:
    """The note for a stale mail's first line that accepts or refuses an armistice when no
    proposal of the other side's is open now, or None."""
    game = table.game()
    state, data = game.state, game.data
    if state.armistice not in (None, side):
        return None
    for n, text in lines:
        try:
            order = parse_order(text, data)
        except OrderError:
            continue
        if getattr(order, "kind", None) != "armistice" or order.act not in ANSWERS:
            continue
        v = armistice_violation(state, data, order, side)
        if v is not None:
            return (f"Line {n} ({quoted(text)}) would not be applied to the latest mail "
                    f"either: {cited(v.reason, v.rule)}.")
    return None
