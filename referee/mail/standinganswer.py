"""Why the orders of a mail after a hand-off were not applied, when the hand-off was his own
standing order's: a mail's standing orders are in force at once (docs/player.md, Standing
orders), so one it gives may answer the decision its next order line was written for; the
reply names the standing order (and its line, when the mail gave it), not only that the
decision passed to the other side after the line before."""

from __future__ import annotations

from ..base.errors import OrderError, quoted
from ..engine.standing import parse_standing
from ..game.decisionwords import decision_words
from ..render.documents import reader_words
from .refusal import NAMED_LENGTH, named


def own_answer(record: dict, side: str) -> tuple[str, str] | None:
    """(decision kind, standing order) of side's own standing order that answered the
    first decision the record came to after its order, when no decision of the other side
    came before it (his answers are his secret: a mail is told nothing of them); else None."""
    for ev in record.get("events", []):
        if ev.get("type") == "DecisionPending" and ev.get("side") != side:
            return None
        if ev.get("type") == "StandingApplied":
            return (ev["kind"], ev["standing"]) if ev.get("side") == side else None
    return None


def given_at(standing: str, lines: list[tuple[int, str]], data, turn: int) -> int | None:
    """The line of a mail's 'standing:' lines that gave the standing order, or None."""
    for n, text in lines:
        try:
            if parse_standing(text, data, turn)["text"] == standing:
                return n
        except OrderError:
            continue
    return None


def answered_note(lines: list[tuple[int, str]], at: int, to: str, answer: tuple[str, str],
                  line: int | None) -> str:
    """What the order lines from index at on were not applied for: the line before them was
    applied, the decision it came to was answered by the sender's standing order (answer:
    its kind and phrase; line: where the mail gave it), and then the decision passed to to."""
    n, text = lines[at - 1]
    kind, standing = answer
    given = f" (line {line})" if line is not None else ""
    return (f"not applied: {named(lines[at:])}: after line {n} ({quoted(text, NAMED_LENGTH)}) "
            f"the next decision, {decision_words(kind)}, was answered by your standing "
            f"order {quoted(standing)}{given}, in force at once, and then the decision "
            f"passed to {reader_words(to)}; send them again when you are asked")
