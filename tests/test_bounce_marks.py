"""A bounce is believed only when it returns a mail the referee provably sent to the address
it says failed: every mail of the referee's carries a Message-ID marked for its recipient
with a key of the referee's home (mail/msgids.py). A bounce anyone writes, knowing the
game's id and a player's address (which is all the thread of the referee's mail gives), a
Message-ID made up, made for another address or by another referee, is logged only, and
mails nobody.

The IMAP and SMTP servers are tests/mailservers.py's, on 127.0.0.1 only; the clock is the
commands' (tests/commandclock.py).
"""

from __future__ import annotations

import base64
import email
import email.policy
import os
import re
from datetime import timedelta
from pathlib import Path

import forkedruns
import pytest
from commandclock import START
from mailkinds import first_line, headline
from test_mail_robots import OBSERVER, ROBOT, _classic, _dsn, _opened, _parsed, _to_moderator
from test_transport import ADDRESSES, german_beyond_ascii, tick

from referee.mail import globalparts, statusparts
from referee.mail.eml import write_eml
from referee.mail.ledger import FAULT_VARIABLE
from referee.mail.message import parse_message
from referee.mail.msgids import message_id, sent_to
from referee.mail.robots import failures

UNPROVEN = "it returns no mail this referee sent to that address: logged only"
MARKED = re.compile(r"<[^<>@\s]+\.[a-z2-7]{26}@referee\.invalid>")


@pytest.fixture
def net(servers, monkeypatch, tmp_path):
    from mailservers import route_through

    return route_through(servers, monkeypatch, tmp_path / "user")


def _sent_to(net, address: str) -> bytes:
    """The first mail the SMTP server took for address, as it took it."""
    return next(raw for _, tos, raw in net.smtp.received if tos == [address])


def _with_id(report: bytes, ident: str) -> bytes:
    """The referee's mail with another Message-ID (its thread, References, as it was)."""
    old = _parsed(report)["Message-ID"]
    assert old and report.count(old.encode()) == 1
    return report.replace(old.encode(), ident.encode())


def _another_home_s(monkeypatch, tmp_path, address: str, report: bytes) -> str:
    """The Message-ID another referee's home would give the very same mail to address."""
    local = _parsed(report)["Message-ID"].strip("<>").rpartition("@")[0].rpartition(".")[0]
    mine = os.environ["REFEREE_HOME"]
    monkeypatch.setenv("REFEREE_HOME", str(tmp_path / "another-home"))
    try:
        return message_id(address, local)
    finally:
        monkeypatch.setenv("REFEREE_HOME", mine)


def _logged_only(r, journal: Path, before: bytes, net) -> None:
    assert r.exit_code == 0, r.output
    assert _to_moderator(net) == [], r.output
    (line,) = [x for x in r.stdout.splitlines() if "set aside as" in x]
    assert "automatic" in line and f"({ROBOT})" in line, r.output
    assert f"mail to kaiser@example.org failed for good (German; {UNPROVEN})" in line, line
    assert journal.read_bytes() == before


@pytest.mark.parametrize("bounce", [_dsn, _classic])
@pytest.mark.parametrize("ident", ["<f00.aaaabbbbccccddddeeeeffff22@referee.invalid>",
                                   "<1764240000.4242.77@referee.invalid>"])
def test_a_forged_bounce_with_the_game_s_thread_and_a_made_up_message_id_tells_nobody(
        cli, net, tmp_path, bounce, ident):
    """The thread the referee's mail refers to is a hash anyone can work out from the game's
    id and the player's address; a Message-ID made up, marked or not (as the referee's mails
    were before they were marked), proves nothing."""
    journal, keys, report = _opened(cli, net, tmp_path)
    forged = _with_id(report, ident)
    assert b"<thread.alpha." in forged
    before = journal.read_bytes()
    net.imap.deliver(net.folder, bounce(forged, keys, "<x1@mx.example.org>"))
    _logged_only(tick(cli, journal), journal, before, net)


@pytest.mark.parametrize("whose", ["entente", "observer", "another home"])
@pytest.mark.parametrize("bounce", [_dsn, _classic])
def test_a_bounce_returning_a_message_id_made_for_another_address_or_home_tells_nobody(
        cli, net, tmp_path, monkeypatch, bounce, whose):
    """The Entente's player or an observer holds Message-IDs the referee marked for his own
    address; another referee marks with its own key: none counts for the German's."""
    journal, keys, report = _opened(cli, net, tmp_path)
    if whose == "another home":
        ident = _another_home_s(monkeypatch, tmp_path, ADDRESSES["german"], report)
    else:
        other = _sent_to(net, ADDRESSES["entente"] if whose == "entente" else OBSERVER)
        ident = str(_parsed(other)["Message-ID"])
    assert MARKED.fullmatch(ident) and ident != str(_parsed(report)["Message-ID"])
    before = journal.read_bytes()
    net.imap.deliver(net.folder, bounce(_with_id(report, ident), keys, "<x2@mx.example.org>"))
    _logged_only(tick(cli, journal), journal, before, net)


def test_a_delivery_report_for_one_player_returning_another_s_mail_tells_nobody(
        cli, net, tmp_path):
    """A delivery report that names the German's address as failed but returns the mail
    the referee sent the Entente, whole (his own Message-ID and thread)."""
    journal, keys, _ = _opened(cli, net, tmp_path)
    before = journal.read_bytes()
    theirs = _sent_to(net, ADDRESSES["entente"])
    net.imap.deliver(net.folder, _dsn(theirs, keys, "<x3@mx.example.org>"))
    _logged_only(tick(cli, journal), journal, before, net)


def test_a_real_bounce_of_the_referee_s_mail_tells_the_moderator_once_a_day(
        cli, net, tmp_path, clock):
    """The German's report as the SMTP server took it, returned by a delivery report and by
    a bounce in plain text: the moderator is told once that day, then again the next."""
    journal, keys, report = _opened(cli, net, tmp_path)
    assert MARKED.fullmatch(str(_parsed(report)["Message-ID"]))
    net.imap.deliver(net.folder, _dsn(report, keys, "<r1@mx.example.org>"),
                     _classic(report, keys, "<r2@mx.example.org>"))
    r = tick(cli, journal)
    assert r.exit_code == 0, r.output
    (told,) = _to_moderator(net)
    assert str(told["Subject"]) == "[referee alpha] moderator, SUMMER 1914"
    assert first_line(told).startswith("A bounce says the referee's mail to the German player")
    assert UNPROVEN not in r.stdout
    assert r.stdout.count("the moderator is told") == 1, r.output
    assert r.stdout.count("the moderator was told today already") == 1, r.output
    clock(START + timedelta(days=1))
    net.imap.deliver(net.folder, _dsn(report, keys, "<r3@mx.example.org>"))
    assert tick(cli, journal).exit_code == 0 and len(_to_moderator(net)) == 2


# ---------------------------------------------------------------- inbox: the outbox's mail

def _returning(to: str, head: str, ident: str) -> bytes:
    """A delivery report (as Postfix writes one) that the mail to `to` failed for good,
    returning the headers `head` of that mail."""
    return (f"From: Mail Delivery System <{ROBOT}>\nTo: umpire@example.com\n"
            f"Subject: Undelivered Mail Returned to Sender\nMessage-ID: {ident}\n"
            f"Auto-Submitted: auto-replied\nMIME-Version: 1.0\nContent-Type: multipart/report;"
            f' report-type=delivery-status; boundary="B"\n\n--B\nContent-Type: text/plain\n\n'
            f"Your mail could not be delivered.\n\n--B\nContent-Type: message/delivery-status"
            f"\n\nReporting-MTA: dns; mx.example.org\n\nFinal-Recipient: rfc822; {to}\n"
            f"Action: failed\nStatus: 5.1.1\nDiagnostic-Code: smtp; 550 5.1.1 User unknown\n\n"
            f"--B\nContent-Type: text/rfc822-headers\n\n{head}\n--B--\n").encode()


def _outbox_mails(outbox: Path) -> list:
    return [(p, email.message_from_bytes(p.read_bytes(), policy=email.policy.default))
            for p in sorted(outbox.glob("*.eml"))]


def _head_of(m) -> str:
    return "".join(f"{k}: {v}\n" for k, v in m.items())


def test_inbox_believes_a_bounce_of_the_report_in_its_outbox_and_no_copy_of_it(cli, tmp_path):
    """`inbox` with an outbox: the bounce returning the German's report as written there
    (its Message-ID taken from the file) tells the moderator; one returning the same headers
    with a Message-ID of the Entente's report does not."""
    from test_hostile_mail import new_game, write_mbox

    journal = new_game(cli, tmp_path / "game")
    out = tmp_path / "out"
    assert cli("inbox", journal, write_mbox(tmp_path / "b0", []), "--outbox", out,
               "--no-map").exit_code == 0
    written = {str(m["To"]): m for _, m in _outbox_mails(out)}
    german = written["Kaiser@Example.org"]
    ident = str(written["joffre@example.net"]["Message-ID"])
    forged = _head_of(german).replace(str(german["Message-ID"]), ident)
    box = write_mbox(tmp_path / "b1", [_returning("kaiser@example.org", forged, "<y1@mx>")])
    r = cli("inbox", journal, box, "--outbox", out, "--no-map")
    assert r.exit_code == 0, r.output
    assert UNPROVEN in r.stdout, r.output
    assert not [m for _, m in _outbox_mails(out) if "A bounce says" in headline(m)]
    box = write_mbox(tmp_path / "b2", [_returning("kaiser@example.org", _head_of(german),
                                                  "<y2@mx>")])
    r = cli("inbox", journal, box, "--outbox", out, "--no-map")
    assert r.exit_code == 0, r.output
    (told,) = [m for _, m in _outbox_mails(out) if "A bounce says" in headline(m)]
    assert str(told["To"]) == "umpire@example.com" and UNPROVEN not in r.stdout, r.output


def test_a_bounce_of_a_deadline_reminder_tells_the_moderator(cli, tmp_path, clock):
    """A reminder (mail/reminders.py) carries a marked Message-ID as every mail does: its
    bounce is believed."""
    from test_deadlines import DUE, new_game
    from test_hostile_mail import write_mbox

    from referee.mail.reminders import check_deadlines

    journal = new_game(tmp_path, cli, "--deadline", "48h")
    out = tmp_path / "out"
    check_deadlines(journal, out, DUE - timedelta(hours=24))
    ((_, reminder),) = _outbox_mails(out)
    assert str(reminder["To"]) == "Kaiser@Example.org"
    box = write_mbox(tmp_path / "b", [_returning("kaiser@example.org", _head_of(reminder),
                                                 "<z1@mx>")])
    clock(DUE - timedelta(hours=24))        # the reminder's pass was then
    r = cli("inbox", journal, box, "--outbox", out, "--no-map")
    assert r.exit_code == 0, r.output
    assert "(German; the moderator is told)" in r.stdout, r.output


# ---------------------------------------------------------------- the Message-IDs themselves

def test_a_named_mail_written_again_has_the_same_message_id_marked_for_its_recipient(
        tmp_path, clock):
    """A named mail is written once; written again (a run killed before its ledger knew it
    was), it is the same mail, Message-ID included, whatever the time. Another name, or the
    same name to another address, is another Message-ID; each checks out for its own
    recipient alone."""
    def written(folder: str, to: str, name: str) -> str:
        path = write_eml(tmp_path / folder, "referee@example.com", to, "s", "b", None,
                         name=name)
        return str(email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
                   ["Message-ID"])

    for folder in ("a", "b", "c"):
        (tmp_path / folder).mkdir()
    first = written("a", "Kaiser@Example.org", "n1")
    clock(START + timedelta(hours=3))
    assert written("b", "Kaiser@Example.org", "n1") == first
    assert MARKED.fullmatch(first) and first.startswith("<n1.")
    assert written("c", "Kaiser@Example.org", "n2") != first
    assert message_id("joffre@example.net", "n1") != first
    assert sent_to(first, "kaiser@example.org") and sent_to(first, " KAISER@example.ORG")
    assert not sent_to(first, "joffre@example.net")
    assert not sent_to(first.replace("<n1.", "<n2."), "kaiser@example.org")



@pytest.mark.parametrize(("theirs", "stranger_s"), [
    ("kaiser@strasse.example", "kaiser@straße.example"),       # casefold: ß is ss
    ("kaiser@example.org", "kaiſer@example.org"),              # casefold: a long s is s
])
def test_a_stranger_answered_at_an_address_that_folds_to_a_player_s_holds_no_mark_for_it(
        cli, tmp_path, theirs, stranger_s):
    """`inbox` answers a stranger that his message was not matched, at his own address:
    the mark of that answer is for his address, and one that case-folds to a player's (ß
    folds to ss, ſ to s: two mailboxes, two domains) is still another address. His bounce
    returning it, for the player's address, mails nobody."""
    from test_hostile_mail import ADDRESSES as PLAYERS
    from test_hostile_mail import mail, new_game, write_mbox

    journal = new_game(cli, tmp_path / "game", dict(PLAYERS, german=theirs))
    out = tmp_path / "out"
    hello = mail(stranger_s, "hello\n", subject="hi", mid="<s1@x.example>")
    assert cli("inbox", journal, write_mbox(tmp_path / "b0", [hello]), "--outbox", out,
               "--no-map").exit_code == 0
    (answer,) = [m for _, m in _outbox_mails(out) if str(m["To"]) == stranger_s]
    before = journal.read_bytes()
    box = write_mbox(tmp_path / "b1", [_returning(theirs, _head_of(answer), "<y1@mx>")])
    r = cli("inbox", journal, box, "--outbox", out, "--no-map")
    assert r.exit_code == 0, r.output
    assert f"mail to {theirs} failed for good (German; {UNPROVEN})" in r.stdout, r.output
    assert not [m for _, m in _outbox_mails(out) if "A bounce says" in headline(m)]
    assert journal.read_bytes() == before


def test_the_mark_key_is_no_signature_the_home_could_give(tmp_path, monkeypatch):
    """The marks' key is derived from the home's key, which also signs the home's files
    (HMAC-SHA256 of their bytes): were it that signature of its label, a signed file holding
    the label would hand it over. A mark made with that signature as key checks out for no
    address."""
    import base64
    import hashlib
    import hmac

    from referee.mail import msgids
    from referee.store import home

    monkeypatch.setenv("REFEREE_HOME", str(tmp_path / "home"))
    ident = message_id("kaiser@example.org", "report-1")
    signature = home.sign(msgids._LABEL)
    said = b"report-1\nkaiser@example.org"
    forged = base64.b32encode(hmac.new(signature, said, hashlib.sha256).digest()[:16]
                              ).decode().rstrip("=").lower()
    assert sent_to(ident, "kaiser@example.org")
    assert not sent_to(f"<report-1.{forged}@referee.invalid>", "kaiser@example.org")


# ---------------------------------------------------------------- internationalised reports

def _global_dsn(report: bytes, to: str, encoded: bool) -> bytes:
    """A delivery report of a mail to an address beyond ASCII (RFC 6533, as Postfix writes
    one for an SMTPUTF8 mail): its status a message/global-delivery-status part, its
    recipient a utf-8 address; the referee's mail returned whole (message/global), or
    (encoded) its status sent base64, the address escaped, and the headers alone returned
    (message/global-headers)."""
    escaped = "".join(c if ord(c) < 128 else f"\\x{{{ord(c):X}}}" for c in to)
    status = (f"Reporting-MTA: dns; mx.example.de\n\nFinal-Recipient: utf-8; "
              f"{escaped if encoded else to}\nAction: failed\nStatus: 5.1.1\n"
              f"Diagnostic-Code: smtp; 550 5.1.1 <{to}>: User unknown\n").encode()
    whole = report.replace(b"\r\n", b"\n")
    if encoded:
        status_part = (b"Content-Type: message/global-delivery-status\n"
                       b"Content-Transfer-Encoding: base64\n\n" +
                       base64.encodebytes(status))
        returned = b"Content-Type: message/global-headers\n\n" + whole.split(b"\n\n")[0]
    else:
        status_part = b"Content-Type: message/global-delivery-status\n\n" + status
        returned = b"Content-Type: message/global\n\n" + whole
    return (f"From: Mail Delivery System <{ROBOT}>\nTo: {ADDRESSES['moderator']}\n"
            f"Subject: Undelivered Mail Returned to Sender\nMessage-ID: <g1@mx.example.de>\n"
            f"Auto-Submitted: auto-replied\nMIME-Version: 1.0\nContent-Type: multipart/report;"
            f' report-type=global-delivery-status; boundary="B"\n\n--B\n'
            f"Content-Type: text/plain; charset=utf-8\n\nYour mail could not be delivered."
            f"\n\n--B\n").encode() + status_part + b"\n--B\n" + returned + \
        b"\n--B--\n"


@pytest.mark.parametrize("encoded", [False, True])
def test_an_internationalised_bounce_of_the_referee_s_mail_is_believed(
        cli, net, tmp_path, encoded):
    """A real bounce of the referee's mail to jörg@example.de comes as RFC 6533 writes it
    (the ASCII parts of RFC 3464 cannot carry his address): its report is read as a
    message/delivery-status, the mail it returns as a message/rfc822 or its headers as
    text/rfc822-headers, and the moderator is told."""
    with german_beyond_ascii(cli, net, tmp_path) as (journal, smtp):
        assert tick(cli, journal).exit_code == 0
        (report,) = [m for _, tos, m in smtp.received if tos == ["jörg@example.de"]]
        before = journal.read_bytes()
        net.imap.deliver(net.folder, _global_dsn(report, "jörg@example.de", encoded))
        r = tick(cli, journal)
        assert r.exit_code == 0, r.output
        told = [_parsed(m) for _, tos, m in smtp.received if tos == [ADDRESSES["moderator"]]]
        assert [str(m["Subject"]) for m in told] == ["[referee oscar] moderator, SUMMER 1914"]
        assert first_line(told[0]).startswith("A bounce says the referee's mail to the German")
        assert "the moderator is told" in r.stdout and UNPROVEN not in r.stdout, r.output
        assert journal.read_bytes() == before


def test_a_report_of_hundreds_of_global_status_parts_is_read_no_further_than_its_bound():
    """Each block of a global delivery status is parsed from its text (the package parses
    only an ASCII one's): a report of hundreds of such parts, under every limit of a
    message, took a third of a second to read at 256 blocks a part. The blocks of all its
    status parts together are read up to MOST_BLOCKS: an address a report names past them
    is not read, and the report is read in what a few hundred blocks take."""
    per_part = globalparts.MOST_BLOCKS // 2
    part = ("--B\nContent-Type: message/global-delivery-status\n\nReporting-MTA: dns; mx\n\n" +
            "Final-Recipient: utf-8; x@example.net\nAction: failed\nStatus: 5.1.1\n\n" *
            (per_part - 1))
    last = part.replace("x@example.net", "j\\x{F6}rg@example.de")
    raw = (f"From: {ROBOT}\nMIME-Version: 1.0\nContent-Type: multipart/report; "
           f"boundary=\"B\"\n\n{part}{part}{last}--B--\n").encode()
    msg = parse_message(raw)
    assert failures(msg, "oscar", ["x@example.net"])
    assert failures(msg, "oscar", ["jörg@example.de"]) == []
    assert failures(parse_message(raw.replace(part.encode(), b"", 1)), "oscar",
                    ["jörg@example.de"])


# ---------------------------------------------------------------- a report of many blocks

BLOCK = "Action: failed\nStatus: 5.1.1\n\n"


def _report_of_blocks(report: bytes, blocks: int) -> bytes:
    """A delivery report whose status part holds the German's block, then `blocks` more
    (each Action and Status alone: as many as a megabyte holds), then the mail returned."""
    head = _dsn(report, {}, "<many@mx.example.org>")
    status = BLOCK * blocks
    marker = "\n--BOUND\nContent-Type: message/rfc822\n"
    assert head.decode().count(marker) == 1
    return head.decode().replace(marker, f"\n{status}{marker.lstrip(chr(10))}").encode()


def test_a_report_of_thirty_thousand_blocks_is_read_no_further_than_its_bound(
        cli, net, tmp_path, monkeypatch):
    """The email package parsed each block of a message/delivery-status part into a message
    of its own: a report of 30,000 blocks (a megabyte, under the size limit; anyone can send
    one) took a fifth of a second to parse, twice a pass (to know its game, then to read
    it). Its text is kept whole and its blocks read up to MOST_BLOCKS: the whole tick makes
    a few messages more than that bound, and the bounce is still believed."""
    import email.message

    journal, keys, report = _opened(cli, net, tmp_path)
    raw = _report_of_blocks(report, 30_000)
    assert len(raw.replace(b"\n", b"\r\n")) < 1 << 20
    net.imap.deliver(net.folder, raw)
    made = []
    init = email.message.Message.__init__

    def counted(self, *args, **kwargs):
        made.append(1)
        init(self, *args, **kwargs)

    kept = []                       # each status part's text, as each parse keeps it
    as_read = statusparts.as_read

    def spied(msg):
        msg = as_read(msg)
        kept.extend(len(p.get_payload()) for p in msg.walk()
                    if p.get_content_type() == "message/delivery-status")
        return msg

    monkeypatch.setattr(email.message.Message, "__init__", counted)
    monkeypatch.setattr(statusparts, "as_read", spied)
    r = tick(cli, journal)
    monkeypatch.undo()
    assert r.exit_code == 0, r.output
    assert "mail to kaiser@example.org failed for good (German; the moderator is told)" in \
        r.stdout, r.output
    assert len(_to_moderator(net)) == 1
    # MOST_BLOCKS blocks read, and the pass's own few messages (each mail it reads, sends):
    # not one per block, twice (60,000).
    assert len(made) < 2 * globalparts.MOST_BLOCKS, len(made)
    # And the package, which reads a part line by line, read no further into the status
    # part than the referee reads of it (its first KEPT bytes), each time it parsed it.
    assert kept and max(kept) <= statusparts.KEPT < len(raw) // 4, kept


def test_a_status_part_cut_leaves_every_other_part_as_it_was():
    """What is cut of a long status part is its text past KEPT bytes alone: the parts after
    it (the mail returned, its Message-ID) are the package's own reading of the whole."""
    report = (f"From: {ADDRESSES['german']}\nSubject: x\nMessage-ID: <m1.abc@referee.invalid>"
              f"\n\nhello\n").encode()
    # A quarter more blocks than KEPT holds: the part is cut, and the email package's own
    # reading of the whole (a message per block) costs a fraction of a megabyte's.
    blocks = statusparts.KEPT * 5 // 4 // len(BLOCK)
    raw = _report_of_blocks(report, blocks).replace(b"--BOUND--", b"--BOUND\nContent-Type: "
                                                    b"text/plain\n\nafter\n--BOUND--")
    assert raw.count(BLOCK.encode()) == blocks and blocks * len(BLOCK) > statusparts.KEPT
    whole = email.message_from_bytes(raw, policy=email.policy.default)
    read = parse_message(raw)
    types = [p.get_content_type() for p in whole.get_payload()]
    assert types == [p.get_content_type() for p in read.get_payload()], types
    assert types == ["text/plain", "message/delivery-status", "message/rfc822", "text/plain"]
    for mine, theirs in zip(read.get_payload(), whole.get_payload()):
        if mine.get_content_type() != "message/delivery-status":
            assert str(mine) == str(theirs)
    status = read.get_payload()[1].get_payload()
    assert len(status) <= statusparts.KEPT and whole.get_payload()[1].get_payload()[0][
        "Reporting-MTA"] == "dns; mx.example.org" and status.startswith("Reporting-MTA:")
    assert failures(read, "alpha", [ADDRESSES["german"]])[0].permanent


def test_a_moderator_s_bounce_notice_a_killed_run_wrote_is_not_written_into_another_outbox(
        cli, tmp_path):
    """`inbox` tells the moderator of a real bounce and is killed once the notice is written,
    before its ledger says so; the next run writes into another folder and finds the notice
    in the first (the ledger keeps the folders the game's mails went into)."""
    from test_hostile_mail import new_game, write_mbox

    journal = new_game(cli, tmp_path / "game")
    out, other = tmp_path / "out", tmp_path / "other"
    assert cli("inbox", journal, write_mbox(tmp_path / "b0", []), "--outbox", out,
               "--no-map").exit_code == 0
    german = {str(m["To"]): m for _, m in _outbox_mails(out)}["Kaiser@Example.org"]
    box = write_mbox(tmp_path / "b1", [_returning("kaiser@example.org", _head_of(german),
                                                  "<y2@mx>")])
    killed = forkedruns.run(forkedruns.command, cli, "inbox", journal, box, "--outbox", out,
                            "--no-map", env={FAULT_VARIABLE: "written"})
    assert killed == 70, killed                 # a process of its own, forked from this one
    assert [m for _, m in _outbox_mails(out) if "A bounce says" in headline(m)]
    r = cli("inbox", journal, box, "--outbox", other, "--no-map")
    assert r.exit_code == 0, r.output
    assert not [m for _, m in _outbox_mails(other) if "A bounce says" in headline(m)]
