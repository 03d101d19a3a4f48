"""The tables of the skirmish card (games/skirmish/card.yaml) as its quick reference gives
them: the sequence of play, movement, spotting, weapons, fire, melee, morale, rallying,
unpinning and surrendering. The card itself, with its flags, is contracts/skirmish.py."""

from typing import Annotated, Literal, Optional

from msgspec import Meta, field

from .base import Frozen

Name = Annotated[str, Meta(pattern=r"^[a-z][a-z0-9_]{0,31}\Z")]
Inches = Annotated[int, Meta(ge=0, le=999)]
Small = Annotated[int, Meta(ge=0, le=99)]
Text = Annotated[str, Meta(max_length=200)]
Quality = Literal["gallant", "veteran", "regular", "stubborn", "ferocious", "raw", "irregular"]
Phase = Literal["movement", "artillery", "fire", "melee", "morale"]
TestKind = Literal["move", "spot", "aimed", "unaimed", "melee", "morale", "rally", "unpin",
                   "surrender"]

class PhaseSpec(Frozen):
    phase: Phase
    rule: Text
    tests: list[TestKind]


class Motivation(Frozen):
    rule: Text
    ranges: dict[Name, Inches]
    needed_for: list[TestKind]


class MoveMode(Frozen):
    base: Inches
    dice: Small
    fire: Literal["none", "unaimed", "close"]
    spot: bool
    contact: bool = True


class Movement(Frozen):
    rule: Text
    modes: dict[Name, MoveMode]
    assault_fire_range: Inches
    pinned_retreat: Inches


class SpotWhen(Frozen):
    light: list[Name] = []
    state: list[Name] = []
    cover: list[Name] = []


class SpotRow(Frozen):
    when: SpotWhen
    range: Inches


class Spotting(Frozen):
    rule: Text
    automatic: list[SpotRow]
    roll: dict[Quality, Small]
    gas_mask: Small
    sniper: Small


class Weapon(Frozen):
    name: Text
    range: Inches
    dice: list[Small] = []
    per_figure: Small = 0
    radius: Inches = 0
    defensive_radius: Inches = 0
    line: Inches = 0
    area: bool = False
    automatic: bool = False
    thrown: bool = False


class Weapons(Frozen):
    rule: Text
    kinds: dict[Name, Weapon]


class Modifier(Frozen):
    id: Name
    value: Annotated[int, Meta(ge=-20, le=20)]
    text: Text
    beyond: Optional[Inches] = None
    qualities: list[Quality] = []      # whose quality the modifier is for
    states: list[Name] = []            # the target states it is for


class ResultRow(Frozen):
    from_: Small = field(name="from")
    result: Literal["killed", "pinned", "miss"]


class Aimed(Frozen):
    rule: Text
    die: Small
    results: list[ResultRow]
    modifiers: list[Modifier]


class Unaimed(Frozen):
    rule: Text
    die: Small
    needed: dict[Quality, Small]
    modifiers: list[Modifier]


class Melee(Frozen):
    rule: Text
    die: Small
    max_attackers: Small
    killed_by: Small
    pinned_by: Small
    ignore_pin: list[Quality]
    modifiers: list[Modifier]
    # Figures left in contact after a melee stay in it, fight it again each turn and move
    # only to break off (False in journals made before: each melee stood alone).
    contact_lasts: bool = False
    # An attacker new to a melee moved into contact this turn (a move declared contact=yes);
    # False in journals made before: any figure that could have moved so could attack.
    contact_move: bool = False
    # A move into contact names the enemy figure it contacts (at=); that figure can't move
    # for the rest of the turn, and the mover attacks it alone in the melee that follows.
    # False in journals made before: contact=yes named no one, and the contacted moved on.
    contact_holds: bool = False
    # A figure contacted this turn "has to fight at least one round": the side of the
    # figures that moved into contact owes that melee before its done, while the contact
    # stands (both still fighting, the mover not halted by a pin). False in journals made
    # before: a side could say done without it.
    contact_owed: bool = False
    # No more than two figures may attack a single defending figure: a move into contact
    # with one already contacted by two (this turn, or held from an earlier melee) is
    # refused. False in journals made before: the limit held at the melee order alone.
    contact_limited: bool = False
    # The defending figure may fire upon the figure moving into contact with it only if
    # it has not moved already that turn. False in journals made before: its fire was an
    # ordinary fire order, moved or not.
    defender_fire: bool = False
    # A pinned figure "may not ... move closer to enemy" (If Pinned): its move away
    # (away=yes) is not into contact. False in journals made before: away=yes contact=yes
    # was taken.
    contact_unpinned: bool = False


class CountsAs(Frozen):
    advancing: Optional[Quality] = None
    defending: Optional[Quality] = None
    otherwise: Quality


class Morale(Frozen):
    rule: Text
    die: Small
    triggers: dict[Name, Text]
    needed: dict[Quality, Small]
    counts_as: dict[Quality, CountsAs]
    failures: dict[Annotated[str, Meta(pattern=r"^[1-9]\Z")], Text]
    # A morale order declares only the facts its section's line of the table reads
    # (advancing= a section rated by advancing, Ferocious; defending= one rated by
    # defending, Stubborn). False in journals made before: any section's were recorded.
    facts_read: bool = False


class Rally(Frozen):
    rule: Text
    die: Small
    needed: dict[Quality, Small]


class Unpin(Frozen):
    rule: Text
    die: Small
    success: Small
    dice: dict[Quality, Small]
    # The result names the pins before, the dice the quality rolls and the score each needs
    # ("G1 removes 2 of 2 pins, 0 left (Gallant: 4D6, each 5-6 removes one pin)"). False
    # in journals made before: "G1 removes 2 pin(s), 0 left".
    told: bool = False


class Surrender(Frozen):
    rule: Text
    never: list[Quality]
    routing_within: Inches
    melee_enemies: Small
    # A surrender for reason=melee is taken, from the figure's owner as from the enemy, only
    # for a figure in a melee, and its "no surrender" says the enemies the card asks. False
    # in journals made before: the owner's was taken for any figure, and said no more.
    melee_checked: bool = False


class Facts(Frozen):
    light: list[Name]
    state: list[Name]
    cover: list[Name]
