"""A sealed plan both sides let pass: one mail a reader for the one decision.

Production (7.0) is one decision both sides make at once, asked of both by one record, so
both deadlines pass together (docs/moderator.md, Deadlines). A pass of `tick` that finds
both missed sends each reader one mail for the two: under `--missed wait` a side's own says
first that his orders are missing and that the other side's are too, what he sends now and
that the moderator is told; the moderator's and the observer's name both sides. So too under
pause; under default the referee answers both, and each reader's report tells both answers.
A pass killed between the notices' mails and their records, or after the answers' records,
leaves each reader one mail all the same.

The game is the 1914 scenario made on Monday 23 November 2026 at 09:00 UTC with deadlines
of 48h, mailed through an outbox: both players pass and end the turn at once, so the
production plans are asked at 09:00 (records 1 to 8) and due on Wednesday 25 November at
09:00 UTC; the pass at 09:30 (after the 15 minutes' grace) finds both missed.
"""

from __future__ import annotations

import email
import email.policy
import json
import os
import re
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from commandclock import at
from flowtext import written
from sharedgames import kept
from ticklines import problem_text, problems

from referee.base.clock import NOW_VARIABLE
from referee.mail.ledger import FAULT_VARIABLE

START = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
PASSED = datetime(2026, 11, 25, 9, 30, tzinfo=UTC)
DUE = "Wed 25 Nov 09:00 UTC"
ADDRESSES = {"german": "g@example.org", "entente": "e@example.net",
             "moderator": "mod@example.com", "observer": "o@example.org"}


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    """Where each policy's game is played once, to both deadlines' eve, and kept."""
    return tmp_path_factory.getbasetemp()


def _game(played: Path, cli, monkeypatch, policy: str) -> tuple[Path, Path]:
    """The game, its first reports and the orders' reports mailed: (its folder, the
    outbox); every mail written so far is moved to the outbox's sent/. Played once a
    policy, with a home of its own; each test gets the folders as they were then, in the
    same places (the journal names its mail folders), and its home what that one held. A
    copy's files are new (inodes, change times), so the index of games it holds is stale: an
    idle pass writes it again, and each test's passes at the deadline go through an index as
    after the play."""
    def make(place: Path, mp) -> None:
        mp.setenv(NOW_VARIABLE, at(START))
        _play(place, cli, policy)

    live = kept(played, f"sealed-missed-{policy}", make).back()
    monkeypatch.setenv(NOW_VARIABLE, at(START))
    assert cli("tick", live / "g", "--no-map").exit_code == 0
    assert not list((live / "out").glob("*.eml"))      # idle: nothing new to mail
    return live / "g", live / "out"


def _play(tmp_path: Path, cli, policy: str) -> None:
    folder, out, inbox = tmp_path / "g", tmp_path / "out", tmp_path / "mail"
    for sub in ("cur", "new", "tmp"):
        (inbox / sub).mkdir(parents=True)
    folder.mkdir()
    journal = folder / "m.jsonl"
    r = cli("new", journal, "--scenario", "1914", "--game-id", "ms", "--deadline", "48h",
            "--missed", policy, *[a for s, addr in ADDRESSES.items()
                                  for a in ("--player", f"{s}={addr}")],
            "--mail-in", inbox, "--mail-out", f"outbox:{out}", "--from", "ref@example.com")
    assert r.exit_code == 0, r.output
    assert cli("tick", folder, "--no-map").exit_code == 0
    for side in ("german", "entente"):
        assert cli("order", journal, "--as", side, "pass", "end turn").exit_code == 0
    assert cli("tick", folder, "--no-map").exit_code == 0
    status = cli("status", journal).stdout
    assert "Waiting on the German and Entente players: production" in status, status
    _sent(out)


def _sent(out: Path) -> None:
    """The outbox's mails taken as sent (a mail program moves them to sent/)."""
    (out / "sent").mkdir(exist_ok=True)
    for p in out.glob("*.eml"):
        p.rename(out / "sent" / p.name)


def _mails(out: Path) -> dict[str, list[str]]:
    """Each reader's mails in the outbox (not sent/): their text, lines joined."""
    reader = {a: s for s, a in ADDRESSES.items()}
    got: dict[str, list[str]] = {}
    for p in sorted(out.glob("*.eml")):
        m = email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
        got.setdefault(reader[str(m["To"])], []).append(
            " ".join(m.get_body(("plain",)).get_content().split()))
    return got


def _tick(folder: Path, monkeypatch, cli, fault: str = "") -> int:
    """A pass at PASSED (killed at the fault point named, in a process of its own)."""
    monkeypatch.setenv(NOW_VARIABLE, at(PASSED))
    if not fault:
        return cli("tick", folder, "--no-map").exit_code
    r = subprocess.run([sys.executable, "-m", "referee", "tick", str(folder), "--no-map"],
                       env={**os.environ, FAULT_VARIABLE: fault}, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 70, r.stderr
    return r.returncode


def test_both_sides_silent_under_wait_make_one_mail_a_reader(played, cli, monkeypatch):
    folder, out = _game(played, cli, monkeypatch, "wait")
    assert _tick(folder, monkeypatch, cli) == 3
    got = _mails(out)
    assert {r: len(m) for r, m in got.items()} == {
        "german": 1, "entente": 1, "moderator": 1, "observer": 1}, got
    [entente], [german] = got["entente"], got["german"]
    assert entente.startswith(f"Your orders and the German player's were due by {DUE} and "
                              f"none came: the game waits for them. Send yours now: "
                              f"production: your sealed orders"), entente
    assert german.startswith(f"Your orders and the Entente player's were due by {DUE} and "
                             f"none came: the game waits for them. Send yours now: "
                             f"production: your sealed orders"), german
    for text in (german, entente):
        assert "Reply with one order per line" in text and "More time: " in text, text
        assert "The moderator is told; he may extend the deadline or give an order for " \
               "you." in text and "Receipt: ms " in text, text
    # Nothing of the other side's plan but that it did not come.
    assert "your Build Points this turn: 8 (German 10)" in entente, entente
    assert "build ge " not in entente and "build fr " not in german
    [observer] = got["observer"]
    assert observer.startswith(f"The German and Entente players' orders were due by {DUE} "
                               f"and none came: the game waits for them."), observer
    [moderator] = got["moderator"]
    assert moderator.startswith(f"The game waits on you: the German and Entente players' "
                                f"orders were due by {DUE} and none came (the decision: "
                                f"production: sealed orders"), moderator
    assert "Build Points this turn: German 10, Entente 8 (7.0))." in moderator, moderator
    for side in ("german", "entente"):
        assert f"m.jsonl --as {side} ..." in moderator and f"m.jsonl {side} 24h" in moderator
    _sent(out)
    assert _tick(folder, monkeypatch, cli) == 3 and _mails(out) == {}


def test_both_sides_silent_under_pause_make_one_mail_a_reader(played, cli, monkeypatch):
    folder, out = _game(played, cli, monkeypatch, "pause")
    assert _tick(folder, monkeypatch, cli) == 3
    got = _mails(out)
    assert {r: len(m) for r, m in got.items()} == {
        "german": 1, "entente": 1, "moderator": 1, "observer": 1}, got
    assert got["entente"][0].startswith(f"The game is paused: your orders and the German "
                                        f"player's were due by {DUE} and none came")
    assert got["german"][0].startswith(f"The game is paused: your orders and the Entente "
                                       f"player's were due by {DUE} and none came")
    for reader in ("observer", "moderator"):
        assert got[reader][0].startswith(f"The game is paused: the German and Entente "
                                         f"players' orders were due by {DUE}"), got[reader]


def test_both_sides_silent_under_default_make_one_report_a_reader(played, cli,
                                                                  monkeypatch):
    """The referee answers both (no production: 'done'), and each reader's report tells
    both answers; no notice goes beside it, and the moderator, on whom nothing waits, is
    not mailed."""
    folder, out = _game(played, cli, monkeypatch, "default")
    assert _tick(folder, monkeypatch, cli) == 0
    got = _mails(out)
    assert {r: len(m) for r, m in got.items()} == {"german": 1, "entente": 1, "observer": 1}
    assert "the referee answered for you with 'done'" in got["german"][0], got["german"]
    assert "the referee answered for the German player with" in got["entente"][0]


@pytest.mark.parametrize(("policy", "fault"), [
    ("wait", "deadline mail"), ("pause", "deadline mail"),
    ("default", "answered"), ("default", "written")])
def test_a_pass_killed_midway_leaves_one_mail_a_reader(played, cli, monkeypatch, policy,
                                                       fault):
    """Killed after the first notice's mail, before the records (wait, pause), or after the
    answers' records, before their mails or after the first report (default): the next
    pass writes what is left, each reader one mail in all."""
    folder, out = _game(played, cli, monkeypatch, policy)
    _tick(folder, monkeypatch, cli, fault)
    _tick(folder, monkeypatch, cli)
    _tick(folder, monkeypatch, cli)
    got = _mails(out)
    readers = {"german": 1, "entente": 1, "observer": 1}
    assert {r: len(m) for r, m in got.items()} == (
        readers if policy == "default" else {**readers, "moderator": 1}), (policy, fault, got)


def test_tick_s_line_names_every_side_the_game_waits_on(played, cli, monkeypatch):
    """The line `tick` exits with names both sides and the commands for each, at every pass
    until the moderator acts; once he extends the German's deadline, the Entente alone."""
    folder, out = _game(played, cli, monkeypatch, "wait")
    monkeypatch.setenv(NOW_VARIABLE, at(PASSED))
    for _ in range(2):
        r = cli("tick", folder, "--no-map")
        assert r.exit_code == 3, r.output
        [line] = {x.split("the game waits on the moderator: ", 1)[1].replace(f"{folder}/", "")
                  for x in problems(r) if "waits on the moderator" in x}
        assert line.startswith(f"the German and Entente players' orders were due by {DUE} "
                               f"and none came (the decision: production: sealed"), line
        assert ("give them (`referee order m.jsonl --as german ...`, `referee order m.jsonl "
                "--as entente ...`), extend the deadlines (`referee extend m.jsonl german "
                "24h --from-now`, `referee extend m.jsonl entente 24h --from-now`) or "
                "pause") in line, line
    assert cli("extend", folder / "m.jsonl", "german", "24h").exit_code == 0
    r = cli("tick", folder, "--no-map")
    assert r.exit_code == 3, r.output
    assert f"the game waits on the moderator: the Entente player's orders were due by {DUE} " \
           f"and none came" in problem_text(r), r.output


def _menu(text: str) -> str:
    """The orders open, as a mail lists them: from 'Reply with one order per line' to the
    list's last item, and the paragraph naming the areas the long lines share, if any."""
    start = text.index("Reply with one order per line")
    end = re.search(r"\n- Also: [^\n]*(\n(?!- )[^\n]+)*\n(\nThe \d+ areas: [^\n]*"
                    r"(\n[^\n]+)*\n)?", text[start:])
    assert end is not None, text[start:]
    # a line that goes on after a soft break is sent flush left (mail/flowed.py), one after
    # a hard break keeps its indent: the lines are compared, not their indents
    return "\n".join(line.strip() for line in text[start:start + end.end()].split("\n"))


def test_the_late_mail_and_the_reminder_list_the_orders_as_the_report_does(
        played, cli, monkeypatch):
    """A phone reader's list: each build line names its few special areas, then 'any of the
    44 areas listed below', the areas once after the list, word for word as the report that
    asked the plan gives it; not every area again on every line."""
    folder, out = _game(played, cli, monkeypatch, "wait")
    reports = {}
    for p in sorted((out / "sent").glob("*.eml"), key=lambda p: p.stat().st_mtime):
        m = email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
        text = written(m.get_body(("plain",)).get_content())
        if "Orders open to you" in text:
            reports[str(m["To"])] = _menu(text)
    monkeypatch.setenv(NOW_VARIABLE, at(PASSED - timedelta(hours=24, minutes=30)))
    assert cli("tick", folder, "--no-map").exit_code == 0
    reminders = {str(m["To"]): written(m.get_body(("plain",)).get_content()) for m in (
        email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
        for p in out.glob("*.eml"))}
    _sent(out)
    assert _tick(folder, monkeypatch, cli) == 3
    for p in out.glob("*.eml"):
        m = email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
        if str(m["To"]) in reports:
            late = written(m.get_body(("plain",)).get_content())
            assert str(m["To"]) != ADDRESSES["entente"] or \
                "or any of the 44 areas listed below" in late, late
            assert _menu(late) == reports[str(m["To"])], late
            assert _menu(reminders[str(m["To"])]) == reports[str(m["To"])]
    assert len(reports) == 2


def test_json_names_the_line_that_waits_on_the_moderator(played, cli, monkeypatch):
    """`tick --format json` gives each game's `waits_on_moderator`: the one of its problems
    saying it goes on only when he acts (a script tells it from a mailbox down without
    reading the words), null before the deadline passes and once he has given the orders."""
    folder, out = _game(played, cli, monkeypatch, "wait")

    def waits() -> tuple[str | None, list[str]]:
        r = cli("tick", folder, "--no-map", "--format", "json")
        doc, _ = json.JSONDecoder().raw_decode(r.output)
        [game] = doc["games"]
        why.append((game["waits_on_moderator_code"], game["waits_on_moderator_sides"]))
        return game["waits_on_moderator"], game["problems"]

    why: list[tuple] = []
    assert waits() == (None, [])
    monkeypatch.setenv(NOW_VARIABLE, at(PASSED))
    line, others = waits()
    # the same, as a script reads it: why (a stable name) and whose deadlines
    assert why == [(None, None), ("deadline_missed", ["german", "entente"])], why
    assert line is not None and others == [line], others
    assert line.startswith("ms: the game waits on the moderator: the German and Entente "
                           f"players' orders were due by {DUE} and none came"), line
    for side in ("german", "entente"):
        assert cli("order", folder / "m.jsonl", "--as", side, "done").exit_code == 0
    assert waits() == (None, [])
