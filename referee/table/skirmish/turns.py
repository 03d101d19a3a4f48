"""Movement (alternate units), as the card's unit_turns reads it: the sides start a unit's
move in turn, and a unit's turn ends when the other side moves a unit after it (its
figures that did not move stay where they are for the phase). Play by mail goes on
without a mail to say a unit is finished: the side whose unit is next moves it, and until
then the other may finish the unit he began."""

from __future__ import annotations

from ...base.plurals import a_or_an
from ...render.documents import side_name
from .state import SkState

RULE = "Movement (alternate units)"


def startable(state: SkState, side: str) -> list[str]:
    """The sections of side that may still begin a move this phase: not begun, not
    dispersed, with a figure on the table that has not moved."""
    return [s.id for s in state.sections.values() if s.side == side and not s.dispersed
            and s.id not in state.moved_sections
            and any(f.section == s.id and f.active and not f.moved
                    for f in state.figures.values())]


def next_side(state: SkState) -> str | None:
    """The side whose turn it is to begin a unit's move: the one that has begun fewer (the
    first to move on a tie), or the other when he has none left to begin; None once a side
    has said done (the other moves the rest as he likes) or neither has one left."""
    if any(side in state.done for side in state.sides):
        return None
    a, b = state.sides
    turn = a if state.moves[a] < state.moves[b] else \
        b if state.moves[b] < state.moves[a] else state.first
    other = state.opponent(turn)
    return turn if startable(state, turn) else other if startable(state, other) else None


def open_unit(state: SkState, side: str) -> str | None:
    """The unit of side whose turn has not ended: begun, and no unit of the other side
    moved since."""
    return next((s for s in reversed(state.moved_sections)
                 if state.sections[s].side == side and s not in state.closed), None)


def end_turns(state: SkState, side: str, section: str | None) -> None:
    """A figure of side's unit moved: every unit of the other side begun before has had
    its turn. A platoon commander, who moves with any unit, ends none."""
    if section is None:
        return
    state.closed += [s for s in state.moved_sections
                     if state.sections[s].side != side and s not in state.closed]


def unit_turn(state: SkState, side: str, fid: str, section: str | None
              ) -> tuple[str, str] | None:
    """Why a figure of side may not move now for the turns of units, or None."""
    if section is None:
        return None                  # a platoon commander moves with any unit
    other = state.opponent(side)
    if section in state.closed:
        return RULE, (f"section {section}'s turn ended when the {side_name(other)} side moved "
                      f"a unit after it: {fid} stays where it is for this phase")
    if section in state.moved_sections or other in state.done:
        return None
    nxt = next_side(state)
    if nxt not in (None, side):
        return RULE, (f"units move in turn: {a_or_an(side_name(other))} unit moves next "
                      f"(or the {side_name(other)} side says done)")
    return None


def turn_words(state: SkState, finishing: dict[str, str | None]) -> str:
    """Who moves which unit next, the same words to every reader (rules.md, Sequence of
    play). finishing: by side, his unit whose turn has not ended and that a figure may
    still move in (None: none)."""
    if any(side in state.done for side in state.sides):
        return ""
    nxt = next_side(state)
    other = state.opponent(nxt) if nxt else None
    if nxt is None:
        left = [f"the {side_name(s)} side may finish moving section {u}"
                for s, u in finishing.items() if u]
        return f" (units move in turn: {left[0]}, then done)" if left else ""
    words = f"{a_or_an(side_name(nxt))} unit next"
    if finishing.get(other):
        words += f"; until it moves, the {side_name(other)} side may finish moving " \
                 f"section {finishing[other]}"
    return f" (units move in turn: {words})"
