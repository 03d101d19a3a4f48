"""A command a user or a script runs on a journal another process holds locked waits a few
seconds (locks.WAIT), then says in one line that the game is busy, who holds it where the
system says, that nothing was done, and to try again: exit 75 and the kind `busy`, apart
from damaged data (3). The seconds come from a clock of the test's; the lock is held by an
open file of the test's own, as another process would hold it."""

from __future__ import annotations

import fcntl
import json
import os
import signal
from pathlib import Path

import pytest

from referee.base.errors import EXIT_BUSY
from referee.store import lockholder, locks


@pytest.fixture
def moved_clock(monkeypatch):
    """The seconds locks.take waits pass on the test's clock, at once; a command still
    waiting after half a minute of the wall clock fails the test, not hangs it."""
    now = [0.0]
    monkeypatch.setattr(locks, "clock", lambda: now[0])
    monkeypatch.setattr(locks, "pause", lambda s: now.__setitem__(0, now[0] + s))

    def hung(*_):
        raise TimeoutError("the command waited for the lock with no end")
    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(30)
    yield now
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


def held(path: Path) -> int:
    fd = os.open(path, os.O_RDWR)
    fcntl.flock(fd, fcntl.LOCK_EX)
    return fd


@pytest.mark.parametrize("command", [("status",), ("order", "--as", "german", "pass")])
def test_a_command_on_a_held_journal_says_the_game_is_busy_and_does_nothing(
        cli, game, moved_clock, command):
    before = game.read_bytes()
    fd = held(game)
    try:
        r = cli(command[0], game, *command[1:], "--format", "json")
    finally:
        os.close(fd)
    assert r.exit_code == EXIT_BUSY == 75, r.output
    [line] = r.stderr.splitlines()
    error = json.loads(line)
    assert error["kind"] == "busy" and error["exit"] == 75, error
    assert "g.jsonl: the journal is held by another process" in error["error"], error
    assert "nothing was done, try again" in error["error"], error
    assert locks.WAIT <= moved_clock[0] <= locks.WAIT + 1          # a few seconds, then said
    assert game.read_bytes() == before
    fd = held(game)                         # in text: one line, the same code
    try:
        r = cli(command[0], game, *command[1:])
    finally:
        os.close(fd)
    assert r.exit_code == 75 and len(r.stderr.splitlines()) == 1, r.output
    assert r.stderr.startswith("referee: g.jsonl: the journal is held by another process")


def test_a_lock_let_go_within_the_wait_is_taken(cli, game, moved_clock, monkeypatch):
    fd = held(game)
    moved = locks.pause

    def later(seconds):
        moved(seconds)
        if moved_clock[0] >= 2 and fd >= 0:
            fcntl.flock(fd, fcntl.LOCK_UN)
    monkeypatch.setattr(locks, "pause", later)
    try:
        r = cli("order", game, "--as", "german", "pass", "--format", "json")
    finally:
        os.close(fd)
    assert r.exit_code == 0, r.output
    assert 2 <= moved_clock[0] < locks.WAIT


@pytest.mark.skipif(not lockholder.LOCKS.exists(), reason="the system names no lock's process")
def test_the_process_that_holds_the_lock_is_named(cli, game, moved_clock):
    fd = held(game)
    try:
        r = cli("status", game, "--format", "json")
        assert lockholder.holder(fd) is not None
    finally:
        os.close(fd)
    assert f"process {os.getpid()} (its command line: " in json.loads(r.stderr)["error"], \
        r.stderr


def test_the_referee_s_own_command_is_named_by_it(tmp_path, monkeypatch):
    (tmp_path / "42").mkdir()
    (tmp_path / "42" / "cmdline").write_bytes(b"/usr/bin/python3\0-m\0referee\0tick\0.\0")
    (tmp_path / "43").mkdir()
    (tmp_path / "43" / "cmdline").write_bytes(b"/home/m/.venv/bin/referee\0order\0w.jsonl\0")
    (tmp_path / "44").mkdir()
    (tmp_path / "44" / "cmdline").write_bytes(b"/usr/bin/rsync\0-a\0")
    monkeypatch.setattr(lockholder, "PROCESSES", tmp_path)
    # Said as the command line's words, which any program can make its own, not as a fact.
    assert lockholder._named(42) == "process 42 (its command line: `referee tick`)"
    assert lockholder._named(43) == "process 43 (its command line: `referee order`)"
    assert lockholder._named(44) == "process 44 (its command line: rsync)"
    assert lockholder._named(45) == "process 45"


def free(journal: Path) -> bool:
    """Whether another process could lock the journal now."""
    fd = os.open(journal, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False
    finally:
        os.close(fd)


def test_an_order_waiting_for_its_orders_holds_no_lock(cli, game, monkeypatch):
    """`order -` waits for its user to type his orders: meanwhile the journal is free for
    others, and the orders are checked against it once it is locked (as --expect-seq)."""
    from referee.cli import commands

    read, seen = commands.read_orders, []

    def typed(*args, **kwargs):
        seen.append(free(game))
        return read(*args, **kwargs)
    monkeypatch.setattr(commands, "read_orders", typed)
    r = cli("order", game, "--as", "german", "-", input="pass\n")
    assert r.exit_code == 0, r.output
    assert seen == [True]


def test_a_pass_in_another_thread_does_not_bound_a_command_s_wait(game, moved_clock):
    """The seconds a pass of tick has left for locks are its own thread's: a pass running
    in one thread (watch's, a test's) made a command in another give up after the pass's
    half second, 'for over 0.5 seconds', where it waits locks.WAIT."""
    import threading

    inside, leave = threading.Event(), threading.Event()

    def a_pass():
        with locks.patience(0.0):
            inside.set()
            leave.wait(30)

    runner = threading.Thread(target=a_pass, daemon=True)
    runner.start()
    assert inside.wait(30)
    fd = held(game)
    other = os.open(game, os.O_RDWR)
    try:
        with pytest.raises(locks.BusyError) as caught:
            locks.take(other, True, "g.jsonl")
    finally:
        leave.set()
        runner.join(30)
        os.close(other)
        os.close(fd)
    assert moved_clock[0] >= locks.WAIT, moved_clock
    assert "0.5 seconds" not in str(caught.value), caught.value
