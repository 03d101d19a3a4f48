"""A game that runs itself through real mail servers: `tick` reads an IMAP folder and sends
through SMTP, both on 127.0.0.1 (tests/mailservers.py), with STARTTLS and a login.

The players' mail is put into the IMAP folder as a mail server delivers it; `tick` takes the
messages its games claim (subject tag or order key), applies them as `inbox` does, and sends
every reply, which the SMTP server keeps. The password given in the environment is looked
for in every output and every file of the game's folder.
"""

from __future__ import annotations

import email
import email.policy
import email.utils
import json
import os
import signal
import socket
import stat
from contextlib import contextmanager
from pathlib import Path

import pytest
from mailboxes import write_maildir
from mailservers import (
    HOST,
    IMAP_PASSWORD_ENV,
    PASSWORD,
    SMTP_PASSWORD_ENV,
    USER,
    PlainListener,
    Route,
    SmtpServer,
    forge_route,
    free_port,
    mail_settings,
    route_through,
    spooled,
    ticks_at_once,
    trust_smtp,
)
from ticklines import failure, problem_text, problems, unstamped

from referee.base.errors import StorageError, UsageError
from referee.mail import tick as ticking
from referee.mail.credentials import password, password_file
from referee.mail.delivery import TransportError, refused_mails, spool_files
from referee.mail.sending import send_owed
from referee.store import signing
from referee.store.mailroute import check_target

ADDRESSES = {"german": "kaiser@example.org", "entente": "joffre@example.net",
             "moderator": "umpire@example.com"}


Net = Route


@pytest.fixture
def net(servers, monkeypatch, tmp_path) -> Net:
    return route_through(servers, monkeypatch, tmp_path / "user")


def new_game(cli, folder: Path, game_id: str, net: Net, *route: str) -> tuple[Path, dict]:
    """A 1914 game with both players and the moderator registered, its route set; its keys."""
    folder.mkdir(exist_ok=True)
    journal = folder / f"{game_id}.jsonl"
    r = cli("new", journal, "--scenario", "1914", "--game-id", game_id,
            *[a for side, address in ADDRESSES.items()
              for a in ("--player", f"{side}={address}")],
            *(route or ("--mail-in", net.source, "--mail-out", net.target)))
    assert r.exit_code == 0, r.output
    r = cli("players", journal, "--keys", "--format", "json")
    keys = {p["side"]: p["key"] for p in json.loads(r.stdout)["players"] if p.get("key")}
    return journal, keys


def mail(side: str, key: str, lines: list[str], ident: str, subject: str = "orders") -> bytes:
    body = "\n".join(lines) + f"\n\nOrder key: {key}\n"
    return (f"From: {ADDRESSES[side]}\nTo: {ADDRESSES['moderator']}\nSubject: {subject}\n"
            f"Date: {email.utils.formatdate(1_000_000_000)}\nMessage-ID: {ident}\n\n{body}"
            ).encode()


def records(journal: Path) -> list[dict]:
    return [json.loads(line) for line in journal.read_text().splitlines()]


def tick(cli, path: Path, *more: str):
    return cli("tick", path, "--no-map", *more)


def received_by(net: Net) -> list[str]:
    return [to for _, tos, _ in net.smtp.received for to in tos]


def no_password_in(*texts: str, folder: Path | None = None) -> None:
    for text in texts:
        assert PASSWORD not in text
    for path in (folder.rglob("*") if folder else []):
        if path.is_file():
            assert PASSWORD.encode() not in path.read_bytes(), path


# ---------------------------------------------------------------- a game through the servers

def test_orders_mailed_in_are_applied_and_answered_once(cli, net, tmp_path):
    journal, keys = new_game(cli, tmp_path / "games", "alpha", net)
    before = len(records(journal))
    net.imap.deliver(net.folder, mail("german", keys["german"], ["pass"],
                                      "<o1@example.org>"))
    r = tick(cli, journal)
    assert r.exit_code == 0, r.output
    recs = records(journal)
    assert len(recs) == before + 1 and recs[-1]["actor"] == "german"
    assert recs[-1]["order"] == "pass"
    # Each player got his report once, through the server, after STARTTLS and a login.
    assert sorted(received_by(net)) == sorted([ADDRESSES["german"], ADDRESSES["entente"]])
    assert net.smtp.logins and all(x == USER for x in net.smtp.logins)
    german = next(m for _, tos, m in net.smtp.received if tos == [ADDRESSES["german"]])
    parsed = email.message_from_bytes(german, policy=email.policy.default)
    assert parsed["In-Reply-To"] == "<o1@example.org>"
    assert str(parsed["Subject"]).startswith("[referee alpha] German player, ")
    assert net.imap.seen(net.folder) == {"<o1@example.org>": True}
    # A second pass: nothing new is applied or sent.
    r = tick(cli, journal, "--format", "json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["ok"] and doc["games"][0]["messages"] == [] and doc["unclaimed"] == []
    assert len(records(journal)) == before + 1 and len(net.smtp.received) == 2
    no_password_in(r.output, folder=journal.parent)


def test_a_folder_named_beyond_ascii(cli, net, tmp_path):
    folder = net.imap.new_folder(f"Entw&APw-rfe-{tmp_path.name[-6:]}")   # Entwürfe-...
    source = f"imap://{USER}@{HOST}:{net.imap.port}/Entwürfe-{tmp_path.name[-6:]}"
    journal, keys = new_game(cli, tmp_path / "games", "umlaut", net, "--mail-in", source,
                             "--mail-out", net.target)
    net.imap.deliver(folder, mail("german", keys["german"], ["pass"], "<u1@example.org>"))
    r = tick(cli, journal)
    assert r.exit_code == 0, r.output
    assert records(journal)[-1]["order"] == "pass"
    assert net.imap.seen(folder) == {"<u1@example.org>": True}


def test_a_message_no_game_claims_stays_unread(cli, net, tmp_path):
    journal, keys = new_game(cli, tmp_path / "games", "beta", net)
    stranger = (b"From: someone@bureau.example\nTo: umpire@example.com\nSubject: hello\n"
                b"Message-ID: <s1@bureau.example>\n\nAre you coming on Sunday?\n")
    other = mail("german", "AAAA-BBBB-CCCC", ["pass"], "<x1@example.org>",
                 subject="Re: [referee gamma #3] german report")
    net.imap.deliver(net.folder, stranger, other)
    r = tick(cli, journal, "--format", "json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert len(doc["unclaimed"]) == 2
    assert net.imap.seen(net.folder) == {"<s1@bureau.example>": False,
                                         "<x1@example.org>": False}
    # No reply to a stranger: the players' opening reports only.
    assert sorted(received_by(net)) == sorted([ADDRESSES["german"], ADDRESSES["entente"]])


def test_two_games_in_one_mailbox_each_get_their_own(cli, net, tmp_path):
    folder = tmp_path / "games"
    one, keys1 = new_game(cli, folder, "one", net)
    two, keys2 = new_game(cli, folder, "two", net)
    net.imap.deliver(net.folder,
                     mail("german", keys1["german"], ["pass"], "<g1@example.org>"),
                     mail("german", keys2["german"], ["pass"], "<g2@example.org>"))
    r = tick(cli, folder)
    assert r.exit_code == 0, r.output
    assert records(one)[-1]["order"] == "pass"
    assert records(two)[-1]["order"] == "pass"
    subjects = [str(email.message_from_bytes(m, policy=email.policy.default)["Subject"])
                for _, _, m in net.smtp.received]
    assert sum(s.startswith("[referee one] ") for s in subjects) == 2
    assert sum(s.startswith("[referee two] ") for s in subjects) == 2
    assert set(net.imap.seen(net.folder).values()) == {True}


def test_a_refused_connection_keeps_the_reply_owed_for_the_next_tick(cli, net, tmp_path):
    port = free_port()
    closed = f"smtp://{USER}@{HOST}:{port}"
    mail_settings(f'[hosts."{HOST}"]\nports = {[net.imap.port, net.smtp.port, port]}\n')
    journal, keys = new_game(cli, tmp_path / "games", "delta", net, "--mail-in", net.source,
                             "--mail-out", closed)
    net.imap.deliver(net.folder, mail("german", keys["german"], ["pass"],
                                      "<d1@example.org>"))
    r = tick(cli, journal)
    assert r.exit_code == 3
    assert r.stderr.count("\n") == 1 and "connection refused" in problem_text(r), r.output
    assert records(journal)[-1]["order"] == "pass"      # applied, reply owed
    assert net.smtp.received == []
    r = cli("mail", journal, "--out", net.target)
    assert r.exit_code == 0, r.output
    r = tick(cli, journal)
    assert r.exit_code == 0, r.output
    assert sorted(received_by(net)) == sorted([ADDRESSES["german"], ADDRESSES["entente"]])
    r = tick(cli, journal)
    assert r.exit_code == 0 and len(net.smtp.received) == 2          # each sent once


def test_a_wrong_password_is_one_line_and_never_printed(cli, net, tmp_path, monkeypatch):
    journal, keys = new_game(cli, tmp_path / "games", "echo", net)
    monkeypatch.setenv(IMAP_PASSWORD_ENV, PASSWORD + "-wrong")
    net.imap.deliver(net.folder, mail("german", keys["german"], ["pass"], "<e1@example.org>"))
    before = journal.read_bytes()
    for fmt in ("text", "json"):
        r = tick(cli, journal, "--format", fmt)
        assert r.exit_code == 3 and r.stderr.count("\n") == 1, r.output
        told = failure(r)
        assert "imap" in told and "no mail was read" in told, r.output
        no_password_in(r.stdout, r.stderr)
        assert PASSWORD + "-wrong" not in r.output
    assert journal.read_bytes() == before
    assert net.imap.seen(net.folder) == {"<e1@example.org>": False}
    for fmt in ("text", "json"):
        r = cli("mail", journal, "--format", fmt)
        no_password_in(r.stdout, r.stderr)
    no_password_in(folder=journal.parent)


def test_a_maildir_and_an_outbox_folder_need_no_server(cli, tmp_path):
    folder = tmp_path / "games"
    box, out = write_maildir(tmp_path / "box", []), tmp_path / "out"
    journal, keys = new_game(cli, folder, "hotel", None, "--mail-in", str(box), "--mail-out",
                             f"outbox:{out}")
    stranger = (b"From: someone@bureau.example\nSubject: hello\n"
                b"Message-ID: <s2@bureau.example>\n\nhello\n")
    write_maildir(box, [stranger, mail("german", keys["german"], ["pass"], "<h1@example.org>")])
    files_before = sorted(p.name for p in (box / "new").iterdir())
    r = tick(cli, journal)
    assert r.exit_code == 0, r.output
    assert records(journal)[-1]["order"] == "pass"
    assert "1 new message no game claims" in r.stdout and "s2@" not in r.stdout
    written = sorted(out.glob("*.eml"))
    tos = sorted(str(email.message_from_bytes(p.read_bytes())["To"]) for p in written)
    assert tos == sorted([ADDRESSES["entente"], ADDRESSES["german"]])   # none to the stranger
    assert not (out / "sent").exists()                          # an outbox is never sent
    assert sorted(p.name for p in (box / "new").iterdir()) == files_before    # untouched
    r = tick(cli, journal)
    assert r.exit_code == 0 and sorted(out.glob("*.eml")) == written
    assert "no game claims" not in r.stdout          # told once, not at every pass
    other = (b"From: else@bureau.example\nSubject: hi\nMessage-ID: <s3@bureau.example>\n\nhi\n")
    (box / "new" / "17000099.M99P1.mx.example.com").write_bytes(other)
    r = tick(cli, journal)
    assert "1 new message no game claims (no game's tag or order key, or several " \
           "games' tags or keys): left for the " \
        "moderator (1 more told of before)" in r.stdout, r.stdout
    assert json.loads(tick(cli, journal, "--format", "json").stdout)["unclaimed"] and \
        "no game claims" not in tick(cli, journal).stdout


def test_one_game_without_a_target_fails_the_pass_but_not_the_others(cli, tmp_path):
    folder = tmp_path / "games"
    box = write_maildir(tmp_path / "box", [])
    good, _ = new_game(cli, folder, "india", None, "--mail-in", str(box), "--mail-out",
                       f"outbox:{tmp_path / 'out'}")
    lame, _ = new_game(cli, folder, "juliet", None, "--mail-in", str(box))
    r = tick(cli, folder, "--format", "json")
    assert r.exit_code == 3 and r.stderr.count("\n") == 1
    assert "juliet" in r.stderr and "referee mail" in r.stderr
    doc = json.loads(r.stdout)
    assert not doc["ok"] and [g["game_id"] for g in doc["games"]] == ["india", "juliet"]
    assert doc["games"][0]["problems"] == [] and doc["games"][1]["problems"]


def test_smtps_and_a_certificate_nobody_vouches_for(cli, servers, tmp_path, monkeypatch):
    auth = servers[0]
    smtps = SmtpServer(auth, implicit=True).start()
    try:
        spool = tmp_path / "spool"
        spooled(spool, [("a.eml", "umpire@example.com", "kaiser@example.org")])
        target = check_target(f"smtps://{USER}@{HOST}:{smtps.port}")
        trust_smtp(monkeypatch, auth, smtps.port)
        monkeypatch.delenv("SSL_CERT_FILE", raising=False)       # the system's authorities
        with pytest.raises(TransportError, match="certificate is not trusted") as caught:
            send_owed(spool, target)
        assert "\n" not in str(caught.value) and (spool / "a.eml").exists()
        # What to do when the authority is the moderator's own: the variable that names it.
        assert "name that authority's bundle in SSL_CERT_FILE" in str(caught.value)
        monkeypatch.setenv("SSL_CERT_FILE", str(auth.bundle))
        assert send_owed(spool, target) == ["sent     a.eml to kaiser@example.org"]
        assert [tos for _, tos, _ in smtps.received] == [["kaiser@example.org"]]
        assert smtps.logins == [USER]
    finally:
        smtps.stop()


def test_no_password_says_which_line_goes_where(cli, servers, tmp_path, monkeypatch):
    """A route with no password anywhere: the error names the variable, the password file's
    own path and the netrc line to put there, so that the moderator need not look it up."""
    auth, _, smtp = servers
    spool = tmp_path / "spool"
    spooled(spool, [("a.eml", "umpire@example.com", "kaiser@example.org")])
    target = check_target(f"smtp://{USER}@{HOST}:{smtp.port}")
    trust_smtp(monkeypatch, auth, smtp.port)
    monkeypatch.delenv(SMTP_PASSWORD_ENV)
    monkeypatch.setenv("HOME", str(tmp_path))
    with pytest.raises(UsageError) as caught:
        send_owed(spool, target)
    said = str(caught.value)
    assert SMTP_PASSWORD_ENV in said and "\n" not in said
    assert f"'machine {HOST} login {USER} password ...' to {password_file()}" in said
    assert (spool / "a.eml").exists()


@pytest.mark.parametrize("sender, to, stage, code", [
    ("umpire@example.com", "nobody@example.org", "for nobody@example.org", 550),
    ("umpire@example.com", "toolarge@example.org", "at DATA for toolarge@example.org", 554),
    ("blocked@example.com", "kaiser@example.org", "at MAIL FROM for kaiser@example.org", 553),
])
def test_a_mail_refused_for_good_is_set_aside_and_holds_back_no_other(net, tmp_path, sender,
                                                                      to, stage, code):
    spool = tmp_path / "spool"
    spooled(spool, [("c.eml", "umpire@example.com", "joffre@example.net"),
                     ("a.eml", sender, to),
                     ("b.eml", "umpire@example.com", "kaiser@example.org")])
    with pytest.raises(TransportError, match=rf"a.eml refused for good {stage} \({code}\)"
                                             rf".*\(2 others sent\)"):
        send_owed(spool, net.target)
    assert (spool / "refused" / "a.eml").exists() and refused_mails(spool) == [
        spool / "refused" / "a.eml"]
    # The others went in the same pass, in the order they were written (not by name).
    assert [m.split(b"Subject: ")[1][:2] for _, _, m in net.smtp.received] == [b"s0", b"s2"]
    assert send_owed(spool, net.target) == []


@pytest.mark.parametrize("utf8", [False, True], ids=["ascii-only", "smtputf8"])
def test_an_address_beyond_ascii_goes_where_the_server_takes_it_and_stops_nobody(
        servers, tmp_path, monkeypatch, utf8):
    auth = servers[0]
    smtp = SmtpServer(auth, utf8=utf8).start()
    try:
        trust_smtp(monkeypatch, auth, smtp.port)
        spool = tmp_path / "spool"
        spooled(spool, [(f"{i}.eml", "umpire@example.com", to)
                        for i, to in enumerate(("jörg@example.de", "kaiser@example.org"))])
        target = check_target(f"smtp://{USER}@{HOST}:{smtp.port}")
        if utf8:
            assert send_owed(spool, target) == ["sent     0.eml to jörg@example.de",
                                                "sent     1.eml to kaiser@example.org"]
        else:
            with pytest.raises(TransportError, match="0.eml refused for good for "
                                                     "jörg@example.de: the server takes no "
                                                     "address beyond ASCII"):
                send_owed(spool, target)
            assert refused_mails(spool) == [spool / "refused" / "0.eml"]
        assert [tos for _, tos, _ in smtp.received] == (
            [["jörg@example.de"], ["kaiser@example.org"]] if utf8 else [["kaiser@example.org"]])
    finally:
        smtp.stop()


@pytest.mark.parametrize("utf8", [False, True], ids=["ascii-only", "smtputf8"])
def test_an_address_beyond_ascii_is_refused_at_new_players_and_mail_when_the_server_takes_none(
        cli, servers, tmp_path, monkeypatch, utf8):
    """The referee asks the game's SMTP server (EHLO, over TLS, no login) whether it offers
    SMTPUTF8 (RFC 6531) when an address beyond ASCII is registered or the route changes: a
    server that does not gets the address refused at once, in one line, nothing written."""
    auth = servers[0]
    smtp = SmtpServer(auth, utf8=utf8).start()
    try:
        trust_smtp(monkeypatch, auth, smtp.port)
        target = f"smtp://{USER}@{HOST}:{smtp.port}"
        journal = tmp_path / "g.jsonl"
        r = cli("new", journal, "--scenario", "1914", "--player", "german=jörg@example.de",
                "--mail-out", target)
        if not utf8:
            assert r.exit_code == 2 and not journal.exists(), r.output
            assert r.stderr.strip() == (
                f"referee: --player 'jörg@example.de': the mail server {HOST}:{smtp.port} "
                f"takes no address beyond ASCII (it does not offer SMTPUTF8, RFC 6531), so "
                f"no mail could reach it; give an address in ASCII, or send through a server "
                f"or route that takes it")
            r = cli("new", journal, "--scenario", "1914", "--player",
                    "german=kaiser@example.org", "--mail-out", target)
        assert r.exit_code == 0, r.output
        before = journal.read_bytes()
        r = cli("players", journal, "--set", "entente=françois@example.fr")
        assert r.exit_code == (0 if utf8 else 2), r.output
        if not utf8:
            assert "takes no address beyond ASCII" in r.stderr
            assert journal.read_bytes() == before
        # A route changed to such a server, with such an address registered: refused too.
        other = tmp_path / "h.jsonl"
        assert cli("new", other, "--scenario", "1914", "--player",
                   "german=jörg@example.de").exit_code == 0
        r = cli("mail", other, "--out", target)
        assert r.exit_code == (0 if utf8 else 2), r.output
        assert smtp.logins == [] and smtp.received == []        # asked, never logged in to
    finally:
        smtp.stop()


def test_a_server_that_cannot_be_asked_refuses_nothing_at_new(cli, tmp_path, monkeypatch):
    """Offline at `new` (nothing listens on the port), the address is taken: each mail the
    server later refuses is set aside and the moderator told (the test above it)."""
    mail_settings(f'[hosts."{HOST}"]\nports = [9]\n')
    r = cli("new", tmp_path / "g.jsonl", "--scenario", "1914", "--player",
            "german=jörg@example.de", "--mail-out", f"smtp://{USER}@{HOST}:9")
    assert r.exit_code == 0, r.output


@contextmanager
def german_beyond_ascii(cli, net, tmp_path):
    """Game oscar, its German at jörg@example.de, its mail sent through an SMTP server that
    takes addresses in UTF-8 (SMTPUTF8): (its journal, that server), stopped after."""
    smtp = SmtpServer(net.smtp.auth, utf8=True).start()
    try:
        mail_settings(f'[hosts."{HOST}"]\nports = {[net.imap.port, smtp.port]}\n')
        journal, _ = new_game(cli, tmp_path / "games", "oscar", net, "--mail-in", net.source,
                              "--mail-out", f"smtp://{USER}@{HOST}:{smtp.port}")
        assert cli("players", journal, "--set", "german=jörg@example.de").exit_code == 0
        yield journal, smtp
    finally:
        smtp.stop()


def test_a_player_with_an_address_beyond_ascii_gets_his_mail_through_a_server_that_takes_it(
        cli, net, tmp_path):
    with german_beyond_ascii(cli, net, tmp_path) as (journal, smtp):
        r = tick(cli, journal)
        assert r.exit_code == 0, r.output
        (german,) = [m for _, tos, m in smtp.received if tos == ["jörg@example.de"]]
        # The address as it is, in UTF-8 (RFC 6532), not an encoded word that names no one.
        assert b"To: j\xc3\xb6rg@example.de" in german and b"=?utf-8?" not in german.split(
            b"\n\n")[0].split(b"Subject:")[0]


def test_a_player_whose_mail_is_refused_for_good_stops_nobody_and_the_moderator_is_told(
        cli, net, tmp_path):
    folder = tmp_path / "games"
    journal, keys = new_game(cli, folder, "lima", net)
    r = cli("players", journal, "--set", "entente=toolarge@example.net")
    assert r.exit_code == 0, r.output
    r = tick(cli, journal)
    assert r.exit_code == 3, r.output
    assert "refused for good at DATA for toolarge@example.net (554)" in problem_text(r)
    assert received_by(net) == [ADDRESSES["german"]]               # the German's went
    assert "owed     the Entente player: his next report carries the news of the mail " \
        "refused" in r.stdout, r.stdout
    net.imap.deliver(net.folder, mail("german", keys["german"], ["pass"], "<l1@example.org>"))
    r = tick(cli, journal)              # the German's orders: his report; none to the Entente
    assert r.exit_code == 3 and "1 mail refused for good waits in" in problem_text(r), r.output
    assert records(journal)[-1]["order"] == "pass"
    assert received_by(net) == [ADDRESSES["german"]] * 2
    for _ in range(2):                  # nothing new: told again at every pass, until he acts
        r = tick(cli, journal)
        assert r.exit_code == 3 and "1 mail refused for good waits in" in problem_text(r), \
            r.output
    assert received_by(net) == [ADDRESSES["german"]] * 2        # no mail piles up meanwhile
    # The moderator mends the address and removes the refused mail: the Entente's next report
    # carries all he missed, from the start of the game (his first, with his key).
    assert cli("players", journal, "--set", f"entente={ADDRESSES['entente']}").exit_code == 0
    for waiting in refused_mails(ticking.load_game(journal, None).spool):
        waiting.unlink()
    r = tick(cli, journal)
    assert r.exit_code == 0, r.output
    (entente,) = [m for _, tos, m in net.smtp.received if tos == [ADDRESSES["entente"]]]
    text = email.message_from_bytes(entente, policy=email.policy.default).get_body(
        ("plain",)).get_content()
    assert f"game lima, records 1–{records(journal)[-1]['seq']}" in " ".join(text.split()), text
    # His key changed with his address (twice): the report carries the one that works now.
    r = cli("players", journal, "--keys", "--format", "json")
    now = {p["side"]: p["key"] for p in json.loads(r.stdout)["players"] if p.get("key")}
    assert now["entente"] != keys["entente"] and f"Order key: {now['entente']}" in text


# ---------------------------------------------------------------- routes and passwords

def test_a_route_is_checked_and_kept_without_its_password(cli, tmp_path, monkeypatch):
    mail_settings('[hosts."mail.example.org"]\n[hosts."::1"]\n'
                  '[routes.local]\nsendmail = ["/usr/sbin/sendmail", "-t", "-oi"]\n')
    journal = tmp_path / "g.jsonl"
    for bad, why in [("imap://u:secretpw@host/INBOX", "a password never goes"),
                     ("imap://host/INBOX", "name the login"),
                     ("imap://u@host:99999/INBOX", "port"),
                     ("pop3://u@host", "choose an mbox")]:
        r = cli("new", journal, "--scenario", "1914", "--mail-in", bad)
        assert r.exit_code == 2 and why in r.stderr and r.stderr.count("\n") == 1, r.output
        assert "secretpw" not in r.output
        assert not journal.exists()
    for bad, why in [("ftp://host", "choose outbox:DIR"), ("smtp://h/INBOX", "no folder"),
                     ("sendmail:/usr/sbin/sendmail -t", "never holds a command line"),
                     ("route:Local", "route:NAME"), ("route:other", "no route of that name"),
                     ("smtp://u:pw@h", "never goes"),
                     ("smtps://u@mail.example.net", "not a host of your mail settings")]:
        r = cli("new", journal, "--scenario", "1914", "--mail-out", bad)
        assert r.exit_code == 2 and why in r.stderr, r.output
        assert not journal.exists()
    monkeypatch.chdir(tmp_path)
    Path("box.mbox").write_bytes(b"")           # named from the folder the command runs in
    r = cli("new", journal, "--scenario", "1914", "--mail-in", "box.mbox", "--mail-out",
            "route:local", "--format", "json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["mail_in"] == str(Path("box.mbox").resolve())
    assert doc["mail_out"] == "route:local"
    r = cli("mail", journal, "--in", "imaps://me@mail.example.org/Games", "--format", "json")
    assert json.loads(r.stdout)["source"] == "imaps://me@mail.example.org:993/Games"
    assert json.loads(r.stdout)["target"] == "route:local"
    before = journal.read_bytes()
    r = cli("mail", journal, "--in", "imaps://me@mail.example.org/Games")
    assert r.exit_code == 0 and journal.read_bytes() == before      # no change, no record
    r = cli("mail", journal, "--out", "smtps://me:pw@mail.example.org")
    assert r.exit_code == 2 and journal.read_bytes() == before
    # The route is the moderator's: a player's log shows the record, not what it holds.
    r = cli("log", journal, "--as", "german", "--format", "json")
    assert "mail.example.org" not in r.stdout and "set mail route" in r.stdout
    r = cli("verify", journal)
    assert r.exit_code == 0, r.output
    # A login that is a mail address, a folder with '?' and one beyond ASCII: each kept so
    # that it reads back the same (verify reads every route record again).
    for given, kept in [("imap://me@example.org@mail.example.org/INBOX",
                         "imap://me@example.org@mail.example.org:143/INBOX"),
                        ("imap://me%40example.org@mail.example.org/Q%3F",
                         "imap://me@example.org@mail.example.org:143/Q%3F"),
                        ("imaps://me@[::1]/Entwürfe", "imaps://me@[::1]:993/Entw%C3%BCrfe")]:
        r = cli("mail", journal, "--in", given, "--format", "json")
        assert r.exit_code == 0 and json.loads(r.stdout)["source"] == kept, r.output
    assert cli("verify", journal).exit_code == 0


def _not_a_mailbox(tmp_path: Path) -> list[tuple[Path, str]]:
    """Local sources tick could not read, each with what the refusal says of it."""
    (tmp_path / "plain").mkdir()
    (tmp_path / "file").write_bytes(b"")
    os.mkfifo(tmp_path / "fifo")
    return [(tmp_path / "nonexistent", "no such mailbox"),
            (tmp_path / "file" / "box", "no such mailbox"),
            (tmp_path / "plain", "a folder that is not a Maildir (no cur/ or new/)"),
            (tmp_path / "fifo", "neither an mbox file nor a Maildir")]


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_local_mailbox_that_is_not_there_is_refused_when_it_is_named(cli, tmp_path, fmt):
    """`mail --in` and `new --mail-in` refuse a mailbox on this machine that tick could not
    read, in one line naming it, exit 2: no route record, no game made (not a problem
    told at every pass after). An mbox with no mail yet and a Maildir are taken."""
    journal = tmp_path / "g.jsonl"
    assert cli("new", journal, "--scenario", "1914").exit_code == 0
    before = journal.read_bytes()
    for path, says in _not_a_mailbox(tmp_path):
        r = cli("mail", journal, "--in", path, "--out", f"outbox:{tmp_path / 'out'}",
                "--format", fmt)
        _refused_in_one_line(r, f"--in {str(path)!r}: {says}", fmt, journal, before)
        r = cli("new", tmp_path / "n.jsonl", "--scenario", "1914", "--mail-in", path,
                "--format", fmt)
        assert r.exit_code == 2 and f"--mail-in {str(path)!r}: {says}" in r.stderr, r.stderr
        assert not (tmp_path / "n.jsonl").exists()
    assert not (tmp_path / "out").exists()
    for box in (tmp_path / "file", write_maildir(tmp_path / "maildir", [])):
        r = cli("mail", journal, "--in", box, "--format", "json")
        assert r.exit_code == 0 and json.loads(r.stdout)["source"] == str(box), r.stderr


def _refused_in_one_line(r, line: str, fmt: str, journal: Path, before: bytes) -> None:
    """A usage error (exit 2) in one line that begins with line, nothing on stdout, the
    journal as it was."""
    assert r.exit_code == 2 and r.stdout == "", (r.stdout, r.stderr)
    said = json.loads(r.stderr)["error"] if fmt == "json" else r.stderr.strip()
    assert said.startswith(line if fmt == "json" else f"referee: {line}"), said
    assert len(r.stderr.splitlines()) == 1
    assert journal.read_bytes() == before


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_an_outbox_that_is_no_folder_is_refused_when_it_is_named(cli, tmp_path, fmt):
    """`mail --out outbox:DIR` and `new --mail-out outbox:DIR` refuse a DIR that is there
    and no folder (a file, /dev/null, a link to a file), in one line naming it, exit 2: no
    route record, no game made (else every pass of tick after fails on it). A folder not
    there yet is taken (the first pass makes it), and so is one that is."""
    journal = tmp_path / "g.jsonl"
    assert cli("new", journal, "--scenario", "1914").exit_code == 0
    before = journal.read_bytes()
    (tmp_path / "file").write_bytes(b"")
    (tmp_path / "link").symlink_to(tmp_path / "file")
    for path in (Path(os.devnull), tmp_path / "file", tmp_path / "link"):
        target = f"outbox:{path}"
        r = cli("mail", journal, "--out", target, "--format", fmt)
        _refused_in_one_line(r, f"--out {target!r}: not a folder", fmt, journal, before)
        r = cli("new", tmp_path / "n.jsonl", "--scenario", "1914", "--mail-out", target,
                "--format", fmt)
        assert r.exit_code == 2 and f"--mail-out {target!r}: not a folder" in r.stderr
        assert not (tmp_path / "n.jsonl").exists()
    for folder in (tmp_path / "later", tmp_path):
        r = cli("mail", journal, "--out", f"outbox:{folder}", "--format", "json")
        assert r.exit_code == 0 and json.loads(r.stdout)["target"] == f"outbox:{folder}", \
            r.stderr


def test_an_imap_server_that_is_down_is_not_refused_when_it_is_named(cli, tmp_path):
    """A server may be down for an hour: an IMAP source of the mail settings is taken by
    `mail --in` and `new --mail-in` without being tried (nothing listens on its port)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    mail_settings(f'[hosts."127.0.0.1"]\nports = [{port}]\n')
    source = f"imap://me@127.0.0.1:{port}/INBOX"
    journal = tmp_path / "g.jsonl"
    r = cli("new", journal, "--scenario", "1914", "--mail-in", source, "--format", "json")
    assert r.exit_code == 0 and json.loads(r.stdout)["mail_in"] == source, r.stderr
    assert cli("mail", journal, "--in", str(write_maildir(tmp_path / "box", []))).exit_code == 0
    r = cli("mail", journal, "--in", source, "--format", "json")
    assert r.exit_code == 0 and json.loads(r.stdout)["source"] == source, r.stderr


def test_a_mailbox_its_moderator_may_not_read_is_refused_when_it_is_named(cli, tmp_path,
                                                                          unprivileged):
    """An mbox of mode 0000 and a Maildir whose new/ may not be listed: refused at `mail
    --in` in one line naming it and the reason, exit 2, the journal as it was."""
    journal = tmp_path / "g.jsonl"
    assert cli("new", journal, "--scenario", "1914").exit_code == 0
    before = journal.read_bytes()
    mbox = tmp_path / "locked.mbox"
    mbox.write_bytes(b"")
    maildir = write_maildir(tmp_path / "locked", [])
    try:
        mbox.chmod(0)
        (maildir / "new").chmod(0)
        for box in (mbox, maildir):
            r = unprivileged("mail", journal, "--in", box)
            assert r.exit_code == 2 and r.stdout == "", (r.stdout, r.stderr)
            assert r.stderr.splitlines() == [f"referee: --in {str(box)!r}: the mailbox cannot "
                                             f"be read (Permission denied)"]
    finally:
        mbox.chmod(0o600)
        (maildir / "new").chmod(0o700)
    assert journal.read_bytes() == before


def test_passwords_come_from_env_then_the_private_file_then_netrc(tmp_path, monkeypatch,
                                                                    referee_home):
    monkeypatch.setenv("HOME", str(tmp_path))
    for name in ("REFEREE_SMTP_PASSWORD", "REFEREE_SMTP_PASSWORD_MAIL_EXAMPLE_ORG"):
        monkeypatch.delenv(name, raising=False)
    assert password("smtp", "me", "mail.example.org") is None
    netrc = tmp_path / ".netrc"
    netrc.write_text("machine mail.example.org login me password from-netrc\n")
    netrc.chmod(0o600)
    monkeypatch.setenv("REFEREE_SMTP_PASSWORD_MAIL_EXAMPLE_ORG", "per-host")
    # A host the mail settings do not name gets no password, wherever one is given.
    assert password("smtp", "me", "mail.example.org") is None
    settings = mail_settings('[hosts."Mail.Example.org"]\n')
    monkeypatch.delenv("REFEREE_SMTP_PASSWORD_MAIL_EXAMPLE_ORG")
    assert password("smtp", "me", "mail.example.org") == "from-netrc"
    assert password("smtp", "someone-else", "mail.example.org") is None
    own = referee_home / "passwords"
    own.write_text("machine mail.example.org login me password from-file\n")
    own.chmod(0o644)
    with pytest.raises(Exception, match="other users of this machine may read it") as caught:
        password("smtp", "me", "mail.example.org")
    assert "from-file" not in str(caught.value)
    own.chmod(0o600)
    assert password("smtp", "me", "mail.example.org") == "from-file"
    monkeypatch.setenv("REFEREE_SMTP_PASSWORD", "for-every-host")      # no longer read
    assert password("smtp", "me", "mail.example.org") == "from-file"
    monkeypatch.setenv("REFEREE_SMTP_PASSWORD_MAIL_EXAMPLE_ORG", "per-host")
    assert password("smtp", "me", "mail.example.org") == "per-host"
    assert stat.S_IMODE(os.stat(own).st_mode) == 0o600
    # Settings another user could change name no host.
    settings.chmod(0o620)
    with pytest.raises(Exception, match="other users of this machine may read or change it"):
        password("smtp", "me", "mail.example.org")


def test_sendmail_gets_each_mail_on_stdin_without_a_shell(cli, tmp_path):
    box = tmp_path / "sent-by-command"
    script = tmp_path / "fake sendmail"          # a space in the name: no shell splits it
    script.write_text(f"#!/bin/sh\ncat >> '{box}'\necho '--' >> '{box}'\n")
    script.chmod(0o700)
    spool = tmp_path / "spool"
    spool.mkdir()
    (spool / "a.eml").write_bytes(b"From: umpire@example.com\nTo: kaiser@example.org\n"
                                  b"Subject: s\n\nhello; $(touch pwned)\n")
    mail_settings(f'[routes.local]\nsendmail = ["{script}", "-t"]\n')
    lines = send_owed(spool, check_target("route:local"))
    assert lines == ["sent     a.eml to kaiser@example.org"]
    assert b"hello; $(touch pwned)" in box.read_bytes() and not (tmp_path / "pwned").exists()
    assert (spool / "sent" / "a.eml").exists() and not (spool / "a.eml").exists()
    assert send_owed(spool, check_target("route:local")) == []


# ---------------------------------------------------------------- what a folder cannot do
#
# Someone who can write a game folder can append a route record and chain it with the
# referee's own code (verify reads it as well formed). The route may still only name a host
# or a route of the moderator's own mail settings, which live in his referee home.

@pytest.mark.parametrize("target, says", [
    ("sendmail:/bin/sh -c 'touch {pwned}'", "never holds a command line"),
    ("route:evil", "no route of that name"),
])
@pytest.mark.parametrize("signed", [False, True])
def test_a_route_planted_in_a_folder_runs_no_program(cli, tmp_path, target, says, signed):
    """Planted by someone who can write the folder, the route record bears no signature of
    the game's key: verify names it and tick plays nothing of the game. Signed (by whoever
    holds the key), it still names no program and no route but the moderator's own."""
    mail_settings('[routes.local]\nsendmail = ["/bin/true"]\n')
    folder = tmp_path / "games"
    box = write_maildir(tmp_path / "box", [])
    journal, _ = new_game(cli, folder, "planted", None, "--mail-in", str(box), "--mail-out",
                          f"outbox:{tmp_path / 'out'}")
    pwned = tmp_path / "PWNED"
    forge_route(journal, str(box), target.format(pwned=pwned), signed)
    r = cli("verify", journal)
    if signed:
        assert r.exit_code == 0                          # well formed: the chain holds
    else:
        assert r.exit_code == 3 and "without the game's key" in r.stderr, r.output
        says = "not a game of this referee"
    before = journal.read_bytes()
    r = tick(cli, folder)
    assert journal.read_bytes() == before
    told = failure(r)
    assert r.exit_code in (2, 3) and says in told and "planted" in told, r.output
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.output
    assert not pwned.exists()


def test_a_forged_route_to_a_host_of_someone_elses_gets_nothing(cli, net, tmp_path):
    journal, keys = new_game(cli, tmp_path / "games", "forged", net)
    theirs = {kind: PlainListener(kind) for kind in ("imap", "smtp")}
    try:
        # localhost is this machine too, but not a host the settings name (they name
        # 127.0.0.1): the referee does not connect to it at all.
        forge_route(journal, f"imap://{USER}@localhost:{theirs['imap'].port}/INBOX",
                    f"smtp://{USER}@localhost:{theirs['smtp'].port}", signed=True)
        net.imap.deliver(net.folder, mail("german", keys["german"], ["pass"],
                                          "<f1@example.org>"))
        r = tick(cli, journal)
        assert r.exit_code == 3 and \
            "not a host and port of your mail settings" in problem_text(r), r.output
        assert all(x.connections == 0 and not x.received for x in theirs.values())
        no_password_in(r.output, folder=journal.parent)
    finally:
        for x in theirs.values():
            x.stop()


@pytest.mark.parametrize("kind", ["imap", "smtp"])
def test_a_host_that_offers_no_tls_is_told_nothing_unless_the_settings_say_so(
        cli, net, tmp_path, kind):
    plain = PlainListener(kind)
    mail_settings(f'[hosts."{HOST}"]\nports = {[net.imap.port, net.smtp.port, plain.port]}\n')
    try:
        route = {"imap": ("--mail-in", f"imap://{USER}@{HOST}:{plain.port}/INBOX",
                          "--mail-out", net.target),
                 "smtp": ("--mail-in", net.source,
                          "--mail-out", f"smtp://{USER}@{HOST}:{plain.port}")}[kind]
        journal, _ = new_game(cli, tmp_path / "games", f"plain{kind}", net, *route)
        r = tick(cli, journal)
        assert r.exit_code == 3 and "offers no STARTTLS" in problem_text(r), r.output
        assert plain.connections == 1 and b"LOGIN" not in plain.received.upper()
        assert b"AUTH" not in plain.received.upper() and b"MAIL FROM" not in plain.received
        # The moderator may allow a server without TLS (one on his own machine): then the
        # login goes, in the clear, as he chose.
        mail_settings(f'[hosts."{HOST}"]\ntls = "none"\n'
                      f'ports = {[net.imap.port, net.smtp.port, plain.port]}\n')
        tick(cli, journal)
        said = bytes(plain.received)
        assert (PASSWORD.encode() in said) if kind == "imap" else (b"AUTH" in said.upper())
    finally:
        plain.stop()


def test_a_backup_copy_of_a_journal_in_the_folder_is_not_played_as_a_second_game(
        cli, net, tmp_path):
    import shutil

    folder = tmp_path / "games"
    journal, keys = new_game(cli, folder, "mike", net)
    other, _ = new_game(cli, folder, "november", net)
    assert tick(cli, folder).exit_code == 0
    copy = folder / "mike-backup.jsonl"
    shutil.copyfile(journal, copy)
    shutil.copyfile(f"{journal}.secret", f"{copy}.secret")
    os.chmod(copy, 0o600)
    os.chmod(f"{copy}.secret", 0o600)
    net.imap.deliver(net.folder, mail("german", keys["german"], ["pass"], "<m1@example.org>"))
    before = (journal.read_bytes(), copy.read_bytes())
    r = tick(cli, folder)
    assert r.exit_code == 3, r.output
    assert ("game mike: 2 journals hold it (mike-backup.jsonl, mike.jsonl); none is played"
            in problem_text(r)), r.output
    assert (journal.read_bytes(), copy.read_bytes()) == before      # neither played
    assert net.imap.seen(net.folder) == {"<m1@example.org>": False}  # left for the live one
    copy.unlink()
    assert tick(cli, folder).exit_code == 0
    assert records(journal)[-1]["order"] == "pass"                   # applied once, here
    assert records(other)[-1]["order"] != "pass"


# The count binds with bodies of a thousand bytes; the megabyte, with bodies of 199,000 bytes:
# five of them fill it, not six.
@pytest.mark.parametrize("reading, most, most_bytes, body", [
    ("messages = 4\nmegabytes = 32", 4, 32 << 20, 1_000),
    ("messages = 50\nmegabytes = 1", 50, 1 << 20, 199_000)])
def test_a_pass_reads_what_the_settings_allow_and_no_unclaimed_message_twice(
        cli, net, tmp_path, monkeypatch, reading, most, most_bytes, body):
    import imaplib

    journal, keys = new_game(cli, tmp_path / "games", "papa", net)
    mail_settings(f'[hosts."{HOST}"]\nports = {[net.imap.port, net.smtp.port]}\n'
                  f'[reading]\n{reading}\n')
    big = "x" * body + "\n"
    strangers = [(f"From: s{i}@bureau.example\nTo: umpire@example.com\nSubject: hello\n"
                  f"Message-ID: <s{i}@bureau.example>\n\n{big}").encode() for i in range(11)]
    net.imap.deliver(net.folder, *strangers, mail("german", keys["german"], ["pass"],
                                                  "<p1@example.org>"))
    fetched: list[list[tuple[bytes, int]]] = []
    real_uid = imaplib.IMAP4.uid

    def uid(self, command, *args):
        kind, data = real_uid(self, command, *args)
        if command == "FETCH" and args[-1] == "(BODY.PEEK[])":
            fetched[-1].append((args[0], sum(len(p[1]) for p in data if isinstance(p, tuple))))
        return kind, data

    monkeypatch.setattr(imaplib.IMAP4, "uid", uid)
    outputs = []
    for _ in range(4):
        fetched.append([])
        r = tick(cli, journal, "--format", "json")
        outputs.append(json.loads(r.stdout))
    assert all(len(p) <= most and sum(n for _, n in p) <= most_bytes for p in fetched), \
        [[n for _, n in p] for p in fetched]
    assert len(fetched[0]) < 12 and fetched[-1] == []       # more than one pass, then none
    uids = [u for p in fetched for u, _ in p]
    assert len(uids) == len(set(uids)) == 12          # each message read once, in all
    assert records(journal)[-1]["order"] == "pass"
    assert len(outputs[-1]["unclaimed"]) == 11        # still named, every pass, unread
    assert net.imap.seen(net.folder)["<s0@bureau.example>"] is False
    lines = [ln for g in outputs[0]["games"] for ln in g["log"]]
    assert any("more unread messages" in ln and "next pass" in ln for ln in lines), lines


def test_a_mail_too_large_to_read_is_answered_from_its_header(cli, net, tmp_path):
    journal, keys = new_game(cli, tmp_path / "games", "quebec", net)
    assert tick(cli, journal).exit_code == 0                     # the opening reports
    photo = "A" * 1_600_000
    big = mail("german", keys["german"], ["pass", "", photo], "<q1@example.org>",
               subject="Re: [referee quebec #2] german report")
    stranger = (f"From: someone@bureau.example\nSubject: holiday\nMessage-ID: "
                f"<q2@bureau.example>\n\n{photo}\n").encode()
    net.imap.deliver(net.folder, big, stranger)
    before = len(records(journal))
    for _ in range(2):                                            # answered once
        r = tick(cli, journal, "--format", "json")
        assert r.exit_code == 0, r.output
    assert len(records(journal)) == before                      # nothing of it applied
    answers = [m for _, tos, m in net.smtp.received[2:]]
    assert [tos for _, tos, _ in net.smtp.received[2:]] == [[ADDRESSES["german"]]]
    text = email.message_from_bytes(answers[0], policy=email.policy.default).get_body(
        ("plain",)).get_content()
    assert "1.5 MB" in text and "plain text" in text and "not accepted" in text, text
    assert "Order key" not in text and keys["german"] not in text, text     # no game content
    assert net.imap.seen(net.folder) == {"<q1@example.org>": True,
                                         "<q2@bureau.example>": False}   # the stranger's kept
    assert len(json.loads(r.stdout)["unclaimed"]) == 1


# ---------------------------------------------------------------- watch

def test_watch_runs_tick_until_told_to_stop(cli, net, tmp_path):
    journal, keys = new_game(cli, tmp_path / "games", "foxtrot", net)
    net.imap.deliver(net.folder, mail("german", keys["german"], ["pass"],
                                      "<f1@example.org>"))
    lines, waits = [], []

    def wait(seconds: float) -> bool:
        waits.append(seconds)
        return len(waits) == 2

    passes = ticking.watch(journal, 30.0, log=lines.append, with_map=False, wait=wait)
    assert passes == 2 and waits == [30.0, 30.0]
    assert any("applied" in line and "foxtrot" in line for line in lines)
    assert sum(line.startswith("foxtrot: sent") for line in unstamped(lines)) == 2, lines


def test_watch_finishes_its_pass_and_stops_on_sigterm(cli, net, tmp_path):
    journal, keys = new_game(cli, tmp_path / "games", "golf", net)
    lines: list[str] = []
    old = signal.getsignal(signal.SIGTERM)

    def wait(seconds: float) -> bool:
        os.kill(os.getpid(), signal.SIGTERM)
        return False

    assert ticking.watch(journal, 5.0, log=lines.append, with_map=False, wait=wait) == 1
    assert signal.getsignal(signal.SIGTERM) == old


def test_verify_refuses_a_route_record_the_referee_would_not_write(cli, tmp_path):
    """Even signed with the game's key, a route with a password in it is refused."""
    from forging import resign

    from referee.store.journal import line_of

    journal = tmp_path / "g.jsonl"
    assert cli("new", journal, "--scenario", "1914").exit_code == 0
    last = records(journal)[-1]
    forged = resign({"at": last["at"], "actor": "moderator", "order": "set mail route",
                   "events": [], "seq": last["seq"] + 1, "prev": last["hash"],
                   "mail_route": {"to": "moderator", "salt": "00" * 16, "data": {
                       "source": "imap://me:hunter2@mail.example.org:143/INBOX",
                       "target": None}}}, signing.signer_of(last["sig"]))
    with open(journal, "ab") as fh:
        fh.write(line_of(forged))
    r = cli("verify", journal)
    assert r.exit_code == 3, r.output
    assert f"record {forged['seq']} sets the mail route wrongly" in r.stderr
    assert "hunter2" not in r.output


def test_a_pass_cut_before_the_messages_are_marked_read_repeats_nothing(cli, net, tmp_path,
                                                                         monkeypatch):
    journal, keys = new_game(cli, tmp_path / "games", "kilo", net)
    net.imap.deliver(net.folder, mail("german", keys["german"], ["pass"], "<k1@example.org>"))
    from referee.mail import delivery

    def cut(self, uids):
        raise TransportError("imap: the connection was lost")

    with monkeypatch.context() as m:
        m.setattr(delivery.ImapFolder, "mark_seen", cut)
        r = tick(cli, journal)
    assert r.exit_code == 3 and "connection was lost" in problem_text(r), r.output
    assert net.imap.seen(net.folder) == {"<k1@example.org>": False}
    applied = len(records(journal))
    r = tick(cli, journal)
    assert r.exit_code == 0, r.output
    assert len(records(journal)) == applied                  # read again, applied once
    assert net.imap.seen(net.folder) == {"<k1@example.org>": True}
    assert sorted(received_by(net)) == sorted([ADDRESSES["german"], ADDRESSES["entente"]])


def test_two_passes_at_once_apply_and_send_each_thing_once(cli, net, tmp_path):
    journal, keys = new_game(cli, tmp_path / "games", "lima", net)
    net.imap.deliver(net.folder, mail("german", keys["german"], ["pass"], "<l1@example.org>"))
    before = len(records(journal))
    reports = ticks_at_once(journal)
    assert [r.problems for r in reports] == [[], []]
    assert len(records(journal)) == before + 1
    assert sorted(received_by(net)) == sorted([ADDRESSES["german"], ADDRESSES["entente"]])


def _game_with_a_48h_wait_deadline(cli, tmp_path, monkeypatch):
    """A game whose orders are due 48h after 2026-11-23T18:00Z under --missed wait, its first
    reports sent (nothing waits yet): its journal and its outbox."""
    folder, box, out = tmp_path / "games", tmp_path / "box", tmp_path / "out"
    write_maildir(box, [])
    monkeypatch.setenv("REFEREE_NOW", "2026-11-23T18:00:00Z")
    journal, _ = new_game(cli, folder, "kilo", None, "--mail-in", str(box), "--mail-out",
                          f"outbox:{out}", "--deadline", "48h", "--missed", "wait")
    assert tick(cli, journal).exit_code == 0                 # the reports: nothing waits
    return journal, out


def test_tick_says_at_every_pass_that_a_game_waits_on_the_moderator(cli, tmp_path,
                                                                     monkeypatch):
    """Under --missed wait, a deadline that passes leaves the game to the moderator: every
    pass of tick says so in one line and exits non-zero until he acts (here he extends the
    deadline); the moderator's mail telling him is written once."""
    journal, out = _game_with_a_48h_wait_deadline(cli, tmp_path, monkeypatch)
    monkeypatch.setenv("REFEREE_NOW", "2026-11-25T18:16:00Z")     # the due time and grace
    told = []
    for _ in range(2):
        r = tick(cli, journal)
        assert r.exit_code != 0, r.output
        lines = [x for x in problems(r) if "waits on the moderator" in x]
        assert len(lines) == 1 and \
            "the German player's orders were due by Wed 25 Nov 18:00 UTC" in lines[0] and \
            f"referee extend {journal} german 24h" in lines[0], r.stderr
        assert "(the decision: play an Offensive-type card or pass" in lines[0], lines[0]
        assert "card_or_pass" not in lines[0], lines[0]
        told.append(sorted(p.name for p in out.glob("*moderator*.eml")))
    assert len(told[0]) == 1 and told[1] == told[0]          # his mail: once
    assert cli("extend", journal, "german", "24h").exit_code == 0
    r = tick(cli, journal)
    assert r.exit_code == 0 and "waits on the moderator" not in r.output, r.output


def test_watch_says_once_a_day_that_a_game_waits_on_the_moderator(cli, tmp_path,
                                                                   monkeypatch):
    """watch, a pass every 300s: the line saying the game waits on the moderator is printed
    at the pass it first appears, not at each pass after while it stands as it was (288
    lines a day), again a day later while it still stands, and not once it is gone."""
    journal, _ = _game_with_a_48h_wait_deadline(cli, tmp_path, monkeypatch)
    moments = iter(["2026-11-25T18:21:00Z", "2026-11-26T18:10:00Z", "2026-11-26T18:16:00Z",
                    "2026-11-26T18:21:00Z", "2026-11-26T18:26:00Z"])
    lines: list[str] = []
    waits: list[float] = []

    def between_passes(seconds: float) -> bool:
        waits.append(seconds)
        lines.append(f"-- pass {len(waits)}")
        if len(waits) == 5:          # the moderator acts: the game no longer waits on him
            assert cli("extend", journal, "german", "48h").exit_code == 0
        if len(waits) == 6:
            return True
        monkeypatch.setenv("REFEREE_NOW", next(moments))
        return False

    monkeypatch.setenv("REFEREE_NOW", "2026-11-25T18:16:00Z")     # the due time and grace
    assert ticking.watch(journal, 300.0, log=lines.append, with_map=False,
                         wait=between_passes) == 6
    waiting = [n for n, x in enumerate(lines) if "waits on the moderator" in x]
    passes = [sum(1 for y in lines[:n] if y.startswith("-- pass")) + 1 for n in waiting]
    # First seen; a day later; not after the extension.
    assert passes == [1, 4], "\n".join(lines)
    assert all(x.startswith("kilo: problem  the game waits on the moderator: the German "
                            "player's orders were due by")
               for x in unstamped([lines[n] for n in waiting])), lines


def test_the_moderator_s_line_names_an_odd_journal_on_one_line(cli, tmp_path, monkeypatch):
    """A journal whose name holds a line end or an escape: the line saying the game waits on
    the moderator stays one line, the name shown escaped (one problem, one line)."""
    folder, box, out = tmp_path / "games", tmp_path / "box", tmp_path / "out"
    write_maildir(box, [])
    monkeypatch.setenv("REFEREE_NOW", "2026-11-23T18:00:00Z")
    odd = "odd\nname\x1b[31m"
    journal, _ = new_game(cli, folder, "lima", None, "--mail-in", str(box), "--mail-out",
                          f"outbox:{out}")
    named = journal.with_name(f"{odd}.jsonl")
    journal.rename(named)
    (folder / f"{journal.name}.secret").rename(folder / f"{named.name}.secret")
    assert cli("deadline", named, "--set", "48h").exit_code == 0
    assert cli("deadline", named, "--pause").exit_code == 0
    r = tick(cli, named)
    assert r.exit_code == 0, r.output     # his own pause: a line while it stands, no problem
    (line,) = [x for x in r.output.splitlines() if "you paused it" in x]
    assert "\x1b" not in line and "--resume" in line, line


@contextmanager
def greylisted(net, *addresses: str):
    """The test SMTP server answers these recipients "450: try again later" meanwhile."""
    net.smtp.held.update(addresses)
    try:
        yield
    finally:
        net.smtp.held.clear()


def test_a_recipient_refused_for_now_holds_back_only_the_mails_to_him(net, tmp_path):
    """Greylisting or a full mailbox at one player's server (450 at RCPT): his mails stay
    owed, in their order, and the other player's go in the same pass; the next pass,
    once the server takes him, sends his in the order they were written."""
    spool = tmp_path / "spool"
    spooled(spool, [("c.eml", "umpire@example.com", "joffre@example.net"),
                     ("a.eml", "umpire@example.com", "kaiser@example.org"),
                     ("b.eml", "umpire@example.com", "joffre@example.net"),
                     ("d.eml", "umpire@example.com", "kaiser@example.org")])
    with greylisted(net, "kaiser@example.org"):
        with pytest.raises(TransportError, match=r"a.eml refused for now for "
                                                 r"kaiser@example.org; it stays owed; 1 later "
                                                 r"mail to them waits too \(2 others sent\)"):
            send_owed(spool, net.target)
    assert [m.split(b"Subject: ")[1][:2] for _, _, m in net.smtp.received] == [b"s0", b"s2"]
    assert [p.name for p in spool_files(spool)] == ["a.eml", "d.eml"]
    assert send_owed(spool, net.target) == ["sent     a.eml to kaiser@example.org",
                                            "sent     d.eml to kaiser@example.org"]
    assert [m.split(b"Subject: ")[1][:2] for _, _, m in net.smtp.received][2:] == [b"s1", b"s3"]
    assert send_owed(spool, net.target) == [] and refused_mails(spool) == []


def test_a_player_whose_server_says_try_later_stops_nobody_and_gets_his_mail_next_pass(
        cli, net, tmp_path):
    journal, _ = new_game(cli, tmp_path / "games", "mike", net)
    with greylisted(net, ADDRESSES["entente"]):
        r = tick(cli, journal)
    assert r.exit_code == 3 and f"refused for now for {ADDRESSES['entente']}" in \
        problem_text(r), r.output
    assert received_by(net) == [ADDRESSES["german"]]               # the German's went
    # and the pass's log says so, beside the problem line
    (line,) = [x for x in unstamped(r.stdout) if x.split(": ", 1)[-1].startswith("sent ")]
    assert line.endswith(f"to {ADDRESSES['german']}")
    r = tick(cli, journal)
    assert r.exit_code == 0, r.output
    assert received_by(net) == [ADDRESSES["german"], ADDRESSES["entente"]]
    assert tick(cli, journal).exit_code == 0 and len(received_by(net)) == 2


def test_a_mail_waiting_for_a_held_player_keeps_its_other_recipients_mails_behind_it(
        net, tmp_path):
    """A mail to two players waits behind the earlier one to a player whose server said
    "later": a mail written after it to the other player does not go first."""
    spool = tmp_path / "spool"
    spooled(spool, [("a.eml", "umpire@example.com", "kaiser@example.org"),
                     ("b.eml", "umpire@example.com", "kaiser@example.org, joffre@example.net"),
                     ("c.eml", "umpire@example.com", "joffre@example.net")])
    with greylisted(net, "kaiser@example.org"):
        with pytest.raises(TransportError, match="2 later mail"):
            send_owed(spool, net.target)
    assert net.smtp.received == []
    send_owed(spool, net.target)
    assert [m.split(b"Subject: ")[1][:2] for _, tos, m in net.smtp.received
            if "joffre@example.net" in tos] == [b"s1", b"s2"]


def test_a_mail_taken_for_one_recipient_and_refused_for_another_is_named(net, tmp_path):
    """Guards against: a mail to two, one of them refused for now (450 at RCPT), was filed
    as sent to both with nothing said; the other had it, and a second sending would give
    him it twice. It is sent, and the one it did not reach is named, with what to do."""
    spool = tmp_path / "spool"
    spooled(spool, [("b.eml", "umpire@example.com", "kaiser@example.org, joffre@example.net")])
    with greylisted(net, "kaiser@example.org"):
        with pytest.raises(TransportError, match=r"b.eml went to joffre@example.net but was "
                                                 r"refused for kaiser@example.org \(450\).*"
                                                 r"forward it") as got:
            send_owed(spool, net.target)
    assert got.value.sent_lines == ["sent     b.eml to joffre@example.net"]
    assert [tos for _, tos, _ in net.smtp.received] == [["joffre@example.net"]]
    assert spool_files(spool) == [] and (spool / "sent" / "b.eml").exists()


def test_a_session_that_ends_names_the_mails_held_and_keeps_the_lines_of_those_sent(
        net, tmp_path, monkeypatch):
    """x goes, a is held for now, then the server closes the session at b (421): the error
    names b, and a as held; the line of x is kept with it for the pass's log."""
    import smtplib

    spool = tmp_path / "spool"
    spooled(spool, [("x.eml", "umpire@example.com", "foch@example.net"),
                     ("a.eml", "umpire@example.com", "kaiser@example.org"),
                     ("b.eml", "umpire@example.com", "joffre@example.net"),
                     ("c.eml", "umpire@example.com", "haig@example.net")])
    real = smtplib.SMTP.rcpt

    def rcpt(self, recip, options=()):
        return (421, b"4.3.2 closing") if recip == "joffre@example.net" else \
            real(self, recip, options)

    monkeypatch.setattr(smtplib.SMTP, "rcpt", rcpt)
    with greylisted(net, "kaiser@example.org"):
        with pytest.raises(TransportError) as got:
            send_owed(spool, net.target)
    said = str(got.value)
    assert "b.eml not sent (421" in said and "a.eml refused for now for kaiser" in said
    assert said.endswith("(1 other sent)")
    assert got.value.sent_lines == ["sent     x.eml to foch@example.net"]
    assert [p.name for p in spool_files(spool)] == ["a.eml", "b.eml", "c.eml"]



def test_a_spooled_mail_that_cannot_be_sent_keeps_the_lines_of_those_that_went(net,
                                                                                tmp_path):
    """A later mail of the spool names no recipient (a hand in the spool): the error says
    so, and the line of the mail sent before it is kept with it for the pass's log."""
    spool = tmp_path / "spool"
    spooled(spool, [("a.eml", "umpire@example.com", "kaiser@example.org"),
                     ("b.eml", "umpire@example.com", "")])
    with pytest.raises(StorageError) as got:
        send_owed(spool, net.target)
    assert got.value.sent_lines == ["sent     a.eml to kaiser@example.org"]
    assert [p.name for p in spool_files(spool)] == ["b.eml"]

def test_a_mailbox_named_at_length_is_quoted_cut_in_its_refusal(cli, tmp_path):
    """A path of thousands of characters is quoted cut, as every input an error quotes: the
    refusal stays one short line."""
    journal = tmp_path / "g.jsonl"
    assert cli("new", journal, "--scenario", "1914").exit_code == 0
    before = journal.read_bytes()
    long = str(tmp_path / ("x" * 4000))
    for args in (("mail", journal, "--in", long), ("mail", journal, "--in", "/\udcff" + long)):
        r = cli(*args)
        assert r.exit_code == 2 and len(r.stderr.splitlines()) == 1, r.stderr
        assert len(r.stderr) < 800 and "characters)" in r.stderr, r.stderr
    assert journal.read_bytes() == before


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_inbox_given_a_mailbox_that_is_not_there_is_a_usage_error_as_new_is(cli, tmp_path,
                                                                           fmt):
    """The same mistake, a mailbox typed that is not there, is the same error whichever
    command was given it: `inbox` refuses it as `new --mail-in` does, `usage`, exit 2, in
    one line naming it, the journal untouched."""
    journal = tmp_path / "g.jsonl"
    assert cli("new", journal, "--scenario", "1914").exit_code == 0
    before = journal.read_bytes()
    for path in (tmp_path / "nosuchbox", tmp_path / "file" / "box"):
        r = cli("inbox", journal, path, "--format", fmt)
        _refused_in_one_line(r, f"{str(path)!r}: no such mailbox", fmt, journal, before)
        r = cli("new", tmp_path / "n.jsonl", "--scenario", "1914", "--mail-in", path,
                "--format", fmt)
        assert r.exit_code == 2 and "no such mailbox" in r.stderr
