"""The referee's own address (`--from`): its mails come from it and carry it as Reply-To,
thread by References, and the moderator's mail goes to his own address and is never read
back as a player's (docs/moderator.md, "The referee's own address"). Through the SMTP and
IMAP servers the tests start on 127.0.0.1."""

from __future__ import annotations

import email
import email.policy
import json

import pytest
from flowtext import written
from mailboxes import write_maildir
from mailkinds import first_line
from mailservers import route_through
from test_transport import ADDRESSES, mail, new_game, records, tick
from ticklines import problem_text

from referee.mail.msgids import twin_mark
from referee.mail.threads import thread_of

REFEREE = "referee@club.example"


@pytest.fixture
def net(servers, monkeypatch, tmp_path):
    return route_through(servers, monkeypatch, tmp_path / "user")


def sent(net) -> list[tuple[list[str], email.message.EmailMessage]]:
    return [(tos, email.message_from_bytes(raw, policy=email.policy.default))
            for _, tos, raw in net.smtp.received]


def test_mails_come_from_the_referee_and_thread_and_the_moderator_is_answered_apart(
        cli, net, tmp_path):
    journal, keys = new_game(cli, tmp_path / "games", "oscar", net, "--mail-in", net.source,
                             "--mail-out", net.target, "--from", REFEREE)
    assert tick(cli, journal).exit_code == 0
    opening = sent(net)
    assert sorted(t for tos, _ in opening for t in tos) == sorted(
        [ADDRESSES["german"], ADDRESSES["entente"]])
    for tos, m in opening:
        assert (m["From"], m["Reply-To"]) == (REFEREE, REFEREE)
        assert m["References"] == thread_of("oscar", tos[0]) and m["In-Reply-To"] is None
    net.smtp.received.clear()
    # The German's orders: his reply answers his message, in his thread.
    net.imap.deliver(net.folder, mail("german", keys["german"], ["pass"], "<g1@example.org>"))
    # A copy of the referee's own mail (a bounce, a mailing list echo): never read, never
    # answered, whatever it says.
    net.imap.deliver(net.folder, (f"From: {REFEREE}\nSubject: [referee oscar #2] german "
                                  f"report\nMessage-ID: <r1@club.example>\n\npass\nOrder key: "
                                  f"{keys['entente']}\n").encode())
    # The moderator writes to the referee: answered, to him, that his orders go by command.
    net.imap.deliver(net.folder, (f"From: {ADDRESSES['moderator']}\nSubject: [referee oscar "
                                  f"#2] hello\nMessage-ID: <u1@example.com>\n\npass\n"
                                  ).encode())
    before = len(records(journal))
    r = tick(cli, journal, "--format", "json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)["games"][0]
    status = {m["message_id"]: m["status"] for m in doc["messages"]}
    assert status == {"<g1@example.org>": "applied", "<r1@club.example>": "skipped",
                      "<u1@example.com>": "rejected"}
    assert [r["actor"] for r in records(journal)[before:]] == ["german"]
    # The pass's own account of the moderator's mail names the command too.
    [why] = [m["reason"] for m in doc["messages"] if m["message_id"] == "<u1@example.com>"]
    assert f"referee order {journal} --as SIDE ..." in why, why
    by_to = {tos[0]: m for tos, m in sent(net)}
    assert set(by_to) == {ADDRESSES["german"], ADDRESSES["entente"], ADDRESSES["moderator"]}
    german = by_to[ADDRESSES["german"]]
    assert german["In-Reply-To"] == "<g1@example.org>"
    assert german["References"] == f"{thread_of('oscar', ADDRESSES['german'])} <g1@example.org>"
    umpire = by_to[ADDRESSES["moderator"]]
    assert umpire["From"] == REFEREE and umpire["In-Reply-To"] == "<u1@example.com>"
    body = written(umpire.get_body(("plain",)).get_content())
    assert "moderator's address" in body and "referee order" in body
    # The command names his journal, alone on its line, ready to copy whole.
    assert f"\n  referee order {journal} --as SIDE ...\n" in body.replace("\r\n", "\n"), body
    assert "Order key" not in body and keys["german"] not in body


def test_the_moderator_s_notice_goes_to_his_address(cli, tmp_path, monkeypatch):
    """A missed deadline under --missed wait: the notice goes To the moderator's address,
    From the referee's own, never to the mailbox the referee reads."""
    folder, box, out = tmp_path / "games", tmp_path / "box", tmp_path / "out"
    write_maildir(box, [])
    monkeypatch.setenv("REFEREE_NOW", "2026-11-23T18:00:00Z")
    journal, _ = new_game(cli, folder, "papa", None, "--mail-in", str(box), "--mail-out",
                          f"outbox:{out}", "--deadline", "48h", "--missed", "wait",
                          "--from", REFEREE)
    assert tick(cli, journal).exit_code == 0
    monkeypatch.setenv("REFEREE_NOW", "2026-11-25T18:16:00Z")
    assert tick(cli, journal).exit_code != 0
    [notice] = [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
                for p in out.glob("*moderator*.eml")]
    assert (notice["To"], notice["From"], notice["Reply-To"]) == (
        ADDRESSES["moderator"], REFEREE, REFEREE)
    assert notice["Subject"] == "[referee papa] moderator, SUMMER 1914"
    assert first_line(notice).startswith("The game waits on you: the German player's orders "
                                         "were due by")
    said = written(notice.get_body(("plain",)).get_content()).split("\n")
    assert f"  referee extend {journal} german 24h --from-now" in said and \
        "JOURNAL" not in str(said)
    assert f"  referee deadline {journal} --pause" in said, said


@pytest.mark.parametrize("command", [
    ("new", "--from", ADDRESSES["german"]),
    ("mail", "--from", ADDRESSES["entente"]),
    ("mail", "--from", "not an address"),
    ("mail", "--from", "referee@club.example\nBcc: x@y.example"),
    # What a mail program reads otherwise than the referee: a comment, a group, a quoted
    # or bracketed name, a trailing dot, a name over 64 characters.
    ("mail", "--from", "referee@club.example(x)"),
    ("mail", "--from", "ref:x@club.example"),
    ("mail", "--from", "[ref]@club.example"),
    ("mail", "--from", "referee@club.example."),
    ("mail", "--from", "r" * 65 + "@club.example"),
    ("players", "--set", f"entente={REFEREE}"),
    ("players", "--set", f"observer={REFEREE}"),
])
def test_the_referee_s_address_is_no_player_s(cli, tmp_path, command):
    """--from must be one plain address no player or observer uses, and no player may take
    it later: mail from it is never read as orders. Refused in one line, nothing written."""
    folder = tmp_path / "games"
    verb, option, value = command
    if verb == "new":
        r = cli("new", folder / "q.jsonl", "--scenario", "1914", "--player",
                f"german={ADDRESSES['german']}", option, value)
        assert r.exit_code == 2 and not (folder / "q.jsonl").exists(), r.output
        assert len(r.stderr.strip().splitlines()) == 1 and "--from" in r.stderr
        return
    box = write_maildir(tmp_path / "box", [])
    journal, _ = new_game(cli, folder, "quebec", None, "--mail-in", str(box),
                          "--mail-out", f"outbox:{tmp_path / 'out'}", "--from", REFEREE)
    before = journal.read_bytes()
    r = cli(verb, journal, option, value)
    assert r.exit_code == 2, r.output
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert journal.read_bytes() == before


def test_mail_shows_and_changes_the_referee_s_address(cli, tmp_path):
    box = write_maildir(tmp_path / "box", [])
    journal, _ = new_game(cli, tmp_path / "games", "romeo", None, "--mail-in", str(box),
                          "--mail-out", f"outbox:{tmp_path / 'out'}")
    shown = json.loads(cli("mail", journal, "--format", "json").stdout)
    assert shown["sender"] is None
    assert "mail from: the moderator's address" in cli("mail", journal).stdout
    assert cli("mail", journal, "--from", REFEREE).exit_code == 0
    shown = json.loads(cli("mail", journal, "--format", "json").stdout)
    assert (shown["sender"], shown["target"]) == (REFEREE, f"outbox:{tmp_path / 'out'}")
    assert cli("verify", journal).exit_code == 0


def test_a_forged_sender_in_a_route_record_stops_the_game(cli, tmp_path):
    """A route record whose sender is not one address (a header planted in it), signed with
    the game's key as only its holder can: not a route the referee writes, so tick plays
    that game no further, as for any forged route."""
    from forging import game_key, resign

    from referee.store.journal import line_of

    box, out = tmp_path / "box", tmp_path / "out"
    write_maildir(box, [])
    journal, _ = new_game(cli, tmp_path / "games", "sierra", None, "--mail-in", str(box),
                          "--mail-out", f"outbox:{out}")
    raw = journal.read_bytes().splitlines()
    last = json.loads(raw[-1])
    forged = resign({"at": last["at"], "actor": "moderator", "order": "set mail route",
                     "events": [], "seq": last["seq"] + 1, "prev": last["hash"],
                     "mail_route": {"to": "moderator", "salt": "00" * 16, "data": {
                         "source": str(box), "target": f"outbox:{out}",
                         "sender": "x@y.example\nBcc: all@example.org"}}},
                    game_key(json.loads(raw[0])))
    with open(journal, "ab") as fh:
        fh.write(line_of(forged))
    r = tick(cli, journal)
    assert r.exit_code != 0 and "not one the referee writes" in r.output, r.output
    assert not out.exists() or not list(out.glob("*.eml"))
    # `inbox` by hand, which reads no route but the referee's address, refuses it alike.
    r = cli("inbox", journal, str(box), "--outbox", str(out))
    assert r.exit_code == 2 and "not one the referee writes" in r.stderr, r.output
    assert len(r.stderr.strip().splitlines()) == 1
    assert not list(out.glob("*.eml"))


@pytest.mark.parametrize("second", [False, True])
def test_mails_left_in_an_outbox_when_the_route_changes_are_not_lost(cli, net, tmp_path,
                                                                      second):
    """The game's mail went to outbox:DIR, and the moderator changes to SMTP before his mail
    program took them: the pass does not say all is handled. Each player's next mail, by
    SMTP, carries the news of the mail left there (his report from the start), and every
    pass says the mails wait there until the moderator removes them. So too for mails
    written under their second names (a file not the referee's held their own: named.py)."""
    box, out = tmp_path / "box", tmp_path / "out"
    write_maildir(box, [])
    journal, keys = new_game(cli, tmp_path / "games", "tango", None, "--mail-in", str(box),
                             "--mail-out", f"outbox:{out}")
    assert tick(cli, journal).exit_code == 0
    left = sorted(out.glob("*.eml"))
    assert len(left) == 2
    if second:
        for n, path in enumerate(left):
            to = str(email.message_from_bytes(path.read_bytes(),
                                              policy=email.policy.default)["To"])
            left[n] = path.rename(out / f"{path.stem}.{twin_mark(path.stem, to, 'tango')}.eml")
    assert cli("mail", journal, "--out", net.target).exit_code == 0
    for _ in range(2):
        r = tick(cli, journal)
        assert r.exit_code != 0 and "2 mails written to" in problem_text(r) and \
            "never sent" in problem_text(r), r.output
    mails = sent(net)
    assert sorted(t for tos, _ in mails for t in tos) == sorted(
        [ADDRESSES["german"], ADDRESSES["entente"]])          # once each, by the new route
    for tos, m in mails:
        side = "german" if tos == [ADDRESSES["german"]] else "entente"
        text = written(m.get_body(("plain",)).get_content())
        assert keys[side] in text and "SUMMER 1914" in text
    for path in left:
        path.unlink()
    r = tick(cli, journal)
    assert r.exit_code == 0, r.output
    assert len(sent(net)) == 2


def test_a_former_outbox_nobody_may_read_is_passed_over_without_an_error(cli, tmp_path,
                                                                         monkeypatch):
    """Whoever owns the folder of an earlier route's outbox may make it unreadable: the pass
    goes on (nothing of the folder counts), it never ends in an internal error."""
    import os

    box, old, new = tmp_path / "box", tmp_path / "old", tmp_path / "new"
    write_maildir(box, [])
    journal, _ = new_game(cli, tmp_path / "games", "uniform", None, "--mail-in", str(box),
                          "--mail-out", f"outbox:{old}")
    assert tick(cli, journal).exit_code == 0
    assert cli("mail", journal, "--out", f"outbox:{new}").exit_code == 0
    real = os.stat

    def refused(path, *args, **kwargs):
        if str(path).startswith(str(old) + os.sep):
            raise PermissionError(13, "Permission denied", str(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", refused)
    r = tick(cli, journal)
    assert r.exit_code in (0, 3) and "internal error" not in r.output, r.output
