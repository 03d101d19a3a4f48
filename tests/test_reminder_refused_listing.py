"""A deadline check lists the outbox's refused/ folder once, however many reminders it
weighs: each asks whether a mail that told the side his deadline was refused for good, and
nothing is sent while the check runs, so the folder stands as it was.

The game is the 1914 game of test_deadlines.py, begun on Monday 23 November 2026 at 18:00
UTC, `--deadline 48h` and the reminders 24h and 2h before, moved on to the production of
the first turn, where both sides owe a sealed plan by Wednesday 18:00: at 18:00 on Tuesday
both sides' 24h reminders are due.
"""

from __future__ import annotations

from datetime import timedelta

from test_deadlines import DUE, START, to_production
from test_reminder_first_report import _game, _tick

from referee.mail import leftover
from referee.mail.reminders import check_deadlines

H = timedelta(hours=1)


def test_one_check_lists_the_refused_folder_once(tmp_path, cli, clock, monkeypatch):
    journal, out = _game(tmp_path, cli, "--deadline", "48h")
    to_production(journal)
    _tick(cli, clock, journal, START)
    listed: list[object] = []
    real = leftover.refused_mails

    def counted(spool):
        listed.append(spool)
        return real(spool)

    monkeypatch.setattr(leftover, "refused_mails", counted)
    log = check_deadlines(journal, out, DUE - 24 * H, reporting=True)
    assert [line.split(",")[0] for line in log] == ["reminder: the German player",
                                                    "reminder: the Entente player"]
    assert listed == [out]
