"""Deadlines an outage cannot move: a deadline is ruled missed only by a pass of `tick` that
read the game's mailbox in full, and no sooner than 15 minutes after it (docs/moderator.md,
"Deadlines and an outage").

The referee reaches the IMAP server through a relay on 127.0.0.1 that the test stops and
starts again: the server keeps the players' mail meanwhile, as a real one does while the
referee's way to it is down. The game starts on Monday 23 November 2026 at 18:00 UTC with
`--deadline 48h --missed default`: the German's first orders are due by Wednesday 18:00.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import pytest
from mailservers import HOST, Relay, mail_settings
from test_unattended import START, Post, Table, new_game, records, route_through, tick
from ticklines import problem_text

from referee.base.clock import NOW_VARIABLE

H, MINUTE = timedelta(hours=1), timedelta(minutes=1)
DUE = START + 48 * H


class Behind(Post):
    """The game's post, the referee reading its mail through a relay it can lose."""

    relay: Relay

    @property
    def source(self) -> str:
        return super().source.replace(f":{self.imap.port}/", f":{self.relay.port}/")


def relayed(servers, monkeypatch, tmp_path, kind: type = Behind) -> Behind:
    """A route through the servers whose IMAP side goes through a relay the test may stop
    (the mail settings name the relay's port)."""
    found = route_through(servers, monkeypatch, tmp_path / "user", kind)
    found.relay = Relay(found.imap.port)
    mail_settings(f'[hosts."{HOST}"]\ntls = "required"\n'
                  f'ports = {[found.relay.port, found.smtp.port]}\n')
    return found


@pytest.fixture
def post(servers, monkeypatch, tmp_path) -> Behind:
    found = relayed(servers, monkeypatch, tmp_path)
    yield found
    found.relay.down()


def opened(cli, tmp_path, post, monkeypatch) -> tuple:
    """The game made on Monday 18:00 and its first pass (each player's report)."""
    monkeypatch.setenv(NOW_VARIABLE, START.strftime("%Y-%m-%dT%H:%M:%SZ"))
    journal = new_game(cli, tmp_path / "games", post)
    table = Table(cli, journal, post, monkeypatch)
    table.tick_at(START)
    return journal, table


def pass_at(cli, journal, monkeypatch, moment) -> dict:
    monkeypatch.setenv(NOW_VARIABLE, moment.strftime("%Y-%m-%dT%H:%M:%SZ"))
    return tick(cli, journal)


def test_orders_mailed_before_the_deadline_count_though_the_server_was_down_across_it(
        cli, post, tmp_path, monkeypatch):
    journal, table = opened(cli, tmp_path, post, monkeypatch)
    # Wednesday 17:40, twenty minutes before his deadline, the German mails his orders; the
    # server takes them, but the referee's way to it is down from 17:30 to 19:00.
    post.relay.down()
    table.answer("german", DUE - 20 * MINUTE)
    for moment in (DUE - 20 * MINUTE, DUE, DUE + 15 * MINUTE, DUE + 50 * MINUTE):
        game = pass_at(cli, journal, monkeypatch, moment)
        assert game["problems"], game              # the moderator hears the mail is unread
        assert [r for r in records(journal) if r.get("clock", {}).get("kind") == "missed"] \
            == [], moment
    assert any("not ruled missed yet" in line and "could not be read" in line
               for line in game["log"]), game["log"]
    seq = records(journal)[-1]["seq"]
    # 19:00: the server is back; the pass reads his orders and applies them as his, on time.
    post.relay.up()
    game = pass_at(cli, journal, monkeypatch, DUE + H)
    assert game["problems"] == [], game
    mine = [r for r in records(journal) if r["seq"] > seq]
    assert mine and {r["actor"] for r in mine if "clock" not in r} == {"german"}
    assert not [r for r in mine if r.get("clock", {}).get("kind") == "missed"]
    assert {m["status"] for m in game["messages"]} == {"applied"}


def test_a_read_in_full_that_finds_nothing_rules_the_deadline_after_the_grace(
        cli, post, tmp_path, monkeypatch):
    """The control: the server up, the German silent. At the due time and 14 minutes after
    it nothing is ruled; at 15 minutes the referee answers for him (--missed default)."""
    journal, _ = opened(cli, tmp_path, post, monkeypatch)
    for moment in (DUE, DUE + 14 * MINUTE):
        game = pass_at(cli, journal, monkeypatch, moment)
        assert any("not ruled missed yet" in line and "15m of grace" in line
                   for line in game["log"]), game
        # The log line names the side's player, as every line to the moderator does.
        assert any("deadline: the German player's orders were due by " in line
                   for line in game["log"]), game
    assert not [r for r in records(journal) if r.get("clock", {}).get("kind") == "missed"]
    pass_at(cli, journal, monkeypatch, DUE + 15 * MINUTE)
    [missed] = [r for r in records(journal) if r.get("clock", {}).get("kind") == "missed"]
    assert (missed["actor"], missed["clock"]["missed"], missed["at"]) == (
        "german", "default", "2026-11-25T18:15:00Z")


def test_a_pass_that_reads_only_part_of_the_mailbox_rules_nothing(cli, post, tmp_path,
                                                                   monkeypatch):
    """The mail settings let a pass read one message; two wait (a word from the Entente's
    address first; a player's messages are read before a stranger's, in their order): the
    German's orders may be the one left, so his deadline is not ruled until all is read."""
    journal, table = opened(cli, tmp_path, post, monkeypatch)
    with open(Path(os.environ["REFEREE_HOME"]) / "mail.toml", "a", encoding="utf-8") as fh:
        fh.write("[reading]\nmessages = 1\n")
    post.imap.deliver(post.folder, b"From: joffre@example.net\nSubject: hello\n"
                                   b"Message-ID: <s1@example.com>\n\nhello\n")
    table.answer("german", DUE - 5 * MINUTE)
    game = pass_at(cli, journal, monkeypatch, DUE + 20 * MINUTE)
    assert any("could not be read" in line for line in game["log"]), game["log"]
    assert not [r for r in records(journal) if r.get("clock", {}).get("kind") == "missed"]
    game = pass_at(cli, journal, monkeypatch, DUE + 25 * MINUTE)
    assert {m["side"] for m in game["messages"] if m["status"] == "applied"} == {"german"}
    assert not [r for r in records(journal) if r.get("clock", {}).get("kind") == "missed"]


@pytest.mark.parametrize("how", ["link to nowhere", "fifo"])
def test_a_message_of_a_maildir_that_cannot_be_read_holds_every_ruling(cli, tmp_path,
                                                                       monkeypatch, how):
    """A message the pass cannot read at all (a link to nowhere, a FIFO) may be a player's
    orders: the pass says so, exits non-zero, and rules no deadline; once it is gone the
    deadline is ruled. (One over the size limit is read for its header, as from IMAP,
    and holds nothing: test_tick_index.py.)"""
    from mailboxes import write_maildir
    from test_transport import new_game as routed_game

    box, out = tmp_path / "box", tmp_path / "out"
    write_maildir(box, [])
    monkeypatch.setenv(NOW_VARIABLE, "2026-11-23T18:00:00Z")
    journal, _ = routed_game(cli, tmp_path / "g", "dl", None, "--mail-in", str(box),
                             "--mail-out", f"outbox:{out}", "--deadline", "48h",
                             "--missed", "default")
    assert cli("tick", journal, "--no-map").exit_code == 0
    odd = box / "new" / "german.eml"
    if how == "link to nowhere":
        os.symlink(tmp_path / "gone", odd)
    else:
        os.mkfifo(odd)
    monkeypatch.setenv(NOW_VARIABLE, "2026-11-25T18:20:00Z")
    r = cli("tick", journal, "--no-map")
    assert r.exit_code != 0 and "could not be read" in problem_text(r), r.output
    assert not [x for x in records(journal) if x.get("clock", {}).get("kind") == "missed"]
    odd.unlink()
    assert cli("tick", journal, "--no-map").exit_code == 0
    assert [x for x in records(journal) if x.get("clock", {}).get("kind") == "missed"]
