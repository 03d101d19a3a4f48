"""A campaign's journal holding its header alone (no set-up record: nothing is asked, and
nothing ended the game, 3.0) is neither played nor told as over by a mail pass: `tick`
names it in one problem line at every pass, saying what it is and how the moderator puts
it back, mails nobody, and leaves its mail unread; `inbox` refuses it (exit 2). Nothing
tells the moderator to publish the secret of a game that did not end, nor a player that
the game has ended."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_halted_status import _header_alone
from test_inbox import ADDRESSES
from test_signing import mailed_game

from referee.mail import headeralone, routes
from referee.table import Table
from referee.table.campaign_end import end_line, ended

ORDERS = (f"From: {ADDRESSES['german']}\nTo: referee@example.org\n"
          "Subject: [referee signed] orders\nMessage-ID: <alone.1@example.org>\n"
          "Date: Mon, 30 Nov 2026 12:00:00 +0000\n\npass\n").encode()


def _folder(cli, tmp_path: Path, routed: bool) -> tuple[Path, Path, Path]:
    """A mailed game whose first pass mailed its players, then cut back to its header on a
    machine holding no mark of it; routed: its players and mail route registered again (the
    records `players` and `mail` append). A player's mail waits in its mailbox."""
    folder = tmp_path / "games"
    journal, box, out = mailed_game(cli, folder), tmp_path / "signed-box", tmp_path / "out"
    assert cli("tick", folder, "--no-map").exit_code == 0
    for mail in out.glob("*.eml"):
        mail.unlink()
    _header_alone(journal)
    if routed:      # as an earlier version let the moderator do (now refused: see below)
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(routes, "refuse_header_alone", lambda table: None)
            mp.setattr(headeralone, "refuse_header_alone", lambda table: None)
            assert cli("mail", journal, "--in", box, "--out", f"outbox:{out}").exit_code == 0
            assert cli("players", journal, *[a for side, address in ADDRESSES.items()
                                              for a in ("--set", f"{side}={address}")]
                       ).exit_code == 0
    (box / "new" / "1.alone").write_bytes(ORDERS)
    return folder, journal, out


def test_the_end_of_a_journal_with_its_header_alone_is_not_told(cli, tmp_path):
    """Nothing ended the game: no mail to the moderator asks for its secret published, and
    no answer to a player's mail says it ended."""
    _folder_, journal, _out = _folder(cli, tmp_path, routed=True)
    table = Table(journal).whole()
    assert ended(table, journal.name, ("german", "entente")) is None
    assert end_line(table) is None


def test_a_pass_names_a_journal_with_its_header_alone_and_mails_nobody(cli, tmp_path):
    for routed in (True, False):
        folder, journal, out = _folder(cli, tmp_path / str(routed), routed)
        before = journal.read_bytes()
        for _ in range(2):          # at every pass, as a damaged journal is
            r = cli("tick", folder, "--no-map")
            assert r.exit_code == 3, r.output
            [line] = [x for x in r.output.splitlines() if "problem" in x and "signed" in x]
            assert "header alone" in line and "set-up record" in line, line
            assert "Restoring a journal from a backup" in line, line
            assert "no mail target" not in r.output and "game is over" not in r.output
            assert list(out.glob("*.eml")) == [], routed         # nobody is mailed
        assert journal.read_bytes() == before
        doc = json.loads(cli("tick", folder, "--no-map", "--format", "json").stdout)
        assert len(doc["problems"]) == 1 and "header alone" in doc["problems"][0], doc
        assert doc["games"] == [] and doc["unclaimed"] == [], doc
        assert (folder.parent / "signed-box" / "new" / "1.alone").exists()   # left unread


def test_inbox_refuses_a_journal_with_its_header_alone(cli, tmp_path):
    _folder_, journal, out = _folder(cli, tmp_path, routed=True)
    before = journal.read_bytes()
    r = cli("inbox", journal, tmp_path / "signed-box", "--outbox", out)
    assert r.exit_code == 2, r.output
    assert len(r.stderr.strip().splitlines()) == 1 and "set-up record" in r.stderr, r.stderr
    assert "Restoring a journal from a backup" in r.stderr, r.stderr
    assert journal.read_bytes() == before and list(out.glob("*.eml")) == []


def test_watch_names_it_once_while_it_stands(cli, tmp_path):
    """The standing-problems rule of `watch`: named once, not at every pass."""
    from referee.mail.tick import watch

    folder, _journal, out = _folder(cli, tmp_path, routed=True)
    lines: list[str] = []
    waits = iter([False, False, True])
    assert watch(folder, 0, log=lines.append, with_map=False,
                 wait=lambda _s: next(waits)) == 3
    assert len([x for x in lines if "header alone" in x]) == 1, lines
    assert list(out.glob("*.eml")) == []


def test_mail_and_players_refuse_to_append_to_a_journal_with_its_header_alone(cli, tmp_path):
    """A route or a roster record appended to it would begin a game of its own beside the
    backup the moderator must put back: `mail` and `players --set` refuse it in one line,
    exit 2, and write nothing."""
    _folder_, journal, out = _folder(cli, tmp_path, routed=False)
    before = journal.read_bytes()
    for argv in (("mail", journal, "--in", tmp_path / "signed-box", "--out", f"outbox:{out}"),
                 ("players", journal, "--set", f"german={ADDRESSES['german']}")):
        r = cli(*argv)
        assert r.exit_code == 2, (argv[0], r.output)
        assert len(r.stderr.strip().splitlines()) == 1 and "set-up record" in r.stderr, r.stderr
        assert journal.read_bytes() == before
