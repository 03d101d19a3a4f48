"""Events of units on the map: moves, control, eliminations, crises, arrivals (4.x, 8.x, 9.8)."""


from .events_base import Ev, Secret

# ---------------------------------------------------------------- movement and area control

class UnitMoved(Ev):
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


class AreaControlChanged(Ev):
    """Who last occupied an area changed (4.1)."""

    area: str
    control: str | None
    previous: str | None = None


class BecameDisputed(Ev):
    """An Enemy area became Disputed this player turn: a battle must be fought there (5.1.1).

    `lost_alone`: the rules (e.g. "8.3.6") by which every unit the mover's side has there
    is eliminated at the end of the Movement phase unless Friendly infantry-type units join
    it (8.3.2-8.3.6); the area is then no longer Disputed and no battle is fought. None:
    the units that entered stay.
    """

    area: str
    lost_alone: str | None = None


class EnemyAreaEntered(Ev):
    """The phasing player's unit entered an Enemy area (4.2, 9.1.2)."""

    side: str
    area: str


class PieceEliminated(Ev):
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


class ArmyEliminated(Ev):
    """An army was eliminated; what it still held goes to the force pool (8.1, 3.1)."""

    side: str
    army: str
    area: str
    reason: str
    rule: str


class ArmySuppressed(Ev):
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

class CrisisDeclared(Ev):
    """A Military Crisis! card was played; the opponent must remove infantry (9.8, 9.9)."""

    side: str
    target: str
    card: str
    name: str
    count: int
    nations: list[str]
    kinds: list[str]
    resume: str
    # Whose decision the crisis interrupted, asked again once it is answered: the other
    # player's, when played while the referee waited on him (9.8, 9.9); None: the player's.
    resume_side: str | None = None


class CrisisUnitRemoved(Ev):
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


class CrisisEnded(Ev):
    """A Military Crisis! is over: answered in full, or not, which costs a VP (3.1)."""

    side: str
    answered: bool
    reason: str


# ---------------------------------------------------------------- reinforcements

class ReinforcementsDue(Ev):
    """What arrives for one side this turn, from the Game Events chart (2.0 I)."""

    side: str
    items: list[dict[str, str]]
    swaps: list[dict[str, str]] = []


class UnitPlaced(Ev):
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


class ReinforcementLost(Ev):
    """A reinforcement that cannot arrive (11.1, 8.2.2) or find a place."""

    side: str
    unit: str
    reason: str


class CommonwealthSwapped(Ev):
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
