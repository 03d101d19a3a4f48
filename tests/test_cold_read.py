"""A long journal read cold is replayed while its lines are checked beside (store/checking.py).

Whatever is wrong with the journal (a byte edited, a line cut or moved, a torn tail, a
record sealed and chained again whose events cannot be replayed, both at once), the read
with its check beside ends as the read that checks each line before replaying it: the same
position, or the same error on the same record. The forked checker is reaped whatever ends
the read, and a checker that cannot answer is replaced by the check done here.
"""

from __future__ import annotations

import gzip
import json
import os
import tempfile
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.base.errors import RefereeError
from referee.engine.state import state_to_builtins
from referee.game import replay
from referee.store import beside, chain, checking
from referee.store.journal import Journal

GAME = gzip.decompress((Path(__file__).parent / "replays" / "ttlm-1914-seed7.jsonl.gz")
                       .read_bytes())
EDITS = [b"x", b"0", b'"', b"}", b"\\", b" ", b"1.5", b"\n", b""]


def _read(path: Path, raw: bytes, with_beside: bool, monkeypatch) -> tuple:
    """How a cold read of raw ends: the position, or the error."""
    monkeypatch.setattr(checking, "worth_beside", lambda _raw: with_beside)
    try:
        pos = replay.position(Journal(path), raw, None)
    except RefereeError as exc:
        return (type(exc).__name__, str(exc), getattr(exc, "record", None),
                getattr(exc, "torn", None))
    return (state_to_builtins(pos.state), pos.seq, pos.hash, pos.read)


def _rechained(lines: list[bytes], at: int, change) -> list[bytes]:
    """Record `at` changed by change(rec), sealed again, and every record after it chained
    again to it: a consistent chain (no signature is checked by a read)."""
    out = lines[:at]
    prev = json.loads(lines[at - 1])["hash"]
    for i, line in enumerate(lines[at:]):
        rec = json.loads(line)
        if i == 0:
            change(rec)
        rec["prev"] = prev
        rec = chain.seal({k: v for k, v in rec.items() if k != "hash"})
        prev = rec["hash"]
        out.append(chain.line_of(rec)[:-1])
    return out


def _unplayable(rec: dict) -> None:
    rec["events"] = [{"type": "UnitMoved", "unit": "no-such-unit", "to": "nowhere"}]


@given(st.data())
@settings(max_examples=40, deadline=None)
def test_a_cold_read_with_its_check_beside_ends_as_one_checked_line_by_line(case):
    lines = GAME.split(b"\n")[:-1]
    how = case.draw(st.sampled_from(["none", "bytes", "torn", "unplayable", "both", "moved"]))
    if how in ("unplayable", "both"):
        lines = _rechained(lines, case.draw(st.integers(1, len(lines) - 1)), _unplayable)
    if how in ("bytes", "both"):
        at = case.draw(st.integers(0, len(lines) - 1))
        pos = case.draw(st.integers(0, len(lines[at])))
        lines[at] = lines[at][:pos] + case.draw(st.sampled_from(EDITS)) + lines[at][pos + 1:]
    if how == "moved":
        lines.insert(case.draw(st.integers(1, len(lines))),
                     lines.pop(case.draw(st.integers(1, len(lines) - 1))))
    raw = b"\n".join(lines) + (b'\n{"seq":' if how == "torn" else b"\n")
    with tempfile.TemporaryDirectory() as tmp, pytest.MonkeyPatch.context() as monkeypatch:
        path = Path(tmp) / "game.jsonl"
        path.write_bytes(raw)
        assert _read(path, raw, True, monkeypatch) == _read(path, raw, False, monkeypatch)


def test_the_cases_above_reach_both_kinds_of_fault(tmp_path, monkeypatch):
    """The property above is not vacuous: a chain fault before a replay fault is the
    chain's, one after it the replay's, as a read line by line says; and a record whose
    order's words were edited replays well and is still found edited."""
    lines = _rechained(GAME.split(b"\n")[:-1], 40, _unplayable)
    cases = ((20, b'"seq":', b'"seq": ', 20), (60, b'"seq":', b'"seq": ', 40),
             (10, b'"order":"', b'"order":"x', 10))
    for edited, was, now, expected in cases:
        bad = list(lines)
        assert was in bad[edited]
        bad[edited] = bad[edited].replace(was, now, 1)
        if edited == 10:
            bad = bad[:40]                      # replayed to its end but for the edit
        raw = b"\n".join(bad) + b"\n"
        path = tmp_path / f"g{edited}.jsonl"
        path.write_bytes(raw)
        ends = _read(path, raw, True, monkeypatch)
        assert ends[0] == "JournalError" and ends[2] == expected, ends
        assert ends == _read(path, raw, False, monkeypatch)


def test_the_checker_is_reaped_and_one_that_cannot_answer_is_replaced(tmp_path, monkeypatch):
    forks = []
    real_fork = os.fork

    def fork():
        pid = real_fork()
        if pid:
            forks.append(pid)
        return pid

    monkeypatch.setattr(os, "fork", fork)
    path = tmp_path / "game.jsonl"
    path.write_bytes(GAME)
    whole = _read(path, GAME, False, monkeypatch)
    assert _read(path, GAME, True, monkeypatch) == whole
    bad = GAME.replace(b'"seq":30,', b'"seq":31,', 1)
    failed = _read(path, bad, True, monkeypatch)
    assert failed[0] == "JournalError" and failed[2] == 30
    parent, real_first_fault = os.getpid(), checking.first_fault

    def dies_in_the_child(*args):
        if os.getpid() != parent:
            os._exit(1)
        return real_first_fault(*args)

    monkeypatch.setattr(checking, "first_fault", dies_in_the_child)
    assert _read(path, bad, True, monkeypatch) == failed
    assert _read(path, GAME, True, monkeypatch) == whole
    assert len(forks) == 4
    for pid in forks:
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)


def test_a_check_beside_is_made_only_where_it_pays_and_is_safe(monkeypatch):
    """A long journal, a second processor, and no other thread (a fork would copy its
    locks as they stand)."""
    long = b"x" * checking.BESIDE_BYTES
    monkeypatch.setattr(checking, "processors", lambda: 2)
    assert checking.worth_beside(long) and not checking.worth_beside(long[1:])
    monkeypatch.setattr(checking, "processors", lambda: 1)
    assert not checking.worth_beside(long)
    monkeypatch.setattr(checking, "processors", lambda: 2)
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert not beside.alone() and not checking.worth_beside(long)
    finally:
        stop.set()
        other.join()
    assert beside.alone()
