"""checks.may_fire, which every fire step's start asks of each figure as a journal is
replayed (decider._fit), answers as check_fire does for some order of the figure at one
enemy figure, but asks check_fire nothing of a firer barred whatever it fires at, nor of a
target in melee: its work no longer grows with the figures twice over, and its answer is
the same as asking every order."""

from __future__ import annotations

import random
import types

import pytest
from skirmish_cases import CARD, Table, figure

from referee.data.paths import default_games_dir
from referee.store.anydice import AnyDice
from referee.table.skirmish import checks
from referee.table.skirmish import decider as sk
from referee.table.skirmish import kind as K
from referee.table.skirmish.loading import load_skirmish
from referee.table.skirmish.order_text import SkOrder


def _every_order(card, state, f, kinds=checks.FIRES, any_step=False) -> bool:
    """may_fire as its docstring defines it: some order of f, of one of kinds at one enemy
    figure on the table, that check_fire takes."""
    fits = checks.fighting(state, f.id) or (checks.stepped(card, state) and f.id in state.fit
                                            and not f.surrendered)
    return fits and any(
        checks.check_fire(card, state, SkOrder(kind, f.id, {"at": [g.id], "range": 0,
                                                            "command": True}),
                          f, [g], any_step) is None
        for kind in kinds for g in state.figures.values() if g.side != f.side and g.active)


@pytest.fixture
def asked(monkeypatch) -> list:
    """The orders check_fire is asked of, as may_fire asks them."""
    seen: list = []
    real = checks.check_fire

    def counted(card, state, o, *rest, **kw):
        seen.append(o)
        return real(card, state, o, *rest, **kw)

    monkeypatch.setattr(checks, "check_fire", counted)
    return seen


@pytest.mark.parametrize("bar", ["fired", "rush", "contact", "melee"])
def test_a_firer_barred_whatever_it_fires_at_is_asked_of_no_order(asked, bar):
    t = Table(red=[figure("R1")], blue=[figure("B1"), figure("B2"), figure("B3")])
    r1 = t.fig("R1")
    if bar == "fired":
        r1.fired = True
    elif bar == "rush":
        r1.moved = "rush"
    elif bar == "contact":
        r1.contact = True
    else:
        t.fig("B1").attackers = ["R1"]
    assert not checks.may_fire(t.card, t.state, r1)
    assert asked == []


def test_targets_in_melee_are_not_asked_of_and_a_free_one_is(asked):
    t = Table(red=[figure("R1"), figure("R2"), figure("R3")],
              blue=[figure("B1"), figure("B2"), figure("B3")], card=CARD)
    t.fig("B1").attackers = ["R2"]                # B1 and R2 in melee this turn
    t.state.turn, t.fig("B0").melee_turn = 2, 1   # B0 in one last turn
    t.state.contacts = [{"defender": "B3", "attackers": ["R3"], "turn": 1}]   # held in one
    asked.clear()                                 # what setting the table up asked
    assert checks.may_fire(t.card, t.state, t.fig("R1"), any_step=True)
    assert [o.facts["at"] for o in asked] == [["B2"]]
    t.fig("B2").killed = True                     # no free target left: nothing is asked
    asked.clear()
    assert not checks.may_fire(t.card, t.state, t.fig("R1"), any_step=True)
    assert asked == []


@pytest.mark.parametrize("seed", [3, 7, 11])
def test_may_fire_answers_as_every_order_asked_at_every_step_of_random_games(seed):
    """Random patrol games of fire, moves into contact and melee: at every record, for
    every figure, kinds and step, may_fire answers as asking check_fire every order would,
    and check_fire told who is in melee answers as it does reading it figure by figure."""
    rnd = random.Random(seed)
    state = sk.initial_state(load_skirmish(default_games_dir() / "skirmish")
                             .scenarios["patrol"])
    secret = rnd.randbytes(32)
    figs = list(state.figures)
    for seq in range(1, 160):
        if state.over():
            break
        held = checks.in_melee_now(CARD, state)
        for f in state.figures.values():
            for kinds in (checks.FIRES, ("fire",), ("unaimed",)):
                for any_step in (False, True):
                    assert checks.may_fire(CARD, state, f, kinds, any_step) == \
                        _every_order(CARD, state, f, kinds, any_step), (seq, f.id, kinds)
            for g in state.figures.values():
                o = SkOrder("unaimed", f.id, {"at": [g.id], "range": 2, "command": True})
                assert checks.check_fire(CARD, state, o, f, [g], held=held) == \
                    checks.check_fire(CARD, state, o, f, [g])
        game = types.SimpleNamespace(card=CARD, state=state)
        side = sk.waiting(state)[0] if sk.waiting(state) else rnd.choice(state.sides)
        tries = [sk.SkOrder(v, f, x, "") for v in K._open_tests(game, side) for f in figs
                 for x in _facts(v, rnd, figs)]
        tries += [sk.SkOrder("melee", f.contact_at, {"attackers": [f.id]}, "")
                  for f in state.figures.values() if f.contact and f.contact_at]
        legal = [o for o in tries if sk.check(CARD, state, o, side) is None]
        into = [o for o in legal if o.facts.get("contact") or o.kind == "melee"]
        owed = checks.owed(CARD, state, side)
        o = sk.parse_order(owed[0], CARD) if owed else \
            rnd.choice(into) if into and rnd.random() < 0.2 else \
            rnd.choice(legal) if legal and rnd.random() < 0.8 else sk.SkOrder("done", None, {}, "")
        if sk.check(CARD, state, o, side) is not None:
            o = sk.SkOrder("done", sk.phase_of(CARD, state).phase, {}, "")
            if sk.check(CARD, state, o, side) is not None:
                break
        sk.evolve(CARD, state, sk.decide(CARD, state, o, side, AnyDice("g", seq, secret)), seq)
    assert seq > 40


def _facts(verb: str, rnd: random.Random, figs: list[str]) -> list[dict]:
    at = rnd.choice(figs)
    if verb == "move":
        return [{"mode": rnd.choice(list(CARD.movement.modes)), "away": False,
                 "contact": False, "command": True},
                {"mode": "assault", "contact": True, "at": [at], "command": True}]
    if verb in ("fire", "unaimed"):
        return [{"at": [at], "range": rnd.choice((2, 12)), "command": True,
                 **({"cover": "none", "state": "halted"} if verb == "fire" else {})}]
    if verb == "unpin":
        return [{"command": True}]
    return []
