"""A long journal read cold is replayed while its lines are checked beside (store/checking.py).

Whatever is wrong with the journal (a byte edited, a line cut or moved, a torn tail, a
record sealed and chained again whose events cannot be replayed or whose secret data is
out of shape, two at once), the read with its check beside, begun by the replay or before
it (as a Table begins it), ends as the read that checks each line before replaying it: the
same position, or the same error on the same record. The forked checker is reaped whatever ends
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
from forking import count_forks
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.base.errors import RefereeError
from referee.engine.state import state_to_builtins
from referee.game import replay
from referee.game.records import parts_checked
from referee.store import beside, chain, checking, snapshot
from referee.store.journal import Journal

GAME = gzip.decompress((Path(__file__).parent / "replays" / "ttlm-1914-seed7.jsonl.gz")
                       .read_bytes())
EDITS = [b"x", b"0", b'"', b"}", b"\\", b" ", b"1.5", b"\n", b""]


def _read(path: Path, raw: bytes, with_beside: bool, monkeypatch, early: bool = False) -> tuple:
    """How a cold read of raw ends: the position, or the error. early: its check begun before
    the replay reads anything, as the Table begins it (table/campaign.py)."""
    monkeypatch.setattr(checking, "worth_beside", lambda _raw: with_beside)
    check = checking.start(raw, path.name, parts_checked) if early else None
    try:
        pos = replay.position(Journal(path), raw, None, check=check)
    except RefereeError as exc:
        return (type(exc).__name__, str(exc), getattr(exc, "record", None),
                getattr(exc, "torn", None))
    finally:
        if check is not None:
            check.close()
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


# Secret data out of its shape, in a record that keeps its own: an event's (what the events
# replayed store), an order's words, a part the moderator alone may read given to a side.
SECRET_FAULTS = ("event", "private order", "mail")
WITH_SECRETS = [n for n, line in enumerate(GAME.split(b"\n")[:-1])
                if n and b'"data":{' in line and b'"private_order":{' in line]


def _secret_broken(how: str):
    def change(rec: dict) -> None:
        if how == "event":
            secret = next(e["secret"] for e in rec["events"] if e.get("secret"))
            secret["data"] = {"orders": 7}
        elif how == "private order":
            rec["private_order"]["data"] = {"orders": 7}
        else:
            rec["mail"] = {"data": None, "salt": "00", "to": "german"}
    return change


@pytest.mark.parametrize("examples", [pytest.param(4, id="quick"), pytest.param(40, id="full")])
def test_a_cold_read_with_its_check_beside_ends_as_one_checked_line_by_line(examples):
    settings(max_examples=examples, deadline=None)(given(st.data())(_ends_as_line_by_line))()


def _ends_as_line_by_line(case):
    lines = GAME.split(b"\n")[:-1]
    how = case.draw(st.sampled_from(["none", "bytes", "torn", "unplayable", "both", "moved",
                                     "secret", "secret and bytes", "secret and unplayable"]))
    if how.startswith("secret"):
        broken = _secret_broken(case.draw(st.sampled_from(SECRET_FAULTS)))
        lines = _rechained(lines, case.draw(st.sampled_from(WITH_SECRETS)), broken)
    if how in ("unplayable", "both", "secret and unplayable"):
        lines = _rechained(lines, case.draw(st.integers(1, len(lines) - 1)), _unplayable)
    if how in ("bytes", "both", "secret and bytes"):
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
        line_by_line = _read(path, raw, False, monkeypatch)
        assert _read(path, raw, True, monkeypatch) == line_by_line
        assert _read(path, raw, True, monkeypatch, early=True) == line_by_line


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


def test_secret_data_out_of_shape_is_found_beside_in_records_read_into_their_class(
        tmp_path, monkeypatch):
    """The replay applies what a record's secret parts carry without validating it; for the
    records taken straight into their class, the check beside validates it (here, in this
    process, nothing does), and its fault is the one a read line by line reports."""
    parent, here = os.getpid(), []

    def counted(rec: dict, name: str) -> None:
        if os.getpid() == parent:
            here.append(rec["seq"])
        parts_checked(rec, name)

    monkeypatch.setattr(replay, "parts_checked", counted)
    at = WITH_SECRETS[len(WITH_SECRETS) // 2]
    for how, where in zip(SECRET_FAULTS, ("$.events[", "$.private_order.data", "$.mail.to")):
        raw = b"\n".join(_rechained(GAME.split(b"\n")[:-1], at, _secret_broken(how))) + b"\n"
        path = tmp_path / "game.jsonl"
        path.write_bytes(raw)
        ends = _read(path, raw, True, monkeypatch)
        assert ends[0] == "JournalError" and ends[2] == at, ends
        assert f"record {at} is malformed" in ends[1] and where in ends[1], ends
        assert here == []
        assert ends == _read(path, raw, False, monkeypatch)


def test_a_record_read_line_by_line_is_judged_by_its_own_check(tmp_path, monkeypatch):
    """After the first batch that cannot be taken into the record class, records are read
    line by line with every check of their contract: a record both out of shape and with
    secret data out of shape is refused for its shape first, as a read line by line does,
    whatever the check beside found in its secret data."""
    lines = _rechained(GAME.split(b"\n")[:-1], 150, _float_in)
    at = next(n for n in WITH_SECRETS if n > 200)

    def both(rec: dict) -> None:
        _secret_broken("event")(rec)
        rec["actor"] = ""

    raw = b"\n".join(_rechained(lines, at, both)) + b"\n"
    path = tmp_path / "game.jsonl"
    path.write_bytes(raw)
    line_by_line = _read(path, raw, False, monkeypatch)
    assert line_by_line[2] == at and "$.actor" in line_by_line[1], line_by_line
    assert _read(path, raw, True, monkeypatch) == line_by_line
    assert _read(path, raw, True, monkeypatch, early=True) == line_by_line


def _order_edited(at: int) -> bytes:
    """The game with record at's order words edited: it replays, only its check fails."""
    lines = GAME.split(b"\n")
    assert b'"order":"' in lines[at]
    lines[at] = lines[at].replace(b'"order":"', b'"order":"x', 1)
    return b"\n".join(lines)


@pytest.fixture
def forks(monkeypatch) -> list[int]:
    """The pids of the checkers forked: each must be reaped when the read ends."""
    pids = count_forks(monkeypatch)
    yield pids
    for pid in pids:
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)


def test_the_checker_is_reaped_and_one_that_cannot_answer_is_replaced(
        tmp_path, monkeypatch, forks):
    path = tmp_path / "game.jsonl"
    path.write_bytes(GAME)
    whole = _read(path, GAME, False, monkeypatch)
    assert _read(path, GAME, True, monkeypatch) == whole
    bad = _order_edited(30)
    failed = _read(path, bad, True, monkeypatch)
    assert failed[0] == "JournalError" and failed[2] == 30 and "does not match" in failed[1]
    parent, real_first_fault = os.getpid(), checking.first_fault

    def dies_in_the_child(*args):
        if os.getpid() != parent:
            os._exit(1)
        return real_first_fault(*args)

    monkeypatch.setattr(checking, "first_fault", dies_in_the_child)
    assert _read(path, bad, True, monkeypatch) == failed
    assert _read(path, GAME, True, monkeypatch) == whole
    assert len(forks) == 4


def test_a_checker_whose_end_the_kernel_took_still_answers(tmp_path, monkeypatch, forks):
    """Started by a program that ignores SIGCHLD, the referee cannot wait for its checker:
    the kernel reaps it. Its answer, read whole from the pipe, is still the answer."""
    import signal

    path = tmp_path / "game.jsonl"
    bad = _order_edited(30)
    path.write_bytes(bad)
    expected = _read(path, bad, False, monkeypatch)
    before = signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    try:
        assert _read(path, bad, True, monkeypatch) == expected
        assert _read(path, GAME, True, monkeypatch) == _read(path, GAME, False, monkeypatch)
    finally:
        signal.signal(signal.SIGCHLD, before)
    assert len(forks) == 2


def test_an_interrupted_read_leaves_no_checker_behind(tmp_path, monkeypatch, forks):
    real_apply = replay.Era.apply

    def interrupted(self, state, rec):
        if replay.seq_and_hash(rec)[0] == 20:
            raise KeyboardInterrupt
        return real_apply(self, state, rec)

    monkeypatch.setattr(replay.Era, "apply", interrupted)
    path = tmp_path / "game.jsonl"
    path.write_bytes(GAME)
    with pytest.raises(KeyboardInterrupt):
        _read(path, GAME, True, monkeypatch)
    assert len(forks) == 1


@pytest.mark.parametrize("edited, ends_on", [(49, "JournalError"), (51, "UsageError")])
def test_an_error_that_names_no_record_is_placed_where_the_replay_stood(
        edited, ends_on, tmp_path, monkeypatch):
    """A replay error without a record number (a usage error from the data a record names)
    comes after a fault the check found before that record, and before one after it."""
    from referee.base.errors import UsageError

    real_apply = replay.Era.apply

    def refused(self, state, rec):
        if replay.seq_and_hash(rec)[0] == 50:
            raise UsageError("the data this record names is not here")
        return real_apply(self, state, rec)

    monkeypatch.setattr(replay.Era, "apply", refused)
    bad = _order_edited(edited)
    path = tmp_path / "game.jsonl"
    path.write_bytes(bad)
    ends = _read(path, bad, True, monkeypatch)
    assert ends[0] == ends_on and ends == _read(path, bad, False, monkeypatch)


def _float_in(rec: dict) -> None:
    """A float where the contract takes any value (what the referee never writes)."""
    rec["events"] = rec["events"] + [{"info": {"x": 1.5}, "kind": "defence", "side": "entente",
                                      "type": "DecisionPending"}]


def _batches_counted(monkeypatch) -> list:
    """The list each batch a read tries to take straight into the record class is put in
    (None: one that could not be)."""
    batches = []
    real = checking._typed_batch

    def counted(*args):
        batches.append(real(*args))
        return batches[-1]

    monkeypatch.setattr(checking, "_typed_batch", counted)
    return batches


def test_a_cold_read_takes_its_records_straight_into_their_class(tmp_path, monkeypatch):
    """Read with its check beside, every batch of lines of a whole journal is decoded
    straight into the record class; from the first batch that cannot be (a float in it,
    though its chain holds), the rest is read line by line. Either way the read ends as
    the one that checks each line before replaying it."""
    batches = _batches_counted(monkeypatch)
    path = tmp_path / "game.jsonl"
    path.write_bytes(GAME)
    whole = _read(path, GAME, True, monkeypatch)
    lines = GAME.count(b"\n") - 1
    assert len(batches) == -(-lines // chain.BATCH) and None not in batches
    assert [rec.seq for batch in batches for rec in batch] == list(range(1, lines + 1))
    assert whole == _read(path, GAME, False, monkeypatch) and whole[1] == lines
    batches.clear()
    odd = b"\n".join(_rechained(GAME.split(b"\n")[:-1], 150, _float_in)) + b"\n"
    path.write_bytes(odd)
    ends = _read(path, odd, True, monkeypatch)
    assert batches[-1] is None and None not in batches[:-1]
    assert len(batches) == 149 // chain.BATCH + 1
    assert ends == _read(path, odd, False, monkeypatch)


def _timed(stamp: str):
    def change(rec: dict) -> None:
        rec["at"] = stamp
    return change


@pytest.mark.parametrize("stamp", ["2026-11-30 22:02:52Z", "2026-11-30T22:02:52Z\n",
                                   "2026-11-30T22:02:5\u0662Z", "2026-11-30T22:02:52",
                                   "2026-11-30T22:02:52Z\n2026-11-30T22:02:52Z"])
def test_a_record_whose_time_is_out_of_form_is_read_line_by_line(tmp_path, monkeypatch, stamp):
    """A batch taken straight into the record class reads its records' times as text and
    checks them all at once: one out of Stamp's form (its chain holds) sends that batch to
    be read line by line, whose contract names the record, as a read without a check
    beside does."""
    batches = _batches_counted(monkeypatch)
    at = chain.BATCH + 5
    raw = b"\n".join(_rechained(GAME.split(b"\n")[:-1], at, _timed(stamp))) + b"\n"
    path = tmp_path / "game.jsonl"
    path.write_bytes(raw)
    ends = _read(path, raw, True, monkeypatch)
    assert ends[0] == "JournalError" and ends[2] == at and "$.at" in ends[1], ends
    assert batches[0] is not None and batches[-1] is None and len(batches) == 2
    assert ends == _read(path, raw, False, monkeypatch)


def test_a_read_up_to_a_record_is_not_failed_by_a_fault_after_it(tmp_path, monkeypatch):
    """`--at`: the records after the next one are not read, so a fault there does not
    count, with a check beside or without."""
    bad = _order_edited(50)
    path = tmp_path / "game.jsonl"
    path.write_bytes(bad)
    ends = []
    for beside_too in (True, False):
        monkeypatch.setattr(checking, "worth_beside", lambda _raw, b=beside_too: b)
        pos = replay.position(Journal(path), bad, None, upto=30)
        ends.append((state_to_builtins(pos.state), pos.seq))
    assert ends[0] == ends[1] and ends[0][1] == 30


def test_a_check_beside_is_made_only_where_it_pays_and_is_safe(monkeypatch):
    """A long journal, a second processor, and no other thread (a fork would copy its
    locks as they stand)."""
    long = b"x" * checking.BESIDE_BYTES
    real_alone = checking.alone
    # The threads a test server of an earlier test left in this process aside:
    monkeypatch.setattr(checking, "alone", lambda: True)
    monkeypatch.setattr(checking, "cores", lambda: 2)
    assert checking.worth_beside(long) and not checking.worth_beside(long[1:])
    monkeypatch.setattr(checking, "cores", lambda: 1)
    assert not checking.worth_beside(long)
    monkeypatch.setattr(checking, "cores", lambda: 2)
    monkeypatch.setattr(checking, "alone", real_alone)
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert not beside.alone() and not checking.worth_beside(long)
    finally:
        stop.set()
        other.join()


def test_the_checker_hashes_the_journal_for_the_state_and_view_kept_of_it(tmp_path,
                                                                          monkeypatch, forks):
    """A read cold keeps its state and its view bound to the journal's SHA-256: the forked
    checker, which ends before the replay, works it out, and the caller does not again. The
    digest kept is the journal's; one whose check failed hands none back."""
    import hashlib

    from referee.store import snapshot

    parent, real_digest_of = os.getpid(), snapshot.digest_of
    here: list[int] = []

    def counted(raw: bytes) -> str:
        if os.getpid() == parent:
            here.append(len(raw))
        return real_digest_of(raw)

    monkeypatch.setattr(snapshot, "digest_of", counted)
    path = tmp_path / "game.jsonl"
    path.write_bytes(GAME)
    raw = Journal(path).raw()
    monkeypatch.setattr(checking, "worth_beside", lambda _raw: True)
    replay.position(Journal(path), raw, None)
    assert snapshot._digest(raw) == hashlib.sha256(GAME).hexdigest()
    assert here == [] and len(forks) == 1
    bad = _order_edited(30)
    path.write_bytes(bad)
    raw = Journal(path).raw()
    with pytest.raises(RefereeError):
        replay.position(Journal(path), raw, None)
    assert snapshot._HASHED[0][0] is not raw        # nothing kept of the bytes that failed


def _clock_set(rec: dict) -> None:
    rec["clock"] = {"kind": "settings", "deadline": "48h"}


def _no_such_decision(rec: dict) -> None:
    rec["events"] = rec["events"] + [{"type": "DecisionPending", "kind": "no_such_decision",
                                      "side": "german", "info": {}}]


def test_a_fault_found_walking_for_the_deadlines_is_placed_on_its_record(tmp_path,
                                                                       monkeypatch):
    """A journal with deadlines is walked as it is replayed: a record leaving a decision the
    rules cannot read is refused as that record, so a line edited after it is not what a
    read with its check beside reports, as a read line by line never reaches that line."""
    lines = _rechained(GAME.split(b"\n")[:-1], 1, _clock_set)
    lines = _rechained(lines, 100, _no_such_decision)
    lines[101] = lines[101].replace(b'"seq":', b'"seq": ', 1)
    raw = b"\n".join(lines) + b"\n"
    path = tmp_path / "game.jsonl"
    path.write_bytes(raw)
    line_by_line = _read(path, raw, False, monkeypatch)
    assert line_by_line[0] == "JournalError" and line_by_line[2] == 100, line_by_line
    assert _read(path, raw, True, monkeypatch) == line_by_line
    assert _read(path, raw, True, monkeypatch, early=True) == line_by_line


def test_no_line_is_decoded_twice_to_find_the_header(tmp_path, monkeypatch):
    """The header is read alone: a cold read that takes the records after it into their
    class, and a read from a snapshot, decode none of the lines after it as JSON objects
    only to read them again."""
    decoded = []
    real = chain._decoded

    def counted(lines):
        decoded.append(len(lines))
        return real(lines)

    monkeypatch.setattr(chain, "_decoded", counted)
    path = tmp_path / "game.jsonl"
    prefix = GAME[:GAME.rindex(b"\n", 0, len(GAME) - 1) + 1]      # all but the last record
    path.write_bytes(prefix)
    cold = _read(path, prefix, True, monkeypatch)
    assert decoded == [1] and cold[1] == prefix.count(b"\n") - 1
    pos = replay.position(Journal(path), prefix, None)
    snapshot.save_state(path, prefix, pos.bound, pos.seq, pos.hash, pos.header,
                        state_to_builtins(pos.state), None)
    path.write_bytes(GAME)
    decoded.clear()
    after = replay.position(Journal(path), GAME, None)
    assert after.from_snapshot and after.read == 1 and decoded == [1, 1]
