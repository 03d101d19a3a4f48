"""A reminder due reads the game's signed ledger once: when he was told of his deadline, by
which mail, whether a report goes to him in the pass, and where the mail goes are all
answered from that one reading (each reading checks the signature of the whole file, which
grows with the game's mail).

The game is the 1914 game of test_deadlines.py, `--deadline 48h`, reminded 24h before;
`tick` mailed its first reports into an outbox folder at the hand-off.
"""

from __future__ import annotations

from datetime import timedelta

from test_deadlines import DUE, START
from test_reminder_first_report import _game, _tick

from referee.mail.reminders import check_deadlines
from referee.store import home


def _ledger_reads(monkeypatch, check) -> tuple[list[str], int]:
    """What check() returns, and how many times it read a ledger."""
    read, reads = home.read_signed, []

    def counted(path, *args, **kwargs):
        if str(path).endswith(".ledger"):
            reads.append(path)
        return read(path, *args, **kwargs)

    monkeypatch.setattr(home, "read_signed", counted)
    try:
        return check(), len(reads)
    finally:
        monkeypatch.setattr(home, "read_signed", read)


def test_a_reminder_due_reads_the_ledger_once(tmp_path, cli, clock, monkeypatch):
    journal, out = _game(tmp_path, cli, "--deadline", "48h")
    _tick(cli, clock, journal, START)
    quiet, before = _ledger_reads(monkeypatch, lambda: check_deadlines(
        journal, out, START + timedelta(hours=1), reporting=True))
    assert quiet == []
    log, reads = _ledger_reads(monkeypatch, lambda: check_deadlines(
        journal, out, DUE - timedelta(hours=24), reporting=True))
    assert log == ["reminder: the German player, orders due by Wed 25 Nov 18:00 UTC (24h before)"]
    assert reads - before == 1, (before, reads)
