"""A command that needs a game's dice secret and finds none says, in its one line, where it
looked (beside the journal, and where `new --secret-file` put it) and that nothing was
written: a moderator who moved a journal without its secret knows what to put back."""

from __future__ import annotations

import mailbox
from email.message import EmailMessage

import pytest


@pytest.fixture
def moved(tmp_path, cli, monkeypatch):
    """A 1914 game by mail whose journal was moved to another name without its secret."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "box.mbox").write_bytes(b"")
    r = cli("new", "c2.jsonl", "--scenario", "1914", "--game-id", "camp2",
            "--player", "german=hans@example.org", "--player", "entente=joffre@example.net",
            "--mail-in", "box.mbox", "--mail-out", "outbox:out")
    assert r.exit_code == 0, r.output
    (tmp_path / "c2.jsonl").rename(tmp_path / "x.jsonl")
    return tmp_path / "x.jsonl"


def _looked_in(err: str) -> None:
    assert "the dice secret is needed" in err, err
    assert "x.jsonl.secret" in err and "nothing was written" in err, err
    assert len(err.strip().splitlines()) == 1, err


@pytest.mark.parametrize("args", [["players", "--keys"], ["mail", "--out", "outbox:o2"],
                                  ["players", "--set", "german=kaiser@example.org"]])
def test_a_command_that_needs_the_secret_names_where_it_looked(moved, cli, args):
    before = moved.read_bytes()
    r = cli(args[0], moved, *args[1:])
    assert r.exit_code == 2, r.output
    _looked_in(r.stderr)
    assert moved.read_bytes() == before


def test_tick_with_a_mail_and_no_secret_names_where_it_looked(moved, cli):
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "hans@example.org", "ref@example.com", "orders"
    msg["Message-ID"] = "<one@example.org>"
    msg.set_content("pass\n")
    box = mailbox.mbox(str(moved.parent / "box.mbox"))
    box.add(msg)
    box.close()
    before = moved.read_bytes()
    r = cli("tick", moved)
    assert r.exit_code != 0, r.output
    assert "x.jsonl.secret" in r.stdout + r.stderr, r.output
    assert moved.read_bytes() == before
