"""What a side's `done` closes (card.yaml `dones_asked`): the side's part of what the game
asks it now, never a later phase it has not been shown. A step or phase that asked one side
alone ends with that side's done; the other, told it was asked nothing, may send a done of
its own meant for it. Taken as it stood, that done would close the next phase for him, a
melee, a rally, an unpin lost unseen. So until the side so passed over makes a record of
the new phase, a bare done from it is refused, saying what ended, by whose done, and what
is asked now; `done PHASE` (`done melee`) closes the phase it names, when the game is in it.
"""

from __future__ import annotations

from ...base.plurals import joined
from ...contracts.skirmish import SkirmishCard
from ...render.documents import side_name
from .checks import firing_now
from .state import SkState

FLOW = "Sequence of Play"


def ended_what(card: SkirmishCard, state: SkState) -> str:
    """The step or phase the game is in, as a refusal names it."""
    now = firing_now(card, state)
    if now:
        return f"the fire step of {joined(now)} figures"
    return f"the {card.sequence[state.phase].phase} phase"


def before_done(card: SkirmishCard, state: SkState) -> tuple[list[str], str]:
    """What a done about to be applied may end: the sides not asked in it, and its name."""
    return list(state.passed), ended_what(card, state)


def after_done(card: SkirmishCard, state: SkState, was: tuple[list[str], str],
               seq: int) -> None:
    """Note, after a done that ended a step or phase, the sides it asked nothing of that are
    asked now: their bare done is refused until they make a record of it."""
    if not card.dones_asked:
        return
    passed, what = was
    state.unasked = [s for s in passed if s not in state.done]
    state.ended = {"record": seq, "what": what}


def spoke(state: SkState, side: str) -> None:
    """A record of the side's in the phase: it has seen what the phase asks."""
    if side in state.unasked:
        state.unasked = [s for s in state.unasked if s != side]


def stray_done(card: SkirmishCard, state: SkState, subject: str | None, side: str
               ) -> tuple[str, str] | None:
    """Why a done cannot be taken as sent, or None: one naming a phase the game is not in,
    or a bare one from a side the step or phase that ended asked nothing."""
    phase = card.sequence[state.phase].phase
    now = ended_what(card, state)
    if subject is not None:
        if subject.casefold() == phase:
            return None
        return FLOW, (f"done {subject}: the game is in {now} (turn {state.turn}); "
                      f"'done {phase}' closes the {side_name(side)} side's part of it")
    if side not in state.unasked:
        return None
    ended = state.ended or {}
    other = side_name(state.opponent(side))
    waits = joined([side_name(s) for s in state.sides if s not in state.done])
    return FLOW, (f"done: {ended.get('what', 'the step before')} asked nothing of the "
                  f"{side_name(side)} side, and the {other} side's done (#{ended.get('record')})"
                  f" ended it; {now} now asks the {waits} side"
                  f"{'s' if ' and ' in waits else ''}: 'done {phase}' closes the "
                  f"{side_name(side)} side's part of it")


def not_asked(card: SkirmishCard, state: SkState, side: str, why: str) -> str:
    """A done from a side nothing is asked of now, refused (card dones_asked): why, and
    whom the game waits on, so the player sees his done would close nothing of his."""
    waits = [side_name(s) for s in state.sides if s not in state.done]
    if not card.dones_asked or not waits:
        return why
    return (f"done: nothing is asked of the {side_name(side)} side now ({why}); "
            f"{ended_what(card, state)} waits on the {joined(waits)} "
            f"side{'s' if len(waits) > 1 else ''}")


def named_phase_ok(card: SkirmishCard, subject: str | None) -> bool:
    """A done may name a phase of the card's sequence, and only on a card with dones_asked."""
    return subject is None or bool(card.dones_asked) and \
        subject.casefold() in [p.phase for p in card.sequence]



def done_words(card: SkirmishCard, state: SkState, sides: list[str]) -> str:
    """The done that closes the part of what is asked now of sides (the side asked, or
    those the game waits on), as a prompt tells it: `done PHASE` from a side whose bare
    done stray_done refuses, plain `done` from any other; both when they differ
    ('done (the German side: done melee)'), so that each reads the order taken from him."""
    phase = card.sequence[state.phase].phase
    named = [side_name(s) for s in sides if card.dones_asked and s in state.unasked]
    if not named:
        return "done"
    if len(named) == len(sides):
        return f"done {phase}"
    return f"done (the {joined(named)} side: done {phase})"
