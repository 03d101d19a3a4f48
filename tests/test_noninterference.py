"""What a reader is told must not depend on what he may not see (1.3, 1.4, 7.0).

From positions reached by random play (fixed seeds), pairs of positions that differ only in
something the reader may not see -- another side's hand, another side's sealed plan in
progress, under hidden templates what another side's armies hold (interference.py) -- must
give that reader byte-identical outputs: `report`, `status` and `show` as text and JSON, and
the mail he would get. Each game here also stops in its first production phase with one
side done and the other's plan begun (7.0), the position where the "Next" line a waiting
side is told once depended on the other side's secret plan (game/ahead.py, next_for).

`make test` plays two short games; the others are soaks (tests/soaks.py).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from interference import READERS, by_kind, differences, sealed_count

import gamecalls as g
from referee.base.errors import OrderError
from referee.cli import commands
from referee.contracts.orders import Done
from referee.engine import completes_plan, decide, legal_orders, sealed_for
from referee.game.autoplay import autoplay
from referee.game.drydice import DryDice

BIG = 10 ** 9           # autoplay's invariant checks are other tests' business


@dataclass(frozen=True)
class Spec:
    seed: int
    scenario: str
    hidden: bool
    stops: tuple[int, ...]      # records played before each random position is read
    game: str = "ttlm"
    quiet: bool = False         # both sides pass the first turn (no stop before production)

    @property
    def name(self) -> str:
        return f"s{self.seed}-{self.game}-{self.scenario}-" \
            f"{'hidden' if self.hidden else 'open'}{'-quiet' * self.quiet}"


GAMES = [
    Spec(1, "1914", True, ()),
    Spec(2, "1914", False, (), quiet=True),
    Spec(3, "1916", True, (5, 12, 20)),
    Spec(4, "1918", False, (4, 15, 30)),
    Spec(5, "1914", True, (2, 9, 25), "aac"),
    Spec(6, "1916", False, (8, 16)),
]


def new_game(spec: Spec, folder: Path) -> Path:
    journal = folder / f"{spec.name}.jsonl"
    secret = folder / "fixed.secret"
    secret.write_text(hashlib.sha256(f"interference-{spec.seed}".encode()).hexdigest() + "\n")
    secret.chmod(0o600)
    g.create_game(journal, spec.scenario, game_id=f"ni-{spec.seed}", secret_file=secret,
                  game=spec.game,
                  options=[f"hidden_templates={str(spec.hidden).lower()}"])
    autoplay(journal, spec.seed, max_records=0, check_every=BIG)
    return journal


def plans_begun(state, data) -> list:
    """From a position asking for sealed plans: each side done in turn (a plain 'done', or
    done already), the other, still open, with one order sealed that leaves his plan open."""
    out = []
    for first, second in (("german", "entente"), ("entente", "german")):
        if not sealed_for(state, second):
            continue
        after = state
        if sealed_for(state, first):
            try:
                _, after = decide(state, data, Done(), first,
                                  DryDice(state.game_id, state.seq + 1))
            except OrderError:      # a plan that may not close empty (arrivals: 2.0 I)
                continue
        order = next((o for o in by_kind(legal_orders(after, data, second))
                      if not completes_plan(after, data, second, [o])), None)
        if order is not None:
            _, begun = decide(after, data, order, second, DryDice(state.game_id, after.seq + 1))
            out.append(begun)
    return out


def to_production(journal: Path, spec: Spec) -> list:
    """Random play (or passes, for a quiet game) on to a production phase where one side
    done and the other's plan begun can be made (plans_begun): those positions."""
    if spec.quiet:
        for _ in range(4):
            game = g.open_game(journal)
            if game.state.phase == "production":
                return plans_begun(game.state, game.data)
            _, refused = commands.order(journal, game.state.pending.side, ["pass", "end turn"])
            assert refused is None, refused
    for _ in range(400):
        game = g.open_game(journal)
        if game.state.phase == "production":
            begun = plans_begun(game.state, game.data)
            if begun:
                return begun
        # Four records at a time up to the phase: a production phase is a record for each
        # order sealed, so a step seldom passes over it whole.
        step = 1 if game.state.phase == "production" else 4
        out = autoplay(journal, spec.seed, max_records=step, check_every=BIG)
        assert out.failure is None, out.failure
        if out.over:
            return []
    return []


def check(journal: Path, state, data, seed: int) -> tuple[list[str], Counter]:
    """What each reader is told differently of a variant of the position (differences)."""
    found, tried = [], Counter()
    for reader in READERS:
        f, t = differences(journal, state, data, reader, seed)
        found += f
        tried += t
    return found, tried


@pytest.mark.parametrize("spec", GAMES, ids=lambda s: s.name)
def test_a_reader_is_told_the_same_whatever_he_may_not_see(spec: Spec, tmp_path: Path):
    journal = new_game(spec, tmp_path)
    found, tried, played = [], Counter(), 0
    out = None
    for stop in spec.stops:
        out = autoplay(journal, spec.seed, max_records=stop - played, check_every=BIG)
        played = stop
        assert out.failure is None, out.failure
        if out.over:
            break
        game = g.open_game(journal)
        f, t = check(journal, game.state, game.data, spec.seed)
        found, tried = found + f, tried + t
    begun = to_production(journal, spec) if out is None or not out.over else []
    assert begun and all(sealed_count(s) == 1 for s in begun), \
        f"{spec.name}: no production phase with one side done and the other's plan begun"
    data = g.open_game(journal).data
    for s in begun:
        f, t = check(journal, s, data, spec.seed)
        found, tried = found + f, tried + t
    # Every kind of secret at stake in the game was varied somewhere (else the test would
    # pass on positions that hide nothing).
    assert {"hand", "plan"} | ({"template"} if spec.hidden else set()) <= set(tried), \
        f"{spec.name}: variants made: {dict(tried)}"
    assert not found, f"{spec.name}: a reader is told what he may not see:\n" + \
        "\n".join(found[:12])
