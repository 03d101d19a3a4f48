"""A sealed plan's worked-out state, kept through sealing, equals the one worked out afresh.

Each placement of a sealed reinforcement plan (2.0 I) is checked against the state the
side's own plan so far leaves. That state is kept when an order is sealed (events.KEEPS),
and only the orders sealed since are applied to it (sealed._worked_out): otherwise every
order of a long plan would apply the whole plan again. Here every such state, while verify
decides stored and random games again, is compared with the plan applied from scratch.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from gamecalls import create_game
from referee.engine import sealed
from referee.engine.core import Ctx
from referee.game.autoplay import autoplay
from referee.game.verification import verify

HERE = Path(__file__).parent / "replays"


def _from_scratch(s, d, side, effect, own):
    ctx = Ctx(s.clone(), d, sealed.NoDice())
    for o in own:
        effect(ctx, o, side)
    return ctx.state


@pytest.fixture
def compared(monkeypatch):
    """sealed._worked_out, checked against the whole plan applied to a copy of the state."""
    worked_out = sealed._worked_out
    seen = {"kept": 0, "compared": 0}

    def checked(s, d, side, effect, own):
        got = worked_out(s, d, side, effect, own)
        seen["kept"] += ("planned before", side) in s._cache
        seen["compared"] += 1
        assert got == _from_scratch(s, d, side, effect, own), \
            f"record {s.seq}: {side}'s kept plan state differs from a fresh one"
        return got

    monkeypatch.setattr(sealed, "_worked_out", checked)
    return seen


def test_every_plan_state_of_a_stored_game_equals_a_fresh_one(tmp_path, compared):
    journal = tmp_path / "g.jsonl"
    journal.write_bytes(gzip.decompress((HERE / "ttlm-1914-seed7.jsonl.gz").read_bytes()))
    journal.chmod(0o600)
    verify(journal)
    # Kept states were used and compared: the test cannot pass empty.
    assert compared["kept"] > 10 and compared["compared"] > 15, compared


@pytest.mark.parametrize("records, secret", [
    pytest.param(60, "5e" * 32, id="quick"),    # a fixed game whose first 60 records hold plans
    pytest.param(300, None, id="full")])
def test_every_plan_state_of_random_at_all_costs_equals_a_fresh_one(tmp_path, compared,
                                                                     records, secret):
    """Hidden templates on: placements into army templates are secret details of the plan."""
    journal = tmp_path / "aac.jsonl"
    secret_file = None
    if secret is not None:
        secret_file = tmp_path / "fixed.secret"
        secret_file.write_text(secret + "\n")
        secret_file.chmod(0o600)
    create_game(journal, "1914", game="aac", options=["hidden_templates=on"],
                game_id="aac-plans", secret_file=secret_file)
    autoplay(journal, 3, max_records=records, check_every=10_000)
    verify(journal)
    assert compared["kept"] > 5


def test_a_kept_plan_state_that_skips_the_new_orders_is_caught(tmp_path, monkeypatch,
                                                              compared):
    """Negative control: a kept state taken as the whole plan fails the comparison."""
    monkeypatch.setattr(sealed, "_worked_out", _stale_worked_out(sealed._worked_out))
    journal = tmp_path / "g.jsonl"
    journal.write_bytes(gzip.decompress((HERE / "ttlm-1914-seed7.jsonl.gz").read_bytes()))
    journal.chmod(0o600)
    with pytest.raises(AssertionError, match="kept plan state differs"):
        verify(journal)


def _stale_worked_out(checked):
    """The checked working out, with the kept state taken as if it held every order."""

    def stale(s, d, side, effect, own):
        got = s._cache.get(("planned before", side))
        if got is not None:
            s._cache[("planned before", side)] = (len(own), got[1])
        return checked(s, d, side, effect, own)

    return stale
