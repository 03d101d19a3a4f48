"""Orders of a skirmish checked without a die rolled: where a mail's orders stopped, found
again on the journal (stopped_at)."""

from __future__ import annotations

from ...base.errors import OrderError
from . import decider as sk
from .life import body_of, replay


def stopped_at(records: list[dict], side: str, texts: list[str], seqs: list[int]
               ) -> tuple[int, OrderError] | None:
    """Where submit_many stopped a side's orders that made records seqs (the first lines of
    texts) and why, found again on the journal as those records left it: what the answer
    to a mail applied before a stopped run must say of its refused line (mail/direct.py).
    None when every line made a record, or the line would be taken now. A line is refused
    before it rolls a die (its check comes first), so no die of it is rolled here."""
    at = len(seqs)
    if not seqs or at >= len(texts) or seqs[-1] >= len(records):
        return None
    upto = records[:seqs[-1] + 1]
    card, state = replay(upto)
    try:
        body_of(card, state, upto, sk.parse_order(texts[at], card), side, NoDice())
    except OrderError as exc:
        return at, exc
    except Rolled:
        pass
    return None


class Rolled(Exception):
    """An order checked here would roll a die: its check let it through (args: what the
    die is for)."""


class NoDice:
    """Dice that roll nothing: the first die asked for stops the order (Rolled)."""

    def roll(self, sides: int, count: int, purpose: str) -> list[int]:
        raise Rolled(purpose)
