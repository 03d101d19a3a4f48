"""A deadline's mails written once across outboxes: a pass killed after it wrote a reminder
(or a missed deadline's mail) and before the journal recorded it, then a pass into another
outbox (the moderator moved the game's route meanwhile). The reminder is a record, so the
second pass records it; the mail it finds in the first folder, which the ledger keeps,
is not written again (elsewhere.py). The pass takes the game's mail lock before the
journal's, as `inbox` does.

The game is the 1914 game of test_deadlines.py: begun on Monday 23 November 2026 at 18:00
UTC, the German player owes his card or a pass (2.0 II.1) by Wednesday 25 November 18:00
UTC with `--deadline 48h`, reminded 24 hours and 2 hours before.
"""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

from test_deadlines import DUE, mails, new_game, records, text_of
from test_inbox import ADDRESSES

from referee.mail import ledger as ledgermod
from referee.mail.reminders import check_deadlines


def _killed_check(journal: Path, outbox: Path, moment) -> None:
    """check_deadlines in a process of its own, ended once it wrote its first mail."""
    code = ("import sys; from datetime import datetime; from pathlib import Path; "
            "from referee.mail.reminders import check_deadlines; "
            "check_deadlines(Path(sys.argv[1]), Path(sys.argv[2]), "
            "datetime.fromisoformat(sys.argv[3]))")
    r = subprocess.run([sys.executable, "-c", code, str(journal), str(outbox),
                        moment.isoformat()],
                       env={**os.environ, ledgermod.FAULT_VARIABLE: "deadline mail"},
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 70, r.stderr


def _kinds(journal: Path) -> list[str]:
    return [r["clock"]["kind"] for r in records(journal)[1:] if "clock" in r]


def test_a_killed_pass_s_reminder_is_not_written_again_into_another_outbox(tmp_path, cli,
                                                                          clock):
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    first, second = tmp_path / "first", tmp_path / "second"
    moment = DUE - timedelta(hours=20)
    _killed_check(journal, first, moment)
    [reminder] = mails(first)
    assert text_of(reminder).startswith("A reminder: your orders are due by Wed 25 Nov")
    assert "reminded" not in _kinds(journal)          # killed before the record
    check_deadlines(journal, second, moment)
    assert _kinds(journal).count("reminded") == 1      # recorded by the second pass
    assert mails(second) == []                         # the mail stands in the first folder
    check_deadlines(journal, second, moment)
    assert mails(second) == [] and len(mails(first)) == 1


def test_the_reminder_moved_to_sent_is_found_there(tmp_path, cli, clock):
    """The moderator's mail program took the reminder out into the first folder's sent/."""
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    first, second = tmp_path / "first", tmp_path / "second"
    moment = DUE - timedelta(hours=20)
    _killed_check(journal, first, moment)
    (first / "sent").mkdir()
    [name] = [p.name for p in first.glob("*.eml")]
    (first / name).rename(first / "sent" / name)
    check_deadlines(journal, second, moment)
    assert mails(second) == [] and _kinds(journal).count("reminded") == 1


def test_a_file_planted_under_the_reminder_s_name_elsewhere_holds_nothing_back(
        tmp_path, cli, clock):
    """A file under the reminder's name in the first folder that is not the mail as this
    referee wrote it for the German player does not count: the second pass writes it."""
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    first, second = tmp_path / "first", tmp_path / "second"
    moment = DUE - timedelta(hours=20)
    _killed_check(journal, first, moment)
    [path] = list(first.glob("*.eml"))
    path.write_bytes(b"Message-ID: <planted@example.org>\n\nnothing\n")
    check_deadlines(journal, second, moment)
    [reminder] = mails(second)
    assert text_of(reminder).startswith("A reminder: your orders are due by Wed 25 Nov")


def test_a_killed_pass_s_missed_deadline_mail_is_not_written_again(tmp_path, cli, clock):
    """Under the policy wait, the moderator and each player are told of the missed deadline
    once: the pass killed after its first mail (the moderator's) leaves the players' to the
    next."""
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    first, second = tmp_path / "first", tmp_path / "second"
    _killed_check(journal, first, DUE)
    [told] = mails(first)
    assert "none came" in " ".join(text_of(told).split())
    assert "missed" not in _kinds(journal)
    check_deadlines(journal, second, DUE)
    assert _kinds(journal).count("missed") == 1
    assert sorted(str(m["To"]) for m in mails(second)) == sorted(
        a for side, a in ADDRESSES.items() if side != "moderator")
    assert told["To"] not in [m["To"] for m in mails(second)]


def test_without_the_kill_each_outbox_gets_only_what_is_new(tmp_path, cli, clock):
    """Two passes into two folders, nothing killed: the 24h reminder in the first, the 2h
    one, due later, in the second; neither written twice."""
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    first, second = tmp_path / "first", tmp_path / "second"
    check_deadlines(journal, first, DUE - timedelta(hours=20))
    check_deadlines(journal, second, DUE - timedelta(hours=20))
    check_deadlines(journal, second, DUE - timedelta(hours=1))
    assert len(mails(first)) == 1 and len(mails(second)) == 1
    assert _kinds(journal).count("reminded") == 2


def test_a_killed_pass_s_answers_for_a_silent_side_are_told_once_each(tmp_path, cli, clock):
    """Under the policy default the referee answers 'pass' for the silent German (2.0
    II.1), then tells each player; killed once it wrote the first of those mails, the next
    pass, into another folder, writes the others and not that one: each player reads it
    once, across the two folders."""
    journal = new_game(tmp_path, cli, "--deadline", "48h", "--missed", "default")
    first, second = tmp_path / "first", tmp_path / "second"
    _killed_check(journal, first, DUE)
    assert len(mails(first)) == 1
    check_deadlines(journal, second, DUE)
    told = [str(m["To"]) for m in mails(first) + mails(second)
            if "none came" in " ".join(text_of(m).split())]
    assert sorted(told) == sorted(set(told)) and len(told) == 2, told


def test_answers_told_and_taken_out_are_not_told_again_into_another_outbox(tmp_path, cli,
                                                                           clock):
    """A whole pass tells each player of the referee's answer for the silent German; the
    moderator's mail program takes those mails out of the folder (its mark stays), then the
    route moves: the next pass, into another folder, tells nobody again."""
    journal = new_game(tmp_path, cli, "--deadline", "48h", "--missed", "default")
    first, second = tmp_path / "first", tmp_path / "second"
    check_deadlines(journal, first, DUE)
    taken = list(first.glob("*.eml"))
    assert len(taken) == 2
    for path in taken:                                  # sent, and gone from the folder
        path.unlink()
    check_deadlines(journal, second, DUE)
    check_deadlines(journal, second, DUE + timedelta(minutes=5))
    assert mails(second) == []
