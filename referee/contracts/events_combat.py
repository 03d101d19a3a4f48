"""Events of the combat phase: battles declared, fire, losses, retreats (2.0 II.3-4, 5.0-5.4)."""


from .base import Contract
from .events_base import Ev, Secret


class CombatPhaseBegan(Ev):
    """Declare Battles begins; newly Disputed areas are battles already (2.0 II.3, 5.1.1)."""

    side: str
    compulsory: list[str]


class BattleDeclared(Ev):
    """The attacker declared a battle in a Disputed area (5.1.2)."""

    area: str


class CombatCardPlayed(Ev):
    """A combat card was played in Declare Battles (2.0 II.3b, 9.3-9.7)."""

    side: str
    card: str
    key: str
    area: str | None = None


class BonusDesignated(Ev):
    """A battle area named for the special offensive's extra dice (9.1.3-9.1.6)."""

    area: str


class OffensiveDowngraded(Ev):
    """Bad Weather downgraded the attacker's card (9.5)."""

    side: str
    before: str
    after: str


class BattleCancelled(Ev):
    """A declared battle will not be fought (9.5)."""

    area: str
    reason: str


class BattleBegan(Ev):
    """A battle area goes through its combat phase (5.2.1)."""

    area: str
    attacker: str
    defender: str
    surprise: bool = False


class BattleStep(Ev):
    """The battle moves to its next step (2.0 II.4, 9.7)."""

    step: str


class DieGroup(Contract):
    """Dice rolled by one unit (or card) at one firepower, and their hits."""

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

    area: str
    side: str
    phase: str
    groups: list[DieGroup]
    hits: int
    siege_hits: int = 0
    forced_retreats: int = 0
    silent: list[str] = []          # unit types of side in the battle that fire no die here


class HitsToPay(Ev):
    """A side must now pay hits, one at a time (5.3)."""

    side: str
    hits: int
    siege_hits: int = 0
    target: str = "battle"           # battle | dogfight | pursuit


class LossTaken(Ev):
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


class HitsLost(Ev):
    """Hits nothing is left to pay (5.3.4, 8.3.3)."""

    side: str
    hits: int                         # the hits left unpaid
    paid: int = 0                     # annihilation: hits its removed steps paid (5.3.4)
    pool: str = "all"                 # hits | siege | all
    reason: str


class FortDestroyed(Ev):
    """A fort reached zero and left the game (5.3.1, 8.4)."""

    fort: str
    area: str
    reason: str


class UnitRetreated(Ev):
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


class BiplaneReacts(Ev):
    """A defending Biplane reacts: it will force re-rolls instead of firing (8.3.4)."""

    side: str
    unit: str
    on: str | None = None             # the infantry type whose hit to re-roll first


class BattleEnded(Ev):
    """A battle area's combat phase is over (5.2.1)."""

    area: str


class CombatPhaseEnded(Ev):
    """Every declared battle is resolved; retreat markers come off (5.4)."""

