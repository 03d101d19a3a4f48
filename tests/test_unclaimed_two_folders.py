"""Two folders of games reading one mailbox (a game moved to a second folder), their passes
taken in turn: a message no game of either claims is told to the moderator once, by
whichever pass sees it first; a message a game of the other folder claims is never left
for him, not even when this folder's pass sees it before the other folder's game takes it;
and a game removed once it has handled its mail does not make that mail unclaimed. alpha
reads the mailbox from games/, bravo from games2/: a Maildir, an mbox or an IMAP folder;
time comes from REFEREE_NOW."""

from __future__ import annotations

import re

import pytest
from mailservers import mail_settings, servers  # noqa: F401 - the fixture net needs
from test_tick_index import START
from test_transport import ADDRESSES, HOST, mail, net, new_game  # noqa: F401 - net: a fixture
from test_unattended import at

from referee.base.clock import NOW_VARIABLE

STRANGERS = 3
KINDS = ("maildir", "mbox", "imap")


def _stranger(i: int) -> bytes:
    return (f"From: someone{i}@example.com\nTo: {ADDRESSES['moderator']}\nSubject: hello\n"
            f"Message-ID: <s{i}@example.com>\n\nhello\n").encode()


class _Box:
    """The one mailbox both folders read, of a kind."""

    def __init__(self, kind: str, root, request):
        self.kind, self.root, self.n = kind, root, 0
        if kind == "imap":
            self.net = request.getfixturevalue("net")
            mail_settings(f'[hosts."{HOST}"]\nports = {[self.net.imap.port, self.net.smtp.port]}\n')
        elif kind == "maildir":
            for sub in ("cur", "new", "tmp"):
                (root / "box" / sub).mkdir(parents=True, exist_ok=True)
        else:
            (root / "box.mbox").write_bytes(b"")

    def route(self, name: str) -> tuple:
        if self.kind == "imap":
            return (self.net, )
        where = self.root / ("box" if self.kind == "maildir" else "box.mbox")
        return (None, "--mail-in", str(where), "--mail-out", f"outbox:{self.root / name}")

    def deliver(self, *raws: bytes) -> None:
        if self.kind == "imap":
            self.net.imap.deliver(self.net.folder, *raws)
            return
        for raw in raws:
            self.n += 1
            if self.kind == "maildir":
                (self.root / "box" / "new" / f"17000{self.n:03d}.M{self.n}P1.mx").write_bytes(raw)
            else:
                with open(self.root / "box.mbox", "ab") as fh:
                    fh.write(b"From sender@example Mon Nov 23 18:00:00 2026\n" + raw + b"\n")


def _told(cli, folder) -> int:
    """One pass over the folder: how many messages it told the moderator of as new."""
    r = cli("tick", folder, "--no-map")
    found = re.search(r"(\d+) new messages? no game claims", r.output)
    return int(found.group(1)) if found else 0


@pytest.fixture(params=KINDS)
def two(request, cli, tmp_path, monkeypatch):
    """alpha in games/, bravo in games2/, one mailbox, each folder ticked once."""
    monkeypatch.setenv(NOW_VARIABLE, at(START))
    box = _Box(request.param, tmp_path, request)
    made = {"alpha": new_game(cli, tmp_path / "games", "alpha", *box.route("out-alpha")),
            "bravo": new_game(cli, tmp_path / "games2", "bravo", *box.route("out-bravo"))}
    for folder in ("games", "games2"):
        assert cli("tick", tmp_path / folder, "--no-map").exit_code == 0
    return box, made


def test_passes_in_turn_tell_each_unclaimed_message_once_and_handled_ones_never(
        cli, tmp_path, two):
    box, made = two
    box.deliver(*[_stranger(i) for i in range(STRANGERS)],
                mail("german", made["alpha"][1]["german"], ["pass"], "<a1@example.org>"),
                mail("german", made["bravo"][1]["german"], ["pass"], "<b1@example.org>"))
    told = [_told(cli, tmp_path / folder) for folder in ("games", "games2") * 3]
    assert told == [STRANGERS, 0, 0, 0, 0, 0]
    # bravo's next mail, seen first by the pass over games/: not left for the moderator.
    box.deliver(mail("entente", made["bravo"][1]["entente"], ["pass"], "<b2@example.org>"))
    assert _told(cli, tmp_path / "games") == 0
    assert [_told(cli, tmp_path / folder) for folder in ("games2", "games", "games2")] == \
        [0, 0, 0]


def test_a_game_removed_after_its_mail_was_handled_leaves_none_unclaimed(cli, tmp_path, two):
    box, made = two
    box.deliver(mail("german", made["alpha"][1]["german"], ["pass"], "<a1@example.org>"),
                _stranger(0))
    assert [_told(cli, tmp_path / folder) for folder in ("games", "games2")] == [1, 0]
    (tmp_path / "archive").mkdir()
    for p in (tmp_path / "games").glob("alpha.jsonl*"):
        p.rename(tmp_path / "archive" / p.name)
    assert [_told(cli, tmp_path / folder) for folder in ("games", "games2") * 2] == \
        [0, 0, 0, 0]
