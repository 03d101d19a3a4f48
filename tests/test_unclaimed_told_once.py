"""Each message no game claims is told to the moderator once, whatever becomes of one game
of the folder meanwhile: a game torn (its journal's last line cut) then repaired changes
which games read the mailbox, so the pass reads its unclaimed mail again, a reading's worth
at a time (mail settings: reading); what it has not read again yet is still there, told of
already. alpha and bravo read one IMAP folder, or one Maildir; time comes from
REFEREE_NOW."""

from __future__ import annotations

import re

from mailservers import mail_settings, servers  # noqa: F401 - the fixture net needs
from test_tick_index import START
from test_tick_sharing import opened
from test_transport import ADDRESSES, HOST, net, new_game  # noqa: F401 - net: a fixture
from test_unattended import at

from referee.base.clock import NOW_VARIABLE

STRANGERS = 5


def _stranger(i: int) -> bytes:
    return (f"From: someone{i}@example.com\nTo: {ADDRESSES['moderator']}\nSubject: hello\n"
            f"Message-ID: <s{i}@example.com>\n\nhello\n").encode()


def _told(output: str) -> int:
    """How many messages the pass told the moderator of as new, unclaimed."""
    found = re.search(r"(\d+) new messages? no game claims", output)
    return int(found.group(1)) if found else 0


def _passes(cli, root, n: int) -> int:
    told = 0
    for _ in range(n):
        told += _told(cli("tick", root / "games", "--no-map").output)
    return told


def _torn_then_repaired(cli, root, journal) -> int:
    """What the passes tell of while the journal is torn, and after it is repaired."""
    with journal.open("a") as fh:
        fh.write('{"actor":"german"')
    told = _passes(cli, root, STRANGERS)
    assert cli("repair", journal).exit_code == 0
    return told + _passes(cli, root, STRANGERS)


def test_on_imap_unclaimed_mail_is_told_once_across_a_repair(cli, net, tmp_path,  # noqa: F811
                                                             monkeypatch):
    monkeypatch.setenv(NOW_VARIABLE, at(START))
    journal, _ = new_game(cli, tmp_path / "games", "alpha", net)
    new_game(cli, tmp_path / "games", "bravo", net)
    mail_settings(f'[hosts."{HOST}"]\nports = {[net.imap.port, net.smtp.port]}\n'
                  f'[reading]\nmessages = 2\n')
    net.imap.deliver(net.folder, *[_stranger(i) for i in range(STRANGERS)])
    assert _passes(cli, tmp_path, STRANGERS) == STRANGERS
    assert _torn_then_repaired(cli, tmp_path, journal) == 0
    assert set(net.imap.seen(net.folder).values()) == {False}    # the moderator's to read


def test_in_a_maildir_unclaimed_mail_is_told_once_across_a_repair(cli, tmp_path, monkeypatch):
    made = opened(cli, tmp_path, monkeypatch, ("alpha", "bravo"))
    for i in range(STRANGERS):
        (tmp_path / "box" / "new" / f"{i}.eml").write_bytes(_stranger(i))
    assert _passes(cli, tmp_path, 2) == STRANGERS
    assert _torn_then_repaired(cli, tmp_path, made["alpha"][0]) == 0
