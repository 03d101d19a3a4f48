"""Random play proposes an armistice where it is told to (3.2), for the tests that must read
one (test_leaks.py): at the record a Proposal names, by the side deciding then or the side it
names, ended by the order it names some records later (withdrawn, refused, accepted: the
game ends) or left open; at the same records whether the game is played at once or a few
records at a time; every invariant checked after each record and the journal verified."""

from __future__ import annotations

import json

import pytest

import gamecalls as g
from referee.game.autoplay import Proposal, autoplay


def _game(tmp_path, name: str):
    secret = tmp_path / "fixed.secret"
    secret.write_text(f"{7:064x}\n")
    secret.chmod(0o600)
    journal = tmp_path / f"{name}.jsonl"
    g.create_game(journal, "1914", game_id="proposals", secret_file=secret)
    return journal, secret


def _records(journal) -> list[dict]:
    return [json.loads(line) for line in journal.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("end, after, side", [("withdraw", 2, None), ("refuse", 0, "entente"),
                                              ("accept", 3, "german"), ("", 0, None)])
def test_a_proposal_comes_where_it_is_told_and_ends_as_told(tmp_path, end, after, side):
    journal, secret = _game(tmp_path, "once")
    start = autoplay(journal, 5, max_records=0).state.seq
    proposal = Proposal(start + 3, end, after, side)
    out = autoplay(journal, 5, max_records=12, proposals=(proposal,))
    assert out.failure is None, out.failure
    records = _records(journal)
    made = records[start + 4]
    assert made["order"] == "propose armistice", made
    assert made["actor"] == (side or _pending(records, start + 3)), made
    assert [e["type"] for e in made["events"]] == ["ArmisticeProposed"]
    armistice = _armistice(records)
    if not end:
        assert armistice == [made] and out.state.armistice == made["actor"]
    else:
        answer = records[start + 5 + after]
        other = next(s for s in ("german", "entente") if s != made["actor"])
        assert answer["order"] == f"{end} armistice", answer
        assert answer["actor"] == (made["actor"] if end == "withdraw" else other)
        assert armistice == [made, answer] and out.over == (end == "accept")
        assert out.over or out.state.armistice is None
    assert any("recomputed from the secret" in line for line in g.verify(journal, secret).lines)
    # a few records at a time (each call draws its own random orders): the same records
    (tmp_path / "chunks").mkdir()
    again, _ = _game(tmp_path / "chunks", "chunks")
    while len(_records(again)) < len(records):
        assert autoplay(again, 5, max_records=5, proposals=(proposal,)).failure is None
    assert [(r["seq"], r["order"]) for r in _armistice(_records(again))] == \
        [(r["seq"], r["order"]) for r in armistice]


def _armistice(records: list[dict]) -> list[dict]:
    """The records of armistice orders."""
    return [r for r in records if "armistice" in r.get("order", "")]


def _pending(records: list[dict], seq: int) -> str:
    """The side the records up to seq leave deciding (its last DecisionPending)."""
    for r in reversed(records[:seq + 1]):
        for e in reversed(r["events"]):
            if e["type"] == "DecisionPending":
                return e["side"]
    raise AssertionError("no decision pending")


def test_random_play_proposes_none_unless_told(tmp_path):
    journal, _ = _game(tmp_path, "plain")
    out = autoplay(journal, 5, max_records=40)
    assert out.failure is None and out.records == 40 and not _armistice(_records(journal))
