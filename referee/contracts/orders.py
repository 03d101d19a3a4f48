"""Orders: what a player submits, in their JSON form (the text form: engine/reading.py).

One order per line; a line starting with '{' is read as this JSON form, which
`schemas/orders.json` describes. Every order names its verb in `kind`.
"""

from typing import Annotated, Literal, Union

from pydantic import Field

from .base import Frozen


class Ord(Frozen):
    """Base of every order; its JSON `kind` names the verb."""

    __fast__ = {"tag_field": "kind"}


class PlayCard(Ord):
    """Play a card for its effect (2.0 II.1, 9.x); combat cards name their battle area (II.3b)."""

    kind: Literal["play"]
    card: str
    area: str | None = None


class Pass(Ord):
    """Play no Offensive card this player turn (2.0 II.1)."""

    kind: Literal["pass"]

class EndMovement(Ord):
    """Finish the movement phase of an Offensive (2.0 II.2)."""

    kind: Literal["end_movement"]

class EndTurn(Ord):
    """Finish a passing player turn (2.0 II.1)."""

    kind: Literal["end_turn"]

class Discard(Ord):
    """Passing without playing any card: discard cards and draw as many (2.0 II.1)."""

    kind: Literal["discard"]
    cards: tuple[str, ...]


class Move(Ord):
    """Move one unit: along a path of adjacent areas, out of and/or into an army (4.1-4.3).

    unit is an army id, a stand-alone unit id, or ARMY:KIND for a unit on an
    army template (e.g. ge-1:cavalry, fr-8:us-infantry). An army may take in
    stand-alone units at its destination as part of its move (`taking`).
    """

    kind: Literal["move"]
    unit: str
    path: tuple[str, ...] = ()
    into: str | None = None
    taking: tuple[str, ...] = ()


class Rail(Ord):
    """Rail movement: up to three areas through areas Friendly since the turn began (4.4)."""

    kind: Literal["rail"]
    unit: str
    to: str


class Strategic(Ord):
    """Entente strategic movement between Friendly Entente supply source areas (4.5)."""

    kind: Literal["strategic"]
    unit: str
    to: str


class Sea(Ord):
    """UK sea movement between ENGLAND and a coastal Entente supply source area (4.6)."""

    kind: Literal["sea"]
    unit: str
    to: str


class Reserves(Ord):
    """Play Strategic Reserves!: one unit any distance through Friendly areas (9.6)."""

    kind: Literal["reserves"]
    unit: str
    to: str


class Evacuate(Ord):
    """Optional 14.2.4: the Belgian army leaves Antwerp by sea for a coastal supply source."""

    kind: Literal["evacuate"]
    unit: str
    to: str


class Suppress(Ord):
    """Optional 15.4.1: remove an army in supply; its units stay in the area or join an army."""

    kind: Literal["suppress"]
    army: str
    into: str | None = None


class CrisisRemove(Ord):
    """Answer a Military Crisis!: remove one infantry-type unit (9.8, 9.9)."""

    kind: Literal["crisis_remove"]
    unit: str


# No longer legal (9.8, 9.9: the units are removed when the map holds them); the order
# kind stays so that older journals still read.
class CrisisRefuse(Ord):
    """Answer a Military Crisis! by removing nothing and conceding the VP (3.1, 9.8, 9.9)."""

    kind: Literal["crisis_refuse"]

class Done(Ord):
    """Finish the current step: declaring battles, playing combat cards, retreating (2.0 II.3-4)."""

    kind: Literal["done"]

class DeclareBattle(Ord):
    """Declare a battle in a Disputed area (2.0 II.3a, 5.1.2)."""

    kind: Literal["battle"]
    area: str


class Bonus(Ord):
    """Name a battle area for the special offensive's extra dice (9.1.3-9.1.6)."""

    kind: Literal["bonus"]
    area: str


class Keep(Ord):
    """After Bad Weather turns an Offensive into a Limited one: the one battle fought (9.5)."""

    kind: Literal["keep"]
    area: str


class Fight(Ord):
    """Resolve this declared battle next (5.2.1: the attacker orders the battles)."""

    kind: Literal["fight"]
    area: str


class Retreat(Ord):
    """Retreat a unit to an adjacent Friendly or Disputed area, maybe into an army (5.4, 8.1)."""

    kind: Literal["retreat"]
    unit: str
    to: str
    into: str | None = None


class React(Ord):
    """A defending Biplane reacts instead of firing: it forces re-rolls of hits (8.3.4).

    `on` optionally names the infantry type whose hit the defender wants
    re-rolled first; without it the referee takes the defender's best odds.
    """

    kind: Literal["react"]
    unit: str
    on: str | None = None


class Scramble(Ord):
    """Optional 13.7 (given under 8.3.4): shift a defending Biplane into the battle."""

    kind: Literal["scramble"]
    unit: str


class Lose(Ord):
    """Pay one hit with a unit: an army's unit, a fort step or a stand-alone unit (5.3.1)."""

    kind: Literal["lose"]
    unit: str


class Ersatz(Ord):
    """Pay hits with a card: Ersatz 2 or 3, or any card as Ersatz 1 (5.3.2, 9.2)."""

    kind: Literal["ersatz"]
    card: str


class Annihilate(Ord):
    """Remove every unit of one's own in the battle and pay nothing more (5.3.4)."""

    kind: Literal["annihilate"]

class Eliminate(Ord):
    """Name the army eliminated for a forced retreat no army can make (5.4, 8.2.2, 8.3.5)."""

    kind: Literal["eliminate"]
    army: str


class Place(Ord):
    """Place an arriving reinforcement: an army by id, or a unit by nation and type (2.0 I)."""

    kind: Literal["place"]
    unit: str                          # army id, or nation:kind
    area: str
    into: str | None = None


class Swap(Ord):
    """Swap the arriving Commonwealth unit for this UK infantry unit on the map (8.2.3)."""

    kind: Literal["swap"]
    unit: str


class Buy(Ord):
    """Announce the number of cards bought this Production phase, 1 BP each (7.1)."""

    kind: Literal["buy"]
    count: Annotated[int, Field(ge=1, le=99)]


class Build(Ord):
    """Build a unit in a supplied Friendly or Disputed area, or into an army there (7.2, 7.6)."""

    kind: Literal["build"]
    unit: str                          # nation:kind
    area: str
    into: str | None = None


class Rebuild(Ord):
    """Rebuild an eliminated army, empty, in its home country (7.3)."""

    kind: Literal["rebuild"]
    army: str
    area: str


class Entrench(Ord):
    """Entrench up to four units for 1 BP (an army is one unit) (7.4)."""

    kind: Literal["entrench"]
    units: tuple[str, ...]


class Upgrade(Ord):
    """Upgrade one German infantry unit to Stoßtruppen for 1 BP (7.5)."""

    kind: Literal["upgrade"]
    unit: str


class Eft(Ord):
    """Move a German unit into the Eastern Front Transit box, or back out (2.0 V.4, games/ttlm)."""

    kind: Literal["eft"]
    unit: str
    to: str | None = None              # None: into the box; an area: out of it


class Armistice(Ord):
    """Propose, accept or refuse an armistice (3.2), or resign (3.3)."""

    kind: Literal["armistice"]
    act: Literal["propose", "accept", "refuse", "surrender"]


Order = Annotated[Union[PlayCard, Pass, EndMovement, EndTurn, Discard, Move, Rail, Strategic,
                        Sea, Reserves, Evacuate, Suppress, CrisisRemove, CrisisRefuse, Done,
                        DeclareBattle, Bonus, Keep, Fight, Retreat, React, Scramble, Lose,
                        Ersatz,
                        Annihilate, Eliminate, Place, Swap, Buy, Build, Rebuild, Entrench,
                        Upgrade, Eft, Armistice], Field(discriminator="kind")]
