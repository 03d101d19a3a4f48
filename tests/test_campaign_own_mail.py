"""A campaign's mail comes from the moderator's address when the route sets no --from
(store/mailroute.referee_address), and the mailbox the referee reads is then his. A
moderator who plays a side registers that same address for it, so the referee's mail to
that side comes back into the mailbox it reads, From and To his address, carrying the
side's order key and the orders open to it. From that address alone it is the side's mail;
it is known for the referee's own by the Message-ID the referee marked for the address
(mail/msgids.py), and is then read as nothing and answered by nothing, even when a relay
has dropped the headers that say it is automatic. The side's own mail, with his mail
program's Message-ID, is read as his.

The servers are tests/mailservers.py's, on 127.0.0.1 only."""

from __future__ import annotations

import email
import email.policy
import json

import pytest
from mailservers import route_through
from test_transport import ADDRESSES, mail, records, tick

MODERATOR = ADDRESSES["moderator"]


@pytest.fixture
def net(servers, monkeypatch, tmp_path):
    return route_through(servers, monkeypatch, tmp_path / "user")


def _game(cli, net, tmp_path):
    """A 1914 game whose German is the moderator, at his own address; its journal and keys."""
    folder = tmp_path / "games"
    folder.mkdir()
    journal = folder / "alpha.jsonl"
    r = cli("new", journal, "--scenario", "1914", "--game-id", "alpha",
            "--player", f"german={MODERATOR}", "--player", f"entente={ADDRESSES['entente']}",
            "--player", f"moderator={MODERATOR}", "--mail-in", net.source,
            "--mail-out", net.target)
    assert r.exit_code == 0, r.output
    r = cli("players", journal, "--keys", "--format", "json")
    keys = {p["side"]: p["key"] for p in json.loads(r.stdout)["players"] if p.get("key")}
    return journal, keys


def _stripped(raw: bytes) -> bytes:
    """raw as a relay that drops the headers saying a mail is automatic passes it on."""
    bare = b"".join(x for x in raw.splitlines(keepends=True)
                    if not x.lower().startswith((b"auto-submitted:",
                                                 b"x-auto-response-suppress:")))
    assert bare != raw
    return bare


def _to_german(net, since: int = 0) -> list[bytes]:
    return [raw for _, tos, raw in net.smtp.received[since:] if tos == [MODERATOR]]


def test_the_referee_s_mail_to_the_moderator_s_side_is_never_read_back(cli, net, tmp_path):
    journal, keys = _game(cli, net, tmp_path)
    r = tick(cli, journal)
    assert r.exit_code == 0, r.output
    (report,) = _to_german(net)
    text = email.message_from_bytes(report, policy=email.policy.default)
    assert keys["german"] in text.get_body(("plain",)).get_content()    # what makes it risky
    before, sent = journal.read_bytes(), len(net.smtp.received)
    net.imap.deliver(net.folder, _stripped(report))
    for _ in range(2):
        r = tick(cli, journal)
        assert r.exit_code == 0, r.output
    assert journal.read_bytes() == before, r.output
    assert net.smtp.received[sent:] == [], r.output     # nothing answered, no loop


def test_the_moderator_s_own_mail_for_his_side_is_read_as_his(cli, net, tmp_path):
    """Negative control: the same address, his own mail program's Message-ID, his key."""
    journal, keys = _game(cli, net, tmp_path)
    assert tick(cli, journal).exit_code == 0
    raw = mail("german", keys["german"], ["pass"], "<his-own-1@example.com>")
    net.imap.deliver(net.folder, raw.replace(ADDRESSES["german"].encode(), MODERATOR.encode()))
    r = tick(cli, journal)
    assert r.exit_code == 0, r.output
    assert records(journal)[-1]["order"] == "pass", r.output
