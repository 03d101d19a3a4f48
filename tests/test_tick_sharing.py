"""A busy pass shared among forked workers (referee/mail/sharing.py): the games dealt by
their work, each handled once; a pass shared among two workers does what one process does;
a worker that dies leaves its games to the next pass, which applies and answers nothing
twice; `workers = 1` in the mail settings keeps a pass in one process. The games read one
Maildir (claimed by order key) and write to outbox folders; time comes from REFEREE_NOW."""

from __future__ import annotations

import email
import os

import pytest
from forking import count_forks
from mailboxes import write_maildir
from test_tick_index import START
from test_transport import ADDRESSES, mail, new_game, records
from test_unattended import at

from referee.base.clock import NOW_VARIABLE
from referee.mail import sharing
from referee.mail import tick as ticking
from referee.store import mailsettings

NAMES = ("alpha", "bravo", "charlie", "delta")


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


def _folder(cli, root, monkeypatch, mailed: tuple[str, ...] = NAMES) -> dict:
    """Four 1914 games reading one Maildir, each writing its own outbox, ticked once (the
    opening mails); then a `pass` from the German of each game mailed, with his order key,
    in the box."""
    monkeypatch.setenv(NOW_VARIABLE, at(START))
    box = write_maildir(root / "box", [])
    made = {name: new_game(cli, root / "games", name, None, "--mail-in", str(box),
                           "--mail-out", f"outbox:{root / ('out-' + name)}")
            for name in NAMES}
    assert cli("tick", root / "games", "--no-map").exit_code == 0
    write_maildir(box, [mail("german", keys["german"], ["pass"], f"<{name}@example.org>")
                        for name, (_, keys) in made.items() if name in mailed])
    return made


def _sent(root, name: str) -> list[str]:
    """The mails in a game's outbox, each as its reader and its subject."""
    out = []
    for p in sorted((root / f"out-{name}").glob("*.eml")):
        m = email.message_from_bytes(p.read_bytes())
        out.append(f"{m['To']} | {m['Subject']}")
    return sorted(out)


def _run(cli, root, monkeypatch, workers: int):
    _settings(workers)
    made = _folder(cli, root, monkeypatch)
    forked = count_forks(monkeypatch)
    report = ticking.tick(root / "games", with_map=True)
    return made, report, forked


def test_a_pass_shared_among_workers_does_what_one_process_does(cli, tmp_path, monkeypatch):
    """The same folder and mail, passed once by one process and once by two: each German's
    pass applied once, the same mails to the same readers, the same report per game."""
    seen = {}
    for workers in (1, 2):
        root = tmp_path / f"w{workers}"
        monkeypatch.setenv("REFEREE_HOME", str(root / "home"))
        made, report, forked = _run(cli, root, monkeypatch, workers)
        assert len(forked) == (workers > 1) * 2         # the mail, then the deadlines
        assert not report.problems
        seen[workers] = {
            "orders": {n: [r.get("order") for r in records(made[n][0])[-2:]] for n in NAMES},
            "sent": {n: _sent(root, n) for n in NAMES},
            "statuses": {x.game_id: [(m["side"], m["status"], m["records"])
                                     for m in x.messages] for x in report.games},
        }
    assert seen[2] == seen[1]
    for name in NAMES:
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
    made, report, forked = _run(cli, tmp_path, monkeypatch, 1)
    assert forked == [] and not report.problems
    assert all(records(made[n][0])[-1].get("order") == "pass" or
               records(made[n][0])[-2].get("order") == "pass" for n in NAMES)


def test_a_pass_of_one_busy_game_forks_nothing(cli, tmp_path, monkeypatch):
    """One game has mail and the others nothing due: no worker is worth its fork."""
    _settings(4)
    made = _folder(cli, tmp_path, monkeypatch, mailed=("alpha",))
    forked = count_forks(monkeypatch)
    report = ticking.tick(tmp_path / "games", with_map=False)
    assert forked == [] and not report.problems
    assert records(made["alpha"][0])[-1].get("order") == "pass"


def test_mail_settings_that_will_not_read_leave_the_pass_in_one_process_and_say_so(
        cli, tmp_path, monkeypatch):
    """`workers = 0` is refused (the settings name the problem at every pass), and the
    games are still served, one after the other."""
    made = _folder(cli, tmp_path, monkeypatch)
    _settings(0)
    forked = count_forks(monkeypatch)
    report = ticking.tick(tmp_path / "games", with_map=False)
    assert forked == []
    assert [p for p in report.problems if p.startswith("mail settings: ")
            and "mail.toml" in p and "workers" in p]
    for name in NAMES:
        assert any(r.get("order") == "pass" for r in records(made[name][0])[-3:]), name
