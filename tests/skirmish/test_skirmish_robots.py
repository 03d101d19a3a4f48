"""A skirmish's direct mail (mail/direct.py) sets aside what no person wrote, as a
campaign's does (mail/robots.py): an out-of-office reply from a player's own address that
quotes the referee's report, order key and orders open, below '-----Original Message-----',
is never read as his orders and never answered, once, whichever pass reads it. The servers
are tests/mailservers.py's, on 127.0.0.1 only."""

from __future__ import annotations

import email
import email.policy

import pytest
from flowtext import written
from mailkinds import first_line, headline
from mailservers import ticks_at_once
from test_skirmish_mail import BRITISH
from test_skirmish_tick import REFEREE, _patrol_by_imap


def _report(net) -> email.message.EmailMessage:
    raw = next(raw for _, tos, raw in net.smtp.received if tos == [BRITISH])
    return email.message_from_bytes(raw, policy=email.policy.default)


def _out_of_office(report, header: str) -> bytes:
    text = written(report.get_body(("plain",)).get_content())
    return (f"From: {BRITISH}\nTo: {REFEREE}\nSubject: Automatic reply: {report['Subject']}\n"
            f"Message-ID: <oof1@example.org>\nDate: Mon, 23 Nov 2026 18:30:00 +0000\n"
            f"{header}\nIn-Reply-To: {report['Message-ID']}\n\n"
            f"I am out of the office until Monday.\n\n-----Original Message-----\n"
            f"From: {REFEREE}\nSent: Monday\nSubject: {report['Subject']}\n\n{text}").encode()


@pytest.mark.parametrize("header", ["Auto-Submitted: auto-replied", "X-Autorespond: yes",
                                    "Precedence: junk"])
def test_an_out_of_office_reply_quoting_the_report_is_set_aside(cli, servers, monkeypatch,
                                                                tmp_path, header):
    net, j = _patrol_by_imap(cli, servers, monkeypatch, tmp_path)
    assert cli("tick", j, "--no-map").exit_code == 0           # the opening reports
    before, sent = j.read_bytes(), len(net.smtp.received)
    net.imap.deliver(net.folder, _out_of_office(_report(net), header))
    r = cli("tick", j, "--no-map")
    assert r.exit_code == 0, r.output
    assert j.read_bytes() == before, r.output
    assert net.smtp.received[sent:] == [], r.output           # nobody answered
    told = [x for x in r.stdout.splitlines() if "automatic" in x and "set aside as" in x]
    assert len(told) == 1 and f"({BRITISH})" in told[0], r.output
    again = cli("tick", j, "--no-map")
    assert again.exit_code == 0 and "set aside" not in again.stdout, again.output
    assert j.read_bytes() == before and net.smtp.received[sent:] == []


def test_two_passes_at_once_set_it_aside_once(cli, servers, monkeypatch, tmp_path):
    net, j = _patrol_by_imap(cli, servers, monkeypatch, tmp_path)
    assert cli("tick", j, "--no-map").exit_code == 0
    before, sent = j.read_bytes(), len(net.smtp.received)
    net.imap.deliver(net.folder, _out_of_office(_report(net), "Auto-Submitted: auto-replied"))
    reports = ticks_at_once(j)
    assert [x.problems for x in reports] == [[], []]
    told = [m for x in reports for g in x.games for m in g.messages
            if m["status"] == "automatic"]
    assert len(told) == 1 and told[0]["from"] == BRITISH, told
    assert j.read_bytes() == before and net.smtp.received[sent:] == []


def test_the_skirmish_s_mails_say_they_are_automatic(cli, servers, monkeypatch, tmp_path):
    """The direct mail's report and its answer to a player's mail carry Auto-Submitted
    (auto-generated, auto-replied) and X-Auto-Response-Suppress, as a campaign's do."""
    import re

    from test_skirmish_tick import _write

    net, j = _patrol_by_imap(cli, servers, monkeypatch, tmp_path)
    assert cli("tick", j, "--no-map").exit_code == 0
    report = _report(net)
    assert (report["Auto-Submitted"], report["X-Auto-Response-Suppress"]) == (
        "auto-generated", "All")
    key = re.search(r"Order key: (\S+)", report.get_body(("plain",)).get_content()).group(1)
    sent = len(net.smtp.received)
    _write(net, 1, BRITISH, key, "move B1 mode=stealthy command=yes", "done")
    assert cli("tick", j, "--no-map").exit_code == 0
    new = [email.message_from_bytes(raw, policy=email.policy.default)
           for _, tos, raw in net.smtp.received[sent:] if tos == [BRITISH]]
    answer = next(m for m in new if m["In-Reply-To"] == "<t1@example.org>")
    assert (answer["Auto-Submitted"], answer["X-Auto-Response-Suppress"]) == (
        "auto-replied", "All")


def test_the_skirmish_s_mails_carry_message_ids_marked_for_their_recipients(
        cli, servers, monkeypatch, tmp_path):
    """mail/direct.py writes its own mails: each Message-ID is marked for its recipient
    (mail/msgids.py), as a campaign's are, and for nobody else: a bounce of it can be told
    from a forged one."""
    from referee.mail.msgids import sent_to

    net, j = _patrol_by_imap(cli, servers, monkeypatch, tmp_path)
    assert cli("tick", j, "--no-map").exit_code == 0
    sent = [(tos[0], email.message_from_bytes(raw, policy=email.policy.default))
            for _, tos, raw in net.smtp.received]
    assert {to for to, _ in sent} >= {BRITISH} and len({to for to, _ in sent}) > 1, sent
    for to, m in sent:
        assert sent_to(str(m["Message-ID"]), to), (to, m["Message-ID"])
        assert not any(sent_to(str(m["Message-ID"]), other) for other, _ in sent
                       if other != to), (to, m["Message-ID"])


# ---------------------------------------------------------------- a bounce of a player's mail

def _bounce(report: bytes, ident: str, returned_id: str | None = None) -> bytes:
    """A delivery report (as Postfix writes one) that the referee's mail to the British
    player failed for good, returning it whole (with another Message-ID: returned_id)."""
    from test_mail_robots import _dsn

    if returned_id is not None:
        old = str(email.message_from_bytes(report, policy=email.policy.default)["Message-ID"])
        report = report.replace(old.encode(), returned_id.encode())
    return _dsn(report, {}, ident, to=BRITISH)


def _to_umpire(net) -> list:
    """What the moderator was mailed of a bounce (he is sent the report too)."""
    from test_skirmish_mail import UMPIRE

    mails = [email.message_from_bytes(raw, policy=email.policy.default)
             for _, tos, raw in net.smtp.received if tos == [UMPIRE]]
    return [m for m in mails if "A bounce says" in headline(m)]


def test_a_bounce_of_a_player_s_mail_tells_the_skirmish_s_moderator_once_a_day(
        cli, servers, monkeypatch, tmp_path, clock):
    """A skirmish's direct mail only set a bounce aside: its moderator never learnt that a
    player's address refuses mail while the game waited on him. He is told as a campaign's
    moderator is (once a day for the address, only by a bounce returning a mail the referee
    marked for it), at his own address in the skirmish's roster, from the skirmish's
    route's address; a skirmish's players are fixed when it is made, so the mail says no
    command registers another address, and gives the commands that pass the game on by
    hand."""
    from datetime import timedelta

    from commandclock import START
    from test_skirmish_mail import UMPIRE

    net, j = _patrol_by_imap(cli, servers, monkeypatch, tmp_path)
    assert cli("tick", j, "--no-map").exit_code == 0           # the opening reports
    report = next(raw for _, tos, raw in net.smtp.received if tos == [BRITISH])
    before, sent = j.read_bytes(), len(net.smtp.received)
    # Made up (the thread is no secret): logged only, nobody mailed.
    net.imap.deliver(net.folder, _bounce(report, "<f1@mx.example.org>",
                                         "<x.aaaabbbbccccddddeeeeffff22@referee.invalid>"))
    r = cli("tick", j, "--no-map")
    assert r.exit_code == 0, r.output
    assert "it returns no mail this referee sent to that address: logged only" in r.stdout
    assert _to_umpire(net) == [] and net.smtp.received[sent:] == [], r.output
    net.imap.deliver(net.folder, _bounce(report, "<b1@mx.example.org>"),
                     _bounce(report, "<b2@mx.example.org>"))
    r = cli("tick", j, "--no-map")
    assert r.exit_code == 0, r.output
    assert r.stdout.count("(British; the moderator is told)") == 1, r.output
    assert r.stdout.count("(British; the moderator was told today already)") == 1, r.output
    (told,) = _to_umpire(net)
    assert str(told["Subject"]).startswith("[referee patrol] moderator, turn "), told["Subject"]
    assert first_line(told).startswith("A bounce says the referee's mail to the British")
    assert told["From"] == REFEREE and told["Auto-Submitted"] == "auto-generated"
    text = written(told.get_body(("plain",)).get_content())
    commands = [f"  referee skirmish report {j} --as british",
                f"  referee skirmish order {j} 'ORDER' --as british"]
    assert all(c in text.splitlines() for c in commands), text     # whole, to copy
    assert max(len(x) for x in text.splitlines() if x not in commands) <= 72, text
    flat = " ".join(text.split())
    assert f"A bounce says the referee's mail to the British player at {BRITISH} was " \
        "refused" in flat
    assert "A skirmish keeps the addresses it was made with: no command registers another" \
        in flat and "referee players" not in flat, text
    assert "deadline" not in flat, text                          # a skirmish has none
    # What he should do, in the campaign's plain words; why it is believed in one clause.
    assert "What to do: ask him yourself, by phone or another way you know reaches him, " \
        "not at an address a mail gives you, how he can be reached" in flat, text
    assert "so it is taken as real" in flat, text
    assert "stranger" not in flat and "made it up" not in flat, text
    assert j.read_bytes() == before
    assert [tos for _, tos, _ in net.smtp.received[sent:]] == [[UMPIRE]]   # nobody else
    clock(START + timedelta(days=1))
    net.imap.deliver(net.folder, _bounce(report, "<b3@mx.example.org>"))
    assert cli("tick", j, "--no-map").exit_code == 0 and len(_to_umpire(net)) == 2
    assert j.read_bytes() == before
