"""A mail from an address no side registered that carries a side's real order key (whoever
saw one of that side's reports has it): its sender gets a stranger's answer, which never
says the key was right; the run's line says whose key it carried, and the moderator is
mailed once for that key (docs/moderator.md, Players), with the two commands that end it.
The key itself is in no output."""

from __future__ import annotations

import email
import json
from email.policy import default as policy

from test_address_keys import (  # noqa: F401 - net: a fixture
    ADDRESSES,
    mail,
    net,
    received,
    started,
    tick,
)

STRANGER = "hindenburg@gmail.com"


def bodies(route) -> dict[str, str]:
    """Each mail the SMTP server took, by recipient: its decoded text."""
    out = {}
    for _, tos, data in route.smtp.received:
        msg = email.message_from_bytes(data, policy=policy)
        out[tos[0]] = msg.get_body(("plain",)).get_content()
    return out


def test_a_sides_key_from_a_stranger_is_told_once(cli, net, tmp_path):  # noqa: F811
    journal, keys = started(cli, tmp_path / "games", net)
    before = journal.read_bytes()
    net.imap.deliver(net.folder, mail(STRANGER, ["pass", f"Order key: {keys['german']}"],
                                      "<x1@players.example>"))
    r = tick(cli, journal)
    assert r.exit_code == 0, r.output
    assert journal.read_bytes() == before
    (m,) = json.loads(r.stdout)["games"][0]["messages"]
    assert (m["status"], m["side"]) == ("rejected", None)
    assert "it carries the German player's order key, from an address not registered for " \
        "that side (the moderator is told)" in m["reason"], m["reason"]
    assert sorted(received(net)) == [[STRANGER], [ADDRESSES["moderator"]]]
    said = bodies(net)
    stranger, moderator = said[STRANGER], said[ADDRESSES["moderator"]]
    assert "key" not in stranger.casefold(), stranger       # a stranger's answer, as ever
    assert "not one a player of this game registered" in " ".join(stranger.split())
    text = " ".join(moderator.split())
    assert f"A mail from {STRANGER} carried the order key of the German player" in text
    assert "--new-key german" in text and f"--set german={STRANGER}" in text
    for output in (r.stdout, r.stderr or "", *said.values()):
        assert keys["german"] not in output and keys["german"].replace("-", "") not in output

    # Once for that key: a second such mail is told in the run's line alone.
    net.smtp.received.clear()
    net.imap.deliver(net.folder, mail(STRANGER, ["pass", f"Order key: {keys['german']}"],
                                      "<x2@players.example>"))
    r = tick(cli, journal)
    (m,) = json.loads(r.stdout)["games"][0]["messages"]
    assert "(the moderator was told of a mail with this key before)" in m["reason"]
    assert ADDRESSES["moderator"] not in [a for tos in received(net) for a in tos]


def test_a_stranger_without_a_key_is_not_told(cli, net, tmp_path):  # noqa: F811
    journal, _ = started(cli, tmp_path / "games", net)
    net.imap.deliver(net.folder, mail(STRANGER, ["pass", "Order key: AAAA-BBBB-CCCC"],
                                      "<x3@players.example>"))
    r = tick(cli, journal)
    assert r.exit_code == 0, r.output
    assert "order key, from an address" not in r.stdout
    assert ADDRESSES["moderator"] not in [a for tos in received(net) for a in tos]
