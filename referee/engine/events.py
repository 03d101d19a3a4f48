"""Events: past-tense facts written in the journal, and evolve(), which applies them.

Every event is a msgspec Struct tagged by `type`; `schemas/events.json` is
generated from the union. evolve() never checks anything: legality was
settled by decide() before the event was written. A secret part (a drawn
card, a shuffled deck) sits in `secret` as {to, salt, data}; other readers
see only its digest (journal.redact). With hidden army templates (option
1.4) the details of what enters or leaves an army template outside a battle
are such a part, for the owner's eyes: the public fields then say only what
anyone may know, and evolve reads the details from the secret.
"""

from collections.abc import Callable
from typing import Any, Union

import msgspec

from ..base.structs import plain
from ..data.gamedata import GameData
from .state import State
from .versions import EVOLVE_AS, RULES_VERSION


class Secret(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A payload only one reader (a side or the moderator) may see."""

    to: str
    salt: str | None = None
    data: dict[str, Any] | None = None
    digest: str | None = None


class Ev(msgspec.Struct, tag_field="type", tag=True, forbid_unknown_fields=True, kw_only=True):
    """Base of every event; its JSON `type` is the class name."""

    @property
    def type(self) -> str:
        """The event's type tag, e.g. 'UnitMoved'."""
        return self.__struct_config__.tag


# ---------------------------------------------------------------- sequence of play

class PhaseBegan(Ev, kw_only=True):
    """A phase of the seasonal turn began (2.0 I, V)."""

    phase: str
    turn: int


class PlayerTurnBegan(Ev, kw_only=True):
    """A player turn began (2.0 II, III)."""

    side: str


class Passed(Ev, kw_only=True):
    """The player played no Offensive card: he passes (2.0 II.1)."""

    side: str


class PlayerTurnEnded(Ev, kw_only=True):
    """A player turn ended; counts_as_pass feeds the end of the turn (2.0 IV, 9.5)."""

    side: str
    counts_as_pass: bool


class SeasonAdvanced(Ev, kw_only=True):
    """The season marker moved on (2.0 VI)."""

    turn: int
    label: str


class DecisionPending(Ev, kw_only=True):
    """The referee now waits on one side for one kind of decision."""

    kind: str
    side: str
    info: dict[str, Any] = {}


class DecisionSkipped(Ev, kw_only=True):
    """The referee did not ask a side for a decision whose answer cannot matter, judged on
    public facts only (hand sizes, the date, the position); it took the only answer."""

    kind: str
    side: str
    reason: str


class StandingApplied(Ev, kw_only=True):
    """The referee answered a side's pending decision with one of his standing orders; the
    answer's own events follow (engine/standing.py)."""

    side: str
    kind: str
    standing: str
    turn: int | None = None


class GameEnded(Ev, kw_only=True):
    """The game is over (2.0 VI, 3.0-3.3)."""

    reason: str
    vp: int | None = None
    level: str | None = None
    level_name: str | None = None


# ---------------------------------------------------------------- cards

class DeckShuffled(Ev, kw_only=True):
    """Draw and discard piles shuffled into a new draw pile (1.3)."""

    reason: str
    count: int
    draws: int
    secret: Secret


class CardsStacked(Ev, kw_only=True):
    """Named cards put on top of the draw pile, in order (what-if scenario set-up)."""

    count: int
    secret: Secret


class CardsDrawn(Ev, kw_only=True):
    """A side drew cards face down from the draw pile (1.3, 2.0 II.1, 7.1)."""

    side: str
    count: int
    reason: str
    locked: bool = False
    secret: Secret


class CardPlayed(Ev, kw_only=True):
    """A card was played face up; `as_` says what it counts as (9.x)."""

    side: str
    card: str
    key: str
    as_: str = msgspec.field(name="as")


class CardsDiscarded(Ev, kw_only=True):
    """Cards went face up onto the discard pile (2.0 II.1, 2.0 V.3)."""

    side: str
    cards: list[str]
    reason: str


class CardRemoved(Ev, kw_only=True):
    """A card left play for good (9.8, 9.9 notes)."""

    card: str
    reason: str


# ---------------------------------------------------------------- movement and area control

class UnitMoved(Ev, kw_only=True):
    """A unit moved (4.1-4.6, 9.6): along a path, out of and/or into an army.

    With hidden army templates (option 1.4) the details of a move from or
    into an army template are in `secret`, for the mover's eyes only.
    """

    side: str
    # normal | rail | strategic | sea | reserves | evacuate | eft | scramble (13.7), or
    # reorganise: into or out of an army within its area in the Reinforcement or Production
    # phase (8.1)
    mode: str
    from_area: str
    to_area: str
    path: list[str] = []
    unit: str | None = None            # army id, stand-alone id, or ARMY:KIND
    kind: str | None = None
    nation: str | None = None
    from_army: str | None = None
    into: str | None = None
    new_id: str | None = None          # id of a unit that left an army to stand alone
    taking: list[str] = []
    entrenched: bool = False           # entrenchment of the moved counter afterwards (4.3)
    secret: Secret | None = None


class AreaControlChanged(Ev, kw_only=True):
    """Who last occupied an area changed (4.1)."""

    area: str
    control: str | None
    previous: str | None = None


class BecameDisputed(Ev, kw_only=True):
    """An Enemy area became Disputed this player turn: a battle must be fought there (5.1.1)."""

    area: str


class EnemyAreaEntered(Ev, kw_only=True):
    """The phasing player's unit entered an Enemy area (4.2, 9.1.2)."""

    side: str
    area: str


class PieceEliminated(Ev, kw_only=True):
    """A unit left the map for its force pool (5.3.1, 8.x).

    With hidden army templates (1.4) a unit eliminated from a template
    outside a battle has every detail in `secret`.
    """

    side: str
    unit: str | None = None            # stand-alone id or ARMY:KIND
    nation: str | None = None
    kind: str | None = None
    area: str | None = None
    reason: str | None = None
    rule: str | None = None
    secret: Secret | None = None


class ArmyEliminated(Ev, kw_only=True):
    """An army was eliminated; what it still held goes to the force pool (8.1, 3.1)."""

    side: str
    army: str
    area: str
    reason: str
    rule: str


class ArmySuppressed(Ev, kw_only=True):
    """Optional 15.4.1: an army counter removed, its units left in the area or in another army.

    With hidden army templates (1.4) the army its units join is in `secret`.
    """

    side: str
    army: str
    area: str
    into: str | None = None
    new_ids: dict[str, str] = {}       # new stand-alone id -> piece key
    secret: Secret | None = None


# ---------------------------------------------------------------- Military Crisis!

class CrisisDeclared(Ev, kw_only=True):
    """A Military Crisis! card was played; the opponent must remove infantry (9.8, 9.9)."""

    side: str
    target: str
    card: str
    name: str
    count: int
    nations: list[str]
    kinds: list[str]
    resume: str


class CrisisUnitRemoved(Ev, kw_only=True):
    """An infantry-type unit removed to its force pool for a Military Crisis! (9.8, 9.9).

    With hidden army templates (1.4) a unit taken from a template has its
    details in `secret`.
    """

    side: str
    unit: str | None = None
    nation: str | None = None
    kind: str | None = None
    area: str | None = None
    secret: Secret | None = None


class CrisisEnded(Ev, kw_only=True):
    """A Military Crisis! is over: answered in full, or not, which costs a VP (3.1)."""

    side: str
    answered: bool
    reason: str


# ---------------------------------------------------------------- combat

class CombatPhaseBegan(Ev, kw_only=True):
    """Declare Battles begins; newly Disputed areas are battles already (2.0 II.3, 5.1.1)."""

    side: str
    compulsory: list[str]


class BattleDeclared(Ev, kw_only=True):
    """The attacker declared a battle in a Disputed area (5.1.2)."""

    area: str


class CombatCardPlayed(Ev, kw_only=True):
    """A combat card was played in Declare Battles (2.0 II.3b, 9.3-9.7)."""

    side: str
    card: str
    key: str
    area: str | None = None


class BonusDesignated(Ev, kw_only=True):
    """A battle area named for the special offensive's extra dice (9.1.3-9.1.6)."""

    area: str


class OffensiveDowngraded(Ev, kw_only=True):
    """Bad Weather downgraded the attacker's card (9.5)."""

    side: str
    before: str
    after: str


class BattleCancelled(Ev, kw_only=True):
    """A declared battle will not be fought (9.5)."""

    area: str
    reason: str


class BattleBegan(Ev, kw_only=True):
    """A battle area goes through its combat phase (5.2.1)."""

    area: str
    attacker: str
    defender: str
    surprise: bool = False


class BattleStep(Ev, kw_only=True):
    """The battle moves to its next step (2.0 II.4, 4a)."""

    step: str


class DieGroup(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """Dice rolled by one unit (or card) at one firepower, and their hits."""

    source: str
    kind: str
    fp: int
    dice: list[int]
    hits: int
    rerolled: list[int] = []
    forces_retreat: bool = False
    siege: bool = False


class FireResolved(Ev, kw_only=True):
    """One side fired in one phase of a battle: every die, its firepower, the hits (5.2)."""

    area: str
    side: str
    phase: str
    groups: list[DieGroup]
    hits: int
    siege_hits: int = 0
    forced_retreats: int = 0


class HitsToPay(Ev, kw_only=True):
    """A side must now pay hits, one at a time (5.3)."""

    side: str
    hits: int
    siege_hits: int = 0
    target: str = "battle"           # battle | dogfight | pursuit


class LossTaken(Ev, kw_only=True):
    """A hit (or several, with an Ersatz card) paid (5.3.1, 5.3.2)."""

    side: str
    how: str                          # unit | fort | ersatz
    unit: str | None = None
    nation: str | None = None
    kind: str | None = None
    card: str | None = None
    hits: int = 0                     # ordinary hits paid
    siege_hits: int = 0               # Siege Gun hits paid (8.3.3)
    wasted: int = 0                   # Ersatz points left unused, lost (5.3.2)


class HitsLost(Ev, kw_only=True):
    """Hits nothing is left to pay (5.3.4, 8.3.3)."""

    side: str
    hits: int
    pool: str = "all"                 # hits | siege | all
    reason: str


class FortDestroyed(Ev, kw_only=True):
    """A fort reached zero and left the game (5.3.1, 8.4)."""

    fort: str
    area: str
    reason: str


class UnitRetreated(Ev, kw_only=True):
    """A unit retreated: before combat, instead of firing, or after combat (5.4)."""

    side: str
    unit: str
    kind: str
    nation: str
    from_area: str
    to_area: str
    how: str                          # cavalry | instead | after
    new_id: str | None = None
    into: str | None = None           # the army it joined there (8.1)
    secret: Secret | None = None      # hidden templates (1.4): the whole event, into included


class BiplaneReacts(Ev, kw_only=True):
    """A defending Biplane reacts: it will force re-rolls instead of firing (8.3.4)."""

    side: str
    unit: str
    on: str | None = None             # the infantry type whose hit to re-roll first


class BattleEnded(Ev, kw_only=True):
    """A battle area's combat phase is over (5.2.1)."""

    area: str


class CombatPhaseEnded(Ev, kw_only=True):
    """Every declared battle is resolved; retreat markers come off (5.4)."""



# ---------------------------------------------------------------- reinforcements

class ReinforcementsDue(Ev, kw_only=True):
    """What arrives for one side this turn, from the Game Events chart (2.0 I)."""

    side: str
    items: list[dict[str, str]]
    swaps: list[dict[str, str]] = []


class UnitPlaced(Ev, kw_only=True):
    """An arriving unit placed on the map (2.0 I).

    With hidden army templates (1.4) a unit placed into an army has its
    details (unit, area, army) in `secret`.
    """

    side: str
    unit: str | None = None            # army id, or nation:kind
    area: str | None = None
    into: str | None = None
    new_id: str | None = None
    secret: Secret | None = None


class ReinforcementLost(Ev, kw_only=True):
    """A reinforcement that cannot arrive (11.1, 8.2.2) or find a place."""

    side: str
    unit: str
    reason: str


class CommonwealthSwapped(Ev, kw_only=True):
    """A Commonwealth unit took the place of a UK infantry unit on the map (8.2.3).

    With hidden army templates (1.4) a swap on an army template has the
    replaced unit and its area in `secret`.
    """

    side: str
    unit: str
    name: str
    replaced: str | None = None
    area: str | None = None
    new_id: str | None = None
    secret: Secret | None = None


# ---------------------------------------------------------------- sealed plans

class PlansOpened(Ev, kw_only=True):
    """Both sides answer a decision at once, each in a plan sealed until both are done
    (2.0 I reinforcements, 2.0 V.3 excess cards; 7.0 production keeps its own events)."""

    kind: str
    sides: list[str]


class PlanSealed(Ev, kw_only=True):
    """Orders added to a side's sealed plan; only that side may read them until the plans
    are revealed."""

    side: str
    kind: str
    secret: Secret


class PlanClosed(Ev, kw_only=True):
    """A side's sealed plan is complete."""

    side: str
    kind: str


class PlanRevealed(Ev, kw_only=True):
    """Every sealed plan is in: each side's orders, now public, are applied, German first.

    With hidden army templates (1.4) orders on army templates are left out of
    `orders` (`hidden` counts them); the whole plan is in `secret`.
    """

    side: str
    kind: str
    orders: list[str]
    hidden: int | None = None
    secret: Secret | None = None


# ---------------------------------------------------------------- production

class OutOfSupply(Ev, kw_only=True):
    """Units found out of supply in the production phase (2.0 V.1, 6.5)."""

    side: str
    units: list[str]


class BackInSupply(Ev, kw_only=True):
    """Units carrying an OoS marker found in supply again: the markers come off (AAC 1.2.3)."""

    side: str
    units: list[str]


class FortReduced(Ev, kw_only=True):
    """An unsupplied fort loses a step (6.5)."""

    fort: str
    area: str
    strength: int


class AttritionDue(Ev, kw_only=True):
    """Unsupplied armies that must each lose a unit of their owner's choice (6.5)."""

    side: str
    armies: list[str]


class AttritionTaken(Ev, kw_only=True):
    """An unsupplied army lost a unit (6.5).

    With hidden army templates (1.4) the unit lost is in `secret`.
    """

    side: str
    army: str
    unit: str | None = None
    nation: str | None = None
    kind: str | None = None
    secret: Secret | None = None


class ProductionBegan(Ev, kw_only=True):
    """Build points for both sides this production phase (7.0, Build Points chart)."""

    bp: dict[str, int]


class ProductionOrdered(Ev, kw_only=True):
    """A production order, sealed until both sides have given theirs (7.0)."""

    side: str
    secret: Secret


class ProductionDone(Ev, kw_only=True):
    """A side has given all its production orders (7.0)."""

    side: str


class ProductionRevealed(Ev, kw_only=True):
    """Both plans are in: each side's orders, now public, applied in a fixed order (7.0).

    With hidden army templates (1.4) orders on army templates are left out of
    `orders` (`hidden` counts them); the whole plan is in `secret`.
    """

    side: str
    orders: list[str]
    spent: int
    lost: int
    hidden: int | None = None
    secret: Secret | None = None


class UnitBuilt(Ev, kw_only=True):
    """A unit bought from the force pool (7.2, 7.6).

    With hidden army templates (1.4) a unit built into an army has its
    details (unit, area, army, cost) in `secret`.
    """

    side: str
    unit: str | None = None            # nation:kind
    area: str | None = None
    into: str | None = None
    new_id: str | None = None
    cost: int | None = None
    secret: Secret | None = None


class ArmyRebuilt(Ev, kw_only=True):
    """An eliminated army rebuilt, empty (7.3)."""

    side: str
    army: str
    area: str


class UnitEntrenched(Ev, kw_only=True):
    """A unit entrenched (7.4)."""

    side: str
    unit: str


class InfantryUpgraded(Ev, kw_only=True):
    """A German infantry unit became Stoßtruppen (7.5).

    With hidden army templates (1.4) an upgrade on an army template names
    the unit in `secret` only.
    """

    side: str
    unit: str | None = None
    new_id: str | None = None
    secret: Secret | None = None


class EftLossesDue(Ev, kw_only=True):
    """EFT box loss roll: one die per 5 BP of units (or part); each 1 costs a unit (2.0 V.4).

    With hidden army templates (1.4) and an army in the box, the BP value of
    the box is in `secret`.
    """

    bp: int | None = None
    dice: list[int]
    losses: int
    secret: Secret | None = None


class EftUnitLost(Ev, kw_only=True):
    """A unit in the EFT box eliminated (2.0 V.4).

    With hidden army templates (1.4) a unit lost from an army's template is
    named in `secret` only.
    """

    unit: str | None = None
    nation: str | None = None
    kind: str | None = None
    secret: Secret | None = None


class ProductionEnded(Ev, kw_only=True):
    """The production phase is over (2.0 V)."""



# ---------------------------------------------------------------- armistice

class ArmisticeProposed(Ev, kw_only=True):
    """A side proposes an armistice (3.2)."""

    side: str


class ArmisticeRefused(Ev, kw_only=True):
    """The other side refuses the armistice; play goes on (3.2)."""

    side: str


class SecretRevealed(Ev, kw_only=True):
    """The dice secret was published so that anyone can check every die (dice.py)."""

    secret: str


class RulesUpgraded(Ev, kw_only=True):
    """The moderator moved the game to newer rules and game data: the records after this one
    are decided under them (engine/versions.py)."""

    rules: int
    data_digest: str
    from_rules: int
    from_data_digest: str


Event = Union[
    PhaseBegan, PlayerTurnBegan, Passed, PlayerTurnEnded, SeasonAdvanced, DecisionPending,
    DecisionSkipped, StandingApplied, GameEnded, DeckShuffled, CardsStacked, CardsDrawn, CardPlayed,
    CardsDiscarded, CardRemoved, SecretRevealed, RulesUpgraded, UnitMoved, AreaControlChanged,
    BecameDisputed, EnemyAreaEntered,
    PieceEliminated, ArmyEliminated, ArmySuppressed, CrisisDeclared, CrisisUnitRemoved,
    CrisisEnded, CombatPhaseBegan, BattleDeclared, CombatCardPlayed, BonusDesignated,
    OffensiveDowngraded, BattleCancelled, BattleBegan, BattleStep, FireResolved, HitsToPay,
    LossTaken, HitsLost, FortDestroyed, UnitRetreated, BiplaneReacts, BattleEnded,
    CombatPhaseEnded, ReinforcementsDue, UnitPlaced, ReinforcementLost, CommonwealthSwapped,
    OutOfSupply, FortReduced, AttritionDue, AttritionTaken, ProductionBegan, ProductionOrdered,
    ProductionDone, ProductionRevealed, UnitBuilt, ArmyRebuilt, UnitEntrenched,
    InfantryUpgraded, EftLossesDue, EftUnitLost, ProductionEnded, ArmisticeProposed,
    ArmisticeRefused, PlansOpened, PlanSealed, PlanClosed, PlanRevealed,
    BackInSupply,
]

# Each event class keeps its tag as a plain class attribute: the `type` property would build
# msgspec's config object on every read, and replaying reads it for every event.
for _cls in Event.__args__:
    _cls.type = _cls.__struct_config__.tag


def parse_events(raw: list[dict]) -> list[Ev]:
    """Validate the events of one journal record (msgspec.ValidationError when malformed)."""
    return msgspec.convert(raw, list[Event])


def dump(event: Ev) -> dict:
    """An event as the JSON object written in the journal."""
    return plain(event)


# ---------------------------------------------------------------- evolve

# How each event type changes the state: apply.py fills this table (the engine package
# imports it), so that this module, which apply reads the event models from, needs nothing
# of apply's.
HANDLERS: dict[str, Callable[[State, Any, GameData], None]] = {}


def evolve(state: State, event: Ev, data: GameData, rules: int = RULES_VERSION) -> State:
    """Apply one event to the state in place and return it; never checks legality. An event
    of a record made under older rules (`rules`) evolves as those rules had it (versions.py)."""
    state._cache.clear()
    kind = event.type
    older = EVOLVE_AS.get(rules)            # None under the current rules
    (older and older.get(kind) or HANDLERS[kind])(state, event, data)
    state._cache.clear()
    return state

