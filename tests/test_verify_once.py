"""verify does each piece of its work once: what it must check it checks on every record,
and nothing it has worked out already is worked out again for each record."""

from __future__ import annotations

import pytest

import gamecalls as g
from referee.game.autoplay import autoplay
from referee.game.verification import verify
from referee.store import signing


@pytest.fixture
def played(tmp_path, secret_file):
    """A game of some fifty records of random play."""
    journal = tmp_path / "played.jsonl"
    g.create_game(journal, "1914", game_id="once", secret_file=secret_file)
    autoplay(journal, 5, max_records=50, check_every=10**9)
    return journal


def test_a_key_fingerprint_is_worked_out_once_not_for_each_record(played, monkeypatch):
    calls = []
    real = signing.fingerprint
    monkeypatch.setattr(signing, "fingerprint", lambda public: calls.append(1) or real(public))
    found = verify(played)
    assert found.records >= 50 and found.keys
    assert 0 < len(calls) <= 3


def test_deciding_each_record_again_reads_no_clock(played, monkeypatch):
    """The time of a record decided again is never compared: verify reads no clock for it
    (REFEREE_NOW that is no time would stop every read of the clock)."""
    monkeypatch.setenv("REFEREE_NOW", "not a time")
    found = verify(played)
    assert found.records >= 50
