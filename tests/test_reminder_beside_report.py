"""No reminder beside the report that a pass sends a side for another reason, when that
report already gives him the same decision, the orders open to him and his deadline.

A pass of `tick` sends the reminders whose time has come, then each player the report he is
owed: the news of an order the moderator entered at his command line for the other side,
of another side's deadline extended. That report asks his decision, lists the orders open
to him and gives his deadline, as a reminder would: a reminder whose time came by then is
recorded as sent and no mail made, as for the report answering his own mail
(test_reminder_answered.py); a reminder whose time comes later comes at its time.

The game is the 1914 game of test_deadlines.py, begun on Monday 23 November 2026 at 18:00
UTC, `--deadline 48h` and the reminders 24h and 2h before, moved on to the production of
the first turn, where both sides owe a sealed plan by Wednesday 18:00 (one hand-off for
both: the German's plan going in leaves the Entente's deadline where it was). `tick` reads
a Maildir and writes an outbox folder.
"""

from __future__ import annotations

from datetime import timedelta

from test_deadlines import DUE, START, order, records, to_production
from test_inbox import ADDRESSES
from test_reminder_first_report import _game, _new_mails, _tick

H = timedelta(hours=1)
ENTENTE = ADDRESSES["entente"]


def _reminded(journal) -> list[tuple[str, str]]:
    return [(r["clock"]["side"], r["clock"]["before"]) for r in records(journal)
            if r.get("clock", {}).get("kind") == "reminded"]


def _to_the_entente_s_2h_reminder(tmp_path, cli, clock, moved) -> tuple:
    """Both sides reminded 24h before; at 15:00 the moderator moves the game (moved); the
    16:00 pass, when the Entente's 2h reminder is due: its log, the Entente's mails of it,
    and what the later passes need."""
    journal, out = _game(tmp_path, cli, "--deadline", "48h")
    to_production(journal)
    seen: set[str] = set()
    _tick(cli, clock, journal, START)
    _tick(cli, clock, journal, DUE - 24 * H)
    assert [len(texts) for texts in _new_mails(out, seen).values()] == [2, 2]
    clock(DUE - 3 * H)
    moved(journal)
    log = _tick(cli, clock, journal, DUE - 2 * H)
    return log, _new_mails(out, seen).get(ENTENTE, []), (journal, out, seen)


def _one_report_and_no_reminder_after_it(cli, clock, mails: list[str], later: tuple) -> None:
    """The Entente's one mail of the pass is no reminder and gives his decision, the orders
    open and his deadline; no later pass sends him the reminder."""
    [report] = mails
    assert not report.startswith("A reminder"), report
    flat = " ".join(report.split())
    assert flat.startswith("Your decision: production: your sealed orders"), report
    assert "Orders due by Wed 25 Nov 18:00 UTC." in flat, report
    assert "Reply with one order per line, made from these:" in flat, report
    journal, out, seen = later
    for moment in (DUE - 1.5 * H, DUE - H):
        assert "reminder" not in _tick(cli, clock, journal, moment)
        assert ENTENTE not in _new_mails(out, seen)


def test_the_report_of_an_order_entered_for_the_other_side_stands_for_the_reminder(
        tmp_path, cli, clock):
    """The moderator enters the German's plan at 15:00: the Entente owes his as before, by
    the same deadline. The 16:00 pass owes him the report of it, which asks his plan and
    gives his deadline: his 2h reminder, due at that pass, is recorded as sent and no mail
    made, then or later."""
    log, mails, later = _to_the_entente_s_2h_reminder(
        tmp_path, cli, clock, lambda journal: order(journal, "german", "done"))
    assert "reminder: the Entente player, orders due by Wed 25 Nov 18:00 UTC (2h before): " \
        "not sent, the report this pass mails him gives the deadline" in log, log
    _one_report_and_no_reminder_after_it(cli, clock, mails, later)
    assert _reminded(later[0]).count(("entente", "2h")) == 1


def test_the_news_of_the_other_side_s_deadline_extended_comes_without_a_reminder(
        tmp_path, cli, clock):
    """A guard (it passes on the code before too): the moderator gives the German 24h more
    at 15:00; the 16:00 pass mails the Entente the news of it, which gives his own deadline
    as it was (a record changing the deadlines after the hand-off: firsttold.py), and no
    reminder, then or later."""
    def extended(journal):
        assert cli("extend", journal, "german", "24h").exit_code == 0

    log, mails, later = _to_the_entente_s_2h_reminder(tmp_path, cli, clock, extended)
    assert "reminder: the Entente player" not in log, log
    _one_report_and_no_reminder_after_it(cli, clock, mails, later)
