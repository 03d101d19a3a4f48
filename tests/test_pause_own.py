"""A game the moderator paused himself (`deadline --pause`, a holiday) is his own act: the
pass says it is paused, counts no problem and exits 0 for it; `watch` logs it as it does a
standing problem (once, then once a day). A game the referee paused for a deadline missed
under `--missed pause` waits on him: a problem, and `tick` exits 3. Time from REFEREE_NOW."""

from __future__ import annotations

from datetime import timedelta

from mailboxes import write_maildir
from test_tick_index import START
from test_transport import new_game
from test_unattended import at
from test_watch_standing_notes import _watch
from ticklines import unstamped

from referee.base.clock import NOW_VARIABLE


def _game(cli, tmp_path, monkeypatch, *deadline: str):
    """A game reading a Maildir and writing an outbox folder, its deadline set, its first
    mails written: its journal."""
    monkeypatch.setenv(NOW_VARIABLE, at(START))
    box = write_maildir(tmp_path / "box", [])
    journal, _ = new_game(cli, tmp_path / "games", "hol", None, "--mail-in", str(box),
                          "--mail-out", f"outbox:{tmp_path / 'out'}")
    assert cli("deadline", journal, "--set", "24h", *deadline).exit_code == 0
    assert cli("tick", tmp_path / "games", "--no-map").exit_code == 0
    return journal


def test_a_game_the_moderator_paused_is_no_problem_and_the_pass_exits_0(cli, tmp_path,
                                                                        monkeypatch):
    journal = _game(cli, tmp_path, monkeypatch)
    assert cli("deadline", journal, "--pause").exit_code == 0
    monkeypatch.setenv(NOW_VARIABLE, at(START + timedelta(days=3)))
    for _ in range(2):
        r = cli("tick", tmp_path / "games", "--no-map")
        assert r.exit_code == 0, r.output
        lines = unstamped(r.stdout.splitlines())
        assert [line for line in lines if line.startswith("hol: paused   the game is paused: "
                                                          "you paused it (record ")], lines
        assert not [line for line in lines if "problem" in line], lines
        assert lines[-1] == "1 game: all handled", lines


def test_watch_names_the_moderator_s_pause_once_a_day(cli, tmp_path, monkeypatch):
    journal = _game(cli, tmp_path, monkeypatch)
    assert cli("deadline", journal, "--pause").exit_code == 0
    later = START + timedelta(days=3)
    log = _watch(tmp_path, monkeypatch, [later, later + timedelta(minutes=5),
                                         later + timedelta(minutes=10),
                                         later + timedelta(days=1, minutes=10)])
    paused = [line for line in log if line.startswith("hol: paused   ")]
    assert len(paused) == 2 and not [line for line in log if "problem" in line], log


def test_a_game_the_referee_paused_for_a_missed_deadline_stays_a_problem(cli, tmp_path,
                                                                         monkeypatch):
    _game(cli, tmp_path, monkeypatch, "--missed", "pause")
    monkeypatch.setenv(NOW_VARIABLE, at(START + timedelta(days=3)))
    cli("tick", tmp_path / "games", "--no-map")           # rules the deadline missed
    r = cli("tick", tmp_path / "games", "--no-map")
    assert r.exit_code == 3, r.output
    assert "problem  the game is paused and waits on the moderator: the German player " \
        "missed his deadline" in r.stdout, r.stdout
