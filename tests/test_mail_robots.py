"""Mail no person wrote: vacation replies, out-of-office notices, bulk mail and bounces
(RFC 3834, RFC 3464) are never read as a player's orders and never answered, whatever they
quote (a bounce returns the referee's whole mail, order key and orders listed); each is
handled once, and named once in the pass's log. A bounce of the referee's mail to a
player's address that failed for good tells the moderator, once a day for that address.

The IMAP and SMTP servers are tests/mailservers.py's, on 127.0.0.1 only; the clock is the
commands' (tests/commandclock.py).
"""

from __future__ import annotations

import email
import email.policy
import email.utils
import re
import shutil
from datetime import timedelta
from pathlib import Path

import pytest
from commandclock import START
from flowtext import written
from mailkinds import first_line
from mailservers import route_through, ticks_at_once
from test_transport import ADDRESSES, mail, new_game, records, tick

ROBOT = "mailer-daemon@mx.example.org"
OBSERVER = "press@example.org"


@pytest.fixture
def net(servers, monkeypatch, tmp_path):
    return route_through(servers, monkeypatch, tmp_path / "user")


def _parsed(raw: bytes):
    return email.message_from_bytes(raw, policy=email.policy.default)


def _opened(cli, net, tmp_path, game_id="alpha"):
    """A game whose opening reports went out: the journal, the keys and the German's report
    as the SMTP server took it."""
    journal, keys = new_game(cli, tmp_path / "games", game_id, net)
    assert cli("players", journal, "--set", f"observer={OBSERVER}").exit_code == 0
    r = tick(cli, journal)
    assert r.exit_code == 0, r.output
    report = next(raw for _, tos, raw in net.smtp.received if tos == [ADDRESSES["german"]])
    return journal, keys, report


def _head(sender: str, subject: str, ident: str, *more: str) -> str:
    return "".join(f"{h}\n" for h in (
        f"From: {sender}", f"To: {ADDRESSES['moderator']}", f"Subject: {subject}",
        f"Date: {email.utils.formatdate(1_000_000_000)}", f"Message-ID: {ident}", *more))


def _vacation(report: bytes, keys: dict, ident: str) -> bytes:
    """Gmail's vacation reply: Auto-Submitted: auto-replied, the player's own address."""
    r = _parsed(report)
    return (_head(ADDRESSES["german"], f"Re: {r['Subject']}", ident,
                  "Auto-Submitted: auto-replied", f"In-Reply-To: {r['Message-ID']}")
            + "\nI am away until Monday and will answer your mail then.\n").encode()


def _exchange_oof(report: bytes, keys: dict, ident: str) -> bytes:
    """Exchange's out-of-office notice: Auto-Submitted: auto-generated, its Outlook subject."""
    r = _parsed(report)
    return (_head(ADDRESSES["german"], f"Automatic reply: {r['Subject']}", ident,
                  "Auto-Submitted: auto-generated", "X-Auto-Response-Suppress: All",
                  "X-MS-Exchange-Inbox-Rules-Loop: kaiser@example.org",
                  f"In-Reply-To: {r['Message-ID']}")
            + "\nI am out of the office with limited access to mail.\n").encode()


def _bulk(report: bytes, keys: dict, ident: str) -> bytes:
    """A mail marked Precedence: bulk from the player's address, carrying his key and an
    order that reads: a list or a robot, never the player writing his orders."""
    r = _parsed(report)
    return (_head(ADDRESSES["german"], f"Re: {r['Subject']}", ident, "Precedence: bulk")
            + f"\npass\n\nOrder key: {keys['german']}\n").encode()


def _quoting_oof(report: bytes, keys: dict, ident: str) -> bytes:
    """An out-of-office reply from the player's own address that quotes the referee's report
    whole, not '>'-quoted, below '-----Original Message-----' (its order key and the orders
    it lists)."""
    r = _parsed(report)
    text = written(r.get_body(("plain",)).get_content())
    return (_head(ADDRESSES["german"], f"Out of Office: {r['Subject']}", ident,
                  "X-Autoreply: yes", f"In-Reply-To: {r['Message-ID']}")
            + "\nI am out of the office until Monday.\n\n-----Original Message-----\n"
            + f"From: {r['From']}\nSent: Monday\nTo: {r['To']}\nSubject: {r['Subject']}\n\n"
            + text).encode()


def _dsn(report: bytes, keys: dict, ident: str, to: str = ADDRESSES["german"],
         action: str = "failed", status: str = "5.1.1") -> bytes:
    """A delivery status notification (RFC 3464, as Postfix writes one) returning the
    referee's whole mail to `to`."""
    said = "Recipient address rejected: User unknown" if status[0] == "5" else \
        "Greylisted, try again later"
    return (_head(f"Mail Delivery System <{ROBOT}>", "Undelivered Mail Returned to Sender",
                  ident, "Auto-Submitted: auto-replied", "MIME-Version: 1.0",
                  'Content-Type: multipart/report; report-type=delivery-status; '
                  'boundary="BOUND"')
            + "\n--BOUND\nContent-Type: text/plain; charset=us-ascii\n\n"
            + "This is the mail system at host mx.example.org.\n\n"
            + "I'm sorry to have to inform you that your message could not\n"
            + "be delivered to one or more recipients.\n\n"
            + f"<{to}>: host mx.example.org said: 550 {status} <{to}>: {said}\n\n"
            + "--BOUND\nContent-Type: message/delivery-status\n\n"
            + "Reporting-MTA: dns; mx.example.org\n\n"
            + f"Final-Recipient: rfc822; {to}\nOriginal-Recipient: rfc822;{to}\n"
            + f"Action: {action}\nStatus: {status}\n"
            + f"Diagnostic-Code: smtp; 550 {status} <{to}>: {said}\n\n"
            + "--BOUND\nContent-Type: message/rfc822\n\n"
            + report.decode().replace("\r\n", "\n") + "\n--BOUND--\n").encode()


def _classic(report: bytes, keys: dict, ident: str) -> bytes:
    """An Exim bounce in plain text (no delivery report): the referee's whole mail below."""
    return (_head(f"Mail Delivery System <{ROBOT}>",
                  "Mail delivery failed: returning message to sender", ident)
            + "\nThis message was created automatically by mail delivery software.\n\n"
            + "A message that you sent could not be delivered to one or more of its\n"
            + "recipients. This is a permanent error. The following address(es) failed:\n\n"
            + f"  {ADDRESSES['german']}\n    host mx.example.org [192.0.2.1]\n"
            + "    SMTP error from remote mail server after RCPT TO:<kaiser@example.org>:\n"
            + "    550 5.1.1 User unknown\n\n"
            + "------ This is a copy of the message, including all the headers. ------\n\n"
            + report.decode().replace("\r\n", "\n")).encode()


ROBOTS = {"vacation": (_vacation, ADDRESSES["german"]),
          "exchange-oof": (_exchange_oof, ADDRESSES["german"]),
          "bulk": (_bulk, ADDRESSES["german"]),
          "quoting-oof": (_quoting_oof, ADDRESSES["german"]),
          "dsn": (_dsn, ROBOT), "classic-bounce": (_classic, ROBOT)}


def _told(r, sender: str) -> list[str]:
    return [x for x in r.stdout.splitlines()
            if "automatic" in x and "set aside as" in x and f"({sender})" in x]


def _robot_delivered(cli, net, tmp_path, kind: str, ident: str
                     ) -> tuple[Path, str, bytes, int]:
    """A game after its opening pass, and one robot mail of `kind` in its folder: the
    journal, the robot's sender, the journal's bytes and how many mails went before it."""
    journal, keys, report = _opened(cli, net, tmp_path)
    make, sender = ROBOTS[kind]
    before, sent = journal.read_bytes(), len(net.smtp.received)
    net.imap.deliver(net.folder, make(report, keys, ident))
    return journal, sender, before, sent


@pytest.mark.parametrize("kind", sorted(ROBOTS))
def test_robot_mail_is_never_read_as_orders_nor_answered(cli, net, tmp_path, kind):
    journal, sender, before, sent = _robot_delivered(cli, net, tmp_path, kind,
                                                     "<robot1@example.org>")
    r = tick(cli, journal)
    assert r.exit_code == 0, r.output
    assert journal.read_bytes() == before, r.output
    new = net.smtp.received[sent:]
    assert not [tos for _, tos, _ in new if tos != [ADDRESSES["moderator"]]], r.output
    assert len(_told(r, sender)) == 1, r.output
    assert net.imap.seen(net.folder) == {"<robot1@example.org>": True}
    again = tick(cli, journal)                  # handled once: nothing again
    assert again.exit_code == 0 and not _told(again, sender), again.output
    assert journal.read_bytes() == before and net.smtp.received[sent:] == new


@pytest.mark.parametrize("kind", sorted(ROBOTS))
def test_two_passes_at_once_set_a_robot_mail_aside_once(cli, net, tmp_path, kind):
    journal, sender, before, sent = _robot_delivered(cli, net, tmp_path, kind,
                                                     "<robot2@example.org>")
    reports = ticks_at_once(journal)
    assert [x.problems for x in reports] == [[], []]
    told = [m for x in reports for g in x.games for m in g.messages
            if m["status"] == "automatic"]
    assert len(told) == 1 and told[0]["from"] == sender, told
    assert journal.read_bytes() == before
    new = net.smtp.received[sent:]
    assert not [tos for _, tos, _ in new if tos != [ADDRESSES["moderator"]]]
    assert len(new) == (1 if sender == ROBOT else 0)


# What a person's mail may carry that is no responder's: Auto-Submitted: no (RFC 3834,
# which lets comments stand around the keyword);
# Outlook's X-Auto-Response-Suppress, which asks the receiver's responder to keep quiet and
# says nothing of who wrote it; and a mailing list's Precedence: list, which Mailman and
# Google Groups write on every post they relay (RFC 3834 asks responders only not to answer
# it): orders reaching the referee's address through a list or a group standing for it.
PERSONS = {"auto-submitted-no": b"Auto-Submitted: No ; a person\nX-Auto-Response-Suppress: All",
           "auto-submitted-no-commented": b"Auto-Submitted: (RFC 3834) no (a person)",
           "auto-submitted-no-comment-with-a-semicolon": b"Auto-Submitted: no (typed; by hand)",
           "mailing-list": b"Precedence: list\nList-Id: <referee.example.org>\n"
                           b"X-Mailman-Version: 2.1.39"}


@pytest.mark.parametrize("kind", sorted(PERSONS))
def test_a_player_s_own_mail_with_headers_no_responder_writes_is_applied(cli, net, tmp_path,
                                                                         kind):
    journal, keys, _ = _opened(cli, net, tmp_path)
    raw = mail("german", keys["german"], ["pass"], "<no1@example.org>")
    net.imap.deliver(net.folder, raw.replace(b"Subject:", PERSONS[kind] + b"\nSubject:", 1))
    r = tick(cli, journal)
    assert r.exit_code == 0, r.output
    assert records(journal)[-1]["order"] == "pass", r.output
    assert "automatic" not in r.stdout, r.output


def test_an_out_of_office_too_large_to_read_is_set_aside_from_its_header(cli, net, tmp_path):
    """An out-of-office reply quoting the referee's mail with its pictures, over the size
    limit: its header says it is automatic, so it is not answered as a player's mail too
    large to read would be."""
    journal, keys, report = _opened(cli, net, tmp_path)
    big = _vacation(report, keys, "<big1@example.org>") + b"A" * 1_600_000 + b"\n"
    before, sent = journal.read_bytes(), len(net.smtp.received)
    net.imap.deliver(net.folder, big)
    for n in range(2):
        r = tick(cli, journal)
        assert r.exit_code == 0, r.output
        assert len(_told(r, "german")) == (1 if n == 0 else 0), r.output
    assert journal.read_bytes() == before and net.smtp.received[sent:] == []
    assert net.imap.seen(net.folder) == {"<big1@example.org>": True}


# ---------------------------------------------------------------- bounces: the moderator told

def _to_moderator(net) -> list:
    return [_parsed(raw) for _, tos, raw in net.smtp.received
            if tos == [ADDRESSES["moderator"]]]


def test_a_bounce_tells_the_moderator_once_a_day_for_the_address(cli, net, tmp_path, clock):
    journal, keys, report = _opened(cli, net, tmp_path)
    before = journal.read_bytes()
    for n in range(5):                  # a flood of bounces: one mail
        net.imap.deliver(net.folder, _dsn(report, keys, f"<b{n}@mx.example.org>"))
    r = tick(cli, journal)
    assert r.exit_code == 0, r.output
    (told,) = _to_moderator(net)
    assert str(told["Subject"]) == "[referee alpha] moderator, SUMMER 1914"
    assert first_line(told).startswith("A bounce says the referee's mail to the German player")
    assert told["Auto-Submitted"] == "auto-generated"
    text = written(told.get_body(("plain",)).get_content())
    command = f"  referee players {journal} --set german=NEW-ADDRESS"
    assert command in text.splitlines()             # whole on its line, to copy
    assert max(len(x) for x in text.splitlines() if x != command) <= 72, text
    flat = " ".join(text.split())
    assert "A bounce says the referee's mail to the German player at kaiser@example.org was " \
           "refused for good" in flat
    assert "550 5.1.1 <kaiser@example.org>: Recipient address rejected" in flat, text
    assert "the deadline still runs" in flat
    # What he should do, in plain words, right above the command that does it; why the
    # bounce is believed in one clause, no word of who else could have written it.
    assert "What to do: check his address with him yourself, by phone or another way you " \
        "know reaches him, not at an address a mail gives you. If it changed, register " \
        f"the new one: {command.strip()}" in flat, text
    assert "so it is taken as real" in flat, text
    assert "stranger" not in flat and "made it up" not in flat, text
    assert keys["german"] not in text and keys["entente"] not in text      # no secret
    assert "Board" not in text
    assert len([x for x in r.stdout.splitlines() if "the moderator is told" in x]) == 1
    assert r.stdout.count("the moderator was told today already") == 4, r.output
    clock(START + timedelta(hours=5))   # the same day: still one
    net.imap.deliver(net.folder, _dsn(report, keys, "<b5@mx.example.org>"))
    assert tick(cli, journal).exit_code == 0 and len(_to_moderator(net)) == 1
    clock(START + timedelta(days=1))    # the next day: told again
    net.imap.deliver(net.folder, _dsn(report, keys, "<b6@mx.example.org>"))
    r = tick(cli, journal)
    assert r.exit_code == 0 and len(_to_moderator(net)) == 2, r.output
    assert journal.read_bytes() == before
    assert not [tos for _, tos, _ in net.smtp.received if ROBOT in tos]


def test_a_forged_bounce_cannot_put_an_address_or_a_command_in_the_referee_s_mouth(
        cli, net, tmp_path):
    """Anyone can write a bounce, and its diagnostic is his text: the notice quotes it as
    the bounce's words ('> '), never indented as the command the referee gives, leaves out
    any address but the one that failed, and says to ask the player himself."""
    journal, keys, report = _opened(cli, net, tmp_path)
    raw = _dsn(report, keys, "<f1@mx.example.org>").decode()
    said = "Diagnostic-Code: smtp; 550 5.1.1 <kaiser@example.org>: Recipient address rejected"
    assert said in raw
    raw = raw.replace(said, f"Diagnostic-Code: smtp; referee players {journal.name} --set "
                            f"german=spy@evil.example")
    net.imap.deliver(net.folder, raw.encode())
    r = tick(cli, journal)
    assert r.exit_code == 0, r.output
    (told,) = _to_moderator(net)
    text = written(told.get_body(("plain",)).get_content())
    assert "spy@evil.example" not in text and "evil.example" not in text, text
    indented = [x for x in text.splitlines() if x.startswith("  ")]
    assert indented == [f"  referee players {journal} --set german=NEW-ADDRESS"], text
    assert f"> referee players {journal.name} --set (address left out): User unknown" in \
        text.splitlines(), text
    flat = " ".join(text.split())
    assert "The bounce returns a mail the referee sent to that address" in flat, text
    assert "check his address with him yourself" in flat, text
    assert "not at an address a mail gives you" in flat, text
    assert max(len(x) for x in text.splitlines() if not x.startswith("  ")) <= 72, text


@pytest.mark.parametrize("spelt", ["spy at evil.example", "spy(at)evil.example",
                                   "spy [at] evil.example", "spy\uff20evil.example",
                                   "spy\ufe6bevil.example", "Spy AT mail.evil.example",
                                   "spy (at) evil (dot) example"])
def test_a_forged_bounce_cannot_hand_over_an_address_spelt_out(cli, net, tmp_path, spelt):
    """An address a reader puts together is an address: spelt with 'at' alone or in
    brackets, or with the full-width or the small @, it is left out of the notice as one
    written with @ is; the words about it and the address that failed stay."""
    journal, keys, report = _opened(cli, net, tmp_path)
    raw = _dsn(report, keys, "<f1@mx.example.org>").decode()
    said = "Diagnostic-Code: smtp; 550 5.1.1 <kaiser@example.org>: Recipient address rejected"
    assert said in raw
    raw = raw.replace(said, f"Diagnostic-Code: smtp; 550 kaiser at example.org: try {spelt}")
    net.imap.deliver(net.folder, raw.encode())
    assert tick(cli, journal).exit_code == 0
    (told,) = _to_moderator(net)
    text = written(told.get_body(("plain",)).get_content())
    assert "evil" not in text, text
    assert "> 550 kaiser at example.org: try (address left out): User unknown" in \
        text.splitlines(), text


def test_at_between_words_that_are_no_address_stays_in_the_notice(cli, net, tmp_path):
    """'at' between two words, before a time or a version, is no address: the bounce's
    words are quoted whole."""
    journal, keys, report = _opened(cli, net, tmp_path)
    raw = _dsn(report, keys, "<f2@mx.example.org>").decode()
    said = "Diagnostic-Code: smtp; 550 5.1.1 <kaiser@example.org>: Recipient address rejected"
    words = "550 box at capacity, retry at 10.30 or at noon"
    net.imap.deliver(net.folder, raw.replace(said, f"Diagnostic-Code: smtp; {words}").encode())
    assert tick(cli, journal).exit_code == 0
    (told,) = _to_moderator(net)
    lines = written(told.get_body(("plain",)).get_content()).splitlines()
    assert f"> {words}: User unknown" in lines, lines


def test_a_classic_bounce_is_attributed_by_the_thread_of_the_referee_s_mail(cli, net,
                                                                          tmp_path):
    journal, keys, report = _opened(cli, net, tmp_path)
    net.imap.deliver(net.folder, _classic(report, keys, "<c1@mx.example.org>"))
    r = tick(cli, journal)
    assert r.exit_code == 0, r.output
    (told,) = _to_moderator(net)
    text = " ".join(told.get_body(("plain",)).get_content().split())
    assert "the German player at kaiser@example.org" in text and "550 5.1.1 User unknown" in text


def test_a_bounce_naming_an_address_many_times_is_one_failure(cli, net, tmp_path):
    """A delivery report may hold as many recipient blocks as its writer likes: the same
    address named over and over is one failure, one notice, one phrase of the run's line
    (not a line of megabytes in the log and in `inbox --format json`)."""
    journal, keys, report = _opened(cli, net, tmp_path)
    raw = _dsn(report, keys, "<m1@mx.example.org>").decode()
    block = raw[raw.index("Final-Recipient:"):raw.index("--BOUND\nContent-Type: message/rfc822")]
    raw = raw.replace(block, block * 500)
    net.imap.deliver(net.folder, raw.encode())
    r = tick(cli, journal)
    assert r.exit_code == 0, r.output
    assert len(_to_moderator(net)) == 1, r.output
    assert r.stdout.count("mail to kaiser@example.org failed for good") == 1, r.output[:2000]


def test_a_bounce_for_now_an_observer_s_or_the_moderator_s_is_logged_only(cli, net,
                                                                         tmp_path):
    journal, keys, report = _opened(cli, net, tmp_path)
    net.imap.deliver(
        net.folder,
        _dsn(report, keys, "<d1@mx.example.org>", action="delayed", status="4.7.1"),
        _dsn(report, keys, "<d2@mx.example.org>", to=OBSERVER),
        _dsn(report, keys, "<d3@mx.example.org>", to=ADDRESSES["moderator"]),
        _dsn(report, keys, "<d4@mx.example.org>", to="someone@else.example"))
    r = tick(cli, journal)
    assert r.exit_code == 0, r.output
    assert _to_moderator(net) == [], r.output
    assert "mail to kaiser@example.org delayed (German; the server tries again" in r.stdout
    assert f"mail to {OBSERVER} failed for good (an observer's address: logged " in r.stdout
    assert "(the moderator's address: logged only)" in r.stdout
    assert r.stdout.count("set aside as") == 4, r.output


def test_a_bounce_returning_headers_only_is_claimed_by_the_thread_it_names(cli, net,
                                                                          tmp_path):
    """A delivery report that returns only the headers of the referee's mail (no tag in its
    subject, no key): the game whose mail thread they refer to takes it."""
    journal, keys, report = _opened(cli, net, tmp_path)
    head = report.decode().replace("\r\n", "\n").split("\n\n", 1)[0]
    head = re.sub(r"(?m)^Subject:.*\n", "", head + "\n")
    raw = _dsn(report, keys, "<h1@mx.example.org>").decode()
    raw = raw.replace("Content-Type: message/rfc822\n\n" + report.decode().replace(
        "\r\n", "\n"), "Content-Type: text/rfc822-headers\n\n" + head)
    assert keys["german"] not in raw and "[referee" not in raw
    net.imap.deliver(net.folder, raw.encode())
    r = tick(cli, journal)
    assert r.exit_code == 0, r.output
    assert len(_to_moderator(net)) == 1, r.output


# ---------------------------------------------------------------- the referee's own mails

def test_every_mail_of_the_referee_says_it_is_automatic(cli, net, tmp_path):
    journal, keys, _ = _opened(cli, net, tmp_path)
    openers = [_parsed(raw) for _, _, raw in net.smtp.received]
    assert {(m["Auto-Submitted"], m["X-Auto-Response-Suppress"]) for m in openers} == {
        ("auto-generated", "All")}
    net.imap.deliver(net.folder, mail("german", keys["german"], ["pass"], "<o1@example.org>"),
                     mail("entente", keys["entente"], ["plya"], "<o2@example.org>"))
    sent = len(net.smtp.received)
    assert tick(cli, journal).exit_code == 0
    answers = [_parsed(raw) for _, _, raw in net.smtp.received[sent:]]
    assert answers and all(m["X-Auto-Response-Suppress"] == "All" for m in answers)
    assert all(m["Auto-Submitted"] == ("auto-replied" if m["In-Reply-To"] else
                                       "auto-generated") for m in answers)
    assert any(m["In-Reply-To"] for m in answers)


def test_inbox_names_a_robot_s_mail_once_and_writes_nothing_for_it(cli, tmp_path):
    """`inbox` on a mailbox the moderator saved: the German's vacation reply, carrying his
    key and an order as a quoting responder may, is one line, status automatic, and no
    mail; a second run only counts it."""
    from test_hostile_mail import mail as hmail
    from test_hostile_mail import new_game as hnew_game
    from test_hostile_mail import write_mbox

    journal = hnew_game(cli, tmp_path / "game")
    out = tmp_path / "out"
    assert cli("inbox", journal, write_mbox(tmp_path / "b0", []), "--outbox", out,
               "--no-map").exit_code == 0                       # the opening reports
    first = set(out.iterdir())
    before = journal.read_bytes()
    box = write_mbox(tmp_path / "box", [hmail(headers="Auto-Submitted: auto-replied\n")])
    r = cli("inbox", journal, box, "--outbox", out, "--no-map")
    assert r.exit_code == 0, r.output
    (line,) = [x for x in r.stdout.splitlines() if x.startswith("automatic")]
    assert "(kaiser@example.org): set aside as an automatic reply (Auto-Submitted: " \
           "auto-replied): never read as orders, never answered" in line, r.stdout
    assert journal.read_bytes() == before and set(out.iterdir()) == first
    r = cli("inbox", journal, box, "--outbox", out, "--no-map")
    assert r.exit_code == 0 and "automatic" not in r.stdout, r.output
    assert "1 older message already handled" in r.stdout
    assert journal.read_bytes() == before and set(out.iterdir()) == first


# ---------------------------------------------------------------- killed at any step

def _bounces_mailbox(path):
    """Two bounces of the referee's mail to the German's address (a delivery report, as a
    server writes it, returning the headers of a mail this home's referee made for his
    address: its Message-ID), then the German's orders."""
    from test_hostile_mail import ADDRESSES as HOSTILE
    from test_hostile_mail import mail as hmail
    from test_hostile_mail import write_mbox

    from referee.mail.msgids import message_id

    german = HOSTILE["german"]
    returned = (f"--B\nContent-Type: text/rfc822-headers\n\nFrom: referee@example.com\n"
                f"To: {german}\nMessage-ID: {message_id(german, 'a-report')}\n\n")
    head = (f"From: Mail Delivery System <{ROBOT}>\nTo: {HOSTILE['moderator']}\n"
            f"Subject: Undelivered Mail Returned to Sender\nAuto-Submitted: auto-replied\n"
            f"MIME-Version: 1.0\nContent-Type: multipart/report; "
            f'report-type=delivery-status; boundary="B"\n')
    body = ("\n--B\nContent-Type: text/plain\n\nYour mail could not be delivered.\n\n--B\n"
            "Content-Type: message/delivery-status\n\nReporting-MTA: dns; mx.example.org\n\n"
            f"Final-Recipient: rfc822; {german}\nAction: failed\nStatus: 5.1.1\n"
            f"Diagnostic-Code: smtp; 550 5.1.1 <{german}>: User unknown\n\n{returned}"
            "--B--\n")
    return write_mbox(path, [
        (head + f"Message-ID: <k{n}@mx.example.org>\n" + body).encode() for n in (1, 2)
    ] + [hmail()])


@pytest.mark.parametrize("step", ["reply", "written", "applied", "ledger"])
def test_killed_at_any_step_of_a_bounce_the_moderator_is_told_once(
        tmp_path_factory, tmp_path, cli, monkeypatch, step):
    """reply: killed halfway through writing the moderator's notice; written: the notice is
    written, the ledger does not say so; applied, ledger: a message handled, the ledger not
    yet saved, or just saved. The rerun ends as a run without the fault: one notice."""
    from test_inbox_faults import _killed_then_run, _unfaulted

    root = tmp_path_factory.mktemp("bounced")
    baseline = _unfaulted(root, cli, monkeypatch, _bounces_mailbox)
    notices = [m for m in baseline[2] if "A bounce says the referee's mail to the German player"
               in m[1]]
    assert len(notices) == 1 and baseline[1]["bounced"], baseline
    # The same home key in both: the bounces return the same marked Message-ID, byte for byte.
    (tmp_path / "home").mkdir()
    shutil.copy(root / "home" / "key", tmp_path / "home" / "key")
    states = _killed_then_run(tmp_path, cli, monkeypatch, _bounces_mailbox, step, 2)
    for state in (baseline, *states):          # the journal's path, which the notice names
        state[2][:] = [(*m[:3], re.sub(r"referee players \S+", "referee players J", m[3]))
                       for m in state[2]]
    for k in range(3):
        assert [s[k] for s in states] == [baseline[k], baseline[k]], k


def test_a_bounce_notice_the_full_outbox_cannot_take_is_one_line_and_written_next_run(
        tmp_path, cli, monkeypatch):
    """The outbox's disk is full when the moderator's notice is written: one line, exit 3,
    the bounce not marked handled; the next run, the disk freed, writes the notice once."""
    from test_hostile_mail import new_game as hnew_game
    from test_inbox_faults import full_disk

    journal = hnew_game(cli, tmp_path / "game")
    box, outbox = _bounces_mailbox(tmp_path / "box.mbox"), tmp_path / "out"
    freed = full_disk(monkeypatch, outbox)
    r = cli("inbox", journal, box, "--outbox", outbox)
    assert r.exit_code == 3, r.output
    assert r.stderr.startswith("referee: --outbox ") and "No space left" in r.stderr
    assert len(r.stderr.splitlines()) == 1, r.stderr
    freed()
    for _ in range(2):
        r = cli("inbox", journal, box, "--outbox", outbox)
        assert r.exit_code == 0, r.output
    notices = [p for p in outbox.glob("*.eml") if b"A bounce says" in p.read_bytes()]
    assert len(notices) == 1, sorted(outbox.iterdir())
