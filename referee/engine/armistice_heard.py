"""Whether the side an armistice proposal is made to has had a decision to make, or given an
order, since it was made (3.2, 2.0 VI).

A proposal lapses at a season's end only once he has: one sent with the order that ends the
season, the other side asked nothing after it, stands to the end of the next season, so that
it is never gone before he could answer it. Worked out as events are applied, after each
that asks a side (a decision pending, which names him or opens a sealed plan he is still to
give) or carries an order of his given out of turn (a Military Crisis! played, 9.8, 9.9), and
after the proposal itself, made while he may already be answering a decision.
"""

from __future__ import annotations

from ..contracts.events_turn import ArmisticeProposed, CardPlayed, DecisionPending
from ..data.gamedata import GameData
from .core import acting
from .state import State, other

# The events after which the other side may have been asked, or have answered.
AFTER = (ArmisticeProposed, DecisionPending, CardPlayed)


def note_heard(s: State, e, d: GameData) -> None:
    """Mark the open proposal heard once its other side is asked, or has played a card."""
    proposer = s.armistice
    if proposer is None or s.armistice_heard:
        return
    to = other(proposer, d)
    s.armistice_heard = acting(s, to) or (isinstance(e, CardPlayed) and e.side == to)
