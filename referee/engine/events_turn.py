"""Events of the sequence of play, the cards, sealed plans and the game's end (2.0, 1.3, 3.2).

The fast msgspec twin of referee/contracts/events_turn.py."""

# Generated from referee/contracts/events_turn.py (make schemas): edit that, not this.
# ruff: noqa: E501

from typing import Any

import msgspec

from .events_base import Ev, Secret

__all__ = [
    'PhaseBegan',
    'PlayerTurnBegan',
    'Passed',
    'PlayerTurnEnded',
    'SeasonAdvanced',
    'DecisionPending',
    'DecisionSkipped',
    'StandingApplied',
    'GameEnded',
    'DeckShuffled',
    'CardsStacked',
    'CardsDrawn',
    'CardPlayed',
    'CardsDiscarded',
    'CardRemoved',
    'PlansOpened',
    'PlanSealed',
    'PlanClosed',
    'PlanRevealed',
    'ArmisticeProposed',
    'ArmisticeRefused',
    'SecretRevealed',
    'RulesUpgraded',
]


class PhaseBegan(Ev, tag='PhaseBegan', forbid_unknown_fields=True, kw_only=True):
    """A phase of the seasonal turn began (2.0 I, V)."""

    phase: str
    turn: int


class PlayerTurnBegan(Ev, tag='PlayerTurnBegan', forbid_unknown_fields=True, kw_only=True):
    """A player turn began (2.0 II, III)."""

    side: str


class Passed(Ev, tag='Passed', forbid_unknown_fields=True, kw_only=True):
    """The player played no Offensive card: he passes (2.0 II.1)."""

    side: str


class PlayerTurnEnded(Ev, tag='PlayerTurnEnded', forbid_unknown_fields=True, kw_only=True):
    """A player turn ended; counts_as_pass feeds the end of the turn (2.0 IV, 9.5)."""

    side: str
    counts_as_pass: bool


class SeasonAdvanced(Ev, tag='SeasonAdvanced', forbid_unknown_fields=True, kw_only=True):
    """The season marker moved on (2.0 VI)."""

    turn: int
    label: str


class DecisionPending(Ev, tag='DecisionPending', forbid_unknown_fields=True, kw_only=True):
    """The referee now waits on one side for one kind of decision."""

    kind: str
    side: str
    info: dict[str, Any] = {}


class DecisionSkipped(Ev, tag='DecisionSkipped', forbid_unknown_fields=True, kw_only=True):
    """The referee did not ask a side for a decision whose answer cannot matter, judged on
    public facts only (hand sizes, the date, the position); it took the only answer.
    """

    kind: str
    side: str
    reason: str


class StandingApplied(Ev, tag='StandingApplied', forbid_unknown_fields=True, kw_only=True):
    """The referee answered a side's pending decision with one of his standing orders; the
    answer's own events follow (engine/standing.py).
    """

    side: str
    kind: str
    standing: str
    turn: int | None = None


class GameEnded(Ev, tag='GameEnded', forbid_unknown_fields=True, kw_only=True):
    """The game is over (2.0 VI, 3.0-3.3)."""

    reason: str
    vp: int | None = None
    level: str | None = None
    level_name: str | None = None


class DeckShuffled(Ev, tag='DeckShuffled', forbid_unknown_fields=True, kw_only=True):
    """Draw and discard piles shuffled into a new draw pile (1.3)."""

    reason: str
    count: int
    draws: int
    secret: Secret


class CardsStacked(Ev, tag='CardsStacked', forbid_unknown_fields=True, kw_only=True):
    """Named cards put on top of the draw pile, in order (what-if scenario set-up)."""

    count: int
    secret: Secret


class CardsDrawn(Ev, tag='CardsDrawn', forbid_unknown_fields=True, kw_only=True):
    """A side drew cards face down from the draw pile (1.3, 2.0 II.1, 7.1)."""

    side: str
    count: int
    reason: str
    locked: bool = False
    secret: Secret


class CardPlayed(Ev, tag='CardPlayed', forbid_unknown_fields=True, kw_only=True):
    """A card was played face up; `as_` says what it counts as (9.x)."""

    side: str
    card: str
    key: str
    as_: str = msgspec.field(name='as')


class CardsDiscarded(Ev, tag='CardsDiscarded', forbid_unknown_fields=True, kw_only=True):
    """Cards went face up onto the discard pile (2.0 II.1, 2.0 V.3)."""

    side: str
    cards: list[str]
    reason: str


class CardRemoved(Ev, tag='CardRemoved', forbid_unknown_fields=True, kw_only=True):
    """A card left play for good (9.8, 9.9 notes)."""

    card: str
    reason: str


class PlansOpened(Ev, tag='PlansOpened', forbid_unknown_fields=True, kw_only=True):
    """Both sides answer a decision at once, each in a plan sealed until both are done
    (2.0 I reinforcements, 2.0 V.3 excess cards; 7.0 production keeps its own events).
    """

    kind: str
    sides: list[str]


class PlanSealed(Ev, tag='PlanSealed', forbid_unknown_fields=True, kw_only=True):
    """Orders added to a side's sealed plan; only that side may read them until the plans
    are revealed.
    """

    side: str
    kind: str
    secret: Secret


class PlanClosed(Ev, tag='PlanClosed', forbid_unknown_fields=True, kw_only=True):
    """A side's sealed plan is complete."""

    side: str
    kind: str


class PlanRevealed(Ev, tag='PlanRevealed', forbid_unknown_fields=True, kw_only=True):
    """Every sealed plan is in: each side's orders, now public, are applied, German first.

    With hidden army templates (1.4) orders on army templates are left out of
    `orders` (`hidden` counts them); the whole plan is in `secret`.
    """

    side: str
    kind: str
    orders: list[str]
    hidden: int | None = None
    secret: Secret | None = None


class ArmisticeProposed(Ev, tag='ArmisticeProposed', forbid_unknown_fields=True, kw_only=True):
    """A side proposes an armistice (3.2)."""

    side: str


class ArmisticeRefused(Ev, tag='ArmisticeRefused', forbid_unknown_fields=True, kw_only=True):
    """The other side refuses the armistice; play goes on (3.2)."""

    side: str


class SecretRevealed(Ev, tag='SecretRevealed', forbid_unknown_fields=True, kw_only=True):
    """The dice secret was published so that anyone can check every die (dice.py)."""

    secret: str


class RulesUpgraded(Ev, tag='RulesUpgraded', forbid_unknown_fields=True, kw_only=True):
    """The moderator moved the game to newer rules and game data: the records after this one
    are decided under them (engine/versions.py).
    """

    rules: int
    data_digest: str
    from_rules: int
    from_data_digest: str
