"""Deadlines an outgoing outage cannot run out: a side whose mail asking his decision has
not gone out (the SMTP server down when it was written) has not been asked. His deadline is
neither reminded nor ruled missed meanwhile, and once the mail goes out he is given the
game's time for the decision from then (docs/moderator.md, "A deadline and an outage").
Reminders the spool held across an outage go only while true: not beside a later one of
the same deadline, nor once the deadline moved or was ruled, and with the time left then.

The referee reaches the SMTP server through a relay on 127.0.0.1 that the test stops and
starts again. The game starts on Monday 23 November 2026 at 18:00 UTC with `--deadline 48h
--reminders 24h,2h --missed default`: the German's first orders are due by Wednesday
18:00.
"""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import timedelta

import pytest
from mailservers import HOST, Relay, mail_settings
from test_outage import pass_at
from test_unattended import START, Post, new_game, records, route_through, text_of, words

from referee.base.clock import NOW_VARIABLE
from referee.mail.ledger import FAULT_VARIABLE

H, MINUTE = timedelta(hours=1), timedelta(minutes=1)
DUE = START + 48 * H


class Cut(Post):
    """The game's post, the referee sending its mail through a relay it can lose."""

    relay: Relay

    @property
    def target(self) -> str:
        return super().target.replace(f":{self.smtp.port}", f":{self.relay.port}")


@pytest.fixture
def post(servers, monkeypatch, tmp_path) -> Cut:
    found = route_through(servers, monkeypatch, tmp_path / "user", Cut)
    found.relay = Relay(found.smtp.port)
    mail_settings(f'[hosts."{HOST}"]\ntls = "required"\n'
                  f'ports = {[found.imap.port, found.relay.port]}\n')
    yield found
    found.relay.down()


def clock_facts(journal, kind: str) -> list[dict]:
    return [r for r in records(journal) if r.get("clock", {}).get("kind") == kind]


def test_no_deadline_runs_out_on_a_side_whose_opening_mail_never_left(cli, post, tmp_path,
                                                                     monkeypatch):
    monkeypatch.setenv(NOW_VARIABLE, START.strftime("%Y-%m-%dT%H:%M:%SZ"))
    journal = new_game(cli, tmp_path / "games", post)
    post.relay.down()
    pass_at(cli, journal, monkeypatch, START + 5 * MINUTE)     # the reports stay owed
    assert post.received() == []
    for moment in (DUE - 24 * H + 10 * MINUTE, DUE - 2 * H + 10 * MINUTE, DUE + 20 * MINUTE,
                   DUE + 24 * H):
        game = pass_at(cli, journal, monkeypatch, moment)
        assert game["problems"], game           # the moderator hears the mail is not sent
    assert clock_facts(journal, "missed") == [] and clock_facts(journal, "reminded") == []
    assert any("not ruled missed yet" in line and "has not gone out" in line
               for line in game["log"]), game["log"]
    # Thursday 18:00, a day after the deadline, the server is back: the German is given his
    # 48 hours from now, and his report goes out once, giving that deadline.
    post.relay.up()
    back = DUE + 24 * H + 5 * MINUTE
    game = pass_at(cli, journal, monkeypatch, back)
    assert game["problems"] == [], game
    [given] = clock_facts(journal, "extend")
    assert (given["actor"], given["clock"]["side"], given["clock"]["by"]) == (
        "moderator", "german", "72h5m")
    assert clock_facts(journal, "missed") == []
    german = [words(text_of(m)) for m in post.mails_to("german")]
    assert len(german) == 1 and "Sat 28 Nov 18:05 UTC" in german[-1], german
    assert "Wed 25 Nov" not in german[-1], german
    assert not any("A reminder" in m for m in german)
    # Given once: a later pass gives nothing more, and rules the deadline only after it.
    pass_at(cli, journal, monkeypatch, back + H)
    assert len(clock_facts(journal, "extend")) == 1
    pass_at(cli, journal, monkeypatch, back + 48 * H + 20 * MINUTE)
    assert clock_facts(journal, "missed")


def reminders(post) -> list[tuple[str, str]]:
    """The German's reminders the server received: which (its name), and its words."""
    return [(str(m["Message-ID"]).split("-remind-")[1].split("-")[0], words(text_of(m)))
            for m in post.mails_to("german") if text_of(m).startswith("A reminder")]


def down_across_the_reminders(cli, post, tmp_path, monkeypatch, until
                              ) -> tuple[object, list[str]]:
    """The game opened and the German's report sent; then the server lost from Tuesday
    until `until`, a pass at each reminder's time before it (each reminder written into the
    spool). The journal, and the lines those passes logged."""
    monkeypatch.setenv(NOW_VARIABLE, START.strftime("%Y-%m-%dT%H:%M:%SZ"))
    journal = new_game(cli, tmp_path / "games", post)
    game = pass_at(cli, journal, monkeypatch, START + 5 * MINUTE)
    assert game["problems"] == [], game
    assert len(post.mails_to("german")) == 1
    post.relay.down()
    logged: list[str] = []
    for moment in (DUE - 24 * H + 10 * MINUTE, DUE - 2 * H + 10 * MINUTE):
        if moment < until:
            game = pass_at(cli, journal, monkeypatch, moment)
            assert game["problems"], game
            logged += game["log"]
    assert len(post.mails_to("german")) == 1
    return journal, logged


@pytest.mark.parametrize("back, which, left", [
    (DUE - 3 * H, "24h", "in 3 hours"),
    (DUE - 50 * MINUTE, "2h", "in 50 minutes")])
def test_a_reminder_held_by_the_outage_goes_once_with_the_time_left_then(
        cli, post, tmp_path, monkeypatch, back, which, left):
    """The server back before the deadline: the latest reminder held goes, saying the time
    left when it goes; one held beside it never goes."""
    journal, logged = down_across_the_reminders(cli, post, tmp_path, monkeypatch, back)
    post.relay.up()
    game = pass_at(cli, journal, monkeypatch, back)
    assert game["problems"] == [], game
    [(name, late)] = reminders(post)
    assert name == which and f"due by Wed 25 Nov 18:00 UTC, {left}:" in late, late
    if which == "2h":
        assert any("the 24h reminder held in the spool since Tue 24 Nov 18:10 UTC: not sent"
                   in line for line in logged), logged
    # Neither is sent later, nor written again.
    pass_at(cli, journal, monkeypatch, back + 10 * MINUTE)
    assert len(reminders(post)) == 1


def test_no_reminder_held_by_the_outage_goes_once_the_deadline_was_ruled(
        cli, post, tmp_path, monkeypatch):
    """The server down across both reminders and the deadline, which the referee rules
    (he reads the game's mail all along): once the server is back, no reminder goes, only
    what was done at the deadline."""
    back = DUE + H
    journal, _ = down_across_the_reminders(cli, post, tmp_path, monkeypatch, back)
    assert len(clock_facts(journal, "reminded")) == 2
    pass_at(cli, journal, monkeypatch, DUE + 20 * MINUTE)
    assert clock_facts(journal, "missed")
    post.relay.up()
    game = pass_at(cli, journal, monkeypatch, back)
    assert game["problems"] == [], game
    assert reminders(post) == []
    assert len(post.mails_to("german")) > 1      # what the referee answered for him went
    pass_at(cli, journal, monkeypatch, back + 10 * MINUTE)
    assert reminders(post) == []


def test_a_pass_killed_between_the_reminder_kept_and_the_others_dropped_loses_none(
        cli, post, tmp_path, monkeypatch):
    """`tick` killed (a real process ended) after it wrote the reminder that goes and before
    it took out the one it replaces, at the pass that writes the 2h reminder, then at the
    first pass with the server back: the next pass sends the 2h reminder alone, once, with
    the time left then."""
    journal, _ = down_across_the_reminders(cli, post, tmp_path, monkeypatch,
                                           DUE - 2 * H)
    back = DUE - 50 * MINUTE
    for moment in (DUE - 2 * H + 10 * MINUTE, back):
        if moment == back:
            post.relay.up()
        monkeypatch.setenv(NOW_VARIABLE, moment.strftime("%Y-%m-%dT%H:%M:%SZ"))
        killed = subprocess.run([sys.executable, "-m", "referee", "tick", str(journal),
                                 "--no-map"], capture_output=True, text=True, timeout=120,
                                env={**os.environ, FAULT_VARIABLE: "reminders refreshed"})
        assert killed.returncode == 70, killed.stderr
        assert reminders(post) == []
    game = pass_at(cli, journal, monkeypatch, back)
    assert game["problems"] == [], game
    [(name, late)] = reminders(post)
    assert name == "2h" and "due by Wed 25 Nov 18:00 UTC, in 50 minutes:" in late, late
    pass_at(cli, journal, monkeypatch, back + 10 * MINUTE)
    assert len(reminders(post)) == 1


def test_a_reminder_held_by_the_outage_does_not_go_once_its_deadline_was_extended(
        cli, post, tmp_path, monkeypatch):
    """The moderator extends the German's deadline by a day while his 24h reminder waits in
    the spool: that reminder gives a deadline that is no longer his, and never goes; the
    mail of the extension gives the new one."""
    back = DUE - 2 * H - 30 * MINUTE
    journal, _ = down_across_the_reminders(cli, post, tmp_path, monkeypatch, back)
    monkeypatch.setenv(NOW_VARIABLE, (DUE - 3 * H).strftime("%Y-%m-%dT%H:%M:%SZ"))
    r = cli("extend", journal, "german", "24h")
    assert r.exit_code == 0, r.output
    post.relay.up()
    game = pass_at(cli, journal, monkeypatch, back)
    assert game["problems"] == [], game
    assert reminders(post) == []
    assert any("the 24h reminder held in the spool" in line and "not sent, his deadline is "
               "Thu 26 Nov 18:00 UTC now" in line for line in game["log"]), game["log"]
    assert "Thu 26 Nov 18:00 UTC" in words(text_of(post.mails_to("german")[-1]))


def test_a_reminder_held_by_the_outage_does_not_go_once_he_answered(
        cli, post, tmp_path, monkeypatch):
    """The German plays his card by mail while his 24h reminder waits in the spool (the
    referee reads the game's mail all along): the report answering him asks his next
    decision and gives its deadline; the reminder of the one he answered never goes."""
    back = DUE - 3 * H
    journal, _ = down_across_the_reminders(cli, post, tmp_path, monkeypatch, back)
    [opening] = post.mails_to("german")
    post.send("german", ["play offensive"], opening)
    game = pass_at(cli, journal, monkeypatch, DUE - 20 * H)
    assert any("the 24h reminder held in the spool since Tue 24 Nov 18:10 UTC: not sent"
               in line for line in game["log"]), game["log"]
    post.relay.up()
    game = pass_at(cli, journal, monkeypatch, back)
    assert game["problems"] == [], game
    assert reminders(post) == []
