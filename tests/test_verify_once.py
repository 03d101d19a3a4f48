"""verify does each piece of its work once: what it must check it checks on every record,
and nothing it has worked out already is worked out again for each record."""

from __future__ import annotations

import json

import pytest

import gamecalls as g
from referee.game.autoplay import autoplay
from referee.game.verification import verify
from referee.store import signing
from referee.store.journal import canonical


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
    # Once a key by each reader of the signatures (a short journal's checker runs in this
    # process), never once a record.
    assert 0 < len(calls) <= 4 < found.records // 10


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
    """The journal with change(records) made, chained and signed again by the key's holder
    (who then puts it in place of the game on purpose: the mark of what he wrote goes)."""
    from forging import forget_mark
    from test_verify import _rechain, _rewrite

    forget_mark(journal)
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


def _dated_back(records: list[dict]) -> None:
    """The last record dated an hour before the one it follows."""
    from datetime import datetime, timedelta

    before = datetime.fromisoformat(records[-2]["at"]) - timedelta(hours=1)
    records[-1]["at"] = before.strftime("%Y-%m-%dT%H:%M:%SZ")


def test_the_warning_of_times_gone_back_is_of_the_bytes_verified(played):
    """verify sees each record's time as it reads the record for its other checks: the bytes
    it was given, not the file read again (which here holds no such record)."""
    from test_verify import _rechain

    records = [json.loads(line) for line in played.read_bytes().splitlines()]
    _dated_back(records)
    raw = b"".join(canonical(r) + b"\n" for r in _rechain(records))
    assert verify(played).times is None
    found = verify(played, raw=raw)
    assert found.times.startswith(f"times: warning: 1 record is dated before a record it "
                                  f"follows (the first: record {len(records) - 1} at ")


def test_a_skirmish_dated_back_is_verified_with_the_warning(patrol, cli):
    for side, text in (("british", "move B2 mode=manoeuvre command=yes"),
                       ("german", "move G2 mode=stealthy command=yes")):
        r = cli("skirmish", "order", patrol, "--as", side, text)
        assert r.exit_code == 0, r.stderr
    _forged(patrol, _dated_back)
    r = cli("verify", patrol)
    assert r.exit_code == 0 and r.stdout.rstrip().endswith("verify: OK"), r.output
    assert "times: warning: 1 record is dated before a record it follows" in r.stdout


def _lines_of(journal) -> list[bytes]:
    return journal.read_bytes().splitlines(keepends=True)


def test_signatures_checked_beside_are_read_without_the_chain_again(played):
    """The process checking signatures beside verify reads what a signature needs of each
    line, not the chain again (verify checks it): a line edited after it was signed, its
    hash kept, holds it up no more than it holds up that record's signature."""
    from referee.store.authorship import _check_all

    lines = _lines_of(played)
    lines[5] = lines[5].replace(b'"actor":"', b'"actor":"x', 1)        # edited, hash kept
    assert _check_all(b"".join(lines), "j") == {}
    forged = json.loads(lines[9])
    forged["sig"] = forged["sig"][:-2] + ("AA" if forged["sig"][-2:] != "AA" else "BA")
    lines[9] = canonical(forged) + b"\n"
    assert _check_all(b"".join(lines), "j")["record"] == 9


@pytest.mark.parametrize("first", ["edited", "forged"])
def test_verify_names_the_first_of_a_broken_chain_and_a_forged_signature(played, cli, first):
    """A line that breaks the chain and a signature that is not the key's: verify names the
    first of them, as what it is."""
    lines = _lines_of(played)
    edited, forged = (5, 9) if first == "edited" else (9, 5)
    lines[edited] = lines[edited].replace(b'"actor":"', b'"actor":"x', 1)
    rec = json.loads(lines[forged])
    rec["sig"] = rec["sig"][:-2] + ("AA" if rec["sig"][-2:] != "AA" else "BA")
    lines[forged] = canonical(rec) + b"\n"
    played.write_bytes(b"".join(lines))
    r = cli("verify", played)
    assert r.exit_code == 3 and "OK" not in r.stdout
    if first == "edited":
        assert "record 5 was edited" in r.stderr, r.stderr
    else:
        assert "record 5: its signature is not by the game's key" in r.stderr, r.stderr
