"""The edges of the mail path where a message could be applied twice or never, a reply go to
the wrong mailbox, or a pass stop: copies in one pass, mail programs that set no Date,
addresses beyond ASCII, mails too large to read (forged ones too, and beside an inbox run),
the reading bound and oldest-first order of a pass, and a server that wants a login.

The IMAP and SMTP servers are tests/mailservers.py's, on 127.0.0.1 only.
"""

from __future__ import annotations

import imaplib
import json
import re

import pytest
from flowtext import written
from mailkinds import first_line
from mailservers import (
    HOST,
    SmtpServer,
    free_port,
    mail_settings,
    route_through,
    spooled,
    trust_smtp,
)
from test_hostile_mail import (
    KEYS,
    eml,
    handled,
    mail,
    new_game,
    read_mail,
    records,
    write_mbox,
)
from test_transport import ADDRESSES, tick
from test_transport import mail as tmail
from test_transport import new_game as tnew_game

from referee.base.errors import StorageError
from referee.mail import ledger as ledgermod
from referee.mail import tick as ticking
from referee.mail import toolarge
from referee.mail.delivery import Fetched, TransportError, refused_mails
from referee.mail.sending import send_owed
from referee.store.mailroute import check_target

PHOTO = "A" * 1_100_000          # over the 1 MB the referee reads


@pytest.fixture
def net(servers, monkeypatch, tmp_path):
    return route_through(servers, monkeypatch, tmp_path / "user")


def _counting_header_fetches(monkeypatch) -> list[bytes]:
    """The UIDs whose header alone (the oversize path) is fetched, in order."""
    fetched: list[bytes] = []
    real_uid = imaplib.IMAP4.uid

    def uid(self, command, *args):
        if command == "FETCH" and "HEADER" in str(args[-1]):
            fetched.append(args[0])
        return real_uid(self, command, *args)

    monkeypatch.setattr(imaplib.IMAP4, "uid", uid)
    return fetched


# ---------------------------------------------------------------- copies

def test_a_copy_under_a_new_message_id_in_the_same_pass_is_applied_once(cli, tmp_path):
    """A mail and its copy under a new Message-ID (same Date, Subject and text) in one pass:
    the copy is known by the mail applied just before it in the same run, not only by the
    records the journal held when the run began."""
    journal = new_game(cli, tmp_path / "game")
    body = f"propose armistice\n\nOrder key: {KEYS['german']}\n"
    refusal = mail("joffre@example.net", f"refuse armistice\n\nOrder key: {KEYS['entente']}\n",
                   mid="<r1@x.net>")
    box = write_mbox(tmp_path / "box", [mail(body=body, mid="<p1@x.org>"), refusal,
                                        mail(body=body, mid="<p2@x.org>")])
    out = handled(cli, journal, box, outbox=tmp_path / "out")
    proposals = [r for r in records(journal) if r.get("order") == "propose armistice"]
    assert len(proposals) == 1, [(o["message_id"], o["status"], o["records"]) for o in out]


def test_a_copy_in_the_pass_of_its_mail_is_answered_after_the_report_and_briefly(cli,
                                                                               tmp_path):
    """The German's mail, its copy (a new Message-ID, the same Date, Subject and text) and a
    misspelt one in one pass: his report of the mail applied goes first; each reply to the
    others is sent after it (in the spool's order, oldest first, even when all are written
    within one tick of the clock: no maps, here) and says why only, pointing to that report,
    instead of a copy of it."""
    from referee.mail.delivery import spool_files

    journal = new_game(cli, tmp_path / "game")
    body = f"propose armistice\n\nOrder key: {KEYS['german']}\n"
    box = write_mbox(tmp_path / "box", [
        mail(body=body, mid="<p1@x.org>"), mail(body=body, mid="<p2@x.org>"),
        mail(body=f"plya offensive\n\nOrder key: {KEYS['german']}\n", mid="<p3@x.org>")])
    out = handled(cli, journal, box, outbox=tmp_path / "out")
    assert [o["status"] for o in out] == ["applied", "rejected", "rejected"], out
    sent = [read_mail(p) for p in spool_files(tmp_path / "out")]
    to_him = [m for m in sent if str(m["To"]).casefold() == "kaiser@example.org"]
    # One subject, his thread for the season (one Gmail conversation); each mail's first
    # line says what it is.
    assert [str(m["Subject"]) for m in to_him] == ["[referee mailtest] German player, "
                                                   "SUMMER 1914"] * 3
    # The copy's reply opens with what happened, the misspelt one's with its refusal.
    firsts = [first_line(m) for m in to_him]
    # The report's own lead asks what his last one asked: the mail says first what it is.
    assert firsts[0].startswith("Applied from your mail: 'propose armistice' (#"), firsts
    copy, misspelt = sorted(firsts[1:])       # the replies, in whatever order they were spooled
    assert copy.startswith("This is a copy of your mail of Sat 1 Aug 10:00 UTC,"), firsts
    assert misspelt.startswith("Your message was not applied:"), firsts
    report, *replies = (written(m.get_body(("plain",)).get_content()) for m in to_him)
    assert "Board" in report.splitlines()
    seq = records(journal)[-1]["seq"]
    for reply in replies:
        text = " ".join(reply.split())
        assert "Board" not in reply.splitlines() and max(map(len, reply.splitlines())) <= 72
        assert f"your report of record #{seq}, sent to you with this mail" in text, text
        assert f"Order key: {KEYS['german']}" in text
    [copy] = [" ".join(r.split()) for r in replies if r.startswith("This is a copy")]
    assert f"This is a copy of your mail of Sat 1 Aug 10:00 UTC, which was applied already " \
        f"(record {seq}): nothing more was done" in copy, copy
    assert "not applied" not in copy and "Applied: nothing" not in copy, copy
    assert sorted(str(m["In-Reply-To"]) for m in to_him[1:]) == ["<p2@x.org>", "<p3@x.org>"]


def test_standing_orders_alone_by_mail_get_a_report_of_their_own(cli, tmp_path):
    """The German mails standing lines only (applied, no record) and a misspelt order in one
    pass. The journal did not move, yet his standing change is answered by a report of its
    own (not taken for the one he had at this record), which shows it; the misspelt one's
    brief reply points to that report, sent with it."""
    from referee.mail.delivery import spool_files

    journal = new_game(cli, tmp_path / "game")
    out = tmp_path / "out"
    handled(cli, journal, write_mbox(tmp_path / "b0", []), outbox=out)     # opening reports
    first = set(spool_files(out))
    box = write_mbox(tmp_path / "b1", [
        mail(body=f"standing: no combat cards\n\nOrder key: {KEYS['german']}\n",
             mid="<s1@x.org>"),
        mail(body=f"plya offensive\n\nOrder key: {KEYS['german']}\n", mid="<s2@x.org>")])
    outcomes = handled(cli, journal, box, outbox=out)
    assert [o["status"] for o in outcomes] == ["applied", "rejected"], outcomes
    new = [read_mail(p) for p in spool_files(out) if p not in first]
    to_him = [m for m in new if str(m["To"]).casefold() == "kaiser@example.org"]
    assert [str(m["Subject"]).split("] ")[-1] for m in to_him] == [
        "German player, SUMMER 1914"] * 2
    assert [re.split("[:,]", first_line(m))[0] for m in to_him] == [
        "Your standing orders are now", "Your message was not applied"]
    report, reply = (" ".join(m.get_body(("plain",)).get_content().split()) for m in to_him)
    assert "Your standing orders are now: no combat cards." in report, report
    assert str(to_him[0]["In-Reply-To"]) == "<s1@x.org>"
    assert "sent to you with this mail" in reply and "Board" not in reply.split(), reply


def test_standing_orders_sent_with_orders_are_confirmed_to_their_side_only(cli, tmp_path):
    """The German mails a standing line with his orders: both are applied, and his report
    says what his standing orders are now, as it does for standing lines alone; the
    Entente's report of the same records says nothing of them (they are the German's
    secret)."""
    from referee.mail.delivery import spool_files

    journal = new_game(cli, tmp_path / "game")
    out = tmp_path / "out"
    handled(cli, journal, write_mbox(tmp_path / "b0", []), outbox=out)     # opening reports
    first = set(spool_files(out))
    box = write_mbox(tmp_path / "b1", [mail(
        body=f"standing: no combat cards\nplay offensive\n\nOrder key: {KEYS['german']}\n",
        mid="<s1@x.org>")])
    outcomes = handled(cli, journal, box, outbox=out)
    assert [o["status"] for o in outcomes] == ["applied"], outcomes
    assert records(journal)[-1]["order"] == "play offensive"
    new = [read_mail(p) for p in spool_files(out) if p not in first]
    text = {str(m["To"]).casefold(): " ".join(m.get_body(("plain",)).get_content().split())
            for m in new}
    assert "Your standing orders are now: no combat cards." in text["kaiser@example.org"]
    assert "standing" not in text["joffre@example.net"].casefold(), text["joffre@example.net"]


def test_a_reply_written_in_the_tick_of_its_report_is_sent_after_it(tmp_path):
    """The spool sends the oldest first, then by name (a digest): a reply written in the
    same tick of the file system's clock as the report it points to, and named before it,
    is given a later time, so that it goes after the report; one written later keeps its
    own time."""
    import os

    from referee.mail.delivery import spool_files
    from referee.mail.elsewhere import sent_after

    report, reply, later = (tmp_path / f"{n}.eml" for n in ("bb", "aa", "cc"))
    for p, t in ((report, 10 ** 18), (reply, 10 ** 18), (later, 2 * 10 ** 18)):
        p.write_text("x")
        os.utime(p, ns=(t, t))
    sent_after(reply, report)
    sent_after(later, report)
    assert spool_files(tmp_path) == [report, reply, later]
    assert later.stat().st_mtime_ns == 2 * 10 ** 18
    sent_after(reply, tmp_path / "gone.eml")                # sent already: nothing to do


@pytest.mark.parametrize("grain", [1, 2], ids=["whole-seconds", "two-seconds"])
def test_a_reply_is_sent_after_its_report_where_file_times_are_coarse(tmp_path, monkeypatch,
                                                                       grain):
    """A file system that keeps whole or two-second times (FAT, some network mounts) drops
    a step of a nanosecond: the reply's later time is one the file system keeps, so the
    spool still sends it after the report, not by its name before it."""
    import os

    from referee.mail.delivery import spool_files
    from referee.mail.elsewhere import sent_after

    real, step = os.utime, grain * 10 ** 9

    def coarse(path, times=None, *, ns=None, **kwargs):
        if ns is not None:
            ns = tuple(t - t % step for t in ns)
        return real(path, times, ns=ns, **kwargs) if ns is not None else \
            real(path, times, **kwargs)
    monkeypatch.setattr(os, "utime", coarse)
    report, reply, third = (tmp_path / f"{n}.eml" for n in ("bb", "aa", "a0"))
    for p in (report, reply, third):
        p.write_text("x")
        os.utime(p, ns=(10 ** 18, 10 ** 18))
    sent_after(reply, report)
    sent_after(third, reply)
    assert spool_files(tmp_path) == [report, reply, third]


def test_a_copy_whose_line_ends_a_relay_made_crlf_is_still_a_copy(cli, tmp_path):
    """The German's proposal comes again under a new Message-ID with CRLF line ends (an IMAP
    server, a relay): still the same Date, Subject and text, applied once."""
    journal = new_game(cli, tmp_path / "game")
    body = f"propose armistice\n\nOrder key: {KEYS['german']}\n"
    refusal = mail("joffre@example.net", f"refuse armistice\n\nOrder key: {KEYS['entente']}\n",
                   mid="<r1@x.net>")
    crlf = mail(body=body, mid="<p2@x.org>").replace(b"\n", b"\r\n")
    box = tmp_path / "box"
    for sub in ("new", "cur", "tmp"):
        (box / sub).mkdir(parents=True)
    for n, raw in enumerate([mail(body=body, mid="<p1@x.org>"), refusal, crlf]):
        (box / "new" / f"{n}.eml").write_bytes(raw)
    out = handled(cli, journal, box, outbox=tmp_path / "out")
    proposals = [r for r in records(journal) if r.get("order") == "propose armistice"]
    assert len(proposals) == 1, [(o["message_id"], o["status"], o["records"]) for o in out]
    assert "a copy of your mail of Sat 1 Aug 10:00 UTC, which was applied already" in \
        out[-1]["reason"], out[-1]


def test_a_copy_in_a_game_of_another_zone_tells_his_mail_s_time_there(cli, tmp_path):
    """The reply to a copy of a mail applied names that mail by its Date as his deadlines
    tell a time, in the game's zone with UTC beside it (10:00 UTC on 24 Nov 2026 is 11:00
    CET in Paris), and opens with it: what happened to his mail, which is no fault of
    his, not a refusal naming his own address in the third person."""
    journal = new_game(cli, tmp_path / "game")
    assert cli("deadline", journal, "--set", "48h", "--zone", "Europe/Paris").exit_code == 0
    body = f"propose armistice\n\nOrder key: {KEYS['german']}\n"
    date = "Tue, 24 Nov 2026 10:00:00 +0000"
    first = write_mbox(tmp_path / "box1", [mail(body=body, mid="<p1@x.org>", date=date)])
    assert [o["status"] for o in handled(cli, journal, first, outbox=tmp_path / "out1")] \
        == ["applied"]
    seq = records(journal)[-1]["seq"]
    again = write_mbox(tmp_path / "box2", [mail(body=body, mid="<p2@x.org>", date=date)])
    out = handled(cli, journal, again, outbox=tmp_path / "out")
    assert [o["status"] for o in out] == ["rejected"], out
    [reply] = [read_mail(p) for p in (tmp_path / "out").glob("*.eml")
               if str(read_mail(p)["To"]).casefold() == ADDRESSES["german"]]
    text = written(reply.get_body(("plain",)).get_content())
    assert " ".join(text.split()).startswith(
        f"This is a copy of your mail of Tue 24 Nov 11:00 CET (10:00 UTC), which was applied "
        f"already (record {seq}): nothing more was done. To give the same orders again, send "
        f"them in a new message. Below: what you are asked now, then your report."), text
    head = text.partition("Below: what you are asked now")[0]   # his report follows it
    assert "German player's address" not in head and "not applied" not in head, text
    assert max(map(len, text.splitlines())) <= 72, text


def test_a_copy_of_a_mail_applied_by_an_earlier_version_is_still_a_copy(cli, tmp_path,
                                                                        monkeypatch):
    """The German's proposal (CRLF, as from IMAP) was applied when a mail's digest was made
    of its text as it came; a copy under a new Message-ID, read now, is still known."""
    from referee.mail import mailboxes

    journal = new_game(cli, tmp_path / "game")
    body = f"propose armistice\n\nOrder key: {KEYS['german']}\n"
    refusal = mail("joffre@example.net", f"refuse armistice\n\nOrder key: {KEYS['entente']}\n",
                   mid="<r1@x.net>")
    boxes = [tmp_path / "box1", tmp_path / "box2"]
    for box, raws in zip(boxes, ([mail(body=body, mid="<p1@x.org>"), refusal],
                                 [mail(body=body, mid="<p2@x.org>")])):
        for sub in ("new", "cur", "tmp"):
            (box / sub).mkdir(parents=True)
        for n, raw in enumerate(raws):
            (box / "new" / f"{n}.eml").write_bytes(raw.replace(b"\n", b"\r\n"))
    with monkeypatch.context() as earlier:
        earlier.setattr(mailboxes, "_ends_as_lf", lambda text: text)
        handled(cli, journal, boxes[0], outbox=tmp_path / "out")
    out = handled(cli, journal, boxes[1], outbox=tmp_path / "out")
    proposals = [r for r in records(journal) if r.get("order") == "propose armistice"]
    assert len(proposals) == 1 and "a copy of your mail of" in out[-1]["reason"], out


def test_a_new_mail_from_a_client_that_sets_no_date_is_not_taken_for_a_copy(cli, tmp_path):
    """A mail program that sets no Date: the same orders under the same subject in a later
    turn, in a new message, are a new mail (without a date nothing tells it from a copy, so
    it is not taken for one)."""
    journal = new_game(cli, tmp_path / "game")
    body = f"propose armistice\n\nOrder key: {KEYS['german']}\n"
    first = handled(cli, journal, eml(tmp_path / "a", mail(body=body, mid="<p1@x.org>",
                                                           subject="orders", date=None)),
                    outbox=tmp_path / "out1")
    assert [m["status"] for m in first] == ["applied"]
    refusal = mail("joffre@example.net", f"refuse armistice\n\nOrder key: {KEYS['entente']}\n",
                   mid="<r1@x.net>")
    assert handled(cli, journal, eml(tmp_path / "b", refusal),
                   outbox=tmp_path / "out2")[0]["status"] == "applied"
    again = handled(cli, journal, eml(tmp_path / "c", mail(body=body, mid="<p2@x.org>",
                                                           subject="orders", date=None)),
                    outbox=tmp_path / "out3")
    assert "applied as record" not in again[0]["reason"], again
    assert [m["status"] for m in again] == ["applied"], again


# ---------------------------------------------------------------- beyond ASCII

def test_a_player_with_an_address_beyond_ascii_has_his_orders_taken(cli, tmp_path):
    """The referee mails jörg@example.de (RFC 6532), and reads a mail from him as his: his
    orders with his own key are applied."""
    journal = new_game(cli, tmp_path / "game", {"german": "jörg@example.de",
                                                "entente": "joffre@example.net",
                                                "moderator": "umpire@example.com"})
    raw = mail("jörg@example.de", f"propose armistice\n\nOrder key: {KEYS['german']}\n")
    out = handled(cli, journal, eml(tmp_path / "in", raw), outbox=tmp_path / "out")
    assert [(o["status"], o["side"]) for o in out] == [("applied", "german")], out


# ---------------------------------------------------------------- too large to read

def test_the_too_large_answer_goes_only_to_the_registered_address(cli, net, tmp_path):
    """The answer to a mail too large to read, with the player's report and order key, goes
    to the address as registered, never to another mailbox whose name only folds to it
    (straße@ is not strasse@)."""
    smtp = SmtpServer(net.smtp.auth, utf8=True).start()
    try:
        mail_settings(f'[hosts."{HOST}"]\nports = {[net.imap.port, smtp.port]}\n')
        journal, keys = tnew_game(cli, tmp_path / "games", "sierra", net, "--mail-in",
                                  net.source, "--mail-out", f"smtp://referee@{HOST}:{smtp.port}")
        assert cli("players", journal, "--set", "german=straße@example.de").exit_code == 0
        r = cli("players", journal, "--keys", "--format", "json")
        german_key = next(p["key"] for p in json.loads(r.stdout)["players"]
                          if p["side"] == "german")
        assert tick(cli, journal).exit_code == 0
        net.imap.deliver(net.folder, (f"From: strasse@example.de\nTo: umpire@example.com\n"
                                      f"Subject: hello\nMessage-ID: <big1@example.de>\n\n"
                                      f"{PHOTO}\n").encode())
        tick(cli, journal)
        to_other = [raw for _, tos, raw in smtp.received if tos == ["strasse@example.de"]]
        assert to_other == [], ("the German's report went to strasse@example.de, his key "
                                f"in it: {german_key.encode() in to_other[0]}")
    finally:
        smtp.stop()


def test_forged_large_mails_get_no_more_answers_than_a_registered_address_may(
        cli, net, tmp_path, monkeypatch):
    """Anyone can forge a player's From on mails over 1 MB (no key is read in them): they are
    answered no more often than the registered address's daily quota allows, as forged small
    mails are."""
    monkeypatch.setattr(ledgermod, "REGISTERED_PER_DAY", 2)
    journal, _ = tnew_game(cli, tmp_path / "games", "tango", net)
    assert tick(cli, journal).exit_code == 0
    before = len(net.smtp.received)
    net.imap.deliver(net.folder, *[(f"From: {ADDRESSES['german']}\nTo: umpire@example.com\n"
                                    f"Subject: spam {i}\nMessage-ID: <f{i}@forged.example>\n\n"
                                    f"{PHOTO}\n").encode() for i in range(4)])
    tick(cli, journal)
    answers = [tos for _, tos, _ in net.smtp.received[before:]]
    assert len(answers) <= ledgermod.REGISTERED_PER_DAY, answers


def test_a_large_mail_no_game_claims_is_not_fetched_again_at_every_pass(
        cli, net, tmp_path, monkeypatch):
    """A stranger's mail over the limit is remembered with the other messages no game
    claimed: its header is fetched once, not at every pass."""
    journal, _ = tnew_game(cli, tmp_path / "games", "uniform", net)
    assert tick(cli, journal).exit_code == 0
    net.imap.deliver(net.folder, (f"From: someone@bureau.example\nSubject: holiday\n"
                                  f"Message-ID: <big@bureau.example>\n\n{PHOTO}\n").encode())
    fetched = _counting_header_fetches(monkeypatch)
    for _ in range(3):
        assert tick(cli, journal).exit_code == 0
    assert len(fetched) == 1, fetched


def test_large_mails_count_against_what_a_pass_may_read(cli, net, tmp_path, monkeypatch):
    """The headers of mails over the limit (up to 64 KiB each) count against what a pass may
    read, like every other message."""
    journal, _ = tnew_game(cli, tmp_path / "games", "victor", net)
    mail_settings(f'[hosts."{HOST}"]\nports = {[net.imap.port, net.smtp.port]}\n'
                  f'[reading]\nmessages = 1\n')
    assert tick(cli, journal).exit_code == 0
    net.imap.deliver(net.folder, *[(f"From: s{i}@bureau.example\nSubject: holiday\n"
                                    f"Message-ID: <big{i}@bureau.example>\n\n{PHOTO}\n"
                                    ).encode() for i in range(3)])
    fetched = _counting_header_fetches(monkeypatch)
    tick(cli, journal)
    assert len(fetched) <= 1, fetched


def test_the_too_large_answer_is_kept_under_the_games_mail_lock(cli, net, tmp_path,
                                                                monkeypatch):
    """The answer to a mail too large to read is written into the ledger while the game's
    mail lock is held, the one every writer of the ledger (inbox too) takes: a run beside
    it cannot save its own copy over the owed answer."""
    journal, _ = tnew_game(cli, tmp_path / "games", "whiskey", net)
    game = ticking.load_game(journal, None)
    lock = str(ledgermod.ledger_path(game.game_id, game.header_hash).with_suffix(".lock"))
    saved_with = []
    real = toolarge.save_ledger

    def save(ledger):
        saved_with.append((len(ledger["owed"]), ledgermod._HELD.get(lock, 0)))
        return real(ledger)

    monkeypatch.setattr(toolarge, "save_ledger", save)
    head = (f"From: {ADDRESSES['german']}\nSubject: photo\n"
            f"Message-ID: <w1@example.org>\n\n").encode()
    assert toolarge.too_large(Fetched("imap://x/INBOX;UID=1", head, b"1", oversize=2_000_000),
                               [game])
    assert saved_with == [(1, 1)], saved_with


# ---------------------------------------------------------------- refusals

def test_a_server_asking_for_a_login_sets_no_mail_aside_for_good(servers, tmp_path,
                                                                   monkeypatch):
    """530 'authentication required' at MAIL FROM says nothing of the mail but of the route
    (no user in it) or the server: every mail stays owed, none is set aside for good."""
    from aiosmtpd.controller import Controller

    auth = servers[0]

    class Keep:
        async def handle_DATA(self, server, session, envelope):  # noqa: N802 - its API
            return "250 OK"

    port = free_port()
    controller = Controller(Keep(), hostname=HOST, port=port, server_hostname="localhost",
                            ready_timeout=5, require_starttls=True, auth_required=True,
                            auth_require_tls=True, tls_context=auth.server_context(),
                            authenticator=lambda *a: None)
    controller.start()
    try:
        trust_smtp(monkeypatch, auth, port)
        spool = tmp_path / "spool"
        spooled(spool, [(f"{i}.eml", "umpire@example.com", to)
                        for i, to in enumerate(("kaiser@example.org", "joffre@example.net"))])
        with pytest.raises(TransportError):
            send_owed(spool, check_target(f"smtp://{HOST}:{port}"))
        assert refused_mails(spool) == []
        assert sorted(p.name for p in spool.glob("*.eml")) == ["0.eml", "1.eml"]
    finally:
        controller.stop()


def test_a_spooled_mail_whose_headers_run_over_a_messages_share_is_one_storage_error(
        tmp_path):
    """A mail in the spool (the referee's own, but the folder may be written by anyone) with
    twenty To headers of 2,000 characters: one error naming the file, before any server is
    asked (the target's port is closed), not an internal error."""
    spool = tmp_path / "spool"
    spool.mkdir()
    heads = "".join(f"To: {n}@a.example, " + "x@b.example, " * 150 + "y@c.example\n"
                    for n in range(20))
    (spool / "0.eml").write_bytes(f"From: umpire@example.com\n{heads}Subject: s\n\nhi\n"
                                  .encode())
    with pytest.raises(StorageError, match=r"0\.eml: a mail in the spool that cannot be read"):
        send_owed(spool, check_target(f"smtp://{HOST}:1"))
    assert (spool / "0.eml").exists()


# ---------------------------------------------------------------- a bounded share

def test_a_pass_takes_no_message_of_a_player_before_his_older_one_it_left(
        cli, net, tmp_path):
    """Oldest first: a message over what is left of the pass's megabytes is left for the next
    pass, and so is every newer one, so a player's later mail is never applied before his
    earlier one (a stranger's 900 KB mail ahead of them)."""
    journal, keys = tnew_game(cli, tmp_path / "games", "xray", net)
    mail_settings(f'[hosts."{HOST}"]\nports = {[net.imap.port, net.smtp.port]}\n'
                  f'[reading]\nmegabytes = 1\n')
    assert tick(cli, journal).exit_code == 0
    filler = (f"From: someone@bureau.example\nSubject: holiday\n"
              f"Message-ID: <fill@bureau.example>\n\n{'x' * 900_000}\n").encode()
    older = tmail("german", keys["german"], ["propose armistice"], "<older@example.org>")
    older = older + b"-- \n" + b"y" * 200_000 + b"\n"          # a long signature
    newer = tmail("german", keys["german"], ["pass"], "<newer@example.org>")
    net.imap.deliver(net.folder, filler, older, newer)
    tick(cli, journal)
    applied = {r["mail"]["data"]["message_id"] for r in records(journal) if "mail" in r}
    assert "<newer@example.org>" not in applied or "<older@example.org>" in applied, applied


# ---------------------------------------------------------------- a sender beyond ASCII

def test_a_moderator_address_with_a_domain_beyond_ascii_stops_no_pass(cli, net, tmp_path):
    """A moderator's address with a domain beyond ASCII (umpire@exämple.de): the session greets
    the server with its IDNA form, the pass ends normally and every game's mail is sent."""
    smtp = SmtpServer(net.smtp.auth, utf8=True).start()
    try:
        mail_settings(f'[hosts."{HOST}"]\nports = {[net.imap.port, smtp.port]}\n')
        folder = tmp_path / "games"
        route = ("--mail-in", net.source, "--mail-out", f"smtp://referee@{HOST}:{smtp.port}")
        first, _ = tnew_game(cli, folder, "alpha", net, *route)
        tnew_game(cli, folder, "bravo", net, *route)
        assert cli("players", first, "--set", "moderator=umpire@exämple.de").exit_code == 0
        r = tick(cli, folder)
        assert r.exit_code != 4, r.stderr
        assert sorted(to for _, tos, _ in smtp.received for to in tos) == sorted(
            [ADDRESSES["german"], ADDRESSES["entente"]] * 2)
    finally:
        smtp.stop()
