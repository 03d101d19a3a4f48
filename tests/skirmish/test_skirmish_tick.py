"""A skirmish that runs itself: `new --mail-in --mail-out --from` gives it a mail route like
a campaign's, and `tick` reads its players' mail from the IMAP server, takes each mail's
orders all or none, and sends through SMTP each sender his answer and every player the
report with his own order key, once, whatever pass runs again. The servers are
tests/mailservers.py's, on 127.0.0.1 only."""

from __future__ import annotations

import email
import email.policy
import json
import os
import re
import subprocess
import sys

from flowtext import written
from mailservers import forge_route, route_through
from test_skirmish_mail import BRITISH, GERMAN, UMPIRE
from test_tick_flood import copies_vanishing

REFEREE = "umpire-bot@club.example"


def _mails(net, address: str) -> list:
    return [email.message_from_bytes(raw, policy=email.policy.default)
            for _, tos, raw in net.smtp.received if tos == [address]]


def _texts(net, address: str) -> list[str]:
    return [written(m.get_body(("plain",)).get_content()) for m in _mails(net, address)]


def _write(net, n: int, sender: str, key: str, *lines: str) -> None:
    raw = (f"From: {sender}\nTo: {REFEREE}\nSubject: orders\nMessage-ID: <t{n}@example.org>\n"
           f"Date: Mon, 23 Nov 2026 18:{n:02d}:00 +0000\n\nHello,\n\n" + "\n".join(lines) +
           f"\n\nOrder key: {key}\n").encode()
    net.imap.deliver(net.folder, raw)


def _patrol_by_imap(cli, servers, monkeypatch, tmp_path):
    """A patrol whose mail comes from the test IMAP server and goes out through its SMTP
    server: the route and the journal."""
    net = route_through(servers, monkeypatch, tmp_path / "user")
    j = tmp_path / "games" / "patrol.jsonl"
    j.parent.mkdir()
    r = cli("new", j, "--game", "skirmish", "--scenario", "patrol", "--game-id", "patrol",
            "--player", f"british={BRITISH}", "--player", f"german={GERMAN}", "--player",
            f"moderator={UMPIRE}", "--mail-in", net.source, "--mail-out", net.target,
            "--from", REFEREE)
    assert r.exit_code == 0, r.output
    return net, j


def test_a_skirmish_by_mail_through_tick(cli, servers, monkeypatch, tmp_path):
    net, j = _patrol_by_imap(cli, servers, monkeypatch, tmp_path)
    route = json.loads(cli("mail", j, "--format", "json").stdout)
    assert (route["source"], route["target"], route["sender"]) == (net.source, net.target,
                                                                   REFEREE)
    r = cli("tick", j, "--no-map")
    assert r.exit_code == 0, r.output
    opening = _texts(net, BRITISH)
    assert len(opening) == 1 and "turn 1, movement phase" in opening[0]
    asked = " ".join(opening[0].split())           # what the mail asks, and how to answer
    assert "Your decision: turn 1, movement phase" in asked
    # Each order the phase takes, with the facts it reads and the values the card knows.
    assert "Reply with one order a line, keeping the Order key line below, each made as " \
        "one of these" in asked
    for form in ("move FIGURE mode=assault|manoeuvre|rush|stealthy away=yes|no "
                 "contact=yes|no at=FIGURE command=yes|no", "spot FIGURE at=FIGURE range=N",
                 "done Order key:"):
        assert form in asked, (form, asked)
    assert "surrender FIGURE" not in asked      # no figure in a melee, no section routing
    key = re.search(r"Order key: (\S+)", opening[0]).group(1)
    german_key = re.search(r"Order key: (\S+)", _texts(net, GERMAN)[0]).group(1)
    assert key != german_key and german_key not in opening[0]
    assert all(frm == REFEREE for frm, _, _ in net.smtp.received)
    _write(net, 1, BRITISH, key, "move B1 mode=stealthy command=yes", "done")
    _write(net, 2, GERMAN, german_key, "move G9 mode=stealthy command=yes")    # no G9
    r = cli("tick", j, "--no-map")
    assert r.exit_code == 0, r.output
    british, german = _texts(net, BRITISH)[1:], _texts(net, GERMAN)[1:]
    assert any(t.startswith("Your mail was recorded: #2, #3") for t in british)
    assert any("Nothing of your mail was recorded" in t and "G9" in t for t in german)
    assert len(british) == 1 and len(german) == 1       # an answer each, with the report
    _answers_name_the_game_and_ask_each_his_own(net)
    assert json.loads(cli("status", j, "--format", "json").stdout)["waiting_on"] == ["german"]
    before = len(net.smtp.received)
    for _ in range(2):                                   # nothing new: nothing again
        assert cli("tick", j, "--no-map").exit_code == 0
    assert len(net.smtp.received) == before
    assert cli("verify", j).exit_code == 0


def _first(m) -> str:
    text = m.get_payload(decode=True).decode()
    return next((line for line in text.splitlines() if line.strip()), "")


def _answers_name_the_game_and_ask_each_his_own(net) -> None:
    """The British mail applied (records 2 and 3, the British done), the German's refused:
    each answer and report is named as a campaign's is, by the game's tag, its reader and
    the turn (one subject for all his mails of a turn), its first line saying what it is
    (an answer: what became of the mail; a report: what its reader is asked now); its
    Message-ID names the journal's last record; an answer carries its reader's report
    after it (no report of the same record is sent apart), and each report asks its reader
    what he may send, in lines of at most 72 columns; the British, done, is asked
    nothing; the moderator, mailed his key at the start, is not mailed again while no
    dispute asks him."""
    subjects = {a: [(m["Subject"], _first(m)[:40], m["In-Reply-To"]) for m in _mails(net, a)]
                for a in (BRITISH, GERMAN, UMPIRE)}
    assert subjects[BRITISH] == [
        ("[referee patrol] British player, turn 1", "Your decision: turn 1, movement phase (u",
         None),
        ("[referee patrol] British player, turn 1", "Your mail was recorded: #2, #3",
         "<t1@example.org>")]
    assert subjects[GERMAN] == [
        ("[referee patrol] German player, turn 1", "Waiting on the British player: turn 1, m",
         None),
        ("[referee patrol] German player, turn 1", "Nothing of your mail was recorded: a lin",
         "<t2@example.org>")]
    assert subjects[UMPIRE][1:] == []       # his key at the start; nothing asked of him since
    assert all(str(m["Message-ID"]).startswith("<rec.patrol.3.")
               for a in (BRITISH, GERMAN, UMPIRE) for m in _mails(net, a)[1:])
    for a in (BRITISH, GERMAN, UMPIRE):     # the answers too: a refusal quoting the order
        for text in _texts(net, a):
            assert max(map(len, text.splitlines())) <= 72, text
    asked = {a: next(written(m.get_body(("plain",)).get_content())  # the moderator's: his first
                     for m in _mails(net, a)[0 if a == UMPIRE else 1:]
                     if "Forces:" in written(m.get_body(("plain",)).get_content()))
             for a in (BRITISH, GERMAN, UMPIRE)}
    # What is asked first (the decision, whom the turn waits on) opens the report, said
    # once; how to answer ends it.
    told = {a: " ".join(t.split("Forces:")[1].split()) for a, t in asked.items()}
    first = {a: " ".join(t.replace("\r\n", "\n").split("\n\nReport for ")[0].split())
             for a, t in asked.items()}
    assert "Your decision" not in first[BRITISH] + told[BRITISH] and \
        "Nothing is asked of you now" in told[BRITISH] and \
        first[BRITISH].endswith("Waiting on the German player: turn 1, movement phase: the "
                                "tests of the phase with the facts each side declares, then "
                                "done (Sequence of Play).")
    assert "Your decision: turn 1, movement phase" in first[GERMAN]
    assert "Your decision" not in told[GERMAN]
    assert "Reply with one order a line, keeping the Order key line below, each made as " \
        "one of these" in told[GERMAN] and "move FIGURE mode=" in told[GERMAN]
    assert "Your decision" not in told[UMPIRE] and "settle record=N" in told[UMPIRE]
    assert all("british, german" not in t for t in told.values())


def test_a_route_someone_else_appended_to_a_skirmish_is_never_followed(cli, servers,
                                                                       monkeypatch,
                                                                       tmp_path):
    """Someone who can write the game folder adds a route record pointing at his own
    server: unsigned by this referee's key, the game is not read to mail anyone."""
    net = route_through(servers, monkeypatch, tmp_path / "user")
    j = tmp_path / "patrol.jsonl"
    assert cli("new", j, "--game", "skirmish", "--scenario", "patrol", "--player",
               f"british={BRITISH}", "--player", f"german={GERMAN}", "--mail-in",
               net.source, "--mail-out", net.target).exit_code == 0
    forge_route(j, net.source, "smtp://thief@127.0.0.1:1")
    r = cli("tick", j, "--no-map")
    assert r.exit_code != 0 and net.smtp.received == []


def test_a_pass_killed_between_the_journal_and_the_answer_answers_once(cli, servers,
                                                                         monkeypatch,
                                                                         tmp_path):
    """Killed right after a mail's orders are in the journal (then, in another game, right
    after its answer is written): the next pass applies nothing again and sends the answer
    exactly once."""
    net = route_through(servers, monkeypatch, tmp_path / "user")
    for n, step in enumerate(("direct applied", "direct answered")):
        j = tmp_path / f"g{n}" / "patrol.jsonl"
        j.parent.mkdir()
        assert cli("new", j, "--game", "skirmish", "--scenario", "patrol", "--game-id",
                   f"patrol{n}", "--player", f"british={BRITISH}", "--player",
                   f"german={GERMAN}", "--mail-in", net.source, "--mail-out", net.target
                   ).exit_code == 0
        assert cli("tick", j, "--no-map").exit_code == 0
        key = re.search(r"Order key: (\S+)", _texts(net, BRITISH)[-1]).group(1)
        before = len(_texts(net, BRITISH))
        _write(net, 10 + n, BRITISH, key, "move B1 mode=stealthy command=yes")
        killed = subprocess.run([sys.executable, "-m", "referee", "tick", str(j), "--no-map"],
                                env={**os.environ, "REFEREE_FAULT": step},
                                capture_output=True, timeout=120)
        assert killed.returncode == 70, killed.stderr
        assert cli("tick", j, "--no-map").exit_code == 0
        assert cli("tick", j, "--no-map").exit_code == 0
        answers = [t for t in _texts(net, BRITISH)[before:]
                   if t.startswith("Your mail was recorded: #2")]
        assert len(answers) == 1, (step, answers)
        moves = [line for line in j.read_text().splitlines() if "move B1" in line]
        assert len(moves) == 1


def test_a_mail_gone_from_the_pass_s_own_copy_is_read_again_next_pass(cli, servers,
                                                                       monkeypatch, tmp_path):
    """The pass's copy of the British mail vanishes while the skirmish reads it: the game's
    mail counts as unread (left unseen on the server), and the next pass applies it."""
    net, j = _patrol_by_imap(cli, servers, monkeypatch, tmp_path)
    assert cli("tick", j, "--no-map").exit_code == 0
    key = re.search(r"Order key: (\S+)", _texts(net, BRITISH)[0]).group(1)
    _write(net, 1, BRITISH, key, "move B1 mode=stealthy command=yes", "done")
    with copies_vanishing(monkeypatch):
        r = cli("tick", j, "--no-map")
    assert r.exit_code == 3 and "could not be read back" in r.output, r.output
    assert cli("tick", j, "--no-map").exit_code == 0
    records = [json.loads(line) for line in j.read_text().splitlines()]
    assert [rec.get("mail") for rec in records].count("<t1@example.org>") == 2   # its 2 orders


def _mails(net, address: str) -> list[email.message.EmailMessage]:
    return [email.message_from_bytes(raw, policy=email.policy.default)
            for _, tos, raw in net.smtp.received if tos == [address]]


def test_a_skirmish_s_mails_fit_a_phone_and_join_the_game_s_thread(cli, servers, monkeypatch,
                                                                   tmp_path, clock):
    """Into the fire phase: every line of every mail is at most 72 columns but a test's order
    (the report's first line names the step that fires; a fire test's modifiers are
    long), and each mail is dated by the game's clock, answers to the referee's address and
    refers to the reader's thread of the game, as a campaign's mail does."""
    from datetime import timedelta

    from commandclock import START, at

    from referee.mail.threads import thread_of

    net, j = _patrol_by_imap(cli, servers, monkeypatch, tmp_path)
    clock(START + timedelta(hours=5))
    assert cli("tick", j, "--no-map").exit_code == 0
    keys = {a: re.search(r"Order key: (\S+)", _texts(net, a)[0]).group(1)
            for a in (BRITISH, GERMAN)}
    _write(net, 1, BRITISH, keys[BRITISH], "done")      # movement; the patrol has no
    _write(net, 2, GERMAN, keys[GERMAN], "done")        # off-table artillery: fire next
    assert cli("tick", j, "--no-map").exit_code == 0
    order = "fire B3 at=G5 range=30 state=halted cover=soft command=yes"
    _write(net, 3, BRITISH, keys[BRITISH], order)
    assert cli("tick", j, "--no-map").exit_code == 0
    texts = _texts(net, BRITISH)
    flat = [" ".join(t.split()) for t in texts]
    assert any("fire phase (gallant and veteran figures fire now)" in t for t in flat)
    # Whom a fire modifier counts for: the shot at G5 (not G5 itself, where a modifier
    # about the firer would read as the target's).
    assert any("-1 target stationary or moving stealthily over 18\" away (at G5)" in t
               for t in flat)
    for t in texts + _texts(net, GERMAN):
        long = [line for line in t.splitlines() if len(line) > 72 and order not in line]
        assert long == [], long
    for address in (BRITISH, GERMAN, UMPIRE):
        for m in _mails(net, address):
            assert m["Reply-To"] == REFEREE
            assert m["References"].split()[0] == thread_of("patrol", address)
            assert email.utils.parsedate_to_datetime(m["Date"]) == START + timedelta(hours=5), \
                (m["Date"], at(START + timedelta(hours=5)))
