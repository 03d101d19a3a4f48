"""Orders: what a player submits, in their JSON form (the text form: engine/reading.py).

One order per line; a line starting with '{' is read as this JSON form, which
`schemas/orders.json` describes. Every order names its verb in `kind`.
"""

from typing import Annotated, Literal, Union

from msgspec import Meta

from .base import Contract


class Ord(Contract, frozen=True, tag_field="kind"):
    """Base of every order; its JSON `kind` names the verb (a Frozen, made straight on
    Contract: see base.Frozen)."""

    @property
    def kind(self) -> str:
        """The kind tag: what the JSON `kind` says."""
        return self.__struct_config__.tag


class PlayCard(Ord, tag="play"):
    """Play a card for its effect (2.0 II.1, 9.x); combat cards name their battle area (II.3b)."""

    card: str
    area: str | None = None


class Pass(Ord, tag="pass"):
    """Play no Offensive card this player turn (2.0 II.1)."""


class EndMovement(Ord, tag="end_movement"):
    """Finish the movement phase of an Offensive (2.0 II.2)."""


class EndTurn(Ord, tag="end_turn"):
    """Finish a passing player turn (2.0 II.1)."""


class Discard(Ord, tag="discard"):
    """Passing without playing any card: discard cards and draw as many (2.0 II.1)."""

    cards: tuple[str, ...]


class Move(Ord, tag="move"):
    """Move one unit: along a path of adjacent areas, out of and/or into an army (4.1-4.3).

    unit is an army id, a stand-alone unit id, or ARMY:KIND for a unit on an
    army template (e.g. ge-1:cavalry, fr-8:us-infantry). An army may take in
    stand-alone units at its destination as part of its move (`taking`).
    """

    unit: str
    path: tuple[str, ...] = ()
    into: str | None = None
    taking: tuple[str, ...] = ()


class Rail(Ord, tag="rail"):
    """Rail movement: up to three areas through areas Friendly since the turn began (4.4)."""

    unit: str
    to: str


class Strategic(Ord, tag="strategic"):
    """Entente strategic movement between Friendly Entente supply source areas (4.5)."""

    unit: str
    to: str


class Sea(Ord, tag="sea"):
    """UK sea movement between ENGLAND and a coastal Entente supply source area (4.6)."""

    unit: str
    to: str


class Reserves(Ord, tag="reserves"):
    """Play Strategic Reserves!: one unit any distance through Friendly areas (9.6)."""

    unit: str
    to: str


class Evacuate(Ord, tag="evacuate"):
    """Optional 14.2.4: the Belgian army leaves Antwerp by sea for a coastal supply source."""

    unit: str
    to: str


class Suppress(Ord, tag="suppress"):
    """Optional 15.4.1: remove an army in supply; its units stay in the area or join an army."""

    army: str
    into: str | None = None


class CrisisRemove(Ord, tag="crisis_remove"):
    """Answer a Military Crisis!: remove one infantry-type unit (9.8, 9.9)."""

    unit: str


# No longer legal (9.8, 9.9: the units are removed when the map holds them); the order
# kind stays so that older journals still read.
class CrisisRefuse(Ord, tag="crisis_refuse"):
    """Answer a Military Crisis! by removing nothing and conceding the VP (3.1, 9.8, 9.9)."""


class Done(Ord, tag="done"):
    """Finish the current step: declaring battles, playing combat cards, retreating (2.0 II.3-4)."""


class DeclareBattle(Ord, tag="battle"):
    """Declare a battle in a Disputed area (2.0 II.3a, 5.1.2)."""

    area: str


class Bonus(Ord, tag="bonus"):
    """Name a battle area for the special offensive's extra dice (9.1.3-9.1.6)."""

    area: str


class Keep(Ord, tag="keep"):
    """After Bad Weather turns an Offensive into a Limited one: the one battle fought (9.5)."""

    area: str


class Fight(Ord, tag="fight"):
    """Resolve this declared battle next (5.2.1: the attacker orders the battles)."""

    area: str


class Retreat(Ord, tag="retreat"):
    """Retreat a unit to an adjacent Friendly or Disputed area, maybe into an army (5.4, 8.1)."""

    unit: str
    to: str
    into: str | None = None


class React(Ord, tag="react"):
    """A defending Biplane reacts instead of firing: it forces re-rolls of hits (8.3.4).

    `on` optionally names the infantry type whose hit the defender wants
    re-rolled first; without it the referee takes the defender's best odds.
    """

    unit: str
    on: str | None = None


class Scramble(Ord, tag="scramble"):
    """Optional 13.7 (given under 8.3.4): shift a defending Biplane into the battle."""

    unit: str


class Lose(Ord, tag="lose"):
    """Pay one hit with a unit: an army's unit, a fort step or a stand-alone unit (5.3.1)."""

    unit: str


class Ersatz(Ord, tag="ersatz"):
    """Pay hits with a card: Ersatz 2 or 3, or any card as Ersatz 1 (5.3.2, 9.2)."""

    card: str


class Annihilate(Ord, tag="annihilate"):
    """Remove every unit of one's own in the battle and pay nothing more (5.3.4)."""


class Eliminate(Ord, tag="eliminate"):
    """Name the army eliminated for a forced retreat no army can make (5.4, 8.2.2, 8.3.5)."""

    army: str


class Place(Ord, tag="place"):
    """Place an arriving reinforcement: an army by id, or a unit by nation and type (2.0 I)."""

    unit: str                          # army id, or nation:kind
    area: str
    into: str | None = None


class Swap(Ord, tag="swap"):
    """Swap the arriving Commonwealth unit for this UK infantry unit on the map (8.2.3)."""

    unit: str


class Buy(Ord, tag="buy"):
    """Announce the number of cards bought this Production phase, 1 BP each (7.1)."""

    count: Annotated[int, Meta(ge=1, le=99)]


class Build(Ord, tag="build"):
    """Build a unit in a supplied Friendly or Disputed area, or into an army there (7.2, 7.6)."""

    unit: str                          # nation:kind
    area: str
    into: str | None = None


class Rebuild(Ord, tag="rebuild"):
    """Rebuild an eliminated army, empty, in its home country (7.3)."""

    army: str
    area: str


class Entrench(Ord, tag="entrench"):
    """Entrench up to four units for 1 BP (an army is one unit) (7.4)."""

    units: tuple[str, ...]


class Upgrade(Ord, tag="upgrade"):
    """Upgrade one German infantry unit to Stoßtruppen for 1 BP (7.5)."""

    unit: str


class Eft(Ord, tag="eft"):
    """Move a German unit into the Eastern Front Transit box, or back out (2.0 V.4, games/ttlm)."""

    unit: str
    to: str | None = None              # None: into the box; an area: out of it


class Armistice(Ord, tag="armistice"):
    """Propose, withdraw, accept or refuse an armistice (3.2), or resign (3.3)."""

    act: Literal["propose", "withdraw", "accept", "refuse", "surrender"]


Order = Union[PlayCard, Pass, EndMovement, EndTurn, Discard, Move, Rail, Strategic,
                        Sea, Reserves, Evacuate, Suppress, CrisisRemove, CrisisRefuse, Done,
                        DeclareBattle, Bonus, Keep, Fight, Retreat, React, Scramble, Lose,
                        Ersatz,
                        Annihilate, Eliminate, Place, Swap, Buy, Build, Rebuild, Entrench,
                        Upgrade, Eft, Armistice]
