"""The referee's answer for a silent side (`--missed default`), for every kind of decision:
one for each kind registered, and wherever a side is asked, one of the orders open to him.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime
from pathlib import Path

import pytest
import yaml

import gamecalls as g
from casebook import SECRET, position
from referee.base.clock import NOW_VARIABLE
from referee.engine import decide, decide_plan, legal_orders, sealed_for, waiting_on
from referee.engine.core import DECISIONS
from referee.engine.order_text import format_order
from referee.game.defaults import DEFAULTS, default_answer
from referee.game.timeline import settings_fact
from referee.store.dice import Dice

START = datetime(2026, 11, 23, 18, 0, tzinfo=UTC)          # a Monday
ADDRESSES = {"german": "kaiser@example.org", "entente": "joffre@example.net",
             "moderator": "umpire@example.com"}


@pytest.fixture(autouse=True)
def clock(monkeypatch):
    """Every record of these games is made at START (the commands' clock)."""
    monkeypatch.setenv(NOW_VARIABLE, START.strftime("%Y-%m-%dT%H:%M:%SZ"))


def game(tmp_path: Path, base: str, steps: list[tuple[str, str, str | None]],
         dice: str = "manual", **changes) -> Path:
    """A game of the base scenario with the changes (casebook.position), the players of
    ADDRESSES, deadlines of 48h with the policy default, and the steps played: (side,
    order, forced dice)."""
    spath = tmp_path / "case.yaml"
    spath.write_text(yaml.safe_dump(position(base, **changes), sort_keys=False),
                     encoding="utf-8")
    secret = tmp_path / "case.secret"
    secret.write_text(SECRET + "\n")
    secret.chmod(0o600)
    journal = tmp_path / "case.jsonl"
    g.create_game(journal, str(spath), dice, game_id="defaults", secret_file=secret,
                  players=[f"{side}={a}" for side, a in ADDRESSES.items()],
                  clock=settings_fact("48h", "24h,2h", "default", 2, False))
    for side, text, rolls in steps:
        r = g.submit(journal, side, [text], rolls)
        assert r.rejected is None, (text, r.rejected and r.rejected[2])
    return journal


# ---------------------------------------------------------------- the table

def test_every_decision_kind_has_a_default():
    assert set(DEFAULTS) == set(DECISIONS)
    assert all(isinstance(steps, tuple) and steps for steps in DEFAULTS.values())


def test_no_answer_for_a_side_not_asked(tmp_path):
    journal = game(tmp_path, "1914", [])
    st = g.open_game(journal)
    assert st.state.pending.side == "german"
    assert default_answer(st.state, st.data, "entente") is None


# ---------------------------------------------------------------- every decision

@pytest.mark.parametrize("scenario, turns, options", [
    ("1914", 3, None),
    ("1918", 2, ["hidden_templates=true", "defender_scramble=true"])])
def test_every_decision_of_a_random_game_has_a_legal_answer(tmp_path, scenario, turns,
                                                             options):
    """Random legal play: wherever a side is asked, the referee has an answer for him, and
    it is one of the orders status lists."""
    secret = tmp_path / "p.secret"
    secret.write_text(SECRET + "\n")
    secret.chmod(0o600)
    journal = tmp_path / "p.jsonl"
    g.create_game(journal, scenario, options=options, game_id="p", secret_file=secret)
    opened = g.open_game(journal)
    state, data = opened.state, opened.data
    rng, n, kinds = random.Random(7), 0, set()
    last = state.turn + turns - 1
    while state.phase != "over" and state.turn <= last:
        for side in waiting_on(state):
            listed = {format_order(o) for o in legal_orders(state, data, side)}
            answer = default_answer(state, data, side)
            assert answer is not None and answer.text in listed, (state.pending, answer)
            kinds.add(state.pending.kind)
        side = state.pending.side
        order = rng.choice([o for o in legal_orders(state, data, side)
                            if o.kind != "armistice"])
        n += 1
        dice = Dice("p", n, bytes.fromhex(SECRET))
        if sealed_for(state, side):
            _, state = decide_plan(state, data, [(format_order(order), order)], side, dice,
                                   in_place=True)
        else:
            _, state = decide(state, data, order, side, dice, format_order(order),
                              in_place=True)
    assert {"losses", "reinforce", "battle_order", "discard_excess"} <= kinds, kinds
