"""verify does each piece of its work once: what it must check it checks on every record,
and nothing it has worked out already is worked out again for each record."""

from __future__ import annotations

import json

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


def test_a_journal_that_keeps_its_contract_is_validated_once(played, monkeypatch):
    """Each record is held to its contract by the fast decoder as it is decided again;
    pydantic's validation of the same contract is asked only to word a break."""
    from referee.contracts import check

    asked = []
    monkeypatch.setattr(check, "problems", lambda *a, **k: asked.append(a) or [])
    assert verify(played).records >= 50
    assert asked == []


def _forged(journal, change) -> None:
    """The journal with change(records) made, chained and signed again by the key's holder."""
    from test_verify import _rechain, _rewrite

    records = [json.loads(line) for line in journal.read_bytes().splitlines()]
    change(records)
    _rewrite(journal, _rechain(records))


def _first_with(records, key):
    return next(r for r in records[1:] if key in r)


@pytest.mark.parametrize("change,said", [
    (lambda rs: rs[0].__setitem__("surprise", 1),
     "record 0 (the header) is malformed: Object contains unknown field `surprise`"),
    (lambda rs: rs[1].__setitem__("actor", 7), "record 1 breaks the journal's contract at "
                                               "$.actor: must be text, got 7"),
    (lambda rs: rs[3]["events"].insert(0, {"type": "NoSuchEvent"}),
     "record 3 breaks the journal's contract at $.events[0]: unknown type 'NoSuchEvent'"),
    (lambda rs: _first_with(rs, "dice").__setitem__("dice", ["six"]),
     "breaks the journal's contract at $.dice[0]"),
])
def test_a_record_that_breaks_its_contract_fails_verify_in_its_words(played, cli, change,
                                                                     said):
    _forged(played, change)
    r = cli("verify", played)
    assert r.exit_code == 3 and "OK" not in r.stdout
    assert said in r.stderr, r.stderr


def test_a_secret_part_of_the_wrong_shape_fails_verify(played, cli):
    def change(records):
        rec = next(r for r in records[1:] for ev in r.get("events", [])
                   if isinstance(ev.get("secret"), dict) and ev["secret"].get("data"))
        ev = next(ev for ev in rec["events"] if isinstance(ev.get("secret"), dict))
        ev["secret"]["data"] = {"surprise": [1]}

    _forged(played, change)
    r = cli("verify", played)
    assert r.exit_code == 3 and "OK" not in r.stdout
    assert "is malformed" in r.stderr and "secret.data" in r.stderr, r.stderr


def test_an_export_that_breaks_its_contract_fails_verify(played, cli):
    exported = played.with_name("public.jsonl")
    r = cli("log", played, "--format", "json")
    assert r.exit_code == 0
    exported.write_text(r.stdout)
    assert cli("verify", exported, "--export", "public").exit_code == 0
    _forged(exported, lambda rs: rs[2].__setitem__("surprise", 1))
    r = cli("verify", exported, "--export", "public")
    assert r.exit_code == 3 and "OK" not in r.stdout
    assert "record 2 breaks the journal's contract at $.surprise" in r.stderr, r.stderr
