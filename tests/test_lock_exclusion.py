"""A journal on a file system whose lock does not exclude (flock succeeds for everyone, as on
some network mounts) refuses the append that would fork it, and `new --game-id` takes only
ids that fit a mail subject."""

from __future__ import annotations

import errno
import multiprocessing
import os
from pathlib import Path

import pytest

from referee.base.errors import StorageError
from referee.base.gameids import games_named, other_game
from referee.store import journal as jm
from referee.store import landing
from referee.store.journal import Journal
from referee.store.signing import new_key


def _record(order: str) -> dict:
    return {"at": "t", "actor": "german", "order": order,
            "events": [{"type": "Passed", "side": "german"}]}


def _journal(path: Path) -> Journal:
    j = Journal(path)
    j.create({"kind": "header", "game_id": "x", "dice": {"mode": "committed",
                                                         "commitment": "00"}},
             key=new_key())
    j.append(lambda recs: [_record("first")])
    return j


def test_a_lock_that_does_not_exclude_is_refused_not_forked(tmp_path, monkeypatch):
    """The second appender runs between the first one's read and its write, as a lock that
    lets both in allows: the first is refused and the journal keeps one chain with the
    other's record (today's code wrote over it: both 'succeeded', one record was kept)."""
    monkeypatch.setattr(jm, "take", lambda fd, exclusive, what: None)
    j = _journal(tmp_path / "j.jsonl")
    _refused_beside(j, "the other run", "this run")
    records = j.read()                                      # one chain, nothing forked
    assert [r["order"] for r in records[1:]] == ["first", "the other run"]
    j.append(lambda recs: [_record("next")])
    assert [r["seq"] for r in j.read()] == [0, 1, 2, 3]


@pytest.mark.parametrize("third", ["third", "third run"])
def test_a_late_cut_keeps_a_record_appended_after_an_earlier_cut(tmp_path, monkeypatch, third):
    """Two refused runs cut the same off-chain line, a lock that lets everyone in: the first
    cuts; a third run then appends, lands where it meant to and is told so; the second,
    which read the file before all this, must not cut the third's record away (it used to
    truncate to the length it had worked out from its older read). "third" makes the
    third's line as long as the line cut, so that the file's length alone cannot tell."""
    monkeypatch.setattr(jm, "take", lambda fd, exclusive, what: None)
    j = _journal(tmp_path / "j.jsonl")
    with open(j.path, "ab") as fh:                      # a refused run's line, off the chain
        fh.write(Journal(j.path).raw().splitlines(keepends=True)[-1])
    late = os.open(j.path, os.O_RDWR | os.O_APPEND)
    early = os.open(j.path, os.O_RDWR | os.O_APPEND)
    plain = _checking(j.name)

    def meanwhile(line: bytes, n: int, prev):
        """The late cutter's check of each line it read; at the off-chain one, the early
        cutter and the third run go first."""
        try:
            return plain(line, n, prev)
        except Exception:
            landing.cut_to_chain(early, plain)
            Journal(j.path).append(lambda recs: [_record(third)])
            raise

    try:
        landing.cut_to_chain(late, meanwhile)
    finally:
        os.close(late)
        os.close(early)
    assert [r.get("order") for r in j.read()] == [None, "first", third]
    lines = j.raw().splitlines()
    assert (len(lines[2]) == len(lines[1])) == (third == "third")


def test_a_failed_write_keeps_a_record_another_run_appended_meanwhile(tmp_path, monkeypatch):
    """A run's write fails half way (a full disk) after another run, let in by a lock that
    does not exclude, appended and was told so: the failed run cuts back its own bytes
    only, not to the size it read (which took the other's record away, and then said the
    journal was as it was)."""
    monkeypatch.setattr(jm, "take", lambda fd, exclusive, what: None)
    j = _journal(tmp_path / "j.jsonl")
    written = jm.home.write_all

    def build(records):
        Journal(j.path).append(lambda recs: [_record("the other run")])
        monkeypatch.setattr(jm.home, "write_all", _full_after_half(written))
        return [_record("this run")]

    with pytest.raises(StorageError, match="locks do not exclude") as refused:
        j.append(build)
    assert "as it was" not in str(refused.value)
    monkeypatch.setattr(jm.home, "write_all", written)
    assert [r["order"] for r in j.read()[1:]] == ["first", "the other run"]
    j.append(lambda recs: [_record("next")])
    assert [r["seq"] for r in j.read()] == [0, 1, 2, 3]


def test_a_failed_write_alone_is_cut_back_to_the_journal_as_it_was(tmp_path, monkeypatch):
    j = _journal(tmp_path / "j.jsonl")
    before = j.raw()
    monkeypatch.setattr(jm.home, "write_all", _full_after_half(jm.home.write_all))
    with pytest.raises(StorageError, match="the journal is as it was"):
        j.append(lambda recs: [_record("this run")])
    assert j.raw() == before


def test_a_record_the_same_as_another_runs_is_refused_not_written_twice(tmp_path, monkeypatch):
    """Two runs let in together append the very same record (same order, same second, and a
    signature that is the same for the same hash): the later finds its bytes where it meant
    them, written by the other; where its own write ended tells it apart."""
    monkeypatch.setattr(jm, "take", lambda fd, exclusive, what: None)
    j = _journal(tmp_path / "j.jsonl")
    _refused_beside(j, "the same order", "the same order")
    assert [r["order"] for r in j.read()[1:]] == ["first", "the same order"]


def _refused_beside(j: Journal, other: str, this: str) -> None:
    """An append of `this` refused: another run appends `other` between its read and its
    write, as a lock that lets both in allows."""
    def build(records):
        Journal(j.path).append(lambda recs: [_record(other)])
        return [_record(this)]

    with pytest.raises(StorageError, match="locks do not exclude"):
        j.append(build)


def _full_after_half(write):
    """A write that writes half its bytes and then finds the disk full."""
    def half_then_full(fd, data):
        write(fd, data[:len(data) // 2])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    return half_then_full


def _checking(name: str):
    """The chain check a journal hands its cut."""
    return lambda line, n, prev: jm.check_line(line, n, prev, name)


def _append_many(path: str, name: str, start, results) -> None:
    jm._lock = lambda fd, exclusive: None
    start.wait()
    told: dict[str, bool] = {}
    for i in range(5):
        order = f"{name}-{i}"
        try:
            Journal(Path(path)).append(lambda recs, order=order: [_record(order)])
            told[order] = True
        except Exception:  # noqa: BLE001 - a refusal, or a journal seen mid-change
            told[order] = False
    results.put(told)


def test_concurrent_appenders_without_exclusion_keep_every_success(tmp_path):
    """Four processes append at once with a lock that lets everyone in: whatever each is
    told, the journal is one unbroken chain holding every append said to succeed and none
    said to be refused."""
    j = _journal(tmp_path / "j.jsonl")
    ctx = multiprocessing.get_context("fork")
    start, results = ctx.Barrier(4), ctx.Queue()
    procs = [ctx.Process(target=_append_many, args=(str(j.path), f"p{k}", start, results))
             for k in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(30)
    told: dict[str, bool] = {}
    for _ in procs:
        told.update(results.get(timeout=5))
    kept = [r["order"] for r in j.read()[2:]]
    assert len(told) == 20 and len(kept) == len(set(kept))
    assert set(kept) == {order for order, ok in told.items() if ok}


@pytest.mark.parametrize("bad", ["", "war\nX-Evil: 1", "a" * 65, "war game", "war_1", "wär"])
def test_new_refuses_a_game_id_that_does_not_fit_a_subject(tmp_path, cli, bad):
    journal = tmp_path / "g.jsonl"
    r = cli("new", journal, "--scenario", "1914", "--game-id", bad)
    assert r.exit_code != 0
    assert "--game-id" in r.stderr and "letters, digits and '-'" in r.stderr
    assert "Traceback" not in r.output and not journal.exists()


def test_new_takes_a_game_id_of_64_letters_digits_and_dashes(tmp_path, cli):
    r = cli("new", tmp_path / "g.jsonl", "--scenario", "1914", "--game-id", "a-1" * 21 + "b")
    assert r.exit_code == 0, r.stderr


@pytest.mark.parametrize("subject, named", [
    ("Re: [referee war #12] german report", {"war"}),
    ("[EXT] Re: [referee war #12] [2nd-try] german report", {"war"}),
    ("Re: [PATCH] [2] [e-mail] orders", set()),
    # Only the referee's own tag names a game: a bracket shaped like a game id is the
    # sender's ([2nd-try]) or a mailing list's as often as it is an id.
    ("[ttlm-1914-deadbeef] orders", set()),
    ("[aac-1914-x] [ttlm-1914-deadbeef]", set()),
    ("[referee aac-1914-x #3] [referee ttlm-1914-deadbeef #4]", {"aac-1914-x",
                                                                "ttlm-1914-deadbeef"}),
])
def test_what_names_a_game_in_a_subject(subject, named):
    assert games_named(subject) == named


def test_a_subject_naming_our_game_is_not_another_game():
    assert other_game("Re: [referee TTLM-1914-ABC #3] orders", "ttlm-1914-abc") is None
    assert other_game("Re: [referee ttlm-1914-deadbeef #3] orders", "mailtest") == \
        "ttlm-1914-deadbeef"
    assert other_game("Re: [ttlm-1914-deadbeef] orders", "mailtest") is None
