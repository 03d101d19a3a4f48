"""A skirmish's mail comes from the address players answer to: the route's --from, else
the moderator's (store/mailroute.referee_address), as a campaign's does. With the
moderator's address, the mailbox the referee reads is his: the referee's own mail to him
(his report, with his order key) comes back into it, From and To his address, and is read
as nothing and answered by nothing, known by the Message-ID the referee marked for him
(mail/msgids.py); his own mail (his mail program's Message-ID), from the same address,
is read as his, and so is one whose marked Message-ID nobody but this referee could make.
The servers are tests/mailservers.py's, on 127.0.0.1 only; the mailbox of the moderator's
address is the route's IMAP folder, and mail to any other address never reaches it."""

from __future__ import annotations

import email
import email.policy
import json
import re
import secrets

import pytest
from mailservers import route_through
from skirmish_cases import tick_done
from test_skirmish_mail import BRITISH, GERMAN, UMPIRE

# The orders that bring the patrol to a shot whose range the German disputes (as
# tests/skirmish/test_skirmish_mail.py plays them): the moderator's mail settles it.
TO_THE_DISPUTE = [
    ("british", "move B2 mode=manoeuvre command=yes"),
    ("british", "move B3 mode=stealthy command=yes"), ("british", "done"),
    ("german", "move G2 mode=stealthy command=yes"), ("german", "done"),
    ("british", "done"), ("german", "done"),           # the veterans' step (no artillery)
    ("british", "fire B1 at=G2 range=70 state=halted cover=none command=yes"),
]


def _patrol(cli, servers, monkeypatch, tmp_path, *players: str):
    """A patrol read from the IMAP folder and sent through SMTP, with no --from: the
    route and the journal."""
    net = route_through(servers, monkeypatch, tmp_path / "user")
    j = tmp_path / "games" / "patrol.jsonl"
    j.parent.mkdir()
    r = cli("new", j, "--game", "skirmish", "--scenario", "patrol", "--game-id", "patrol",
            "--player", f"british={BRITISH}", "--player", f"german={GERMAN}", *players,
            "--mail-in", net.source, "--mail-out", net.target)
    assert r.exit_code == 0, r.output
    return net, j


def _post(net, raw: bytes) -> bool:
    """raw as the mail system carries it: into the route's folder when it is addressed to
    the moderator's address (the mailbox the route reads), nowhere else here."""
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    if str(msg["To"]).strip().casefold() != UMPIRE:
        return False
    net.imap.deliver(net.folder, raw)
    return True


def _sent(net, since: int = 0) -> list:
    return [email.message_from_bytes(raw, policy=email.policy.default)
            for _, _, raw in net.smtp.received[since:]]


def _back(net, since: int) -> int:
    """Every mail sent since `since` to the moderator, into the mailbox the referee reads
    (as sent, and once more as a relay that drops the headers saying it is automatic
    passes it on): how many."""
    n = 0
    for _, tos, raw in net.smtp.received[since:]:
        if tos != [UMPIRE]:
            continue
        bare = b"".join(x for x in raw.splitlines(keepends=True)
                        if not x.lower().startswith((b"auto-submitted:",
                                                     b"x-auto-response-suppress:")))
        assert bare != raw
        n += _post(net, raw) + _post(net, bare)
    return n


def _mail(n: int, sender: str, key: str, line: str, ident: str | None = None) -> bytes:
    """A person's mail to the referee's address (the moderator's), as his mail program
    writes it."""
    return (f"From: {sender}\nTo: {UMPIRE}\nSubject: Re: orders\n"
            f"Message-ID: {ident or f'<p{n}@mail.example.net>'}\n"
            f"Date: Mon, 23 Nov 2026 18:{n:02d}:00 +0000\n\n{line}\n\n"
            f"Order key: {key}\n").encode()


def _keys(cli, j) -> dict[str, str]:
    return json.loads(cli("skirmish", "keys", j, "--format", "json").stdout)["keys"]


def _to_the_dispute(cli, j) -> int:
    """The orders up to the German's dispute, entered by hand: the record disputed."""
    for side, order in TO_THE_DISPUTE:
        r = cli("skirmish", "order", j, order, "--as", side)
        assert r.exit_code == 0, (order, r.output)
    doc = json.loads(cli("skirmish", "report", j, "--format", "json").stdout)
    shot = next(t["record"] for t in doc["tests"] if t["kind"] == "fire")
    r = cli("skirmish", "order", j, f"dispute record={shot} fact=range value=85", "--as",
            "german")
    assert r.exit_code == 0, r.output
    return shot


def _settled(cli, j) -> list:
    doc = json.loads(cli("skirmish", "report", j, "--format", "json").stdout)
    return [d["ruling"] for d in doc["disputes"] if d.get("ruling")]


def _tick(cli, j) -> list[dict]:
    r = cli("tick", j, "--no-map", "--format", "json")
    assert tick_done(r), r.output
    return [m for g in json.loads(r.stdout)["games"] for m in g["messages"]]


def test_the_mail_comes_from_the_moderator_s_address_and_a_reply_reaches_the_game(
        cli, servers, monkeypatch, tmp_path):
    net, j = _patrol(cli, servers, monkeypatch, tmp_path, "--player", f"moderator={UMPIRE}")
    assert "mail from: the moderator's address" in cli("mail", j).stdout
    assert _tick(cli, j) == []
    reports = _sent(net)
    assert {str(m["To"]) for m in reports} == {BRITISH, GERMAN, UMPIRE}
    assert {(str(m["From"]), str(m["Reply-To"])) for m in reports} == {(UMPIRE, UMPIRE)}
    report = next(m for m in reports if str(m["To"]) == BRITISH)
    key = re.search(r"Order key: (\S+)", report.get_body(("plain",)).get_content()).group(1)
    reply = _mail(1, BRITISH, key, "move B1 mode=stealthy command=yes").replace(
        f"To: {UMPIRE}".encode(), f"To: {report['Reply-To']}".encode())
    assert _post(net, reply), "the reply reaches no mailbox the referee reads"
    (got,) = _tick(cli, j)
    assert (got["side"], got["status"]) == ("british", "applied"), got


def test_without_a_moderator_mail_says_where_its_mail_comes_from(cli, servers, monkeypatch,
                                                                  tmp_path):
    net, j = _patrol(cli, servers, monkeypatch, tmp_path)
    said = cli("mail", j).stdout
    assert "mail from: referee@localhost, which no mailbox reads" in said, said
    assert "the moderator's address" not in said, said
    assert _tick(cli, j) == []
    assert {str(m["From"]) for m in _sent(net)} == {"referee@localhost"}


def test_the_referee_s_own_mail_read_back_is_nothing_and_the_moderator_s_is_his(
        cli, servers, monkeypatch, tmp_path):
    net, j = _patrol(cli, servers, monkeypatch, tmp_path, "--player", f"moderator={UMPIRE}")
    shot = _to_the_dispute(cli, j)
    keys = _keys(cli, j)
    assert _tick(cli, j) == []                      # the reports, the moderator's with his key
    assert _back(net, 0) == 2
    net.imap.deliver(net.folder, _mail(50, UMPIRE, keys["moderator"],
                                       f"settle record={shot} fact=range value=85"))
    sent = len(net.smtp.received)
    got = _tick(cli, j)
    own = [m for m in got if m["status"] == "skipped"]
    assert len(own) == 2 and all("a mail the referee wrote" in m["reason"] for m in own), got
    (settle,) = [m for m in got if m["status"] != "skipped"]
    assert (settle["side"], settle["status"]) == ("moderator", "applied"), got
    assert [r["value"] for r in _settled(cli, j)] == [85]
    answers = [m for m in _sent(net, sent) if m["In-Reply-To"]]
    assert [m["In-Reply-To"] for m in answers] == ["<p50@mail.example.net>"], answers
    before = j.read_bytes()
    for _ in range(3):                              # all it sends him comes back: no loop
        sent_before = len(net.smtp.received)
        came_back = _back(net, sent)
        sent = sent_before
        got = _tick(cli, j)
        assert {m["status"] for m in got} <= {"skipped"}, got
        assert len(got) == came_back
        assert net.smtp.received[sent:] == [], _sent(net, sent)
    assert j.read_bytes() == before


def _other_home_s(local: str, address: str) -> str:
    """A Message-ID shaped as the referee's and marked for address with another key than
    this home's: what anyone can make."""
    from referee.mail import msgids

    return f"<{local}.{msgids._mark(secrets.token_bytes(32), local, address)}@referee.invalid>"


@pytest.mark.parametrize("forged", ["another home's key", "a mark for another address"])
def test_a_forged_mark_is_read_as_its_sender_s_mail(cli, servers, monkeypatch, tmp_path,
                                                   forged):
    from referee.mail import msgids

    net, j = _patrol(cli, servers, monkeypatch, tmp_path, "--player", f"moderator={UMPIRE}")
    shot = _to_the_dispute(cli, j)
    keys = _keys(cli, j)
    assert _tick(cli, j) == []
    report = next(m for m in _sent(net) if str(m["To"]) == UMPIRE)
    local = str(report["Message-ID"]).strip("<>").rpartition("@")[0].rpartition(".")[0]
    ident = _other_home_s(local, UMPIRE) if forged == "another home's key" else \
        msgids.message_id("stranger@example.net", local)
    assert msgids.marked_ids(ident) == [ident] and not msgids.sent_to(ident, UMPIRE)
    net.imap.deliver(net.folder, _mail(50, UMPIRE, keys["moderator"],
                                       f"settle record={shot} fact=range value=85", ident))
    (got,) = _tick(cli, j)
    assert (got["side"], got["status"]) == ("moderator", "applied"), got
    assert [r["value"] for r in _settled(cli, j)] == [85]
