"""A busy pass shared among forked workers (referee/mail/sharing.py): the games dealt by
their work, each handled once; a pass shared among two workers does what one process does;
a worker that dies leaves its games to the next pass, which applies and answers nothing
twice; `workers = 1` in the mail settings keeps a pass in one process. The games read one
Maildir (claimed by order key) and write to outbox folders; time comes from REFEREE_NOW."""

from __future__ import annotations

import email
import os
import signal
import subprocess
import sys
from pathlib import Path

import forkedruns
import pytest
from forking import count_forks
from mailboxes import write_maildir
from test_tick_index import START
from test_transport import ADDRESSES, mail, new_game, records
from test_unattended import at

from referee.base.clock import NOW_VARIABLE
from referee.mail import sharing
from referee.mail import tick as ticking
from referee.mail.ledger import FAULT_VARIABLE
from referee.mail.tickgame import Game
from referee.store import beside, mailsettings

NAMES = ("alpha", "bravo", "charlie", "delta")
# Two games with mail, which two workers would share (the quick form below forks for them):
# enough where a pass is kept in one process; a worker that dies or fails on its first game
# still takes four, so that the game after it in its share is seen too.
PAIR = NAMES[:2]


class Weighed:
    def __init__(self, name: str, work: int):
        self.name, self.work = name, work


@pytest.mark.parametrize("works, n, loads", [
    ((5, 1, 1, 1, 1, 1), 2, [5, 5]),        # the heaviest alone, the light ones together
    ((3, 3, 2, 2, 2), 2, [7, 5]),          # heaviest first, each to the least loaded
    ((1, 1, 1), 4, [1, 1, 1, 0]),           # more workers than games: one game each
    ((4,), 2, [4, 0]),
])
def test_games_are_dealt_once_each_by_their_work(works, n, loads):
    games = [Weighed(f"g{i}", w) for i, w in enumerate(works)]
    shares = sharing.dealt(games, lambda x: x.work, n)
    assert sorted(x.name for s in shares for x in s) == sorted(x.name for x in games)
    assert sorted(sum(x.work for x in s) for s in shares) == sorted(loads)
    for share in shares:                                    # each keeps the games' order
        assert share == sorted(share, key=games.index)


def _settings(workers: int) -> None:
    path = mailsettings.settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"[passes]\nworkers = {workers}\n")
    path.chmod(0o600)


def opened(cli, root, monkeypatch, names: tuple[str, ...]) -> dict:
    """1914 games of these ids reading one Maildir (root/box), each writing its own outbox
    (root/out-ID), ticked once (their opening mails): each game's journal and keys, by id."""
    monkeypatch.setenv(NOW_VARIABLE, at(START))
    box = write_maildir(root / "box", [])
    made = {name: new_game(cli, root / "games", name, None, "--mail-in", str(box),
                           "--mail-out", f"outbox:{root / ('out-' + name)}")
            for name in names}
    assert cli("tick", root / "games", "--no-map").exit_code == 0
    return made


def _folder(cli, root, monkeypatch, mailed: tuple[str, ...] = NAMES,
            names: tuple[str, ...] = NAMES) -> dict:
    """1914 games (opened), four unless named; then a `pass` from the German of each game
    mailed, with his order key, in the box."""
    made = opened(cli, root, monkeypatch, names)
    write_maildir(root / "box", [mail("german", keys["german"], ["pass"], f"<{name}@example.org>")
                        for name, (_, keys) in made.items() if name in mailed])
    return made


def _sent(root, name: str) -> list[str]:
    """The mails in a game's outbox, each as its reader and its subject."""
    out = []
    for p in sorted((root / f"out-{name}").glob("*.eml")):
        m = email.message_from_bytes(p.read_bytes())
        out.append(f"{m['To']} | {m['Subject']}")
    return sorted(out)


def _run(cli, root, monkeypatch, workers: int, names: tuple[str, ...] = NAMES,
         with_map: bool = True):
    _settings(workers)
    made = _folder(cli, root, monkeypatch, names, names)
    forked = count_forks(monkeypatch)
    report = ticking.tick(root / "games", with_map=with_map)
    return made, report, forked


# The quick form: two games, one for each worker, their mails without maps; the full form:
# four games, with maps.
@pytest.mark.parametrize("names, with_map", [pytest.param(PAIR, False, id="quick"),
                                             pytest.param(NAMES, True, id="full")])
def test_a_pass_shared_among_workers_does_what_one_process_does(cli, tmp_path, monkeypatch,
                                                                 names, with_map):
    """The same folder and mail, passed once by one process and once by two: each German's
    pass applied once, the same mails to the same readers, the same report per game."""
    seen = {}
    for workers in (1, 2):
        root = tmp_path / f"w{workers}"
        monkeypatch.setenv("REFEREE_HOME", str(root / "home"))
        made, report, forked = _run(cli, root, monkeypatch, workers, names, with_map)
        assert len(forked) == (workers > 1) * 2         # the mail, then the deadlines
        assert not report.problems
        seen[workers] = {
            "orders": {n: [r.get("order") for r in records(made[n][0])[-2:]] for n in names},
            "sent": {n: _sent(root, n) for n in names},
            "statuses": {x.game_id: [(m["side"], m["status"], m["records"])
                                     for m in x.messages] for x in report.games},
        }
    assert seen[2] == seen[1]
    for name in names:
        assert seen[2]["statuses"][name] == [("german", "applied", [len(records(
            tmp_path / "w2" / "games" / f"{name}.jsonl")) - 1])]
        assert any(ADDRESSES["german"] in line for line in seen[2]["sent"][name])


@pytest.mark.parametrize("when", ["before", "after"])
def test_a_worker_that_dies_leaves_its_games_to_the_next_pass_and_nothing_twice(
        cli, tmp_path, monkeypatch, when):
    """The worker dies on one game, before handling its mail or after applying and
    answering it but before telling the pass: the pass says so and leaves that game's mail
    for the next pass, whose answer is the only one (before) or none (after)."""
    _settings(2)
    made = _folder(cli, tmp_path, monkeypatch)
    leader = os.getpid()
    real = ticking._handle_mail
    victims: list[str] = []

    def dying(x, mine, games_dir, with_map):
        if os.getpid() != leader and not victims:     # the worker's first game
            victims.append(x.game_id)
            if when == "after":
                real(x, mine, games_dir, with_map)
            os._exit(9)
        return real(x, mine, games_dir, with_map)

    monkeypatch.setattr(ticking, "_handle_mail", dying)
    before = {n: len(records(made[n][0])) for n in NAMES}
    first = ticking.tick(tmp_path / "games", with_map=False)
    stopped = [p for p in first.problems if "worker handling this game stopped" in p]
    assert len(stopped) >= 1 and "exit 9" in stopped[0]
    victim = stopped[0].split(":")[0]
    assert next(x for x in first.games if x.game_id == victim).read is False
    answered = _sent(tmp_path, victim)
    monkeypatch.setattr(ticking, "_handle_mail", real)
    ticking.tick(tmp_path / "games", with_map=False)
    for name in NAMES:
        passes = [r for r in records(made[name][0])[before[name]:] if r.get("order") == "pass"]
        assert len(passes) == 1, name                  # applied once, dead worker or not
    again = _sent(tmp_path, victim)
    if when == "after":
        assert again == answered                       # its answer went once
    else:
        assert len(again) > len(answered)              # answered by the next pass


def test_one_worker_in_the_mail_settings_keeps_the_pass_in_one_process(cli, tmp_path,
                                                                        monkeypatch):
    made, report, forked = _run(cli, tmp_path, monkeypatch, 1, PAIR, with_map=False)
    assert forked == [] and not report.problems
    assert all(records(made[n][0])[-1].get("order") == "pass" or
               records(made[n][0])[-2].get("order") == "pass" for n in PAIR)


def test_a_pass_of_one_busy_game_forks_nothing(cli, tmp_path, monkeypatch):
    """One game has mail and the others nothing due: no worker is worth its fork."""
    _settings(4)
    made = _folder(cli, tmp_path, monkeypatch, mailed=("alpha",), names=PAIR)
    forked = count_forks(monkeypatch)
    report = ticking.tick(tmp_path / "games", with_map=False)
    assert forked == [] and not report.problems
    assert records(made["alpha"][0])[-1].get("order") == "pass"


def test_mail_settings_that_will_not_read_leave_the_pass_in_one_process_and_say_so(
        cli, tmp_path, monkeypatch):
    """`workers = 0` is refused (the settings name the problem at every pass), and the
    games are still served, one after the other."""
    made = _folder(cli, tmp_path, monkeypatch, PAIR, PAIR)
    _settings(0)
    forked = count_forks(monkeypatch)
    report = ticking.tick(tmp_path / "games", with_map=False)
    assert forked == []
    assert [p for p in report.problems if p.startswith("mail settings: ")
            and "mail.toml" in p and "workers" in p]
    for name in PAIR:
        assert any(r.get("order") == "pass" for r in records(made[name][0])[-3:]), name


# ---------------------------------------------------------------- what comes back

def _games(n: int) -> list[Game]:
    return [Game(Path(f"g{i}.jsonl"), f"g{i}", "", None, None, []) for i in range(n)]


def _busy(x: Game) -> bool:
    """What handling a game may leave on it: a line, a problem, a message, whether its mail
    was read; it returns whether its messages were taken."""
    i = int(x.game_id[1:])
    x.log(f"line of {x.game_id}")
    if i % 3 == 0:
        x.fail(f"problem of {x.game_id}")
    x.messages.append({"where": x.game_id, "pid": os.getpid(), "records": [i, i + 1]})
    x.read = i % 2 == 0
    return i % 4 != 1


def _told(games: list[Game]) -> list:
    return [(x.lines, x.problems, [{k: v for k, v in m.items() if k != "pid"}
                                   for m in x.messages], x.read) for x in games]


def test_what_a_worker_does_to_its_games_comes_back_to_the_pass(monkeypatch):
    alone, shared = _games(7), _games(7)
    expected = sharing.each_game(alone, _busy, share_among=1)
    forked = count_forks(monkeypatch)
    got = sharing.each_game(shared, _busy, share_among=3)
    assert len(forked) == 2
    assert got == expected and _told(shared) == _told(alone)
    pids = {m["pid"] for x in shared for m in x.messages}
    assert len(pids) == 3 and os.getpid() in pids          # three processes did the work


def test_a_fault_of_the_referee_on_one_game_is_that_games_problem_in_any_share(monkeypatch):
    """A game whose handling raises (a bug, not a rule) is reported on its own line, with
    what was raised; the games dealt after it are handled, whether it fell to the pass or
    to a worker."""
    def failing(x: Game) -> bool:
        if x.game_id in ("g0", "g1"):
            raise KeyError(f"nothing for {x.game_id}")
        return _busy(x)

    for share_among in (1, 2):
        games = _games(6)
        got = sharing.each_game(games, failing, share_among=share_among)
        for x, done in zip(games, got):
            if x.game_id in ("g0", "g1"):
                assert not done and x.read is False
                assert x.problems == [f"{x.game_id}: the referee failed on this game "
                                      f"(KeyError: 'nothing for {x.game_id}'); the next pass "
                                      f"tries again (the traceback is on standard error)"]
            else:
                assert x.lines[0] == f"{x.game_id}: line of {x.game_id}", share_among


def test_a_worker_that_cannot_be_started_leaves_its_share_to_the_pass(monkeypatch):
    def no_fork():
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", no_fork)
    games, alone = _games(5), _games(5)
    assert sharing.each_game(games, _busy, share_among=3) == \
        sharing.each_game(alone, _busy, share_among=1)
    assert _told(games) == _told(alone)
    assert {m["pid"] for x in games for m in x.messages} == {os.getpid()}


def test_workers_come_back_when_whoever_started_the_pass_ignores_sigchld():
    before = signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    try:
        games, alone = _games(4), _games(4)
        got = sharing.each_game(games, _busy, share_among=2)
        assert signal.getsignal(signal.SIGCHLD) == signal.SIG_IGN      # given back
    finally:
        signal.signal(signal.SIGCHLD, before)
    assert got == sharing.each_game(alone, _busy, share_among=1)
    assert _told(games) == _told(alone) and not any(x.problems for x in games if
                                                    "worker" in " ".join(x.problems))
    assert len({m["pid"] for x in games for m in x.messages}) == 2


def test_a_worker_whose_game_fails_by_the_rules_sends_its_problem_and_unread_back(
        cli, tmp_path, monkeypatch):
    """A game refused in a worker (a RefereeError: its journal cannot be written, say):
    the problem and the line reach the pass's report, the game's mail stays unread, and
    the other games' mail is applied."""
    from referee.base.errors import UsageError

    _settings(2)
    made = _folder(cli, tmp_path, monkeypatch)
    leader, real = os.getpid(), ticking.inbox
    refused: list[str] = []

    def refusing(journal, *a, **k):
        if os.getpid() != leader and not refused:
            refused.append(journal.stem)
            raise UsageError(f"{journal.name}: cannot be written just now")
        return real(journal, *a, **k)

    monkeypatch.setattr(ticking, "inbox", refusing)
    report = ticking.tick(tmp_path / "games", with_map=False)
    victim = next(x for x in report.games if f"{x.journal.name}: cannot be written just now"
                  in " ".join(x.problems))
    assert victim.read is False
    assert any("cannot be written just now" in line for line in report.lines())
    for name in NAMES:
        applied = any(r.get("order") == "pass" for r in records(made[name][0])[-2:])
        assert applied == (name != victim.game_id), name


# ---------------------------------------------------------------- killed at each step

def _tick_process(root, step: str | None) -> subprocess.CompletedProcess:
    """A pass over root's games in a process of its own, killed where step names (None:
    never; other modules' killed-run tests run their passes after the kill so)."""
    env = {**os.environ, **({FAULT_VARIABLE: step} if step else {})}
    env.pop("PYTEST_XDIST_WORKER", None)
    return subprocess.run([sys.executable, "-m", "referee", "tick", str(root / "games"),
                           "--no-map"], env=env, capture_output=True, text=True, timeout=300)


def _answers(root) -> list[str]:
    return sorted(line for name in NAMES for line in _sent(root, name))


def _three_passes(cli, root, monkeypatch, fault_at: str | None) -> list[str]:
    """A shared pass ended where fault_at names (None: never), in a process of its own
    forked from this one if it is killed, then two passes after it, here: each German's pass
    applied once; the mails written."""
    monkeypatch.setenv("REFEREE_HOME", str(root / "home"))
    _settings(2)
    made = _folder(cli, root, monkeypatch)
    if fault_at:                        # a process of its own, forked from this one
        killed = forkedruns.run(forkedruns.command, cli, "tick", root / "games", "--no-map",
                                env={FAULT_VARIABLE: fault_at}, timeout=300)
        assert killed == 70, killed
    else:
        assert cli("tick", root / "games", "--no-map").exit_code == 0
    for _ in range(2):
        again = cli("tick", root / "games", "--no-map")     # only the kill needs a process
        assert again.exit_code == 0, again.output
    for name in NAMES:
        passes = [r for r in records(made[name][0]) if r.get("order") == "pass"]
        assert len(passes) == 1, (fault_at, name)
    return _answers(root)


@pytest.fixture(scope="module")
def never_killed(tmp_path_factory) -> list[str]:
    """The mails three passes never killed write (the same for every step below)."""
    from conftest import Cli

    with pytest.MonkeyPatch.context() as monkeypatch:
        return _three_passes(Cli(), tmp_path_factory.mktemp("clean"), monkeypatch, None)


@pytest.mark.parametrize("step", ["applied", "ledger", "reply", "written"])
def test_a_shared_pass_killed_at_a_step_then_run_again_applies_and_answers_once(
        cli, tmp_path, monkeypatch, step, never_killed):
    """Every process of a shared pass ends where REFEREE_FAULT names (the pass and its
    worker each reach it in their share); two passes after it leave each German's pass
    applied once and every mail written once, as a pass never killed does."""
    assert _three_passes(cli, tmp_path, monkeypatch, step) == never_killed


@pytest.mark.parametrize("cpu_max, most", [("max 100000\n", None), ("150000 100000\n", 1),
                                           ("400000 100000\n", 4), ("garbled\n", None)])
def test_the_cores_counted_are_no_more_than_the_containers_quota(tmp_path, monkeypatch,
                                                                 cpu_max, most):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(8)), raising=False)
    quota = tmp_path / "cpu.max"
    quota.write_text(cpu_max)
    monkeypatch.setattr(beside, "CPU_MAX", quota)
    assert sharing.cores() == (8 if most is None else most)
    monkeypatch.setattr(beside, "CPU_MAX", tmp_path / "absent")
    assert sharing.cores() == 8
