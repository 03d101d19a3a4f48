"""Two mail addresses are one mailbox only when they are the same with their ASCII letters in
lower case (base/addresses.py's address_key), through a real tick: a stranger writing from
\\u212aaiser@ (a Kelvin sign for the K, which str.lower() makes a k) or kaiſer@ (a long s,
which str.casefold() makes an s) is not the player registered at kaiser@, whatever his mail
carries, and either may be registered beside him as an observer."""

from __future__ import annotations

import email.utils
import json
from pathlib import Path

import pytest
from mailservers import HOST, Route, SmtpServer, mail_settings, route_through

from referee.base.addresses import address_key

PLAYER = "kaiser@example.org"
KELVIN = "\u212aaiser@example.org"
LONG_S = "kai\u017fer@example.org"
ADDRESSES = {"german": PLAYER, "entente": "joffre@example.net",
             "moderator": "umpire@example.com"}


@pytest.fixture
def net(servers, monkeypatch, tmp_path) -> Route:
    """A route through the test servers whose SMTP server takes addresses beyond ASCII
    (RFC 6531), so that a stranger's answer reaches his own address."""
    route = route_through(servers, monkeypatch, tmp_path / "user")
    smtp = SmtpServer(route.smtp.auth, utf8=True).start()
    mail_settings(f'[hosts."{HOST}"]\ntls = "required"\n'
                  f'ports = {[route.imap.port, smtp.port]}\n')
    yield Route(route.imap, smtp, route.folder)
    smtp.stop()


def started(cli, folder: Path, net: Route, *observers: str) -> tuple[Path, dict]:
    """A 1914 game with both players, the moderator and observers registered, its first
    reports sent; its order keys."""
    folder.mkdir()
    journal = folder / "alpha.jsonl"
    people = [*(f"{side}={a}" for side, a in ADDRESSES.items()),
              *(f"observer={a}" for a in observers)]
    r = cli("new", journal, "--scenario", "1914", "--game-id", "alpha",
            *[a for p in people for a in ("--player", p)],
            "--mail-in", net.source, "--mail-out", net.target)
    assert r.exit_code == 0, r.output
    r = cli("players", journal, "--keys", "--format", "json")
    keys = {p["side"]: p["key"] for p in json.loads(r.stdout)["players"] if p.get("key")}
    assert tick(cli, journal).exit_code == 0
    net.smtp.received.clear()
    return journal, keys


def mail(sender: str, lines: list[str], ident: str, subject: str = "orders") -> bytes:
    return (f"From: {sender}\nTo: {ADDRESSES['moderator']}\nSubject: {subject}\n"
            f"Date: {email.utils.formatdate(1_000_000_000)}\nMessage-ID: {ident}\n"
            f"Content-Type: text/plain; charset=utf-8\n\n" + "\n".join(lines) + "\n"
            ).encode("utf-8")


def tick(cli, journal: Path):
    return cli("tick", journal, "--no-map", "--format", "json")


def received(net: Route) -> list[list[str]]:
    return [tos for _, tos, _ in net.smtp.received]


def test_only_ascii_letters_are_lowered():
    assert address_key(" Kaiser@Example.ORG ") == PLAYER
    for other in (KELVIN, LONG_S, "stra\u00dfe@example.org"):
        assert address_key(other) == other
    assert address_key("J\u00d6RG@example.de") == "j\u00d6rg@example.de"


def test_a_stranger_with_a_kelvin_sign_for_the_k_is_no_player_even_with_his_key(
        cli, net, tmp_path):
    """str.lower() made the sender kaiser@: his mail, with the German's key (anyone who
    saw one of the German's reports has it), was applied as the German's."""
    journal, keys = started(cli, tmp_path / "games", net)
    before = journal.read_bytes()
    net.imap.deliver(net.folder, mail(KELVIN, ["pass", f"Order key: {keys['german']}"],
                                      "<k1@example.org>"))
    r = tick(cli, journal)
    assert r.exit_code == 0, r.output
    assert journal.read_bytes() == before
    (m,) = json.loads(r.stdout)["games"][0]["messages"]
    assert (m["status"], m["side"], m["from"]) == ("rejected", None, KELVIN)
    assert "its sender's address is not one a player of this game registered" in m["reason"]
    # The stranger's answer, at his own address; the German's key from another address is
    # the moderator's to know (tests/test_key_elsewhere.py).
    assert sorted(received(net)) == sorted([[KELVIN], [ADDRESSES["moderator"]]])


def test_a_stranger_with_a_kelvin_sign_gets_a_strangers_answers_not_the_players(
        cli, net, tmp_path):
    """Without a key, his mails were answered at the German's address, within the daily
    quota of a registered address (several a day), each saying only that the key was
    missing; a stranger is answered once a day, at his own address."""
    journal, _ = started(cli, tmp_path / "games", net)
    before = journal.read_bytes()
    for i in range(3):
        net.imap.deliver(net.folder, mail(KELVIN, ["pass"], f"<k{i}@example.org>",
                                          f"Re: [referee alpha #3] orders {i}"))
    r = tick(cli, journal)
    assert r.exit_code == 0, r.output
    assert journal.read_bytes() == before
    said = json.loads(r.stdout)["games"][0]["messages"]
    assert [(m["status"], m["side"], m["from"]) for m in said] == [
        ("rejected", None, KELVIN)] * 3
    assert all("not one a player of this game registered" in m["reason"] for m in said)
    assert ["no reply: one a day at most" in m["reason"] for m in said] == [
        False, True, True]
    assert received(net) == [[KELVIN]]


def test_a_mail_too_large_from_a_kelvin_sign_is_not_answered_as_the_players(
        cli, net, tmp_path):
    """Too large to read, it was answered from its header at the German's address, his
    report inside; a stranger's such mail stays unread for the moderator."""
    journal, _ = started(cli, tmp_path / "games", net)
    before = journal.read_bytes()
    net.imap.deliver(net.folder, mail(KELVIN, ["pass", *["x" * 70] * 20_000],
                                      "<big@example.org>", "[referee alpha #3] orders"))
    r = tick(cli, journal)
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["games"][0]["messages"] == [] and len(doc["unclaimed"]) == 1
    assert journal.read_bytes() == before and received(net) == []


@pytest.mark.parametrize("other", [LONG_S, KELVIN], ids=["long-s", "kelvin"])
def test_a_look_alike_of_a_players_address_may_observe_and_never_orders(
        cli, net, tmp_path, other):
    """casefold() took kaiſer@ and \\u212aaiser@ for kaiser@, so neither could observe a game
    kaiser@ plays; registered, the observer's mail with the German's key is an observer's
    (nothing applied) and the German's own mail is his."""
    journal, keys = started(cli, tmp_path / "games", net, other)
    before = journal.read_bytes()
    net.imap.deliver(net.folder, mail(other, ["pass", f"Order key: {keys['german']}"],
                                      "<o1@example.org>", "[referee alpha #3] orders"))
    r = tick(cli, journal)
    assert r.exit_code == 0, r.output
    (m,) = json.loads(r.stdout)["games"][0]["messages"]
    assert (m["side"], m["from"]) == (None, other) and "observer" in m["reason"]
    assert journal.read_bytes() == before
    assert received(net) == [[other]]
    net.smtp.received.clear()
    net.imap.deliver(net.folder, mail(PLAYER, ["pass", f"Order key: {keys['german']}"],
                                      "<g1@example.org>", "[referee alpha #3] orders"))
    r = tick(cli, journal)
    assert r.exit_code == 0, r.output
    (m,) = json.loads(r.stdout)["games"][0]["messages"]
    assert (m["status"], m["side"]) == ("applied", "german")
    assert sorted(map(tuple, received(net))) == sorted(
        [(PLAYER,), (ADDRESSES["entente"],), (other,)])
