"""player.md, A skirmish: "Only the orders that can be legal are listed". Random patrol and
duel games, fixed seeds: at every step, each verb a side is listed has an order within its
form that decider.check takes, and every order check takes fits a form listed to him
(done may be listed while the card compels a test first: his mail's first line names it)."""

from __future__ import annotations

import itertools
import random
import types

import pytest
import yaml
from pydantic import TypeAdapter
from skirmish_cases import CARD, DUEL

from referee.contracts.skirmish import SkirmishScenario
from referee.data.paths import default_games_dir
from referee.store.anydice import AnyDice
from referee.table.skirmish import decider as sk
from referee.table.skirmish import kind as K
from referee.table.skirmish.checks import owed
from referee.table.skirmish.listed import forms, still_open
from referee.table.skirmish.loading import load_skirmish

YN = (True, False)


def _scenario(name: str):
    if name == "patrol":
        return load_skirmish(default_games_dir() / "skirmish").scenarios["patrol"]
    return TypeAdapter(SkirmishScenario).validate_python(yaml.safe_load(DUEL))


def _candidates(state, side: str, verb: str, rnd: random.Random) -> list[sk.SkOrder]:
    """Orders of verb a player might send now: every subject, a few facts each."""
    own = [f for f in state.figures if state.figures[f].side == side]
    enemy = [f for f in state.figures if state.figures[f].side != side]
    ats = [[e] for e in enemy] + [list(p) for p in itertools.combinations(enemy, 2)][:3]
    pick = {k: getattr(CARD.facts, k) for k in ("light", "state", "cover")}
    out: list[tuple] = []
    if verb == "move":
        out = [(f, {"mode": m, "away": a, "contact": c, "command": cm}) for f in own
               for m in CARD.movement.modes for a in YN for c in YN for cm in YN]
    elif verb == "spot":
        out = [(f, {"at": at, "range": r, **{k: rnd.choice(v) for k, v in pick.items()}})
               for f in own for at in ats for r in (2, 30)]
    elif verb in ("fire", "unaimed"):
        out = [(f, {"at": at, "range": r, "command": cm, "cover": "none", "state": "halted"}
                if verb == "fire" else {"at": at, "range": r, "command": cm})
               for f in own for at in ats for r in (2, 30) for cm in YN]
    elif verb == "melee":
        out = [(d, {"attackers": list(a)}) for d in enemy for k in (1, 2)
               for a in itertools.combinations(own, k)]
    elif verb == "morale":
        out = [(s, {"trigger": t}) for s in state.sections for t in CARD.morale.triggers]
    elif verb == "rally":
        out = [(s, {}) for s in state.sections]
    elif verb == "unpin":
        out = [(f, {"command": cm}) for f in own for cm in YN]
    elif verb == "surrender":
        out = [(s, {"reason": "routing"}) for s in state.sections] + \
              [(f, {"reason": "melee"}) for f in state.figures]
    elif verb == "done":        # a side the step before asked nothing of names the phase
        out = [(None, {}), (CARD.sequence[state.phase].phase, {})]
    return [sk.SkOrder(verb, s, x, "") for s, x in out]


def _within(o: sk.SkOrder, form: str) -> bool:
    """Whether an order fits a listed form: its verb, and each value the form names."""
    verb, *words = form.split()
    named = dict(w.split("=", 1) for w in words if "=" in w)
    if verb != o.kind:
        return False
    for k, v in o.facts.items():
        if k == "at":
            if named.get("at") == "FIGURE" and len(v) != 1:
                return False
        elif k in named and not named[k].isupper():
            said = ("yes" if v else "no") if isinstance(v, bool) else str(v)
            if said not in named[k].split("|"):
                return False
    return True


def _play(seed: int, scenario: str, steps: int) -> None:
    rnd = random.Random(seed)
    state = sk.initial_state(_scenario(scenario))
    secret = rnd.randbytes(32)
    for seq in range(1, steps):
        if state.over() or state.turn > 4:
            return
        game = types.SimpleNamespace(card=CARD, state=state)
        verbs = [*K._open_tests(game), "done"]
        legal = {}
        for side in state.sides:
            listed = K._open_tests(game, side) if side in K.waited(game) else \
                still_open(CARD, state, side)       # what a side told he waits may send
            shown = forms(CARD, state, side, listed)
            legal[side] = [o for v in verbs for o in _candidates(state, side, v, rnd)
                           if sk.check(CARD, state, o, side) is None]
            where = f"seed {seed} {scenario} turn {state.turn} {sk.phase_of(CARD, state).phase}"
            for verb, form in zip(listed, shown):
                fits = [o for o in legal[side] if _within(o, form)]
                assert fits or (verb == "done" and owed(CARD, state, side)), \
                    f"{where}: {side} listed {form!r}, no order of it legal"
            for o in legal[side]:
                assert any(_within(o, f) for f in shown), \
                        f"{where}: {side}'s {o} legal, outside {shown}"
        side = rnd.choice([s for s in state.sides if legal[s]])
        rest = [o for o in legal[side] if o.kind != "done"]
        o = rnd.choice(rest if rest and rnd.random() < 0.7 else legal[side])
        sk.evolve(CARD, state, sk.decide(CARD, state, o, side, AnyDice("g", seq, secret)), seq)


@pytest.mark.parametrize("scenario,seed", [("patrol", 1), ("patrol", 4), ("duel", 1), ("duel", 2)])
def test_every_listed_order_can_be_legal_and_every_legal_one_is_listed(scenario, seed):
    _play(seed, scenario, 120)
