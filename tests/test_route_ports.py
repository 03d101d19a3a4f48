"""A route whose port the moderator's mail settings do not allow for its host: the refusal
says first to check the port in the route (a route that names none takes its scheme's
standard port, and says so), naming the ports allowed, then how to allow it; nothing is
recorded. Nothing connects anywhere."""

from __future__ import annotations

import pytest
from mailboxes import write_maildir
from mailservers import HOST, USER, mail_settings
from test_mail_settings import new_game

from referee.store.mailsettings import settings_path


@pytest.fixture
def journal(cli, tmp_path):
    mail_settings(f'[hosts."{HOST}"]\nports = [2143, 2587]\n')
    box = write_maildir(tmp_path / "box", [])
    return new_game(cli, tmp_path / "games", "ports", "--mail-in", str(box), "--mail-out",
                    f"outbox:{tmp_path / 'out'}")


def _refused(cli, journal, *args: str) -> str:
    before = journal.read_bytes()
    r = cli("mail", journal, *args)
    assert r.exit_code == 2 and r.stdout == "" and r.stderr.count("\n") == 1, r.output
    assert journal.read_bytes() == before
    return r.stderr.removeprefix("referee: ").rstrip("\n")


def test_a_mistyped_port_is_to_be_checked_in_the_route_first(cli, journal):
    said = _refused(cli, journal, "--out", f"smtp://{USER}@{HOST}:2578")
    assert said == (f"--out: port 2578 is not one your mail settings allow for {HOST} "
                    f"(2143, 2587): check the port in the route; if 2578 is right, add it "
                    f"to the `ports` of [hosts.\"{HOST}\"] in {settings_path()} "
                    f"(docs/moderator.md, Mail settings)"), said


def test_a_route_with_no_port_says_it_takes_the_standard_one(cli, journal):
    said = _refused(cli, journal, "--in", f"imap://{USER}@{HOST}/Games")
    assert said.startswith(f"--in: 'imap://{USER}@{HOST}/Games' names no port, so the "
                           f"referee takes imap's standard port 143, which is not one your "
                           f"mail settings allow for {HOST} (2143, 2587): give the port in "
                           f"the route (imap://{USER}@{HOST}:PORT/...); if 143 is right, "
                           f"add it"), said
