"""A reminder sent late (no pass ran at its time) says the time actually left, never the
time before the deadline it was scheduled for: the 24h reminder of a deadline 20 hours away
reads '20h before', in the run's line and in the record's words the log and reports show.
The record keeps the reminder's own time (24h), which tells it was sent. The game is the
1914 game of test_deadlines.py, `--deadline 48h` (reminders 24h and 2h before)."""

from __future__ import annotations

from datetime import timedelta

from test_deadlines import DUE, mails, new_game, records

from referee.mail.reminders import check_deadlines

TOLD = "orders due by Wed 25 Nov 18:00 UTC"


def test_a_late_reminder_says_the_time_left(tmp_path, cli, clock):
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    out = tmp_path / "out"
    assert check_deadlines(journal, out, DUE - timedelta(hours=20)) == [
        f"reminder: the German player, {TOLD} (20h before)"]
    assert [r["clock"]["before"] for r in records(journal)
            if r.get("clock", {}).get("kind") == "reminded"] == ["24h"]
    assert check_deadlines(journal, out, DUE - timedelta(hours=19)) == []
    assert len(mails(out)) == 1
    logged = " ".join(cli("log", journal).stdout.split())
    assert "reminded 20h before the deadline" in logged, logged
    assert "reminded 24h before" not in logged, logged


def test_a_late_reminder_counts_minutes_down(tmp_path, cli, clock):
    """The 2h reminder at 16:29:30 for 18:00: 1h30m left, not a minute more."""
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    out = tmp_path / "out"
    check_deadlines(journal, out, DUE - timedelta(hours=24))
    assert check_deadlines(journal, out, DUE - timedelta(minutes=90, seconds=30)) == [
        f"reminder: the German player, {TOLD} (1h30m before)"]
    logged = " ".join(cli("log", journal).stdout.split())
    assert "reminded 1h30m before the deadline" in logged, logged


def test_a_reminder_on_time_keeps_its_label(tmp_path, cli, clock):
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    assert check_deadlines(journal, tmp_path / "out", DUE - timedelta(hours=24)) == [
        f"reminder: the German player, {TOLD} (24h before)"]
    assert "reminded 24h before the deadline" in " ".join(cli("log", journal).stdout.split())
