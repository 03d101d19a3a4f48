"""Whether the side an armistice proposal is made to has had a decision to make, or given an
order, since it was made (3.2, 2.0 VI).

A proposal lapses at a season's end only once he has: one sent with the order that ends the
season, the other side asked nothing after it, stands to the end of the next season, so that
it is never gone before he could answer it. Read from the events as they are applied: a
decision pending names him, sealed plans open with his among them (PlansOpened's sides; 7.0's
production plans are every side's), a card of his played out of turn (a Military Crisis!,
9.8, 9.9); or the proposal itself, made while he is already answering a decision (the
pending one, or a sealed plan of his still open).
"""

from __future__ import annotations

from ..contracts.events_production import ProductionBegan
from ..contracts.events_turn import ArmisticeProposed, CardPlayed, DecisionPending, PlansOpened
from ..data.gamedata import GameData
from .state import State, other

# The events after which the other side may have been asked, or have answered.
AFTER = (ArmisticeProposed, DecisionPending, PlansOpened, ProductionBegan, CardPlayed)
HEARD_AFTER = frozenset(cls.__struct_config__.tag for cls in AFTER)     # by `type`, as evolve


def note_heard(s: State, e, d: GameData) -> None:
    """Mark the open proposal heard once its other side is asked, or has played a card."""
    proposer = s.armistice
    if proposer is None or s.armistice_heard:
        return
    s.armistice_heard = other(proposer, d) in _asked(s, e, d)


def _asked(s: State, e, d: GameData):
    """The sides event e asks, or shows answering: for the proposal, those answering now."""
    if isinstance(e, (DecisionPending, CardPlayed)):
        return (e.side,)
    if isinstance(e, PlansOpened):
        return e.sides
    if isinstance(e, ProductionBegan):
        return d.sides
    if s.pending is None:
        return ()
    plans = [b for b in (s.sealed, s.production) if b and "plans" in b]
    return (s.pending.side, *(x for b in plans for x in b["plans"] if x not in b["done"]))
