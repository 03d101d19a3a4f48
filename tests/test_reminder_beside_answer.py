"""No reminder beside the report a pass owes a side once the referee has answered for the
other side at his missed deadline: that report asks the side's decision, lists the orders
open to him and gives his deadline, as the reminder would.

A pass of `tick` checks the deadlines, then writes the reports owed. At a missed deadline
under the policy default the referee answers for the silent side; that answer moves the
game, so each other side is owed a report in the same pass. A reminder whose time came in
that pass is recorded as sent and no mail made, as beside the report of an order the
moderator entered (test_reminder_beside_report.py): the answers are made before the
reminders are decided. That report tells the answer too: no notice of it goes beside.

The game is the 1914 game of test_deadlines.py, begun on Monday 23 November 2026 at 18:00
UTC, `--deadline 48h --missed default` and the reminders 24h and 2h before, moved on to the
production of the first turn, where both sides owe a sealed plan by Wednesday 18:00. The
moderator gives the German 24h more: his 24h reminder then falls due at Wednesday 18:00,
with the Entente's missed deadline. `tick` reads a Maildir and writes an outbox folder.
"""

from __future__ import annotations

from datetime import timedelta

from test_deadlines import DUE, START, records, to_production
from test_inbox import ADDRESSES
from test_reminder_first_report import _game, _new_mails, _tick

H = timedelta(hours=1)
GERMAN = ADDRESSES["german"]
GERMAN_DUE = "Thu 26 Nov 18:00 UTC"


def _reminded(journal) -> list[tuple[str, str]]:
    return [(r["clock"]["side"], r["clock"]["before"]) for r in records(journal)
            if r.get("clock", {}).get("kind") == "reminded"]


def test_the_report_of_the_referee_s_answer_for_the_other_side_stands_for_the_reminder(
        tmp_path, cli, clock):
    """At 12:00 on Tuesday the moderator extends the German's deadline to Thursday 18:00.
    The 19:00 pass on Wednesday answers for the silent Entente and owes the German the
    report of it, which asks his plan and gives his deadline: his 24h reminder, due then,
    is recorded as sent and no mail made, then or later; the 2h one comes at its time."""
    journal, out = _game(tmp_path, cli, "--deadline", "48h", "--missed", "default")
    to_production(journal)
    seen: set[str] = set()
    _tick(cli, clock, journal, START)
    clock(DUE - 30 * H)
    assert cli("extend", journal, "german", "24h").exit_code == 0
    _tick(cli, clock, journal, DUE - 29 * H)
    _new_mails(out, seen)
    log = _tick(cli, clock, journal, DUE + H)
    assert "missed: the Entente player's orders were due by Wed 25 Nov 18:00 UTC; the referee " \
        "answered 'done' for him" in log, log
    assert f"reminder: the German player, orders due by {GERMAN_DUE} (23h before): not sent, the " \
        "report this pass mails him gives the deadline" in log, log
    mails = _new_mails(out, seen)[GERMAN]
    assert not any(m.startswith("A reminder") for m in mails), mails
    # One mail: the report, which tells the answer too (no notice of it beside).
    [report] = mails
    assert report.startswith("Your decision: production"), report
    assert f"Orders due by {GERMAN_DUE}." in report, report
    assert "The Entente player's orders were due by Wed 25 Nov 18:00 UTC and none came" in \
        " ".join(report.split()), report
    for moment in (DUE + 2 * H, DUE + 3 * H):
        assert "reminder" not in _tick(cli, clock, journal, moment)
        assert GERMAN not in _new_mails(out, seen)
    log = _tick(cli, clock, journal, DUE + 22 * H)
    assert f"reminder: the German player, orders due by {GERMAN_DUE} (2h before)" in log, log
    [reminder] = _new_mails(out, seen)[GERMAN]
    assert reminder.startswith(f"A reminder: your orders are due by {GERMAN_DUE}"), reminder
    assert _reminded(journal) == [("german", "24h"), ("german", "2h")]
