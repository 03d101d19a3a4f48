"""A skirmish read by hand from a mailbox another game shares: a mail whose subject names
the other game ([referee OTHER], the form every mail of the referee's carries, or an
earlier version's [referee OTHER #N]) is that game's, skipped and answered by no one, as
the campaign's inbox skips it; a mail naming this game is read."""

from __future__ import annotations

import json
from email.message import EmailMessage
from email.utils import formatdate

import pytest
from test_skirmish_mail import BRITISH, mailed_patrol


def _mail(folder, subject: str, key: str):
    msg = EmailMessage()
    msg["From"], msg["To"] = BRITISH, "referee@example.com"
    msg["Subject"], msg["Message-ID"] = subject, "<m1@example.org>"
    msg["Date"] = formatdate(1_700_000_000)
    msg.set_content(f"pass\n\nOrder key: {key}\n")
    folder.mkdir()
    path = folder / "1.eml"
    path.write_bytes(bytes(msg))
    return path


@pytest.mark.parametrize("subject", ["Re: [referee alpha] British player, SUMMER 1914",
                                     "Re: [referee alpha #7] British report, SUMMER 1914"])
def test_a_mail_for_another_game_is_skipped_and_not_answered(cli, tmp_path, secret_file,
                                                             subject):
    """The British player plays game alpha too: his mail there (its key alpha's) is not
    refused here for a wrong key, nor answered."""
    j = tmp_path / "patrol.jsonl"
    mailed_patrol(cli, j, secret_file)
    out = tmp_path / "out"
    before = j.read_bytes()
    r = cli("inbox", j, _mail(tmp_path / "mail", subject, "94Y1-KQGC-1DED"), "--outbox", out,
            "--format", "json")
    assert r.exit_code == 0, r.stderr
    (o,) = json.loads(r.stdout)["messages"]
    assert (o["status"], o["reason"]) == ("skipped", "for another game (alpha)"), o
    assert j.read_bytes() == before
    answers = [p for p in out.glob("*.eml") if "In-Reply-To: <m1@example.org>" in p.read_text()]
    assert answers == []


def test_a_mail_naming_this_game_is_read(cli, tmp_path, secret_file):
    """The same mail naming this game's tag, with this game's key: read, and answered."""
    j = tmp_path / "patrol.jsonl"
    keys = mailed_patrol(cli, j, secret_file)
    r = cli("inbox", j, _mail(tmp_path / "mail", "Re: [referee patrol] British player, turn 1",
                              keys["british"]),
            "--outbox", tmp_path / "out", "--format", "json")
    (o,) = json.loads(r.stdout)["messages"]
    assert o["status"] != "skipped", o
