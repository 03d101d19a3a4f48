"""The state of a skirmish: each figure and section, the turn and phase, and what has been
done this turn (what the card's limits read). Derived only by replaying the journal."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from ...contracts.skirmish import SkirmishScenario


@dataclass
class FigureState:
    id: str
    side: str
    section: str | None          # None for a platoon commander
    quality: str
    weapon: str
    role: str | None
    body_armour: bool
    gas_mask: bool
    name: str = ""
    killed: bool = False
    surrendered: bool = False
    pins: int = 0
    moved: str | None = None     # the movement mode used this turn
    fired: bool = False
    contact: bool = False        # moved into contact this turn
    contact_at: str | None = None    # the enemy figure it contacted (melee contact_holds)
    killed_turn: int = 0
    attackers: list[str] = field(default_factory=list)    # in melee this turn
    melee_turn: int = 0          # the last turn it fought in a melee (0: never)

    @property
    def active(self) -> bool:
        """Still on the table and fighting."""
        return not (self.killed or self.surrendered)


@dataclass
class SectionState:
    id: str
    side: str
    quality: str
    name: str = ""
    failures: int = 0
    dispersed: bool = False
    killed_this_turn: int = 0
    killed_tests: int = 0        # morale tests taken this turn for figures killed


@dataclass
class SkState:
    sides: tuple[str, str]
    first: str
    figures: dict[str, FigureState]
    sections: dict[str, SectionState]
    turn: int = 1
    phase: int = 0               # index into the card's sequence
    done: list[str] = field(default_factory=list)
    moves: dict[str, int] = field(default_factory=dict)    # sections moved this turn, by side
    moved_sections: list[str] = field(default_factory=list)
    closed: list[str] = field(default_factory=list)   # sections whose turn ended (unit_turns)
    fire_rank: int = 0           # the worst quality rank that has fired this phase
    fire_step: int = 0           # the card's fire step the fire phase is in (fire_steps)
    fit: list[str] = field(default_factory=list)   # fit to fire when the step began
    standing: list[str] = field(default_factory=list)   # on the table when it began
    passed: list[str] = field(default_factory=list)    # sides with none fit: they may spot
    # Melees whose figures stay in contact (card melee.contact_lasts): each {"defender":
    # id, "attackers": [ids], "turn": the turn it began}; a figure gone or broken off leaves.
    contacts: list[dict] = field(default_factory=list)
    seq: int = 0
    tests: list[dict] = field(default_factory=list)
    disputes: list[dict] = field(default_factory=list)
    revealed: dict | None = None     # the record revealing the dice secret: the game is closed
    # The sides with off-table artillery (the scenario's off_table_artillery): the artillery
    # phase waits on them alone. None: the scenario does not say, and it waits on both.
    artillery: list[str] | None = None
    # The sides that may use the 1914 British rapid fire (the scenario's british_1914);
    # None: the scenario does not say, and any side may.
    rapid: list[str] | None = None
    # The sides the step or phase a done just ended asked nothing of, and that have made no
    # record since, and what ended by which record (card dones_asked, dones.py).
    unasked: list[str] = field(default_factory=list)
    ended: dict | None = None

    def clone(self) -> SkState:
        return copy.deepcopy(self)

    def opponent(self, side: str) -> str:
        return self.sides[1] if side == self.sides[0] else self.sides[0]

    def over(self) -> bool:
        """A skirmish is over when a side has no figure left fighting: each killed,
        surrendered or in a dispersed section."""
        return len(self.fighting()) < 2

    def fighting(self) -> list[str]:
        """The sides with a figure still fighting, in the game's order."""
        sides = {f.side for f in self.figures.values() if f.active and
                 (f.section is None or not self.sections[f.section].dispersed)}
        return [s for s in self.sides if s in sides]


def is_open(dispute: dict) -> bool:
    """Whether the moderator has not settled a dispute yet: the state's, or a report's,
    which lists them alike."""
    return "ruling" not in dispute


def open_disputes(disputes: list[dict], record: int | None = None) -> list[dict]:
    """The disputes not settled (of one record's test, when named)."""
    return [d for d in disputes if is_open(d) and record in (None, d["record"])]


def _figure(f, side: str, section: str | None, quality: str) -> FigureState:
    return FigureState(f.id, side, section, f.quality or quality, f.weapon, f.role,
                       f.body_armour, f.gas_mask, f.name)


def initial_state(sc: SkirmishScenario) -> SkState:
    """The forces of a scenario as they stand before the first turn."""
    figures: dict[str, FigureState] = {}
    sections: dict[str, SectionState] = {}
    for side in sc.sides:
        force = sc.forces[side]
        if force.platoon_commander is not None:
            pc = force.platoon_commander
            figures[pc.id] = _figure(pc, side, None, pc.quality or "")
            figures[pc.id].role = "platoon_commander"
        for s in force.sections:
            sections[s.id] = SectionState(s.id, side, s.quality, s.name)
            for f in s.figures:
                figures[f.id] = _figure(f, side, s.id, s.quality)
    a, b = sc.sides
    artillery = None if sc.off_table_artillery is None else \
        [s for s in sc.sides if s in sc.off_table_artillery]
    rapid = None if sc.british_1914 is None else [s for s in sc.sides if s in sc.british_1914]
    return SkState((a, b), sc.first, figures, sections, moves={a: 0, b: 0},
                   artillery=artillery, rapid=rapid)
