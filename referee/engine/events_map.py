"""Events of units on the map: moves, control, eliminations, crises, arrivals (4.x, 8.x, 9.8).

The fast msgspec twin of referee/contracts/events_map.py."""

# Generated from referee/contracts/events_map.py (make schemas): edit that, not this.
# ruff: noqa: E501


from .events_base import Ev, Secret

__all__ = [
    'UnitMoved',
    'AreaControlChanged',
    'BecameDisputed',
    'EnemyAreaEntered',
    'PieceEliminated',
    'ArmyEliminated',
    'ArmySuppressed',
    'CrisisDeclared',
    'CrisisUnitRemoved',
    'CrisisEnded',
    'ReinforcementsDue',
    'UnitPlaced',
    'ReinforcementLost',
    'CommonwealthSwapped',
]


class UnitMoved(Ev, tag='UnitMoved', forbid_unknown_fields=True, kw_only=True):
    """A unit moved (4.1-4.6, 9.6): along a path, out of and/or into an army.

    With hidden army templates (option 1.4) the details of a move from or
    into an army template are in `secret`, for the mover's eyes only.
    """

    side: str
    mode: str
    from_area: str
    to_area: str
    path: list[str] = []
    unit: str | None = None
    kind: str | None = None
    nation: str | None = None
    from_army: str | None = None
    into: str | None = None
    new_id: str | None = None
    taking: list[str] = []
    entrenched: bool = False
    secret: Secret | None = None


class AreaControlChanged(Ev, tag='AreaControlChanged', forbid_unknown_fields=True, kw_only=True):
    """Who last occupied an area changed (4.1)."""

    area: str
    control: str | None
    previous: str | None = None


class BecameDisputed(Ev, tag='BecameDisputed', forbid_unknown_fields=True, kw_only=True):
    """An Enemy area became Disputed this player turn: a battle must be fought there (5.1.1)."""

    area: str


class EnemyAreaEntered(Ev, tag='EnemyAreaEntered', forbid_unknown_fields=True, kw_only=True):
    """The phasing player's unit entered an Enemy area (4.2, 9.1.2)."""

    side: str
    area: str


class PieceEliminated(Ev, tag='PieceEliminated', forbid_unknown_fields=True, kw_only=True):
    """A unit left the map for its force pool (5.3.1, 8.x).

    With hidden army templates (1.4) a unit eliminated from a template
    outside a battle has every detail in `secret`.
    """

    side: str
    unit: str | None = None
    nation: str | None = None
    kind: str | None = None
    area: str | None = None
    reason: str | None = None
    rule: str | None = None
    secret: Secret | None = None


class ArmyEliminated(Ev, tag='ArmyEliminated', forbid_unknown_fields=True, kw_only=True):
    """An army was eliminated; what it still held goes to the force pool (8.1, 3.1)."""

    side: str
    army: str
    area: str
    reason: str
    rule: str


class ArmySuppressed(Ev, tag='ArmySuppressed', forbid_unknown_fields=True, kw_only=True):
    """Optional 15.4.1: an army counter removed, its units left in the area or in another army.

    With hidden army templates (1.4) the army its units join is in `secret`.
    """

    side: str
    army: str
    area: str
    into: str | None = None
    new_ids: dict[str, str] = {}
    secret: Secret | None = None


class CrisisDeclared(Ev, tag='CrisisDeclared', forbid_unknown_fields=True, kw_only=True):
    """A Military Crisis! card was played; the opponent must remove infantry (9.8, 9.9)."""

    side: str
    target: str
    card: str
    name: str
    count: int
    nations: list[str]
    kinds: list[str]
    resume: str
    resume_side: str | None = None


class CrisisUnitRemoved(Ev, tag='CrisisUnitRemoved', forbid_unknown_fields=True, kw_only=True):
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


class CrisisEnded(Ev, tag='CrisisEnded', forbid_unknown_fields=True, kw_only=True):
    """A Military Crisis! is over: answered in full, or not, which costs a VP (3.1)."""

    side: str
    answered: bool
    reason: str


class ReinforcementsDue(Ev, tag='ReinforcementsDue', forbid_unknown_fields=True, kw_only=True):
    """What arrives for one side this turn, from the Game Events chart (2.0 I)."""

    side: str
    items: list[dict[str, str]]
    swaps: list[dict[str, str]] = []


class UnitPlaced(Ev, tag='UnitPlaced', forbid_unknown_fields=True, kw_only=True):
    """An arriving unit placed on the map (2.0 I).

    With hidden army templates (1.4) a unit placed into an army has its
    details (unit, area, army) in `secret`.
    """

    side: str
    unit: str | None = None
    area: str | None = None
    into: str | None = None
    new_id: str | None = None
    secret: Secret | None = None


class ReinforcementLost(Ev, tag='ReinforcementLost', forbid_unknown_fields=True, kw_only=True):
    """A reinforcement that cannot arrive (11.1, 8.2.2) or find a place."""

    side: str
    unit: str
    reason: str


class CommonwealthSwapped(Ev, tag='CommonwealthSwapped', forbid_unknown_fields=True, kw_only=True):
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
