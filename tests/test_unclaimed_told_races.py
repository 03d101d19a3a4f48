"""Two passes over one mailbox at once (a cron `tick` while `watch` runs, two `tick`s): the
moderator is told of each message no game claims once, whichever pass tells him. The
second pass is a real process, forked while the first has read its memory of what was
told and is about to write it back; the first goes on once the second is done or waits
for the memory's lock (never slept). Without the lock, both passes read the old memory:
both tell the same message, and the one writing last drops what the other recorded, so
a later pass tells it again. alpha reads a Maildir; time comes from REFEREE_NOW."""

from __future__ import annotations

import fcntl
import multiprocessing
import os
import re
import time

import pytest
from mailboxes import write_maildir
from test_tick_busy import moved_clock, never_waiting  # noqa: F401 - a fixture
from test_tick_index import START
from test_tick_sharing import opened
from test_transport import ADDRESSES, new_game
from test_unattended import at

from referee.base.clock import NOW_VARIABLE
from referee.mail import tick as ticking
from referee.mail import unclaimed
from referee.store import home, locks

UNCLAIMED = re.compile(r"(\d+) new messages? no game claims")


def _stranger(root, i: int, box: str = "box") -> None:
    raw = (f"From: someone{i}@example.com\nTo: {ADDRESSES['moderator']}\nSubject: hello\n"
           f"Message-ID: <s{i}@example.com>\n\nhello\n").encode()
    (root / box / "new" / f"stranger{i}.eml").write_bytes(raw)


def _told(report) -> int:
    """How many messages a pass told the moderator of as new, unclaimed (its lines)."""
    found = [UNCLAIMED.search(line) for line in report.lines()]
    return sum(int(m.group(1)) for m in found if m)


def _other_pass(games, moved, told) -> None:
    """The second pass, in its own process: it says when it waits for a lock (moved), and
    how many it told (told)."""
    def waiting(seconds: float) -> None:
        moved.set()
        time.sleep(seconds)
    locks.pause = waiting
    try:
        told.send(_told(ticking.tick(games, with_map=False)))
    finally:
        moved.set()


def _beside(monkeypatch, games, meanwhile=lambda: None) -> list:
    """At the first pass's write of its told memory, meanwhile() then a second pass run
    beside it: the second pass's count, once the first is done (result[0])."""
    real = home.write_signed
    result: list = []
    armed = [True]                  # the second pass (a copy of this one) runs no other

    def writing(path, payload):
        if path.name.endswith(".told") and armed[0]:
            armed[0] = False
            meanwhile()
            fork = multiprocessing.get_context("fork")
            moved, (ours, theirs) = fork.Event(), fork.Pipe(duplex=False)
            other = fork.Process(target=_other_pass, args=(games, moved, theirs))
            other.start()
            assert moved.wait(60), "the second pass neither ended nor waited"
            result.append((other, ours))
        return real(path, payload)
    monkeypatch.setattr(home, "write_signed", writing)
    return result


def _theirs(result: list) -> int:
    other, ours = result[0]
    assert ours.poll(60), "the second pass told nothing back"
    told = ours.recv()
    other.join(60)
    assert other.exitcode == 0
    return told


def test_two_passes_at_once_tell_an_unclaimed_message_once(cli, tmp_path, monkeypatch):
    opened(cli, tmp_path, monkeypatch, ("alpha",))
    _stranger(tmp_path, 0)
    result = _beside(monkeypatch, tmp_path / "games")
    ours = _told(ticking.tick(tmp_path / "games", with_map=False))
    assert ours + _theirs(result) == 1
    assert "no game claims" not in cli("tick", tmp_path / "games", "--no-map").output


def test_what_the_other_pass_told_is_not_dropped(cli, tmp_path, monkeypatch):
    """The first pass found one new message (1), the second, run beside it, another that
    came meanwhile (2): each is told once, and no later pass tells either again."""
    opened(cli, tmp_path, monkeypatch, ("alpha",))
    _stranger(tmp_path, 0)
    assert _told(ticking.tick(tmp_path / "games", with_map=False)) == 1
    _stranger(tmp_path, 1)
    result = _beside(monkeypatch, tmp_path / "games", lambda: _stranger(tmp_path, 2))
    ours = _told(ticking.tick(tmp_path / "games", with_map=False))
    theirs = _theirs(result)
    again = _told(ticking.tick(tmp_path / "games", with_map=False))
    assert (ours, theirs, again) == (1, 1, 0)


def test_a_pass_that_cannot_have_the_memory_tells_nothing_and_leaves_it_to_the_next(
        cli, tmp_path, monkeypatch, moved_clock):  # noqa: F811
    """Another process holds the told memory's lock past the pass's patience: the pass tells
    nothing (not "told of before" either) and the next one tells it, once."""
    opened(cli, tmp_path, monkeypatch, ("alpha",))
    _stranger(tmp_path, 0)
    report = ticking.tick(tmp_path / "games", with_map=False)
    assert _told(report) == 1
    told = next(home.data_dir("mailboxes").glob("*.told"))
    _stranger(tmp_path, 1)
    fd = os.open(told.with_name(told.name + ".lock"), os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        report = ticking.tick(tmp_path / "games", with_map=False)
    finally:
        os.close(fd)
    assert moved_clock[0] >= locks.AT_LEAST
    assert not [line for line in report.lines() if "claims" in line], report.lines()
    assert len(report.unclaimed) == 2               # still listed (tick --format json)
    report = ticking.tick(tmp_path / "games", with_map=False)
    assert _told(report) == 1
    assert any("(1 more told of before)" in line for line in report.lines())
    assert _told(ticking.tick(tmp_path / "games", with_map=False)) == 0


def test_mail_left_for_the_next_pass_is_not_said_to_be_told_before(
        cli, tmp_path, monkeypatch, moved_clock):  # noqa: F811
    """alpha and bravo read a Maildir each; bravo's told memory is held past the pass's
    patience: the pass tells alpha's new message, and counts as told before only alpha's
    two old ones, not bravo's three, of which the next pass tells the one not told yet."""
    monkeypatch.setenv(NOW_VARIABLE, at(START))
    for name in ("alpha", "bravo"):
        box = write_maildir(tmp_path / f"box-{name}", [])
        new_game(cli, tmp_path / "games", name, None, "--mail-in", str(box),
                 "--mail-out", f"outbox:{tmp_path / ('out-' + name)}")
    for n, name in enumerate(("alpha", "bravo", "alpha", "bravo")):
        _stranger(tmp_path, n, f"box-{name}")
        report = ticking.tick(tmp_path / "games", with_map=False)
        if n == 1:
            sources = {x.game_id: x.source for x in report.games}
    assert _told(report) == 1 and len(report.unclaimed) == 4
    fd = os.open(unclaimed._path(sources["bravo"], ".told.lock"), os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        _stranger(tmp_path, 4, "box-alpha")
        _stranger(tmp_path, 5, "box-bravo")
        lines = ticking.tick(tmp_path / "games", with_map=False).lines()
    finally:
        os.close(fd)
    said = [line for line in lines if "claims" in line]
    assert len(said) == 1 and said[0].startswith("1 new message ") and \
        "(2 more told of before)" in said[0], said
    assert _told(ticking.tick(tmp_path / "games", with_map=False)) == 1


def test_where_no_lock_can_be_taken_the_pass_tells_as_before(cli, tmp_path, monkeypatch):
    """A data folder on a file system that keeps no locks (flock fails): the pass still
    tells a message once, not a traceback."""
    def no_lock(fd, exclusive, what):
        raise OSError(38, "Function not implemented")
    monkeypatch.setattr(unclaimed, "take", no_lock)
    opened(cli, tmp_path, monkeypatch, ("alpha",))
    _stranger(tmp_path, 0)
    assert [_told(ticking.tick(tmp_path / "games", with_map=False)) for _ in range(2)] == [1, 0]


def test_a_pass_that_listed_the_box_earlier_keeps_what_a_later_one_told(
        cli, tmp_path, monkeypatch):
    """The first pass lists the box (0, 1) and plays its games; meanwhile a second pass lists
    it with a message that came since (2), tells it and records it. The first then writes
    its memory after the second: 2 is not in its listing, but was told after it listed the
    box, so it is kept, and no later pass tells it again (at most once, moderator.md)."""
    opened(cli, tmp_path, monkeypatch, ("alpha",))
    _stranger(tmp_path, 0)
    assert _told(ticking.tick(tmp_path / "games", with_map=False)) == 1
    _stranger(tmp_path, 1)
    real = unclaimed.not_told
    theirs: list = []

    def late(source, *rest):
        if not theirs:          # the first pass has listed the box: the second runs now
            theirs.append(None)
            _stranger(tmp_path, 2)
            theirs.append(_told(ticking.tick(tmp_path / "games", with_map=False)))
        return real(source, *rest)
    monkeypatch.setattr(unclaimed, "not_told", late)
    ours = _told(ticking.tick(tmp_path / "games", with_map=False))
    monkeypatch.setattr(unclaimed, "not_told", real)
    again = _told(ticking.tick(tmp_path / "games", with_map=False))
    assert (ours, theirs[1], again) == (0, 2, 0)


def test_only_what_was_told_before_a_pass_listed_the_source_is_forgotten_as_gone():
    """A pass that listed the source before another told a message keeps it; the next pass,
    which lists the source after, forgets it once it is gone."""
    first = unclaimed.told_mark("/box")
    assert unclaimed.not_told("/box", ["a", "b"]) == ["a", "b"]
    listed = unclaimed.told_mark("/box")
    assert unclaimed.not_told("/box", ["a", "b", "c"]) == ["c"]
    assert unclaimed.not_told("/box", ["a", "b"], None, True, listed) == []
    assert unclaimed.not_told("/box", ["a", "b", "c"]) == []
    assert unclaimed.not_told("/box", ["a", "b"], None, True, first) == []
    assert unclaimed.not_told("/box", ["a", "b"]) == []           # c gone: forgotten
    assert unclaimed.not_told("/box", ["a", "b", "c"]) == ["c"]


@pytest.mark.parametrize("planted", ["link", "fifo"])
def test_a_link_or_fifo_in_the_told_memorys_lock_s_place_is_no_lock_and_no_wait(
        cli, tmp_path, monkeypatch, planted):
    """A link (to a file of anyone's) or a FIFO put where the told memory's lock is kept:
    the pass neither follows the link nor waits on the FIFO; it tells the new message, once,
    as where no lock can be taken."""
    opened(cli, tmp_path, monkeypatch, ("alpha",))
    _stranger(tmp_path, 0)
    report = ticking.tick(tmp_path / "games", with_map=False)
    assert _told(report) == 1
    lock = unclaimed._path(report.games[0].source, ".told.lock")
    target = tmp_path / "not-a-lock"
    lock.unlink()
    lock.symlink_to(target) if planted == "link" else os.mkfifo(lock)
    _stranger(tmp_path, 1)
    told = [never_waiting(lock, lambda: _told(ticking.tick(tmp_path / "games",
                                                            with_map=False)))
            for _ in range(2)]
    assert told == [1, 0] and not target.exists()
