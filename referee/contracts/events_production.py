"""Events of the production phase: supply, build points, builds, EFT losses (2.0 V, 6.5, 7.0)."""


from .events_base import Ev, Secret


class OutOfSupply(Ev):
    """Units found out of supply in the production phase (2.0 V.1, 6.5)."""

    side: str
    units: list[str]


class BackInSupply(Ev):
    """Units carrying an OoS marker found in supply again: the markers come off (AAC 1.2.3)."""

    side: str
    units: list[str]


class FortReduced(Ev):
    """An unsupplied fort loses a step (6.5)."""

    fort: str
    area: str
    strength: int


class AttritionDue(Ev):
    """Unsupplied armies that must each lose a unit of their owner's choice (6.5)."""

    side: str
    armies: list[str]


class AttritionTaken(Ev):
    """An unsupplied army lost a unit (6.5).

    With hidden army templates (1.4) the unit lost is in `secret`.
    """

    side: str
    army: str
    unit: str | None = None
    nation: str | None = None
    kind: str | None = None
    secret: Secret | None = None


class ProductionBegan(Ev):
    """Build points for both sides this production phase (7.0, Build Points chart)."""

    bp: dict[str, int]


class ProductionOrdered(Ev):
    """A production order, sealed until both sides have given theirs (7.0)."""

    side: str
    secret: Secret


class ProductionDone(Ev):
    """A side has given all its production orders (7.0)."""

    side: str


class ProductionRevealed(Ev):
    """Both plans are in: each side's orders, now public, applied in a fixed order (7.0).

    With hidden army templates (1.4) orders on army templates are left out of
    `orders` (`hidden` counts them), `spent` is what the orders shown cost and `lost` is
    absent, since with the Build Points available they would tell what the hidden orders
    cost; the whole plan and its two totals are in `secret`.
    """

    side: str
    orders: list[str]
    spent: int
    lost: int | None = None
    hidden: int | None = None
    secret: Secret | None = None


class UnitBuilt(Ev):
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


class ArmyRebuilt(Ev):
    """An eliminated army rebuilt, empty (7.3)."""

    side: str
    army: str
    area: str


class UnitEntrenched(Ev):
    """A unit entrenched (7.4)."""

    side: str
    unit: str


class InfantryUpgraded(Ev):
    """A German infantry unit became Stoßtruppen (7.5).

    With hidden army templates (1.4) an upgrade on an army template names
    the unit in `secret` only.
    """

    side: str
    unit: str | None = None
    new_id: str | None = None
    secret: Secret | None = None


class TemplateChanged(Ev):
    """With hidden army templates (1.4): a unit built into an army (7.2) or an infantry unit on
    an army's template upgraded to Stoßtruppen (7.5). Which of the two it is, and each detail,
    are in `secret`, so that the other side cannot tell a build from an upgrade (each costs
    Build Points he is not told either: ProductionRevealed)."""

    side: str
    secret: Secret


class EftLossesDue(Ev):
    """EFT box loss roll: one die per 5 BP of units (or part); each 1 costs a unit (2.0 V.4).

    With hidden army templates (1.4) and an army in the box, the BP value of
    the box is in `secret`.
    """

    bp: int | None = None
    dice: list[int]
    losses: int
    secret: Secret | None = None


class EftUnitLost(Ev):
    """A unit in the EFT box eliminated (2.0 V.4).

    With hidden army templates (1.4) a unit lost from an army's template is
    named in `secret` only.
    """

    unit: str | None = None
    nation: str | None = None
    kind: str | None = None
    secret: Secret | None = None


class ProductionEnded(Ev):
    """The production phase is over (2.0 V)."""

