"""Orders: what a player submits, in a short text form for email and a JSON form.

One order per line. The text form starts with a verb; cards are named by
their key or title, areas by id, name or alias (case, accents and hyphens do
not matter), units by the ids every view shows. `format_order` writes the
canonical text that `status` lists and `order` accepts. A line starting with
'{' is read as the JSON form (see schemas/orders.json).
"""

from typing import Annotated, Literal, Union

import msgspec


class Ord(msgspec.Struct, tag_field="kind", forbid_unknown_fields=True, frozen=True,
          kw_only=True):
    """Base of every order; its JSON `kind` names the verb."""

    @property
    def kind(self) -> str:
        """The order's kind tag, e.g. 'move'."""
        return self.__struct_config__.tag


class PlayCard(Ord, tag="play", kw_only=True):
    """Play a card for its effect (2.0 II.1, 9.x); combat cards name their battle area (II.3b)."""

    card: str
    area: str | None = None


class Pass(Ord, tag="pass", kw_only=True):
    """Play no Offensive card this player turn (2.0 II.1)."""


class EndMovement(Ord, tag="end_movement", kw_only=True):
    """Finish the movement phase of an Offensive (2.0 II.2)."""


class EndTurn(Ord, tag="end_turn", kw_only=True):
    """Finish a passing player turn (2.0 II.1)."""


class Discard(Ord, tag="discard", kw_only=True):
    """Passing without playing any card: discard cards and draw as many (2.0 II.1)."""

    cards: tuple[str, ...]


class Move(Ord, tag="move", kw_only=True):
    """Move one unit: along a path of adjacent areas, out of and/or into an army (4.1-4.3).

    unit is an army id, a stand-alone unit id, or ARMY:KIND for a unit on an
    army template (e.g. ge-1:cavalry, fr-8:us-infantry). An army may take in
    stand-alone units at its destination as part of its move (`taking`).
    """

    unit: str
    path: tuple[str, ...] = ()
    into: str | None = None
    taking: tuple[str, ...] = ()


class Rail(Ord, tag="rail", kw_only=True):
    """Rail movement: up to three areas through areas Friendly since the turn began (4.4)."""

    unit: str
    to: str


class Strategic(Ord, tag="strategic", kw_only=True):
    """Entente strategic movement between Friendly Entente supply source areas (4.5)."""

    unit: str
    to: str


class Sea(Ord, tag="sea", kw_only=True):
    """UK sea movement between ENGLAND and a coastal Entente supply source area (4.6)."""

    unit: str
    to: str


class Reserves(Ord, tag="reserves", kw_only=True):
    """Play Strategic Reserves!: one unit any distance through Friendly areas (9.6)."""

    unit: str
    to: str


class Evacuate(Ord, tag="evacuate", kw_only=True):
    """Optional 14.2.4: the Belgian army leaves Antwerp by sea for a coastal supply source."""

    unit: str
    to: str


class Suppress(Ord, tag="suppress", kw_only=True):
    """Optional 15.4.1: remove an army in supply; its units stay in the area or join an army."""

    army: str
    into: str | None = None


class CrisisRemove(Ord, tag="crisis_remove", kw_only=True):
    """Answer a Military Crisis!: remove one infantry-type unit (9.8, 9.9)."""

    unit: str


# No longer legal (9.8, 9.9: the units are removed when the map holds them); the order
# kind stays so that older journals still read.
class CrisisRefuse(Ord, tag="crisis_refuse", kw_only=True):
    """Answer a Military Crisis! by removing nothing and conceding the VP (3.1, 9.8, 9.9)."""


class Done(Ord, tag="done", kw_only=True):
    """Finish the current step: declaring battles, playing combat cards, retreating (2.0 II.3-4)."""


class DeclareBattle(Ord, tag="battle", kw_only=True):
    """Declare a battle in a Disputed area (2.0 II.3a, 5.1.2)."""

    area: str


class Bonus(Ord, tag="bonus", kw_only=True):
    """Name a battle area for the special offensive's extra dice (9.1.3-9.1.6)."""

    area: str


class Keep(Ord, tag="keep", kw_only=True):
    """After Bad Weather turns an Offensive into a Limited one: the one battle fought (9.5)."""

    area: str


class Fight(Ord, tag="fight", kw_only=True):
    """Resolve this declared battle next (5.2.1: the attacker orders the battles)."""

    area: str


class Retreat(Ord, tag="retreat", kw_only=True):
    """Retreat a unit to an adjacent Friendly or Disputed area, maybe into an army (5.4, 8.1)."""

    unit: str
    to: str
    into: str | None = None


class React(Ord, tag="react", kw_only=True):
    """A defending Biplane reacts instead of firing: it forces re-rolls of hits (8.3.4).

    `on` optionally names the infantry type whose hit the defender wants
    re-rolled first; without it the referee takes the defender's best odds.
    """

    unit: str
    on: str | None = None


class Scramble(Ord, tag="scramble", kw_only=True):
    """Optional 13.7 (given under 8.3.4): shift a defending Biplane into the battle."""

    unit: str


class Lose(Ord, tag="lose", kw_only=True):
    """Pay one hit with a unit: an army's unit, a fort step or a stand-alone unit (5.3.1)."""

    unit: str


class Ersatz(Ord, tag="ersatz", kw_only=True):
    """Pay hits with a card: Ersatz 2 or 3, or any card as Ersatz 1 (5.3.2, 9.2)."""

    card: str


class Annihilate(Ord, tag="annihilate", kw_only=True):
    """Remove every unit of one's own in the battle and pay nothing more (5.3.4)."""


class Eliminate(Ord, tag="eliminate", kw_only=True):
    """Name the army eliminated for a forced retreat no army can make (5.4, 8.2.2, 8.3.5)."""

    army: str


class Place(Ord, tag="place", kw_only=True):
    """Place an arriving reinforcement: an army by id, or a unit by nation and type (2.0 I)."""

    unit: str                          # army id, or nation:kind
    area: str
    into: str | None = None


class Swap(Ord, tag="swap", kw_only=True):
    """Swap the arriving Commonwealth unit for this UK infantry unit on the map (8.2.3)."""

    unit: str


class Buy(Ord, tag="buy", kw_only=True):
    """Announce the number of cards bought this Production phase, 1 BP each (7.1)."""

    count: Annotated[int, msgspec.Meta(ge=1, le=99)]


class Build(Ord, tag="build", kw_only=True):
    """Build a unit in a supplied Friendly or Disputed area, or into an army there (7.2, 7.6)."""

    unit: str                          # nation:kind
    area: str
    into: str | None = None


class Rebuild(Ord, tag="rebuild", kw_only=True):
    """Rebuild an eliminated army, empty, in its home country (7.3)."""

    army: str
    area: str


class Entrench(Ord, tag="entrench", kw_only=True):
    """Entrench up to four units for 1 BP (an army is one unit) (7.4)."""

    units: tuple[str, ...]


class Upgrade(Ord, tag="upgrade", kw_only=True):
    """Upgrade one German infantry unit to Stoßtruppen for 1 BP (7.5)."""

    unit: str


class Eft(Ord, tag="eft", kw_only=True):
    """Move a German unit into the Eastern Front Transit box, or back out (2.0 V.4, games/ttlm)."""

    unit: str
    to: str | None = None              # None: into the box; an area: out of it


class Armistice(Ord, tag="armistice", kw_only=True):
    """Propose, accept or refuse an armistice (3.2), or resign (3.3)."""

    act: Literal["propose", "accept", "refuse", "surrender"]


Order = Union[PlayCard, Pass, EndMovement, EndTurn, Discard, Move, Rail, Strategic,
                        Sea, Reserves, Evacuate, Suppress, CrisisRemove, CrisisRefuse, Done,
                        DeclareBattle, Bonus, Keep, Fight, Retreat, React, Scramble, Lose,
                        Ersatz,
                        Annihilate, Eliminate, Place, Swap, Buy, Build, Rebuild, Entrench,
                        Upgrade, Eft, Armistice]


# ---------------------------------------------------------------- text form

def format_order(order: Ord) -> str:
    """The canonical one-line text of an order, as `status` lists it."""
    k = order.kind
    if k == "play":
        return f"play {order.card}" + (f" {order.area}" if order.area else "")
    if k in ("done", "annihilate"):
        return k
    if k in ("battle", "bonus", "keep", "fight"):
        return f"{k} {order.area}"
    if k == "retreat":
        return f"retreat {order.unit} {order.to}" + (f" into {order.into}" if order.into else "")
    if k == "react":
        return f"react {order.unit}" + (f" on {order.on}" if order.on else "")
    if k in ("lose", "scramble"):
        return f"{k} {order.unit}"
    if k == "ersatz":
        return f"ersatz {order.card}"
    if k == "eliminate":
        return f"eliminate {order.army}"
    if k in ("place", "build"):
        nation, _, kind = order.unit.partition(":")
        what = f"{nation} {kind}" if kind else order.unit
        return f"{k} {what} {order.area}" + (f" into {order.into}" if order.into else "")
    if k == "swap":
        return f"swap {order.unit}"
    if k == "buy":
        return f"buy {order.count}"
    if k == "rebuild":
        return f"rebuild {order.army} {order.area}"
    if k == "entrench":
        return "entrench " + " ".join(order.units)
    if k == "upgrade":
        return f"upgrade {order.unit}"
    if k == "eft":
        return f"eft {order.unit}" + (f" {order.to}" if order.to else "")
    if k == "armistice":
        return "surrender" if order.act == "surrender" else f"{order.act} armistice"
    if k == "pass":
        return "pass"
    if k == "end_movement":
        return "end movement"
    if k == "end_turn":
        return "end turn"
    if k == "discard":
        return "discard " + " ".join(order.cards)
    if k == "move":
        text = " ".join(("move", order.unit, *order.path))
        if order.into:
            text += f" into {order.into}"
        if order.taking:
            text += " taking " + " ".join(order.taking)
        return text
    if k in ("rail", "strategic", "sea", "reserves", "evacuate"):
        return f"{k} {order.unit} {order.to}"
    if k == "suppress":
        return f"suppress {order.army}" + (f" into {order.into}" if order.into else "")
    if k == "crisis_remove":
        return f"remove {order.unit}"
    if k == "crisis_refuse":
        return "refuse crisis"
    raise ValueError(k)
