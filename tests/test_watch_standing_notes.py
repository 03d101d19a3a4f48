"""What stands from one pass of `watch` to the next and is no problem is logged as a
standing problem is (standingproblems.py): at the pass it first appears or changes, then
once a day while it stands. A deadline passed that no pass rules missed while the game's
mailbox cannot be read (its orders may wait there) is such a line. Time comes from
REFEREE_NOW, moved between the passes."""

from __future__ import annotations

from datetime import timedelta

from mailservers import HOST, free_port, mail_settings
from test_tick_index import START
from test_transport import new_game
from test_unattended import at
from ticklines import unstamped

from referee.base.clock import NOW_VARIABLE
from referee.mail import tick as ticking


def _watch(tmp_path, monkeypatch, moments: list) -> list[str]:
    """A pass of `watch` at each of these moments: its log, unstamped."""
    logged: list[str] = []
    monkeypatch.setenv(NOW_VARIABLE, at(moments[0]))
    later = iter(moments[1:])

    def wait(_: float) -> bool:
        moment = next(later, None)
        if moment is None:
            return True
        monkeypatch.setenv(NOW_VARIABLE, at(moment))
        return False
    passes = ticking.watch(tmp_path / "games", 0, log=logged.append, with_map=False,
                           wait=wait)
    assert passes == len(moments)
    return unstamped(logged)


def test_a_deadline_the_mailbox_down_keeps_unruled_is_logged_once_a_day(cli, tmp_path,
                                                                        monkeypatch):
    port = free_port()
    mail_settings(f'[hosts."{HOST}"]\nports = [{port}]\n')
    monkeypatch.setenv(NOW_VARIABLE, at(START))
    journal, _ = new_game(cli, tmp_path / "games", "a", None, "--mail-in",
                          f"imap://me@{HOST}:{port}/INBOX", "--mail-out",
                          f"outbox:{tmp_path / 'out'}")
    r = cli("deadline", journal, "--set", "24h")
    assert r.exit_code == 0, r.output
    assert cli("tick", tmp_path / "games", "--no-map").exit_code == 3    # its first mails
    late = START + timedelta(hours=25)
    log = _watch(tmp_path, monkeypatch, [late, late + timedelta(minutes=5),
                                         late + timedelta(minutes=10),
                                         late + timedelta(days=1, minutes=10)])
    unruled = [line for line in log if "not ruled missed yet (the game's mailbox" in line]
    assert len(unruled) == 2 and len(set(unruled)) == 1, log
    assert unruled[0].startswith("a: deadline: the German player's orders were due by "), log
    # The mailbox itself: once, and again a day later.
    assert len([line for line in log if "waits on it" in line]) == 2, log
