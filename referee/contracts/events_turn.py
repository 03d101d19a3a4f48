"""Events of the sequence of play, the cards, sealed plans and the game's end (2.0, 1.3, 3.2)."""

from typing import Any, Literal

from pydantic import Field

from .events_base import Ev, Secret

# ---------------------------------------------------------------- sequence of play

class PhaseBegan(Ev):
    """A phase of the seasonal turn began (2.0 I, V)."""

    type: Literal["PhaseBegan"]
    phase: str
    turn: int


class PlayerTurnBegan(Ev):
    """A player turn began (2.0 II, III)."""

    type: Literal["PlayerTurnBegan"]
    side: str


class Passed(Ev):
    """The player played no Offensive card: he passes (2.0 II.1)."""

    type: Literal["Passed"]
    side: str


class PlayerTurnEnded(Ev):
    """A player turn ended; counts_as_pass feeds the end of the turn (2.0 IV, 9.5)."""

    type: Literal["PlayerTurnEnded"]
    side: str
    counts_as_pass: bool


class SeasonAdvanced(Ev):
    """The season marker moved on (2.0 VI)."""

    type: Literal["SeasonAdvanced"]
    turn: int
    label: str


class DecisionPending(Ev):
    """The referee now waits on one side for one kind of decision."""

    type: Literal["DecisionPending"]
    kind: str
    side: str
    info: dict[str, Any] = {}


class DecisionSkipped(Ev):
    """The referee did not ask a side for a decision whose answer cannot matter, judged on
    public facts only (hand sizes, the date, the position); it took the only answer."""

    type: Literal["DecisionSkipped"]
    kind: str
    side: str
    reason: str


class StandingApplied(Ev):
    """The referee answered a side's pending decision with one of his standing orders; the
    answer's own events follow (engine/standing.py)."""

    type: Literal["StandingApplied"]
    side: str
    kind: str
    standing: str
    turn: int | None = None


class GameEnded(Ev):
    """The game is over (2.0 VI, 3.0-3.3)."""

    type: Literal["GameEnded"]
    reason: str
    vp: int | None = None
    level: str | None = None
    level_name: str | None = None


# ---------------------------------------------------------------- cards

class DeckShuffled(Ev):
    """Draw and discard piles shuffled into a new draw pile (1.3)."""

    type: Literal["DeckShuffled"]
    reason: str
    count: int
    draws: int
    secret: Secret


class CardsStacked(Ev):
    """Named cards put on top of the draw pile, in order (what-if scenario set-up)."""

    type: Literal["CardsStacked"]
    count: int
    secret: Secret


class CardsDrawn(Ev):
    """A side drew cards face down from the draw pile (1.3, 2.0 II.1, 7.1)."""

    type: Literal["CardsDrawn"]
    side: str
    count: int
    reason: str
    locked: bool = False
    secret: Secret


class CardPlayed(Ev):
    """A card was played face up; `as_` says what it counts as (9.x)."""

    type: Literal["CardPlayed"]
    side: str
    card: str
    key: str
    as_: str = Field(alias="as")


class CardsDiscarded(Ev):
    """Cards went face up onto the discard pile (2.0 II.1, 2.0 V.3)."""

    type: Literal["CardsDiscarded"]
    side: str
    cards: list[str]
    reason: str


class CardRemoved(Ev):
    """A card left play for good (9.8, 9.9 notes)."""

    type: Literal["CardRemoved"]
    card: str
    reason: str


# ---------------------------------------------------------------- sealed plans

class PlansOpened(Ev):
    """Both sides answer a decision at once, each in a plan sealed until both are done
    (2.0 I reinforcements, 2.0 V.3 excess cards; 7.0 production keeps its own events)."""

    type: Literal["PlansOpened"]
    kind: str
    sides: list[str]


class PlanSealed(Ev):
    """Orders added to a side's sealed plan; only that side may read them until the plans
    are revealed."""

    type: Literal["PlanSealed"]
    side: str
    kind: str
    secret: Secret


class PlanClosed(Ev):
    """A side's sealed plan is complete."""

    type: Literal["PlanClosed"]
    side: str
    kind: str


class PlanRevealed(Ev):
    """Every sealed plan is in: each side's orders, now public, are applied, German first.

    With hidden army templates (1.4) orders on army templates are left out of
    `orders` (`hidden` counts them); the whole plan is in `secret`.
    """

    type: Literal["PlanRevealed"]
    side: str
    kind: str
    orders: list[str]
    hidden: int | None = None
    secret: Secret | None = None


# ---------------------------------------------------------------- armistice

class ArmisticeProposed(Ev):
    """A side proposes an armistice (3.2)."""

    type: Literal["ArmisticeProposed"]
    side: str


class ArmisticeRefused(Ev):
    """The other side refuses the armistice; play goes on (3.2)."""

    type: Literal["ArmisticeRefused"]
    side: str


class SecretRevealed(Ev):
    """The dice secret was published so that anyone can check every die (dice.py)."""

    type: Literal["SecretRevealed"]
    secret: str


class RulesUpgraded(Ev):
    """The moderator moved the game to newer rules and game data: the records after this one
    are decided under them (engine/versions.py)."""

    type: Literal["RulesUpgraded"]
    rules: int
    data_digest: str
    from_rules: int
    from_data_digest: str
