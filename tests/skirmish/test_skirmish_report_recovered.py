"""A skirmish pass killed once it wrote a player's answer, before its ledger was saved; a
test recorded before the next pass (the moderator's order for the other side): the next
pass finds the answer written (it stands, and is not written again) and must not count
the test since as sent to him. It did: the ledger marked the journal's last record as
his last report, and his report of the other side's fire at his own figure never came."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from test_skirmish_mail import BRITISH, GERMAN, UMPIRE, mail, mailed_patrol
from test_skirmish_report_since import _listed, _pass

from referee.mail import ledger as ledgermod

RANGED = "range=70 state=halted cover=none command=yes"


def _killed_once_answered(journal, message, out) -> None:
    """An inbox run killed once it wrote the answer to message, before its ledger saved."""
    killed = subprocess.run([sys.executable, "-m", "referee", "inbox", str(journal),
                             str(message), "--outbox", str(out)],
                            env={**os.environ, ledgermod.FAULT_VARIABLE: "direct answered"},
                            capture_output=True, text=True, timeout=120)
    assert killed.returncode == 70, killed.stderr


def test_a_test_recorded_after_a_killed_answer_reaches_its_player(cli, tmp_path,
                                                                   secret_file):
    j = tmp_path / "patrol.jsonl"
    keys = mailed_patrol(cli, j, secret_file, "--player", f"moderator={UMPIRE}")
    box = tmp_path / "mail"
    box.mkdir()
    b, g = keys["british"], keys["german"]
    _pass(cli, j, tmp_path / "out1", *[
        mail(box, 1, BRITISH, b, "move B2 mode=manoeuvre command=yes",
             "move B3 mode=stealthy command=yes", "done"),
        mail(box, 2, GERMAN, g, "move G2 mode=stealthy command=yes", "done"),
        mail(box, 3, BRITISH, b, "done"), mail(box, 4, GERMAN, g, "done")])  # veterans
    fire = mail(box, 7, BRITISH, b, f"fire B1 at=G2 {RANGED}")          # record 8
    out = tmp_path / "out2"
    _killed_once_answered(j, fire, out)
    r = cli("order", j, "--as", "german", f"fire G3 at=B2 {RANGED}")     # record 9
    assert r.exit_code == 0, r.output
    mails = _pass(cli, j, out, fire)
    listed = [n for body in mails[BRITISH] for n in _listed(body)[1]]
    assert 9 in listed, mails[BRITISH]
    assert [_listed(body)[1] for body in mails[GERMAN]] == [[8, 9]]


def test_an_answer_a_killed_run_wrote_and_that_went_out_is_not_written_again(cli, tmp_path,
                                                                             secret_file):
    """The answer a run killed before its ledger was saved wrote, then sent (moved into the
    outbox's sent/, as a route's sending does, or taken by the moderator's mail program):
    the next pass answers that mail again, and must find the answer gone out, as a
    campaign's named mails are found. It wrote it anew, and the player got it twice."""
    j = tmp_path / "patrol.jsonl"
    keys = mailed_patrol(cli, j, secret_file)
    box = tmp_path / "mail"
    box.mkdir()
    move = mail(box, 1, BRITISH, keys["british"], "move B2 mode=manoeuvre command=yes")
    out = tmp_path / "out"
    _killed_once_answered(j, move, out)
    (answer,) = out.glob("*.eml")
    (out / "sent").mkdir()
    answer.rename(out / "sent" / answer.name)
    r = cli("inbox", j, move, "--outbox", out, "--format", "json")
    assert r.exit_code == 0, r.stderr
    assert not (out / answer.name).exists()
    # Taken by the run killed, which kept in its ledger the answer it owed: this run writes
    # that answer, and finds it written.
    assert [m["status"] for m in json.loads(r.stdout)["messages"]] == ["done"]


def test_an_answer_a_killed_run_wrote_into_one_outbox_is_not_written_into_another(
        cli, tmp_path, secret_file):
    """The answer a run killed before its ledger was saved wrote into the moderator's folder;
    the next run writes into another (the game's route, say): it finds the answer in the
    first, as the ledger keeps the folders its mails went into, and writes it no second
    time."""
    j = tmp_path / "patrol.jsonl"
    keys = mailed_patrol(cli, j, secret_file)
    box = tmp_path / "mail"
    box.mkdir()
    move = mail(box, 1, BRITISH, keys["british"], "move B2 mode=manoeuvre command=yes")
    first, other = tmp_path / "first", tmp_path / "other"
    _killed_once_answered(j, move, first)
    (answer,) = first.glob("*.eml")
    r = cli("inbox", j, move, "--outbox", other, "--format", "json")
    assert r.exit_code == 0, r.stderr
    assert not (other / answer.name).exists()
    # Taken by the run killed, which kept in its ledger the answer it owed: this run writes
    # that answer, and finds it written.
    assert [m["status"] for m in json.loads(r.stdout)["messages"]] == ["done"]
