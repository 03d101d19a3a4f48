"""`verify --receipt FOLDER` where the folder holds saved mails (.eml files, as many mail
programs save mail), not a Maildir: each file is a message, read as a Maildir's are
(bounded, never through a FIFO); a FIFO, and a link out of the folder, are passed over
unopened and counted. And --receipt naming something that is there but is no file or
folder (a FIFO, a device) says what it is, in one line."""

from __future__ import annotations

import json
import os

import pytest
from test_receipt_mailbox import _distinct, two_games  # noqa: F401 - a fixture

from referee.mail.mailboxes import MAX_MESSAGE


def test_a_folder_of_saved_mails_is_read_each_file_a_message(two_games, cli, tmp_path):  # noqa: F811
    journal, mails, others, reply = two_games
    folder = tmp_path / "Saved mail"
    folder.mkdir()
    for i, raw in enumerate([*mails, *others, reply]):
        (folder / f"mail {i:02d}.eml").write_bytes(raw)
    (folder / ".index").write_bytes(b"a mail program's own file")
    (folder / "attachments").mkdir()
    (folder / "attachments" / "x.eml").write_bytes(mails[0])    # a folder in it: no mail
    (folder / "again.eml").symlink_to(folder / "mail 00.eml")    # a link in it: read
    outside = tmp_path / "elsewhere.eml"
    outside.write_bytes(mails[0])
    (folder / "out.eml").symlink_to(outside)                     # out of it: not followed
    (folder / "zero.eml").symlink_to("/dev/zero")
    os.mkfifo(folder / "pipe.eml")                               # never opened: no hang
    (folder / "huge.eml").write_bytes(b"x" * (MAX_MESSAGE + 1))
    r = cli("verify", journal, "--receipt", folder)
    assert r.exit_code == 0, r.output
    total = len(mails) + len(others) + 3
    assert (f"mailbox {folder}: {total} mails read, {len(mails) + 1} with a receipt of game "
            f"mailtest, {_distinct(mails)} receipts checked") in r.stdout, r.stdout
    assert (f"{len(others)} of other games, 1 damaged or too large to read, 3 not mail "
            f"files (FIFOs, devices, links out of the folder)") in r.stdout, r.stdout
    out = json.loads(cli("verify", journal, "--receipt", folder, "--format", "json").stdout)
    assert out["mailboxes"][0]["not_files"] == 3 and out["mailboxes"][0]["mails"] == total


def test_an_empty_folder_checks_nothing_in_one_line(two_games, cli, tmp_path):  # noqa: F811
    journal = two_games[0]
    folder = tmp_path / "empty"
    folder.mkdir()
    r = cli("verify", journal, "--receipt", folder)
    assert r.exit_code == 2 and r.stdout == "", r.output
    assert r.stderr.count("\n") == 1 and "no mail in it carries a receipt" in r.stderr


@pytest.mark.parametrize("what", ["fifo", "/dev/zero", "link"])
def test_a_receipt_naming_a_fifo_or_a_device_says_what_it_is(two_games, cli, tmp_path,  # noqa: F811
                                                             what):
    journal = two_games[0]
    named = tmp_path / "named"
    if what == "fifo":
        os.mkfifo(named)
    elif what == "link":
        named.symlink_to("/dev/null")
    else:
        named = what
    r = cli("verify", journal, "--receipt", named)
    assert r.exit_code == 2 and r.stdout == "", r.output
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr
    kind = "a FIFO" if what == "fifo" else "a device"
    assert f"not a regular file or folder ({kind}), so not read" in r.stderr, r.stderr
    assert "no such" not in r.stderr
