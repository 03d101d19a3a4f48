"""A pass of `tick` whose clock is behind the game's journal plays nothing of that game.

A moderator's host ruled a deadline missed at 18:30, then its clock went back to 17:00:
the pass then would have reminded the German that his orders were due at 18:00 "in 1
hour", applied his mail with a record dated before the ruling, and dated the mails
earlier than those he had. Now the pass names the clock and the record's time as the
game's problem line, reads none of its mail (it waits), rules no deadline and sends no
reminder; the first pass after the clock has passed that time applies the mail and answers
it, once. A 1914 game reading a Maildir and writing an outbox folder; time comes from
REFEREE_NOW, nothing sleeps."""

from __future__ import annotations

import json
from datetime import timedelta

from mailboxes import write_maildir
from test_tick_index import START
from test_transport import mail, new_game, records
from test_unattended import at
from ticklines import problem_text

from referee.base.clock import NOW_VARIABLE

DUE = START + timedelta(hours=48)           # the German's first orders


def _open(cli, root, monkeypatch):
    """Game alpha, 48h deadlines, a reminder 2h before, a missed deadline waiting on the
    moderator, and game bravo, without deadlines, reading the same Maildir; their opening
    mails sent: alpha's journal and keys."""
    monkeypatch.setenv(NOW_VARIABLE, at(START))
    box = write_maildir(root / "box", [])
    made = new_game(cli, root / "games", "alpha", None, "--mail-in", str(box), "--mail-out",
                    f"outbox:{root / 'out'}", "--deadline", "48h", "--reminders", "2h",
                    "--missed", "wait")
    new_game(cli, root / "games", "bravo", None, "--mail-in", str(box), "--mail-out",
             f"outbox:{root / 'out-bravo'}")
    assert cli("tick", root / "games", "--no-map").exit_code == 0
    return made


def _tick(cli, root, monkeypatch, moment):
    monkeypatch.setenv(NOW_VARIABLE, at(moment))
    return cli("tick", root / "games", "--no-map")


def _mails(root) -> list[str]:
    return sorted(p.name for p in (root / "out").glob("*.eml"))


def test_a_pass_behind_the_journal_waits_and_the_mail_is_taken_once_after(
        cli, tmp_path, monkeypatch):
    journal, keys = _open(cli, tmp_path, monkeypatch)
    r = _tick(cli, tmp_path, monkeypatch, DUE + timedelta(minutes=30))
    ruled = records(journal)
    assert ruled[-1]["at"] == "2026-11-25T18:30:00Z" and "clock" in ruled[-1], r.output
    mailed = _mails(tmp_path)
    write_maildir(tmp_path / "box", [mail("german", keys["german"], ["pass"],
                                          "<late@example.org>", "Re: [referee alpha] orders")])

    for _ in range(2):                  # each pass says so, and does nothing of the game
        r = _tick(cli, tmp_path, monkeypatch, DUE - timedelta(hours=1))
        assert r.exit_code != 0
        told = problem_text(r)
        assert f"the clock (2026-11-25T17:00:00Z) is behind record {ruled[-1]['seq']}'s " \
               f"time (2026-11-25T18:30:00Z)" in told, told
        assert "1 message for game alpha waits until then" in told, told
        assert told.count("is behind record") == 1, told
        assert records(journal) == ruled            # no record of the past
        assert _mails(tmp_path) == mailed           # no reminder, no answer

    r = _tick(cli, tmp_path, monkeypatch, DUE + timedelta(minutes=40))
    assert r.exit_code == 0, r.output
    now = records(journal)
    applied = [rec for rec in now[len(ruled):] if rec.get("actor") == "german"]
    assert len(applied) == 1 and applied[0]["at"] == "2026-11-25T18:40:00Z", r.output
    times = [rec["at"] for rec in now[1:]]
    assert times == sorted(times)
    answered = _mails(tmp_path)
    assert len(answered) > len(mailed) and not any("remind" in n for n in answered
                                                   if n not in mailed), answered

    r = _tick(cli, tmp_path, monkeypatch, DUE + timedelta(minutes=41))
    assert r.exit_code == 0, r.output
    assert records(journal) == now and _mails(tmp_path) == answered   # applied once


def test_json_of_the_pass_lists_the_waiting_mail(cli, tmp_path, monkeypatch):
    journal, keys = _open(cli, tmp_path, monkeypatch)
    _tick(cli, tmp_path, monkeypatch, DUE + timedelta(minutes=30))
    write_maildir(tmp_path / "box", [mail("german", keys["german"], ["pass"],
                                          "<late@example.org>", "Re: [referee alpha] orders")])
    monkeypatch.setenv(NOW_VARIABLE, at(DUE - timedelta(hours=1)))
    r = cli("tick", tmp_path / "games", "--no-map", "--format", "json")
    doc, _ = json.JSONDecoder().raw_decode(r.output)
    assert [w["game_id"] for w in doc["waiting"]] == ["alpha"] and doc["unclaimed"] == []
