"""Events of the combat phase: battles declared, fire, losses, retreats (2.0 II.3-4, 5.0-5.4).

The fast msgspec twin of referee/contracts/events_combat.py."""

# Generated from referee/contracts/events_combat.py (make schemas): edit that, not this.
# ruff: noqa: E501

import msgspec

from .events_base import Ev, Secret

__all__ = [
    'CombatPhaseBegan',
    'BattleDeclared',
    'CombatCardPlayed',
    'BonusDesignated',
    'OffensiveDowngraded',
    'BattleCancelled',
    'BattleBegan',
    'BattleStep',
    'DieGroup',
    'FireResolved',
    'HitsToPay',
    'LossTaken',
    'HitsLost',
    'FortDestroyed',
    'UnitRetreated',
    'BiplaneReacts',
    'BattleEnded',
    'CombatPhaseEnded',
]


class CombatPhaseBegan(Ev, tag='CombatPhaseBegan', forbid_unknown_fields=True, kw_only=True):
    """Declare Battles begins; newly Disputed areas are battles already (2.0 II.3, 5.1.1)."""

    side: str
    compulsory: list[str]


class BattleDeclared(Ev, tag='BattleDeclared', forbid_unknown_fields=True, kw_only=True):
    """The attacker declared a battle in a Disputed area (5.1.2)."""

    area: str


class CombatCardPlayed(Ev, tag='CombatCardPlayed', forbid_unknown_fields=True, kw_only=True):
    """A combat card was played in Declare Battles (2.0 II.3b, 9.3-9.7)."""

    side: str
    card: str
    key: str
    area: str | None = None


class BonusDesignated(Ev, tag='BonusDesignated', forbid_unknown_fields=True, kw_only=True):
    """A battle area named for the special offensive's extra dice (9.1.3-9.1.6)."""

    area: str


class OffensiveDowngraded(Ev, tag='OffensiveDowngraded', forbid_unknown_fields=True, kw_only=True):
    """Bad Weather downgraded the attacker's card (9.5)."""

    side: str
    before: str
    after: str


class BattleCancelled(Ev, tag='BattleCancelled', forbid_unknown_fields=True, kw_only=True):
    """A declared battle will not be fought (9.5)."""

    area: str
    reason: str


class BattleBegan(Ev, tag='BattleBegan', forbid_unknown_fields=True, kw_only=True):
    """A battle area goes through its combat phase (5.2.1)."""

    area: str
    attacker: str
    defender: str
    surprise: bool = False


class BattleStep(Ev, tag='BattleStep', forbid_unknown_fields=True, kw_only=True):
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


class FireResolved(Ev, tag='FireResolved', forbid_unknown_fields=True, kw_only=True):
    """One side fired in one phase of a battle: every die, its firepower, the hits (5.2)."""

    area: str
    side: str
    phase: str
    groups: list[DieGroup]
    hits: int
    siege_hits: int = 0
    forced_retreats: int = 0


class HitsToPay(Ev, tag='HitsToPay', forbid_unknown_fields=True, kw_only=True):
    """A side must now pay hits, one at a time (5.3)."""

    side: str
    hits: int
    siege_hits: int = 0
    target: str = 'battle'


class LossTaken(Ev, tag='LossTaken', forbid_unknown_fields=True, kw_only=True):
    """A hit (or several, with an Ersatz card) paid (5.3.1, 5.3.2)."""

    side: str
    how: str
    unit: str | None = None
    nation: str | None = None
    kind: str | None = None
    card: str | None = None
    hits: int = 0
    siege_hits: int = 0
    wasted: int = 0


class HitsLost(Ev, tag='HitsLost', forbid_unknown_fields=True, kw_only=True):
    """Hits nothing is left to pay (5.3.4, 8.3.3)."""

    side: str
    hits: int
    pool: str = 'all'
    reason: str


class FortDestroyed(Ev, tag='FortDestroyed', forbid_unknown_fields=True, kw_only=True):
    """A fort reached zero and left the game (5.3.1, 8.4)."""

    fort: str
    area: str
    reason: str


class UnitRetreated(Ev, tag='UnitRetreated', forbid_unknown_fields=True, kw_only=True):
    """A unit retreated: before combat, instead of firing, or after combat (5.4)."""

    side: str
    unit: str
    kind: str
    nation: str
    from_area: str
    to_area: str
    how: str
    new_id: str | None = None
    into: str | None = None
    secret: Secret | None = None


class BiplaneReacts(Ev, tag='BiplaneReacts', forbid_unknown_fields=True, kw_only=True):
    """A defending Biplane reacts: it will force re-rolls instead of firing (8.3.4)."""

    side: str
    unit: str
    on: str | None = None


class BattleEnded(Ev, tag='BattleEnded', forbid_unknown_fields=True, kw_only=True):
    """A battle area's combat phase is over (5.2.1)."""

    area: str


class CombatPhaseEnded(Ev, tag='CombatPhaseEnded', forbid_unknown_fields=True, kw_only=True):
    """Every declared battle is resolved; retreat markers come off (5.4)."""
