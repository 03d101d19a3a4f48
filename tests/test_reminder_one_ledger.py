"""A deadline pass reads the game's signed ledger for its mails once: the maps a reminder
names and what the reminder asks of the ledger (when he was told, whether a report goes to
him in the pass, where the mail goes) come from one reading, kept under the game's mail
lock by every writer of the step; a pass that writes nothing reads it for the holds alone
(holds.sides_on_hold, read before the journal's lock). Each reading checks the signature
of the whole file, which grows with the game's mail.

The game is the 1914 game of test_deadlines.py, `--deadline 48h`, reminded 24h before;
`tick` mailed its first reports into an outbox folder at the hand-off.
"""

from __future__ import annotations

from datetime import timedelta

from test_deadlines import DUE, START
from test_reminder_first_report import _game, _tick
from test_reminder_ledger_reads import _ledger_reads

from referee.mail.reminders import check_deadlines


def test_a_reminder_pass_reads_the_ledger_for_its_mails_once(tmp_path, cli, clock,
                                                              monkeypatch):
    journal, out = _game(tmp_path, cli, "--deadline", "48h")
    _tick(cli, clock, journal, START)
    quiet, reads = _ledger_reads(monkeypatch, lambda: check_deadlines(
        journal, out, START + timedelta(hours=1), reporting=True))
    assert (quiet, reads) == ([], 1)
    log, reads = _ledger_reads(monkeypatch, lambda: check_deadlines(
        journal, out, DUE - timedelta(hours=24), reporting=True))
    assert log == ["reminder: the German player, orders due by Wed 25 Nov 18:00 UTC (24h before)"]
    assert reads == 2, reads
