"""Motivation: firing needs a leader within command range. A figure may fire now exactly
when decider.check takes some order of it, whatever facts the order declares: a side none
of whose figures may is neither waited on in a fire step nor offered fire (checks.may_fire,
derived from check_fire itself)."""

from __future__ import annotations

import types

from skirmish_cases import CARD, Table, figure

from referee.data.paths import default_games_dir
from referee.table.skirmish import decider as sk
from referee.table.skirmish import kind as K
from referee.table.skirmish.listed import usable
from referee.table.skirmish.loading import load_skirmish


def _to_fire(state) -> None:
    while sk.phase_of(CARD, state).phase != "fire":
        for side in sk.waiting(state):
            sk.evolve(CARD, state, {"actor": side, "test": None}, 1)


def test_a_side_with_no_leader_left_is_not_waited_on_nor_offered_fire():
    t = Table(red=[figure("R1")], blue=[figure("B1")], phase="movement", card=CARD)
    t.fig("R0").killed, t.fig("R0").killed_turn = True, 0   # red's one leader is dead
    _to_fire(t.state)
    game = types.SimpleNamespace(card=CARD, state=t.state)
    assert K.waited(game) == ["blue"]
    for verb in ("fire", "unaimed"):
        assert not usable(CARD, t.state, "red", verb)
    t.state.done = []                      # even were he waited on, no fact makes it legal
    for command in ("yes", "no"):
        rule, why = t.refusal("red", f"fire R1 at=B1 range=5 state=halted cover=none "
                                     f"command={command}")
        assert rule in ("Motivation", "Sequence of Play"), why


def test_a_figure_whose_every_target_is_in_contact_is_not_waited_on():
    """Hand-to-Hand Combat: figures in melee can't be shot at. R1 stands free, with its
    leader, but each enemy figure is in contact: nothing of either side may fire, and the
    fire phase is passed over."""
    t = Table(red=[figure("R1", "veteran"), figure("R2")], blue=[figure("B1")],
              phase="movement", card=CARD)
    t.state.contacts = [{"defender": "B1", "attackers": ["R2"], "turn": 0},
                        {"defender": "B0", "attackers": ["R0"], "turn": 0}]
    while sk.phase_of(CARD, t.state).phase in ("movement", "artillery"):
        for side in sk.waiting(t.state):
            t.test(side, "done")
    assert sk.phase_of(CARD, t.state).phase == "melee"


def test_in_the_patrol_no_fire_step_waits_on_the_germans_once_g1_is_dead():
    state = sk.initial_state(load_skirmish(default_games_dir() / "skirmish")
                             .scenarios["patrol"])
    state.figures["G1"].killed, state.figures["G1"].killed_turn = True, 1
    # up to the melee phase, or the morale phase where an empty melee is passed over
    while sk.phase_of(CARD, state).phase not in ("melee", "morale"):
        if sk.phase_of(CARD, state).phase == "fire":
            assert "german" not in sk.waiting(state), state.fire_step
        for side in sk.waiting(state):
            sk.evolve(CARD, state, {"actor": side, "test": None}, 1)
