"""A reminder never comes with the report that first asks the decision it reminds of.

The deadline runs from the hand-off, but a side learns of the decision from the report
`tick` sends him, which may come later: the moderator started `tick` a day after `new`, or
entered an order at his command line and the next pass mailed the reports. A reminder
whose time came by then would go out in the same pass as that report ("here is your
decision" and "24 hours left" at once), and in the pass after it. It is not sent: the
report gives the deadline. A later reminder still comes at its time, once, and a deadline
reported at its hand-off is reminded as before. The game is the 1914 game of
test_deadlines.py, begun on Monday 23 November 2026 at 18:00 UTC: the German player owes
his card or a pass (2.0 II.1).
"""

from __future__ import annotations

import email
import email.policy
from datetime import timedelta
from pathlib import Path

from forging import journal_mark
from mailboxes import write_maildir
from test_deadlines import DUE, START, new_game, order, records, text_of
from test_inbox import ADDRESSES

from referee.mail.reminders import check_deadlines, quiet_until


def _game(tmp_path: Path, cli, *options: str) -> tuple[Path, Path]:
    """A game `tick` runs, its mail into the folder out (returned with the journal)."""
    maildir = write_maildir(tmp_path / "box", [])
    out = tmp_path / "out"
    journal = new_game(tmp_path, cli, "via_cli", *options, "--mail-in", maildir,
                       "--mail-out", f"outbox:{out}")
    return journal, out


def _tick(cli, clock, journal: Path, moment) -> str:
    clock(moment)
    r = cli("tick", journal)
    assert r.exit_code == 0, r.output
    return r.stdout


def _looked(journal: Path, tmp_path: Path, moment) -> list[str]:
    """The deadlines checked at moment as tick checks them, its mails into a folder apart."""
    return check_deadlines(journal, tmp_path / "apart", moment, reporting=True)


def _reminded(journal: Path) -> list[tuple[int, str]]:
    return [(r["clock"]["handoff"], r["clock"]["before"]) for r in records(journal)
            if r.get("clock", {}).get("kind") == "reminded"]


def _new_mails(out: Path, seen: set[str]) -> dict[str, list[str]]:
    """The mails written since seen (their names, which it takes in), by address: each
    mail's text."""
    got: dict[str, list[str]] = {}
    for path in sorted(out.glob("*.eml")):
        if path.name not in seen:
            seen.add(path.name)
            mail = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
            got.setdefault(str(mail["To"]), []).append(text_of(mail))
    return got


def test_the_first_report_a_day_late_comes_alone_and_the_2h_reminder_in_time(
        tmp_path, cli, clock):
    """`tick` first runs 25 hours after `new` (a 48h deadline): the 24h reminder's time has
    come, but the German's first report, which gives him his deadline, goes alone; the
    pass after it sends no reminder either; the 2h one comes at its time, once."""
    journal, out = _game(tmp_path, cli, "--deadline", "48h")
    seen: set[str] = set()
    log = _tick(cli, clock, journal, START + timedelta(hours=25))
    assert "reminder" not in log, log
    first = _new_mails(out, seen)
    [report] = first[ADDRESSES["german"]]
    assert report.startswith("Your decision: play an Offensive-type card or pass"), report
    assert "Orders due by Wed 25 Nov 18:00 UTC." in report, report
    assert "remind" not in " ".join(report.split()).split("reminders 24h, 2h")[1], report
    [other] = first[ADDRESSES["entente"]]
    assert "was reminded" not in " ".join(other.split()), other
    assert _reminded(journal) == []
    assert quiet_until(journal, START + timedelta(hours=25)) == DUE - timedelta(hours=2)
    for hours in (25.2, 30, 45.9):
        moment = START + timedelta(hours=hours)
        assert "reminder" not in _tick(cli, clock, journal, moment)
        # A pass that looks at the deadlines before then (one that read a mail for the game:
        # tick leaves a quiet game alone) sends none either.
        assert _looked(journal, tmp_path, moment) == []
        assert _new_mails(out, seen) == {} and _reminded(journal) == []
    log = _tick(cli, clock, journal, DUE - timedelta(hours=2))
    assert "reminder: the German player, orders due by Wed 25 Nov 18:00 UTC (2h before)" in log, log
    [reminder] = _new_mails(out, seen)[ADDRESSES["german"]]
    assert reminder.startswith("A reminder: your orders are due by Wed 25 Nov 18:00 UTC")
    _tick(cli, clock, journal, DUE - timedelta(hours=1))
    assert _new_mails(out, seen) == {} and _reminded(journal) == [(1, "2h")]


def test_a_first_report_kept_as_told_later_than_now_holds_back_no_reminder(tmp_path, cli,
                                                                           clock):
    """The ledger keeps when a side was first told of his decision; a time after now (a pass
    run ahead of the clock on the game itself, then the clock back) was never that time:
    the reminder whose time has come goes, where it would be held back till then."""
    journal, out = _game(tmp_path, cli, "--deadline", "48h")
    assert "reminder" not in _tick(cli, clock, journal, START + timedelta(hours=47))
    assert _reminded(journal) == []
    assert _looked(journal, tmp_path, START + timedelta(hours=30)) == [
        "reminder: the German player, orders due by Wed 25 Nov 18:00 UTC (18h before)"]


def test_a_deadline_shorter_than_the_time_to_its_first_report_is_not_reminded_with_it(
        tmp_path, cli, clock):
    """A 24h deadline keeps the 2h reminder alone; `tick` first runs 23 hours after `new`:
    the report asks the decision and gives the deadline, with no reminder beside it, and
    none follows (the game has no later one)."""
    journal, out = _game(tmp_path, cli, "--deadline", "24h")
    seen: set[str] = set()
    assert "reminder" not in _tick(cli, clock, journal, START + timedelta(hours=23))
    [report] = _new_mails(out, seen)[ADDRESSES["german"]]
    assert "Orders due by Tue 24 Nov 18:00 UTC." in report, report
    assert "reminder" not in _tick(cli, clock, journal, START + timedelta(hours=23.5))
    assert _looked(journal, tmp_path, START + timedelta(hours=23.5)) == []
    assert _new_mails(out, seen) == {} and _reminded(journal) == []


def test_an_order_entered_by_the_moderator_is_reported_without_its_reminder(
        tmp_path, cli, clock):
    """The moderator enters the German's pass at his command line: a hand-off of the
    German's next decision at 19:00. The pass 25 hours later mails him the report that
    asks it, without the 24h reminder; its 2h reminder comes in time."""
    journal, out = _game(tmp_path, cli, "--deadline", "48h")
    seen: set[str] = set()
    _tick(cli, clock, journal, START)                    # the first reports
    _new_mails(out, seen)
    clock(START + timedelta(hours=1))
    order(journal, "german", "pass")
    handoff = records(journal)[-1]["seq"]
    moment = START + timedelta(hours=26)
    assert "reminder" not in _tick(cli, clock, journal, moment)
    [report] = _new_mails(out, seen)[ADDRESSES["german"]]
    assert "Orders due by Wed 25 Nov 19:00 UTC." in report, report
    assert "reminder" not in _tick(cli, clock, journal, moment + timedelta(minutes=10))
    assert _looked(journal, tmp_path, moment + timedelta(minutes=10)) == []
    assert _new_mails(out, seen) == {} and _reminded(journal) == []
    log = _tick(cli, clock, journal, DUE - timedelta(hours=1))
    assert "reminder: the German player, orders due by Wed 25 Nov 19:00 UTC (2h before)" in log, log
    assert list(_new_mails(out, seen)) == [ADDRESSES["german"]]
    assert _reminded(journal) == [(handoff, "2h")]


def test_a_deadline_set_after_the_hand_off_is_reported_without_its_reminder(tmp_path,
                                                                             cli, clock):
    """A game begun without deadlines: the first reports ask the German's decision at 18:00.
    The moderator sets a 48h deadline 26 hours later; it runs from the hand-off, so its 24h
    reminder's time has come. The report that gives it goes alone; the 2h reminder comes in
    time."""
    journal, out = _game(tmp_path, cli)
    seen: set[str] = set()
    _tick(cli, clock, journal, START)
    assert set(_new_mails(out, seen)) == {ADDRESSES["german"], ADDRESSES["entente"]}
    moment = START + timedelta(hours=26)
    clock(moment)
    assert cli("deadline", journal, "--set", "48h").exit_code == 0
    assert "reminder" not in _tick(cli, clock, journal, moment)
    [report] = _new_mails(out, seen)[ADDRESSES["german"]]
    assert "Orders due by Wed 25 Nov 18:00 UTC." in report, report
    assert _looked(journal, tmp_path, moment + timedelta(minutes=10)) == []
    assert _reminded(journal) == []
    log = _tick(cli, clock, journal, DUE - timedelta(hours=2))
    assert "reminder: the German player, orders due by Wed 25 Nov 18:00 UTC (2h before)" in log, log
    assert _reminded(journal) == [(1, "2h")]


def test_a_deadline_reported_at_its_hand_off_is_reminded_24h_before_once(tmp_path, cli,
                                                                           clock):
    """A guard (it passes on the code before too): the first report goes out at the
    hand-off; the 24h reminder comes a day later, once, then the 2h one."""
    journal, out = _game(tmp_path, cli, "--deadline", "48h")
    seen: set[str] = set()
    _tick(cli, clock, journal, START)
    assert set(_new_mails(out, seen)) == {ADDRESSES["german"], ADDRESSES["entente"]}
    assert "reminder" not in _tick(cli, clock, journal, DUE - timedelta(hours=24, minutes=1))
    for moment in (DUE - timedelta(hours=24), DUE - timedelta(hours=23, minutes=50)):
        _tick(cli, clock, journal, moment)
    [reminder] = _new_mails(out, seen)[ADDRESSES["german"]]
    assert reminder.startswith("A reminder: your orders are due by Wed 25 Nov 18:00 UTC, "
                               "in 24 hours"), reminder
    assert _reminded(journal) == [(1, "24h")]
    _tick(cli, clock, journal, DUE - timedelta(hours=2))
    assert _reminded(journal) == [(1, "24h"), (1, "2h")]


def test_a_journal_set_back_past_the_last_report_is_reported_and_reminded(tmp_path, cli,
                                                                         clock):
    """Both players were mailed the report of the German's pass (entered by the moderator at
    19:00); the moderator sets the journal back before it and enters another pass at 20:00:
    another record, which the ledger's mark of their last mail no longer names. The next
    pass tells both of it, from the start, as `inbox` would: the German's report gives his
    new deadline, so his reminders come at their time (they would never come if the pass
    took the mark for this record and wrote no report, while the deadline check counted
    on the report it writes)."""
    journal, out = _game(tmp_path, cli, "--deadline", "48h")
    seen: set[str] = set()
    _tick(cli, clock, journal, START)
    cut = journal.read_bytes()
    clock(START + timedelta(hours=1))
    order(journal, "german", "pass")
    _tick(cli, clock, journal, START + timedelta(hours=1))
    assert set(_new_mails(out, seen)) == {ADDRESSES["german"], ADDRESSES["entente"]}
    journal.write_bytes(cut)                    # set back, on purpose: the mark removed
    journal_mark(journal).unlink()
    clock(START + timedelta(hours=2))
    order(journal, "german", "pass")
    handoff = records(journal)[-1]["seq"]
    assert "reminder" not in _tick(cli, clock, journal, START + timedelta(hours=2))
    told = _new_mails(out, seen)
    assert set(told) == {ADDRESSES["german"], ADDRESSES["entente"]}, told
    assert "Orders due by Wed 25 Nov 20:00 UTC." in told[ADDRESSES["german"]][0]
    for hours, before in ((26, "24h"), (48, "2h")):
        log = _tick(cli, clock, journal, START + timedelta(hours=hours))
        assert f"orders due by Wed 25 Nov 20:00 UTC ({before} before)" in log, log
    assert _reminded(journal) == [(handoff, "24h"), (handoff, "2h")]
