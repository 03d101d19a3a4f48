"""A game another process holds locked (its journal, its tick lock, its mail lock: the
moderator's `order`, another `tick`, a stale lock) is passed over by a pass, with a line
saying so, while the other games are handled; its mail waits for the next pass, which
applies it once. A pass tells each game's lines as that game is done (a pass killed
later keeps them), and counts the mails it left in an `outbox:DIR` folder. The lock is
held by an open file of the test's own; the seconds a pass waits come from a clock the
test moves, never slept."""

from __future__ import annotations

import errno
import fcntl
import json
import os
import signal
import threading
from datetime import UTC, datetime, timedelta

import pytest
from test_tick_sharing import NAMES, _folder, _settings
from test_transport import records

from referee.base.clock import NOW_VARIABLE
from referee.mail import gameindex, ledger
from referee.mail import tick as ticking
from referee.mail.tickgame import game_tag
from referee.store import home, locks


@pytest.fixture
def moved_clock(monkeypatch):
    """The seconds locks.take waits pass on a clock of the test's, at once; and a pass
    still waiting for a lock after a minute of the wall clock fails the test, not hangs."""
    now = [0.0]
    monkeypatch.setattr(locks, "clock", lambda: now[0])
    monkeypatch.setattr(locks, "pause", lambda s: now.__setitem__(0, now[0] + s))

    def hung(*_):
        raise TimeoutError("the pass waited for the lock with no end")
    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(60)
    yield now
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


def _lock_file(which: str, journal) -> os.PathLike:
    head = records(journal)[0]
    if which == "journal":
        return journal
    if which == "tick lock":
        return home.data_dir("locks") / f"{game_tag(head['game_id'], head['hash'])}.lock"
    return ledger.ledger_path(head["game_id"], head["hash"]).with_suffix(".lock")


def _held(path):
    """The file opened and locked, as another process would hold it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    return fd


def never_waiting(fifo, run):
    """run(), in a thread of its own: what it gave, once done; a run still waiting after
    half a minute (on the FIFO at fifo: it is opened for it to go on) fails the test."""
    got: list = []
    runner = threading.Thread(target=lambda: got.append(run()), daemon=True)
    runner.start()
    runner.join(30)
    waited = runner.is_alive()
    if waited and fifo.is_fifo():               # let the blocked open go before failing
        fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
        runner.join(30)
        os.close(fd)
    assert not waited, "the pass waited on a FIFO"
    return got[0]


# Two games where a test holds one and looks at the other: the lock of one game is the
# branch, the other shows the pass goes on.
TWO = NAMES[:2]


def _passes(journal) -> int:
    return sum(r.get("order") == "pass" for r in records(journal))


@pytest.mark.parametrize("which", ["journal", "tick lock", "mail lock", "unindexed journal"])
def test_a_game_held_locked_is_passed_over_and_its_mail_waits_for_the_next_pass(
        cli, tmp_path, monkeypatch, moved_clock, which):
    _settings(1)
    made = _folder(cli, tmp_path, monkeypatch)
    alpha = made["alpha"][0]
    if which == "unindexed journal":            # read from its journal, not the index
        for p in home.data_dir("index").glob("*.index"):
            p.unlink()
    fd = _held(_lock_file(which.removeprefix("unindexed "), alpha))
    try:
        report = ticking.tick(tmp_path / "games", with_map=False)
    finally:
        os.close(fd)
    assert moved_clock[0] >= locks.PATIENCE            # waited its seconds, then went on
    assert not report.problems, report.problems
    assert len(report.busy) == 1 and report.busy[0].startswith("alpha"), report.busy
    assert any(line.startswith("busy") or ": busy " in line for line in report.lines())
    assert ticking.tally(report) == \
        "4 games: 3 handled, 1 busy (their mail waits for the next pass)"
    assert _passes(alpha) == 0
    assert all(_passes(made[n][0]) == 1 for n in NAMES[1:])
    ticking.tick(tmp_path / "games", with_map=False)      # free now: its mail, once
    ticking.tick(tmp_path / "games", with_map=False)
    assert all(_passes(made[n][0]) == 1 for n in NAMES)


def test_the_seconds_a_pass_waits_are_the_pass_s_not_each_game_s(cli, tmp_path, monkeypatch,
                                                                 moved_clock):
    """Three games of four held: the pass waits its seconds once, then a moment for each
    other lock (locks.AT_LEAST), not its seconds again for each; the free game is handled."""
    _settings(1)
    made = _folder(cli, tmp_path, monkeypatch)
    fds = [_held(made[n][0]) for n in NAMES[:3]]
    try:
        report = ticking.tick(tmp_path / "games", with_map=False)
    finally:
        for fd in fds:
            os.close(fd)
    assert sorted(b.split(":")[0] for b in report.busy) == sorted(NAMES[:3]), report.busy
    assert locks.PATIENCE <= moved_clock[0] <= locks.PATIENCE + 2 * locks.AT_LEAST + 0.2
    assert _passes(made[NAMES[3]][0]) == 1 and not report.problems


def test_a_busy_game_is_not_a_failed_pass(cli, tmp_path, monkeypatch, moved_clock):
    """Exit 0: the next pass handles it (docs/scripting.md); JSON names it in `busy`."""
    _settings(1)
    made = _folder(cli, tmp_path, monkeypatch)
    fd = _held(made["bravo"][0])
    try:
        r = cli("tick", tmp_path / "games", "--no-map")
        assert r.exit_code == 0, r.output
        assert "bravo: busy     bravo.jsonl: the journal is held by another process" in r.stdout
        assert r.stdout.splitlines()[-1].endswith("4 games: 3 handled, 1 busy (their mail "
                                                  "waits for the next pass)")
        r = cli("tick", tmp_path / "games", "--no-map", "--format", "json")
    finally:
        os.close(fd)
    doc = json.loads(r.stdout)
    assert r.exit_code == 0 and doc["ok"] is True and len(doc["busy"]) == 1
    assert "bravo" in doc["busy"][0] and all(x["busy"] is None for x in doc["games"]
                                             if x["game_id"] != "bravo")


@pytest.mark.parametrize("workers", [1, 2])
def test_each_game_s_lines_are_told_as_the_game_is_done(cli, tmp_path, monkeypatch, workers):
    """Before the pass turns to the last game's deadlines, the lines of the games done
    are told already (a pass killed there has logged them), each once."""
    _settings(workers)
    _folder(cli, tmp_path, monkeypatch, TWO, TWO)
    told: list[str] = []
    seen: dict[str, list[str]] = {}
    real = ticking._after_mail

    def after(x, *a):
        if x.game_id == TWO[-1]:
            out = tmp_path / "seen.json"        # a worker's too, through the file
            out.write_text(json.dumps(told))
        return real(x, *a)

    monkeypatch.setattr(ticking, "_after_mail", after)
    monkeypatch.setattr(ticking, "each_game", _in_one(ticking.each_game))
    report = ticking.tick(tmp_path / "games", with_map=False, tell=told.append)
    seen["before"] = json.loads((tmp_path / "seen.json").read_text())
    assert any(line.startswith("alpha: applied") for line in seen["before"]), seen
    assert len(told) == len(set(told)) and report.lines() == []
    assert all(any(line.startswith(f"{n}: applied") for line in told) for n in TWO)


def _in_one(each_game):
    """each_game, its shares all in the pass's own process (the test reads `told` there)."""
    return lambda games, handle, **k: each_game(games, handle, **{**k, "share_among": 1})


def test_tick_counts_the_mails_it_left_in_an_outbox_folder(cli, tmp_path, monkeypatch):
    _settings(1)
    made = _folder(cli, tmp_path, monkeypatch, TWO, TWO)
    before = {p.name for p in (tmp_path / "out-alpha").glob("*.eml")}
    r = cli("tick", tmp_path / "games", "--no-map", "--format", "json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    written = len({p.name for p in (tmp_path / "out-alpha").glob("*.eml")} - before)
    alpha = next(x for x in doc["games"] if x["game_id"] == "alpha")
    assert written > 0 and alpha["outbox"] == written
    assert f"alpha: outbox   {written} mails left in {tmp_path / 'out-alpha'} for the " \
           f"moderator's mail program to send" in alpha["log"]
    assert made and gameindex


def test_a_game_busy_at_every_pass_for_over_an_hour_is_a_problem(cli, tmp_path, monkeypatch,
                                                                  moved_clock):
    """A lock that does not go away (an `order` left at a prompt, a stale lock) would keep a
    game's mail and deadlines waiting with only a busy line at each pass: busy at every pass
    for over an hour of the game's time, it is a problem of the pass (exit 3, named with
    since when); once free, it is forgotten, and a new hold counts from its own start."""
    _settings(1)
    made = _folder(cli, tmp_path, monkeypatch, TWO, TWO)
    start = datetime(2026, 11, 24, 9, 0, tzinfo=UTC)

    def at(minutes: int, *args):
        monkeypatch.setenv(NOW_VARIABLE, (start + timedelta(minutes=minutes)).isoformat())
        return cli("tick", tmp_path / "games", "--no-map", *args)

    fd = _held(made["bravo"][0])
    try:
        assert at(0).exit_code == 0
        assert at(59).exit_code == 0
        r = at(61)
        assert r.exit_code == 3, r.output
        assert "bravo.jsonl: held by another process at every pass since " \
               "2026-11-24T09:00:00Z, over 1 hour" in r.output, r.output
    finally:
        os.close(fd)
    assert at(62).exit_code == 0
    fd = _held(made["bravo"][0])
    try:
        assert at(100).exit_code == 0, "a new hold counts from its own start"
    finally:
        os.close(fd)


@pytest.mark.parametrize("planted", ["link", "fifo"])
@pytest.mark.parametrize("which", ["tick lock", "mail lock"])
def test_a_link_or_fifo_in_a_game_s_lock_s_place_is_one_problem_line_not_a_hang(
        cli, tmp_path, monkeypatch, moved_clock, which, planted):
    """A link (to a file of anyone's) or a FIFO put where a game's lock is kept: the lock
    is not taken through the link nor waited on; that game's mail waits, told in one line,
    and the other games are played."""
    _settings(1)
    made = _folder(cli, tmp_path, monkeypatch, TWO, TWO)
    alpha = made["alpha"][0]
    lock, target = _lock_file(which, alpha), tmp_path / "not-a-lock"
    lock.unlink(missing_ok=True)
    lock.symlink_to(target) if planted == "link" else os.mkfifo(lock)
    report = never_waiting(lock, lambda: ticking.tick(tmp_path / "games", with_map=False))
    said = [p for p in report.problems if "lock" in p]
    assert len(said) == 1 and "\n" not in said[0] and "cannot be taken" in said[0], said
    assert not target.exists()
    assert _passes(alpha) == 0
    assert all(_passes(made[n][0]) == 1 for n in TWO[1:])


@pytest.mark.parametrize("which", ["tick lock", "mail lock"])
def test_a_file_system_that_keeps_no_locks_is_one_problem_line(
        cli, tmp_path, monkeypatch, which):
    """flock failing (ENOLCK: a network file system with no lock daemon) where a game's lock
    is kept: one line for that game, as a lock file that cannot be opened is, never the
    traceback of an error no rule foresaw; the other games are played."""
    _settings(1)
    made = _folder(cli, tmp_path, monkeypatch, TWO, TWO)
    alpha = made["alpha"][0]
    lock, flock = str(_lock_file(which, alpha)), fcntl.flock

    def no_locks_at_alpha(fd, how):
        if os.readlink(f"/proc/self/fd/{fd}") == lock:
            raise OSError(errno.ENOLCK, os.strerror(errno.ENOLCK))
        return flock(fd, how)

    monkeypatch.setattr(fcntl, "flock", no_locks_at_alpha)
    report = ticking.tick(tmp_path / "games", with_map=False)
    said = [p for p in report.problems if "lock" in p]
    assert len(said) == 1 and "cannot be taken" in said[0], report.problems
    assert not any("the referee failed" in p for p in report.problems), report.problems
    assert _passes(alpha) == 0
    assert all(_passes(made[n][0]) == 1 for n in TWO[1:])


def test_the_mail_lock_is_let_go_though_a_process_forked_under_it_lives_on(tmp_path,
                                                                           monkeypatch):
    """A process forked while the game's mail lock is held (the check beside a cold read)
    shares its open file: closing the file alone left the lock held until that process
    ended, and the next `inbox` waited on it. Once the lock is let go, it is free."""
    monkeypatch.setenv("REFEREE_HOME", str(tmp_path / "home"))
    read, write = os.pipe()
    with ledger.game_lock("g1", "ab" * 16):
        child = os.fork()
        if child == 0:                          # keeps the lock's file open until told
            os.close(write)
            os.read(read, 1)
            os._exit(0)
    try:
        fd = os.open(ledger.ledger_path("g1", "ab" * 16).with_suffix(".lock"), os.O_RDWR)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)      # BlockingIOError if held
        finally:
            os.close(fd)
    finally:
        os.write(write, b"x")
        os.waitpid(child, 0)


def test_tick_counts_only_the_mails_the_game_wrote_in_an_outbox_folder_others_share(
        cli, tmp_path, monkeypatch):
    """Games may share one outbox folder, each handled by a worker of its own: the mails
    another worker writes there while a game is handled (its mail read, its deadlines
    checked) are not that game's, and its `outbox` line counts only its own."""
    _settings(1)
    _folder(cli, tmp_path, monkeypatch, TWO, TWO)
    out = tmp_path / "out-alpha"
    before = {p.name for p in out.glob("*.eml")}
    others = []

    def meanwhile(real, alpha):
        def step(first, *a, **k):
            if alpha(first):                    # another game's worker, at the same time
                others.append(out / f"other-{len(others)}.eml")
                others[-1].write_bytes(b"Subject: [referee bravo] not alpha's\n\nnews\n")
            return real(first, *a, **k)
        return step
    # alpha's mail read (inbox, with no mail after it: the first call) and its deadlines
    monkeypatch.setattr(ticking, "inbox", meanwhile(
        ticking.inbox, lambda journal: journal.stem == "alpha" and not others))
    monkeypatch.setattr(ticking, "stranded", meanwhile(
        ticking.stranded, lambda x: x.game_id == "alpha"))
    report = ticking.tick(tmp_path / "games", with_map=False)
    alpha = next(x for x in report.games if x.game_id == "alpha")
    written = {p.name for p in out.glob("*.eml")} - before - {p.name for p in others}
    assert len(others) == 2 and written and alpha.outbox == len(written), alpha.lines
    assert f"alpha: outbox   {len(written)} mails left in {out} for the moderator's mail " \
           f"program to send" in alpha.lines


def test_the_mails_a_step_of_the_holds_wrote_are_its_own(tmp_path, monkeypatch):
    """`inbox` counts the mails it wrote about the holds as those it wrote, not every mail
    new in an outbox another game's worker writes into at the same time."""
    from referee.mail import holdsteps
    from referee.mail.eml import write_eml

    monkeypatch.setattr(holdsteps, "load_ledger", lambda *game: {"held": {"german": 3}})
    out = tmp_path / "out"
    out.mkdir()

    def step() -> None:
        (out / "other.eml").write_bytes(b"Subject: [referee bravo] not alpha's\n\nnews\n")
        mine.append(write_eml(out, "referee@example.org", "mod@example.org", "[referee "
                              "alpha] held", "Orders held for your dice.", None))
    mine: list = []
    assert holdsteps._held_mails(("alpha", "0" * 64), out, step) == mine
