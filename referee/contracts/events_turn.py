"""Events of the sequence of play, the cards, sealed plans and the game's end (2.0, 1.3, 3.2)."""

from typing import Any

from msgspec import field

from .events_base import Ev, Secret

# ---------------------------------------------------------------- sequence of play

class PhaseBegan(Ev):
    """A phase of the seasonal turn began (2.0 I, V)."""

    phase: str
    turn: int


class PlayerTurnBegan(Ev):
    """A player turn began (2.0 II, III)."""

    side: str


class Passed(Ev):
    """The player played no Offensive card: he passes (2.0 II.1)."""

    side: str


class PlayerTurnEnded(Ev):
    """A player turn ended; counts_as_pass feeds the end of the turn (2.0 IV, 9.5)."""

    side: str
    counts_as_pass: bool


class SeasonAdvanced(Ev):
    """The season marker moved on (2.0 VI)."""

    turn: int
    label: str


class DecisionPending(Ev):
    """The referee now waits on one side for one kind of decision."""

    kind: str
    side: str
    info: dict[str, Any] = {}


class DecisionSkipped(Ev):
    """The referee did not ask a side for a decision whose answer cannot matter, judged on
    public facts only (hand sizes, the date, the position); it took the only answer."""

    kind: str
    side: str
    reason: str


class StandingApplied(Ev):
    """The referee answered a side's pending decision with one of his standing orders; the
    answer's own events follow (engine/standing.py)."""

    side: str
    kind: str
    standing: str
    turn: int | None = None


class GameEnded(Ev):
    """The game is over (2.0 VI, 3.0-3.3)."""

    reason: str
    vp: int | None = None
    level: str | None = None
    level_name: str | None = None


# ---------------------------------------------------------------- cards

class DeckShuffled(Ev):
    """Draw and discard piles shuffled into a new draw pile (1.3)."""

    reason: str
    count: int
    draws: int
    secret: Secret


class CardsStacked(Ev):
    """Named cards put on top of the draw pile, in order (what-if scenario set-up)."""

    count: int
    secret: Secret


class CardsDrawn(Ev):
    """A side drew cards face down from the draw pile (1.3, 2.0 II.1, 7.1)."""

    side: str
    count: int
    reason: str
    locked: bool = False
    secret: Secret


class CardPlayed(Ev):
    """A card was played face up; `as_` says what it counts as (9.x)."""

    side: str
    card: str
    key: str
    as_: str = field(name="as")


class CardsDiscarded(Ev):
    """Cards went face up onto the discard pile (2.0 II.1, 2.0 V.3)."""

    side: str
    cards: list[str]
    reason: str


class CardRemoved(Ev):
    """A card left play for good (9.8, 9.9 notes)."""

    card: str
    reason: str


# ---------------------------------------------------------------- sealed plans

class PlansOpened(Ev):
    """Both sides answer a decision at once, each in a plan sealed until both are done
    (2.0 I reinforcements, 2.0 V.3 excess cards; 7.0 production keeps its own events)."""

    kind: str
    sides: list[str]


class PlanSealed(Ev):
    """Orders added to a side's sealed plan; only that side may read them until the plans
    are revealed."""

    side: str
    kind: str
    secret: Secret


class PlanClosed(Ev):
    """A side's sealed plan is complete."""

    side: str
    kind: str


class PlanRevealed(Ev):
    """Every sealed plan is in: each side's orders, now public, are applied, German first.

    With hidden army templates (1.4) orders on army templates are left out of
    `orders` (`hidden` counts them); the whole plan is in `secret`.
    """

    side: str
    kind: str
    orders: list[str]
    hidden: int | None = None
    secret: Secret | None = None


# ---------------------------------------------------------------- armistice

class ArmisticeProposed(Ev):
    """A side proposes an armistice (3.2)."""

    side: str


class ArmisticeRefused(Ev):
    """The other side refuses the armistice; play goes on (3.2)."""

    side: str


class ArmisticeWithdrawn(Ev):
    """The side that proposed the armistice takes its offer back (3.2)."""

    side: str


class ArmisticeLapsed(Ev):
    """An armistice proposal not answered by the end of the season it was made in ends with
    it (3.2: an offer to end the war as things stand; 2.0 VI)."""

    side: str            # who had proposed it
    season: str          # the season that ended, as the turn track names it


class SecretRevealed(Ev):
    """The dice secret was published so that anyone can check every die (dice.py)."""

    secret: str


class RulesUpgraded(Ev):
    """The moderator moved the game to newer rules and game data: the records after this one
    are decided under them (engine/versions.py)."""

    rules: int
    data_digest: str
    from_rules: int
    from_data_digest: str
