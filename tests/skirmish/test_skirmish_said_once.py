"""A skirmish's mail says once what its reader is asked: under his "Your decision:" line,
his report does not add that the game waits on him alone (card said_once); the report he
prints himself opens with whom the game waits on, as it always did."""

from __future__ import annotations

import email
from email.policy import default

from test_skirmish_mail import BRITISH, GERMAN, mail, mailed_patrol


def test_the_first_mail_says_once_that_the_british_player_is_waited_on(cli, tmp_path,
                                                                       secret_file):
    j = tmp_path / "patrol.jsonl"
    keys = mailed_patrol(cli, j, secret_file)
    box, out = tmp_path / "mail", tmp_path / "out"
    box.mkdir()
    asked = mail(box, 1, GERMAN, keys["german"], "explain 0")     # the British moves first
    assert cli("inbox", j, asked, "--outbox", out).exit_code == 0
    mails = [email.message_from_bytes(p.read_bytes(), policy=default)
             for p in sorted(out.glob("*.eml"))]
    [british] = [m.get_body(("plain",)).get_content() for m in mails if m["To"] == BRITISH]
    assert british.startswith("Your decision: turn 1, movement phase"), british
    assert "Waiting on the British player" not in british, british
    printed = cli("skirmish", "report", j, "--as", "british").stdout
    assert printed.splitlines()[1] == "Waiting on the British player", printed
