"""A reminder recorded as sent beside the report a pass writes is owed again only when that
report is refused for good, never when a later mail of the referee's is.

The reminder is decided before the report is written (tick.py: the deadlines, then the
reports owed), so the ledger keeps it spared for "the report this pass writes"; once that
report is written, the entry takes its name. A reply of the referee's to a later mail of
the side, refused for good, told him nothing, but the report had told him his deadline: no
reminder is sent for it.

The game is the 1914 game of test_deadlines.py at the production of the first turn, where
both sides owe a sealed plan by Wednesday 25 November 2026 at 18:00 UTC, reminded 24h and
2h before (test_reminder_beside_report.py). `tick` reads a Maildir and sends through the
SMTP server of the tests (test_reminder_refused.py), which refuses for good the addresses
it is told to.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from mailboxes import write_maildir
from test_deadlines import DUE, START, new_game, order, to_production
from test_inbox import ADDRESSES
from test_reminder_answered import _send as _send_as
from test_reminder_refused import _taken as _taken_by
from test_reminder_refused import _tick

H = timedelta(hours=1)
ENTENTE = ADDRESSES["entente"]


def _taken(smtp, seen: list[int]) -> list[str]:
    return _taken_by(smtp, seen, ENTENTE)


def _send(tmp_path: Path, name: str, lines: list[str], moment) -> None:
    _send_as(tmp_path, name, lines, moment, "entente")


def test_a_later_reply_refused_for_good_owes_no_reminder_the_report_stood_for(
        tmp_path, cli, clock, smtp):
    """The moderator enters the German's plan at 15:00; the 16:00 pass sends the Entente
    the report of it, which stands for his 2h reminder. At 16:25 he mails an order the
    referee rejects; the server refuses the reply for good. His report did reach him: the
    next pass sends no reminder."""
    maildir = write_maildir(tmp_path / "box", [])
    journal = new_game(tmp_path, cli, "via_cli", "--deadline", "48h", "--mail-in", maildir,
                       "--mail-out", f"smtp://referee@127.0.0.1:{smtp.port}")
    to_production(journal)
    seen = [0]
    _tick(cli, clock, journal, START)
    _tick(cli, clock, journal, DUE - 24 * H)
    clock(DUE - 3 * H)
    order(journal, "german", "done")
    _taken(smtp, seen)
    log = _tick(cli, clock, journal, DUE - 2 * H)
    assert "reminder: the Entente player, orders due by Wed 25 Nov 18:00 UTC (2h before): " \
        "not sent, the report this pass mails him gives the deadline" in log, log
    [report] = _taken(smtp, seen)
    assert report.startswith("Your decision: production: your sealed orders"), report
    _send(tmp_path, "wrong", ["build ge infantry Aachen"], DUE - 1.5 * H)
    smtp.gone.add(ENTENTE)
    log = _tick(cli, clock, journal, DUE - 1.5 * H, code=3)
    assert "rejected" in log, log
    assert _taken(smtp, seen) == []
    smtp.gone.clear()
    log = _tick(cli, clock, journal, DUE - 1.4 * H, code=3)
    assert "reminder" not in log, log
    assert _taken(smtp, seen) == []
