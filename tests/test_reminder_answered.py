"""A reminder never comes in a pass whose mail to the side already gave him his deadline,
nor after it for the same deadline; and the mail that tells a side his deadline passed
lets him answer from it.

A side answering his decision step by step (his card, then his moves) is answered by a
report each time, each giving his deadline, which runs on from the same hand-off. A
reminder whose time came before that report was written is not sent: it counts as sent
(its record is written, as any reminder's), in this pass and every later one. A reminder
whose time comes after his last report is sent at its time. A run killed between writing
the report and saving the ledger, run again, sends it once, and no reminder beside it.

The game is the 1914 game of test_deadlines.py, begun on Monday 23 November 2026 at 18:00
UTC, `--deadline 48h` and the reminders 24h and 2h before: the German player owes his card
or a pass (2.0 II.1) by Wednesday 25 November 18:00 UTC. He plays his Offensive by mail at
19:00 on Monday: his movement is a hand-off, due by Wednesday 19:00, answered one move a
mail. `tick` reads a Maildir and writes an outbox folder.
"""

from __future__ import annotations

import email
import email.policy
import os
import re
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

from commandclock import at
from test_deadlines import DUE, records, text_of
from test_inbox import ADDRESSES, KEYS
from test_reminder_first_report import _game, _new_mails, _reminded, _tick

from referee.base.clock import NOW_VARIABLE
from referee.mail.ledger import FAULT_VARIABLE

GERMAN = ADDRESSES["german"]
H = timedelta(hours=1)
MOVE_DUE = DUE + H
MOVED = "Your decision: movement phase (Offensive played): move units, then end"


def _moving(tmp_path: Path, cli, clock) -> tuple[Path, Path, set[str]]:
    """The game, its outbox, and the names of the mails written by the time the German's
    card is answered (Monday 19:00): he owes his moves, due by Wednesday 19:00."""
    journal, out = _game(tmp_path, cli, "--deadline", "48h")
    seen: set[str] = set()
    _tick(cli, clock, journal, DUE - 48 * H)
    _new_mails(out, seen)
    _send(tmp_path, "card", ["play offensive"], DUE - 47 * H)
    _tick(cli, clock, journal, DUE - 47 * H)
    [report] = _new_mails(out, seen)[GERMAN]
    assert report.startswith(MOVED) and "Orders due by Wed 25 Nov 19:00 UTC." in report
    return journal, out, seen


def _send(tmp_path: Path, name: str, lines: list[str], moment, side: str = "german") -> None:
    """A side's mail (the German's unless named), with his order key, into the Maildir
    `tick` reads."""
    address = ADDRESSES[side]
    body = "\n".join(lines) + f"\n\nOrder key: {KEYS[side]}\n"
    stamp = (moment - timedelta(minutes=5)).strftime("%a, %d %b %Y %H:%M:%S +0000")
    raw = (f"From: {address}\nTo: referee@example.com\nSubject: orders\nDate: {stamp}\n"
           f"Message-ID: <{name}@{address.split('@')[1].lower()}>\n\n{body}")
    (tmp_path / "box" / "new" / f"{name}.eml").write_text(raw)


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_the_pass_answering_his_orders_sends_no_reminder_then_or_later(tmp_path, cli,
                                                                        clock):
    """The German moves a unit at 17:55, after the 2h reminder's time (17:00) and before
    any pass since: the 18:00 pass sends him the report answering it, which gives his
    deadline, and no reminder; the reminder is recorded as sent, and no later pass sends
    it."""
    journal, out, seen = _moving(tmp_path, cli, clock)
    _send(tmp_path, "move", ["move ge-i-02 palatinate"], MOVE_DUE - H)
    log = _tick(cli, clock, journal, MOVE_DUE - H)
    [report] = _new_mails(out, seen)[GERMAN]
    assert report.startswith(MOVED), report
    assert "Orders due by Wed 25 Nov 19:00 UTC." in report, report
    assert ("not sent, the referee's mail to him of Wed 25 Nov 18:00 UTC gave the deadline"
            in log), log
    handoff = _reminded(journal)[0][0]
    assert _reminded(journal) == [(handoff, "2h")]
    for moment in (MOVE_DUE - 0.5 * H, MOVE_DUE - 0.1 * H):
        assert "reminder" not in _tick(cli, clock, journal, moment)
        assert GERMAN not in _new_mails(out, seen)
    assert _reminded(journal) == [(handoff, "2h")]


def test_a_reminder_whose_time_comes_after_his_last_report_is_sent(tmp_path, cli, clock):
    """He moves a unit at 15:55 and the 16:00 pass answers it (no pass ran at the 24h
    reminder's time: it counts as sent then); he sends nothing more: the 2h reminder comes
    at 17:00, once, listing his moves."""
    journal, out, seen = _moving(tmp_path, cli, clock)
    _send(tmp_path, "move", ["move ge-i-02 palatinate"], MOVE_DUE - 3 * H)
    log = _tick(cli, clock, journal, MOVE_DUE - 3 * H)
    [report] = _new_mails(out, seen)[GERMAN]
    assert report.startswith(MOVED), report
    assert "(3h before): not sent" in log, log
    log = _tick(cli, clock, journal, MOVE_DUE - 2 * H)
    assert "reminder: the German player, orders due by Wed 25 Nov 19:00 UTC (2h before)" in log, log
    [reminder] = _new_mails(out, seen)[GERMAN]
    assert _flat(reminder).startswith("A reminder: your orders are due by Wed 25 Nov 19:00 "
                                      "UTC, in 2 hours: movement phase"), reminder
    assert "- move ge-7, ge-7:infantry →" in reminder, reminder
    _tick(cli, clock, journal, MOVE_DUE - H)
    assert GERMAN not in _new_mails(out, seen)
    assert [before for _, before in _reminded(journal)] == ["24h", "2h"]


def test_a_pass_killed_after_his_report_is_written_sends_it_once_and_no_reminder(
        tmp_path, cli, clock):
    """The 18:00 pass ends right after writing the first mail (the German's report), before
    its ledger is saved; the pass run again at 18:05 writes nothing twice and no
    reminder."""
    journal, out, seen = _moving(tmp_path, cli, clock)
    _send(tmp_path, "move", ["move ge-i-02 palatinate"], MOVE_DUE - H)
    env = {**os.environ, NOW_VARIABLE: at(MOVE_DUE - H), FAULT_VARIABLE: "written"}
    env.pop("PYTEST_XDIST_WORKER", None)
    killed = subprocess.run([sys.executable, "-m", "referee", "tick", str(journal),
                             "--no-map"], env=env, capture_output=True, text=True,
                            timeout=300)
    assert killed.returncode == 70, killed.stderr
    _tick(cli, clock, journal, MOVE_DUE - 55 * timedelta(minutes=1))
    got = _new_mails(out, seen).get(GERMAN, [])
    assert [t.split("\n")[0] for t in got] == [MOVED], got
    assert [before for _, before in _reminded(journal)] == ["2h"]
    assert [r["order"] for r in records(journal) if r.get("actor") == "german"] == [
        "play offensive", "move ge-i-02 palatinate"]


def test_the_late_side_is_asked_again_in_a_mail_he_can_answer(tmp_path, cli, clock):
    """Under `--missed wait` the German lets his deadline pass: the mail that tells him so
    lists the orders open to him, as his report does, the extension he may still ask for,
    his key and the receipt of the record the game stands at; the Entente's says whom the
    game waits on, and nothing of the German's."""
    journal, out = _game(tmp_path, cli, "--deadline", "48h")
    seen: set[str] = set()
    _tick(cli, clock, journal, DUE - 30 * H)
    _tick(cli, clock, journal, DUE - 2 * H)
    _new_mails(out, seen)
    clock(DUE + H)
    cli("tick", journal)
    got = {to: [_flat(t) for t in texts] for to, texts in _new_mails(out, seen).items()}
    [german] = got[GERMAN]
    assert german.startswith("Your orders were due by Wed 25 Nov 18:00 UTC and none came: "
                             "the game waits for them. Send them now: play an "
                             "Offensive-type card or pass"), german
    reply = german.split("Reply with one order per line, made from these:")
    assert len(reply) == 2 and "- play → offensive, limited_offensive" in reply[1], german
    assert "More time: a line 'extend 24h' alone in a mail (2 extensions left" in german
    assert "The moderator is told; he may extend the deadline or give an order for you." \
        in german
    *before, missed = records(journal)
    assert missed["clock"]["kind"] == "missed"
    last = before[-1]
    assert re.sub(r"Signed: \S{64} \S{64} \S{44} ", "", german.split(
        f"Order key: {KEYS['german']} Fingerprint: ")[1]).endswith(
        f"(the game's signing key) Receipt: {before[0]['game_id']} "
        f"{last['seq']}:{last['hash'][:32]}"), german
    [entente] = got[ADDRESSES["entente"]]
    assert entente.startswith("The German player's orders were due by Wed 25 Nov 18:00 UTC "
                              "and none came: the game waits for them."), entente
    assert KEYS["german"] not in entente and "Reply with one order" not in entente
    mail = email.message_from_bytes(
        next(p for p in sorted(out.glob("deadline-*-german-missed-*-german.eml"))
             ).read_bytes(), policy=email.policy.default)
    assert all(len(line) <= 72 for line in text_of(mail).splitlines())
