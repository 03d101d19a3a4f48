"""Events: past-tense facts written in the journal, and evolve(), which applies them.

Every event is a pydantic model tagged by `type`; `schemas/events.json` is
generated from the union. evolve() never checks anything: legality was
settled by decide() before the event was written. A secret part (a drawn
card, a shuffled deck) sits in `secret` as {to, salt, data}; other readers
see only its digest (journal.redact).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from ..gamedata import GameData
from .state import State


class Secret(BaseModel):
    """A payload only one reader (a side or the moderator) may see."""

    model_config = ConfigDict(extra="forbid", defer_build=True)
    to: str
    salt: str | None = None
    data: dict[str, Any] | None = None
    digest: str | None = None


class Ev(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)


# ---------------------------------------------------------------- sequence of play

class PhaseBegan(Ev):
    """A phase of the seasonal turn began (2.0 I, V)."""

    type: Literal["PhaseBegan"] = "PhaseBegan"
    phase: str
    turn: int


class PlayerTurnBegan(Ev):
    """A player turn began (2.0 II, III)."""

    type: Literal["PlayerTurnBegan"] = "PlayerTurnBegan"
    side: str


class Passed(Ev):
    """The player played no Offensive card: he passes (2.0 II.1)."""

    type: Literal["Passed"] = "Passed"
    side: str


class PlayerTurnEnded(Ev):
    """A player turn ended; counts_as_pass feeds the end of the turn (2.0 IV, 9.5)."""

    type: Literal["PlayerTurnEnded"] = "PlayerTurnEnded"
    side: str
    counts_as_pass: bool


class SeasonAdvanced(Ev):
    """The season marker moved on (2.0 VI)."""

    type: Literal["SeasonAdvanced"] = "SeasonAdvanced"
    turn: int
    label: str


class DecisionPending(Ev):
    """The referee now waits on one side for one kind of decision."""

    type: Literal["DecisionPending"] = "DecisionPending"
    kind: str
    side: str
    info: dict[str, Any] = {}


class GameEnded(Ev):
    """The game is over (2.0 VI, 3.0-3.3)."""

    type: Literal["GameEnded"] = "GameEnded"
    reason: str
    vp: int | None = None
    level: str | None = None
    level_name: str | None = None


# ---------------------------------------------------------------- cards

class DeckShuffled(Ev):
    """Draw and discard piles shuffled into a new draw pile (1.3)."""

    type: Literal["DeckShuffled"] = "DeckShuffled"
    reason: str
    count: int
    draws: int
    secret: Secret


class CardsStacked(Ev):
    """Named cards put on top of the draw pile, in order (what-if scenario set-up)."""

    type: Literal["CardsStacked"] = "CardsStacked"
    count: int
    secret: Secret


class CardsDrawn(Ev):
    """A side drew cards face down from the draw pile (1.3, 2.0 II.1, 7.1)."""

    type: Literal["CardsDrawn"] = "CardsDrawn"
    side: str
    count: int
    reason: str
    locked: bool = False
    secret: Secret


class CardPlayed(Ev):
    """A card was played face up; `as_` says what it counts as (9.x)."""

    type: Literal["CardPlayed"] = "CardPlayed"
    side: str
    card: str
    key: str
    as_: str = Field(alias="as")
    model_config = ConfigDict(extra="forbid", defer_build=True, populate_by_name=True)


class CardsDiscarded(Ev):
    """Cards went face up onto the discard pile (2.0 II.1, 2.0 V.3)."""

    type: Literal["CardsDiscarded"] = "CardsDiscarded"
    side: str
    cards: list[str]
    reason: str


class CardRemoved(Ev):
    """A card left play for good (9.8, 9.9 notes)."""

    type: Literal["CardRemoved"] = "CardRemoved"
    card: str
    reason: str


# ---------------------------------------------------------------- movement and area control

class UnitMoved(Ev):
    """A unit moved (4.1-4.6, 9.6): along a path, out of and/or into an army.

    With hidden army templates (option 1.4) the details of a move from or
    into an army template are in `secret`, for the mover's eyes only.
    """

    type: Literal["UnitMoved"] = "UnitMoved"
    side: str
    mode: str                          # normal | rail | strategic | sea | reserves | evacuate
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


class AreaControlChanged(Ev):
    """Who last occupied an area changed (4.1)."""

    type: Literal["AreaControlChanged"] = "AreaControlChanged"
    area: str
    control: str | None
    previous: str | None = None


class BecameDisputed(Ev):
    """An Enemy area became Disputed this player turn: a battle must be fought there (5.1.1)."""

    type: Literal["BecameDisputed"] = "BecameDisputed"
    area: str


class EnemyAreaEntered(Ev):
    """The phasing player's unit entered an Enemy area (4.2, 9.1.2)."""

    type: Literal["EnemyAreaEntered"] = "EnemyAreaEntered"
    side: str
    area: str


class PieceEliminated(Ev):
    """A unit left the map for its force pool (5.3.1, 8.x)."""

    type: Literal["PieceEliminated"] = "PieceEliminated"
    side: str
    unit: str                          # stand-alone id or ARMY:KIND
    nation: str
    kind: str
    area: str
    reason: str
    rule: str


class ArmyEliminated(Ev):
    """An army was eliminated; what it still held goes to the force pool (8.1, 3.1)."""

    type: Literal["ArmyEliminated"] = "ArmyEliminated"
    side: str
    army: str
    area: str
    reason: str
    rule: str


class ArmySuppressed(Ev):
    """Optional 15.4.1: an army counter removed, its units left in the area or in another army."""

    type: Literal["ArmySuppressed"] = "ArmySuppressed"
    side: str
    army: str
    area: str
    into: str | None = None
    new_ids: dict[str, str] = {}       # new stand-alone id -> piece key


# ---------------------------------------------------------------- Military Crisis!

class CrisisDeclared(Ev):
    """A Military Crisis! card was played; the opponent must remove infantry (9.8, 9.9)."""

    type: Literal["CrisisDeclared"] = "CrisisDeclared"
    side: str
    target: str
    card: str
    name: str
    count: int
    nations: list[str]
    kinds: list[str]
    resume: str


class CrisisUnitRemoved(Ev):
    """An infantry-type unit removed to its force pool for a Military Crisis! (9.8, 9.9)."""

    type: Literal["CrisisUnitRemoved"] = "CrisisUnitRemoved"
    side: str
    unit: str
    nation: str
    kind: str
    area: str


class CrisisEnded(Ev):
    """A Military Crisis! is over: answered in full, or not, which costs a VP (3.1)."""

    type: Literal["CrisisEnded"] = "CrisisEnded"
    side: str
    answered: bool
    reason: str


# ---------------------------------------------------------------- combat

class CombatPhaseBegan(Ev):
    """Declare Battles begins; newly Disputed areas are battles already (2.0 II.3, 5.1.1)."""

    type: Literal["CombatPhaseBegan"] = "CombatPhaseBegan"
    side: str
    compulsory: list[str]


class BattleDeclared(Ev):
    """The attacker declared a battle in a Disputed area (5.1.2)."""

    type: Literal["BattleDeclared"] = "BattleDeclared"
    area: str


class CombatCardPlayed(Ev):
    """A combat card was played in Declare Battles (2.0 II.3b, 9.3-9.7)."""

    type: Literal["CombatCardPlayed"] = "CombatCardPlayed"
    side: str
    card: str
    key: str
    area: str | None = None


class BonusDesignated(Ev):
    """A battle area named for the special offensive's extra dice (9.1.3-9.1.6)."""

    type: Literal["BonusDesignated"] = "BonusDesignated"
    area: str


class OffensiveDowngraded(Ev):
    """Bad Weather downgraded the attacker's card (9.5)."""

    type: Literal["OffensiveDowngraded"] = "OffensiveDowngraded"
    side: str
    before: str
    after: str


class BattleCancelled(Ev):
    """A declared battle will not be fought (9.5)."""

    type: Literal["BattleCancelled"] = "BattleCancelled"
    area: str
    reason: str


class BattleBegan(Ev):
    """A battle area goes through its combat phase (5.2.1)."""

    type: Literal["BattleBegan"] = "BattleBegan"
    area: str
    attacker: str
    defender: str
    surprise: bool = False


class BattleStep(Ev):
    """The battle moves to its next step (2.0 II.4, 4a)."""

    type: Literal["BattleStep"] = "BattleStep"
    step: str


class DieGroup(BaseModel):
    """Dice rolled by one unit (or card) at one firepower, and their hits."""

    model_config = ConfigDict(extra="forbid", defer_build=True)
    source: str
    kind: str
    fp: int
    dice: list[int]
    hits: int
    rerolled: list[int] = []
    forces_retreat: bool = False
    siege: bool = False


class FireResolved(Ev):
    """One side fired in one phase of a battle: every die, its firepower, the hits (5.2)."""

    type: Literal["FireResolved"] = "FireResolved"
    area: str
    side: str
    phase: str
    groups: list[DieGroup]
    hits: int
    siege_hits: int = 0
    forced_retreats: int = 0


class HitsToPay(Ev):
    """A side must now pay hits, one at a time (5.3)."""

    type: Literal["HitsToPay"] = "HitsToPay"
    side: str
    hits: int
    siege_hits: int = 0
    target: str = "battle"           # battle | dogfight | pursuit


class LossTaken(Ev):
    """A hit (or several, with an Ersatz card) paid (5.3.1, 5.3.2)."""

    type: Literal["LossTaken"] = "LossTaken"
    side: str
    how: str                          # unit | fort | ersatz
    unit: str | None = None
    nation: str | None = None
    kind: str | None = None
    card: str | None = None
    hits: int = 0                     # ordinary hits paid
    siege_hits: int = 0               # Siege Gun hits paid (8.3.3)
    wasted: int = 0                   # Ersatz points left unused, lost (5.3.2)


class HitsLost(Ev):
    """Hits nothing is left to pay (5.3.4, 8.3.3)."""

    type: Literal["HitsLost"] = "HitsLost"
    side: str
    hits: int
    pool: str = "all"                 # hits | siege | all
    reason: str


class FortDestroyed(Ev):
    """A fort reached zero and left the game (5.3.1, 8.4)."""

    type: Literal["FortDestroyed"] = "FortDestroyed"
    fort: str
    area: str
    reason: str


class UnitRetreated(Ev):
    """A unit retreated: before combat, instead of firing, or after combat (5.4)."""

    type: Literal["UnitRetreated"] = "UnitRetreated"
    side: str
    unit: str
    kind: str
    nation: str
    from_area: str
    to_area: str
    how: str                          # cavalry | instead | after
    new_id: str | None = None


class BiplaneReacts(Ev):
    """A defending Biplane reacts: it will force re-rolls instead of firing (8.3.4)."""

    type: Literal["BiplaneReacts"] = "BiplaneReacts"
    side: str
    unit: str


class BattleEnded(Ev):
    """A battle area's combat phase is over (5.2.1)."""

    type: Literal["BattleEnded"] = "BattleEnded"
    area: str


class CombatPhaseEnded(Ev):
    """Every declared battle is resolved; retreat markers come off (5.4)."""

    type: Literal["CombatPhaseEnded"] = "CombatPhaseEnded"


# ---------------------------------------------------------------- reinforcements

class ReinforcementsDue(Ev):
    """What arrives for one side this turn, from the Game Events chart (2.0 I)."""

    type: Literal["ReinforcementsDue"] = "ReinforcementsDue"
    side: str
    items: list[dict[str, str]]
    swaps: list[dict[str, str]] = []


class UnitPlaced(Ev):
    """An arriving unit placed on the map (2.0 I)."""

    type: Literal["UnitPlaced"] = "UnitPlaced"
    side: str
    unit: str                          # army id, or nation:kind
    area: str
    into: str | None = None
    new_id: str | None = None


class ReinforcementLost(Ev):
    """A reinforcement that cannot arrive (11.1, 8.2.2) or find a place."""

    type: Literal["ReinforcementLost"] = "ReinforcementLost"
    side: str
    unit: str
    reason: str


class CommonwealthSwapped(Ev):
    """A Commonwealth unit took the place of a UK infantry unit on the map (8.2.3)."""

    type: Literal["CommonwealthSwapped"] = "CommonwealthSwapped"
    side: str
    unit: str
    name: str
    replaced: str | None = None
    area: str | None = None
    new_id: str | None = None


# ---------------------------------------------------------------- production

class OutOfSupply(Ev):
    """Units found out of supply in the production phase (2.0 V.1, 6.5)."""

    type: Literal["OutOfSupply"] = "OutOfSupply"
    side: str
    units: list[str]


class FortReduced(Ev):
    """An unsupplied fort loses a step (6.5)."""

    type: Literal["FortReduced"] = "FortReduced"
    fort: str
    area: str
    strength: int


class AttritionDue(Ev):
    """Unsupplied armies that must each lose a unit of their owner's choice (6.5)."""

    type: Literal["AttritionDue"] = "AttritionDue"
    side: str
    armies: list[str]


class AttritionTaken(Ev):
    """An unsupplied army lost a unit (6.5)."""

    type: Literal["AttritionTaken"] = "AttritionTaken"
    side: str
    army: str
    unit: str
    nation: str
    kind: str


class ProductionBegan(Ev):
    """Build points for both sides this production phase (7.0, Build Points chart)."""

    type: Literal["ProductionBegan"] = "ProductionBegan"
    bp: dict[str, int]


class ProductionOrdered(Ev):
    """A production order, sealed until both sides have given theirs (7.0)."""

    type: Literal["ProductionOrdered"] = "ProductionOrdered"
    side: str
    secret: Secret


class ProductionDone(Ev):
    """A side has given all its production orders (7.0)."""

    type: Literal["ProductionDone"] = "ProductionDone"
    side: str


class ProductionRevealed(Ev):
    """Both plans are in: each side's orders, now public, applied in a fixed order (7.0)."""

    type: Literal["ProductionRevealed"] = "ProductionRevealed"
    side: str
    orders: list[str]
    spent: int
    lost: int


class UnitBuilt(Ev):
    """A unit bought from the force pool (7.2, 7.6)."""

    type: Literal["UnitBuilt"] = "UnitBuilt"
    side: str
    unit: str                          # nation:kind
    area: str
    into: str | None = None
    new_id: str | None = None
    cost: int = 1


class ArmyRebuilt(Ev):
    """An eliminated army rebuilt, empty (7.3)."""

    type: Literal["ArmyRebuilt"] = "ArmyRebuilt"
    side: str
    army: str
    area: str


class UnitEntrenched(Ev):
    """A unit entrenched (7.4)."""

    type: Literal["UnitEntrenched"] = "UnitEntrenched"
    side: str
    unit: str


class InfantryUpgraded(Ev):
    """A German infantry unit became Stoßtruppen (7.5)."""

    type: Literal["InfantryUpgraded"] = "InfantryUpgraded"
    side: str
    unit: str
    new_id: str | None = None


class EftLossesDue(Ev):
    """EFT box loss roll: one die per 5 BP of units (or part); each 1 costs a unit (2.0 V.4)."""

    type: Literal["EftLossesDue"] = "EftLossesDue"
    bp: int
    dice: list[int]
    losses: int


class EftUnitLost(Ev):
    """A unit in the EFT box eliminated (2.0 V.4)."""

    type: Literal["EftUnitLost"] = "EftUnitLost"
    unit: str
    nation: str
    kind: str


class ProductionEnded(Ev):
    """The production phase is over (2.0 V)."""

    type: Literal["ProductionEnded"] = "ProductionEnded"


# ---------------------------------------------------------------- armistice

class ArmisticeProposed(Ev):
    """A side proposes an armistice (3.2)."""

    type: Literal["ArmisticeProposed"] = "ArmisticeProposed"
    side: str


class ArmisticeRefused(Ev):
    """The other side refuses the armistice; play goes on (3.2)."""

    type: Literal["ArmisticeRefused"] = "ArmisticeRefused"
    side: str


class SecretRevealed(Ev):
    """The dice secret was published so that anyone can check every die (dice.py)."""

    type: Literal["SecretRevealed"] = "SecretRevealed"
    secret: str


Event = Annotated[Union[
    PhaseBegan, PlayerTurnBegan, Passed, PlayerTurnEnded, SeasonAdvanced, DecisionPending,
    GameEnded, DeckShuffled, CardsStacked, CardsDrawn, CardPlayed, CardsDiscarded, CardRemoved,
    SecretRevealed, UnitMoved, AreaControlChanged, BecameDisputed, EnemyAreaEntered,
    PieceEliminated, ArmyEliminated, ArmySuppressed, CrisisDeclared, CrisisUnitRemoved,
    CrisisEnded, CombatPhaseBegan, BattleDeclared, CombatCardPlayed, BonusDesignated,
    OffensiveDowngraded, BattleCancelled, BattleBegan, BattleStep, FireResolved, HitsToPay,
    LossTaken, HitsLost, FortDestroyed, UnitRetreated, BiplaneReacts, BattleEnded,
    CombatPhaseEnded, ReinforcementsDue, UnitPlaced, ReinforcementLost, CommonwealthSwapped,
    OutOfSupply, FortReduced, AttritionDue, AttritionTaken, ProductionBegan, ProductionOrdered,
    ProductionDone, ProductionRevealed, UnitBuilt, ArmyRebuilt, UnitEntrenched,
    InfantryUpgraded, EftLossesDue, EftUnitLost, ProductionEnded, ArmisticeProposed,
    ArmisticeRefused,
], Field(discriminator="type")]

EVENT_LIST = TypeAdapter(list[Event])


def parse_events(raw: list[dict]) -> list[Ev]:
    """Validate the events of one journal record."""
    return EVENT_LIST.validate_python(raw)


def dump(event: Ev) -> dict:
    """An event as the JSON object written in the journal."""
    return event.model_dump(mode="json", by_alias=True, exclude_none=True)


# ---------------------------------------------------------------- evolve

def evolve(state: State, event: Ev, data: GameData) -> State:
    """Apply one event to the state in place and return it; never checks legality."""
    state._cache.clear()
    HANDLERS[event.type](state, event, data)
    state._cache.clear()
    return state


from .apply import HANDLERS  # noqa: E402  (the handlers need the models above)
