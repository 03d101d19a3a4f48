"""A report the server refused for good told the player nothing: the reminder it would have
answered still comes.

A reminder whose time came by the time a report gave the side his deadline is not sent
(test_reminder_answered.py, test_reminder_first_report.py): the report gave it. But a
report the server refuses for good (set aside in the spool's refused/, tests/mailservers.py
answering 550 for the address) never reached him: the reminder is then sent as any other,
to the same address, by the next pass, once; the record of it is written once.

The game is the 1914 game of test_deadlines.py, begun on Monday 23 November 2026 at 18:00
UTC, `--deadline 48h` and the reminders 24h and 2h before; `tick` reads a Maildir and sends
through the SMTP server of the tests, on 127.0.0.1.
"""

from __future__ import annotations

import email
import email.policy
from datetime import UTC, timedelta
from pathlib import Path

import pytest
from mailboxes import write_maildir
from test_deadlines import DUE, START, new_game
from test_inbox import ADDRESSES
from test_reminder_answered import MOVE_DUE, MOVED, _send
from test_reminder_first_report import _reminded

H = timedelta(hours=1)
GERMAN = ADDRESSES["german"]


def _game(tmp_path: Path, cli, smtp) -> Path:
    maildir = write_maildir(tmp_path / "box", [])
    return new_game(tmp_path, cli, "via_cli", "--deadline", "48h", "--mail-in", maildir,
                    "--mail-out", f"smtp://referee@127.0.0.1:{smtp.port}")


def _tick(cli, clock, journal: Path, moment, code: int = 0) -> str:
    clock(moment)
    r = cli("tick", journal, "--no-map")
    assert r.exit_code == code, r.output
    return r.stdout


def _taken(smtp, seen: list[int], to: str = GERMAN) -> list[str]:
    """The texts of the mails the server took for one address (the German's unless named)
    since the last call."""
    got = smtp.received[seen[0]:]
    seen[0] = len(smtp.received)
    return [" ".join(email.message_from_bytes(raw, policy=email.policy.default).get_body(
        ("plain",)).get_content().split())
        for _, tos, raw in got if [t.lower() for t in tos] == [to.lower()]]


def test_a_reminder_answered_by_a_report_refused_for_good_is_sent_next_pass(
        tmp_path, cli, clock, smtp):
    """The German plays his card (his moves due by Wednesday 19:00) and moves a unit at
    17:55, after the 2h reminder's time: the 18:00 pass writes his report, which gives the
    deadline, and no reminder. The server refuses that report for good (the address takes
    mail again after it). The next pass sends him the reminder, once."""
    journal = _game(tmp_path, cli, smtp)
    seen = [0]
    _tick(cli, clock, journal, DUE - 48 * H)
    _send(tmp_path, "card", ["play offensive"], DUE - 47 * H)
    _tick(cli, clock, journal, DUE - 47 * H)
    [*_, report] = _taken(smtp, seen)
    assert report.startswith(MOVED), report
    _send(tmp_path, "move", ["move ge-i-02 palatinate"], MOVE_DUE - H)
    smtp.gone.add(GERMAN)
    log = _tick(cli, clock, journal, MOVE_DUE - H, code=3)
    assert ("not sent, the referee's mail to him of Wed 25 Nov 18:00 UTC gave the deadline"
            in log), log
    assert _taken(smtp, seen) == []
    smtp.gone.clear()
    log = _tick(cli, clock, journal, MOVE_DUE - 0.8 * H, code=3)
    assert "reminder: the German player, orders due by Wed 25 Nov 19:00 UTC (48m before)" \
        in log, log
    [reminder] = _taken(smtp, seen)
    assert reminder.startswith("A reminder: your orders are due by Wed 25 Nov 19:00 UTC, "
                               "in 48 minutes: movement phase"), reminder
    for moment in (MOVE_DUE - 0.6 * H, MOVE_DUE - 0.4 * H):
        assert "reminder" not in _tick(cli, clock, journal, moment, code=3)
    assert _taken(smtp, seen) == []
    assert [before for _, before in _reminded(journal)] == ["2h"]


def test_a_reminder_held_back_by_a_first_report_refused_for_good_is_sent_next_pass(
        tmp_path, cli, clock, smtp):
    """`tick` first runs 25 hours after `new`: the German's first report goes alone, and
    the server refuses it for good. The next pass sends him the 24h reminder (his key ends
    it), once; the 2h one comes at its time."""
    journal = _game(tmp_path, cli, smtp)
    seen = [0]
    smtp.gone.add(GERMAN)
    assert "reminder" not in _tick(cli, clock, journal, START + 25 * H, code=3)
    assert _taken(smtp, seen) == []
    smtp.gone.clear()
    log = _tick(cli, clock, journal, START + 25.5 * H, code=3)
    assert "reminder: the German player, orders due by Wed 25 Nov 18:00 UTC " \
        "(22h30m before)" in log, log
    [reminder] = _taken(smtp, seen)
    assert reminder.startswith("A reminder: your orders are due by Wed 25 Nov 18:00 UTC"), \
        reminder
    assert "Order key: " in reminder, reminder
    assert "reminder" not in _tick(cli, clock, journal, START + 26 * H, code=3)
    log = _tick(cli, clock, journal, DUE - 2 * H, code=3)
    assert "(2h before)" in log, log
    assert len(_taken(smtp, seen)) == 1
    assert _reminded(journal) == [(1, "24h"), (1, "2h")]


@pytest.mark.parametrize("entry", [
    ["german", 3, "2h", "2026-11-25T18:00:00Z", ["a", "list"]],
    ["german", 3, "2h", "2026-11-25T18:00:00Z", {"a": 1}],
    ["german", "3", "2h", "2026-11-25T18:00:00Z", None],
    [["german"], 3, "2h", "2026-11-25T18:00:00Z", None],
    ["german", 3, 2, "2026-11-25T18:00:00Z", "x.eml"],
])
def test_a_spared_entry_of_another_shape_is_passed_over(entry):
    """The ledger is the referee's own signed file, but one an older or other referee wrote
    may hold any shape: an entry that is not [side, hand-off, before, due, name or None] is
    passed over, never hashed or compared into a traceback."""
    from referee.mail.firsttold import _spared

    good = ["german", 3, "2h", "2026-11-25T18:00:00Z", None]
    assert _spared({"spared": [entry, good]}) == [good]


def test_a_reminder_spared_again_keeps_one_entry(monkeypatch):
    """A reminder spared anew (its earlier mail refused, a later one giving the deadline)
    takes the place of its entry: one entry a reminder, naming the latest mail."""
    from datetime import datetime
    from types import SimpleNamespace

    from referee.mail import firsttold

    monkeypatch.setattr(firsttold, "save_ledger", lambda ledger: None)
    d = SimpleNamespace(side="german", handoff=3,
                        due=datetime(2026, 11, 25, 18, tzinfo=UTC))
    ledger: dict = {}
    firsttold.keep_spared(ledger, d, "2h", "first.eml")
    firsttold.keep_spared(ledger, d, "2h", "second.eml")
    firsttold.keep_spared(ledger, d, "24h", None)
    assert [(e[2], e[4]) for e in ledger["spared"]] == [("2h", "second.eml"), ("24h", None)]
