"""A run killed after it wrote a mail into its outbox and before its ledger said so, then a
pass that writes into another outbox: `inbox` run by hand into the moderator's folder,
`tick` into the game's route. A mail is written once under its name in one folder (the name
found there, or in its sent/, is not written again), but the ledger does not say which
folder the killed run wrote into, so the pass into the other folder writes the same mail
again, and the player reads it twice.

Known and not fixed: the fix is the ledger keeping, before a mail is written, the folder
and name it is written under, and a later pass into another folder writing none that the
first folder (or its sent/) holds; but a mail program that takes a mail out of the folder
(`outbox:DIR`) leaves nothing to find, and the owed replies of every mail (inbox.py
write_outbox) share the same gap, so the change is one of the whole outbox, not of held
orders."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from test_held_orders_inbox import _inbox, _mails
from test_waits_on_moderator import held_for_dice

from referee.mail import ledger as ledgermod

ENTENTE = "e@example.org"


def _killed(*args: str, step: str) -> None:
    r = subprocess.run([sys.executable, "-m", "referee", *args],
                       env={**os.environ, ledgermod.FAULT_VARIABLE: step},
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 70, r.stderr


@pytest.mark.xfail(strict=True, reason="a mail written into one outbox by a killed run is "
                   "written again by a pass into another: the ledger keeps no folder")
def test_a_killed_inbox_s_dropped_mail_is_not_written_again_by_tick(tmp_path, cli):
    """The moderator's `inbox` ends the Entente's hold (other orders entered) and is killed
    once the mail telling him is written into its folder, before the ledger forgets the
    hold: the passes of `tick` tell him again, into the game's outbox."""
    j, box, out = held_for_dice(tmp_path, cli)
    _inbox(cli, j, box, tmp_path / "mine")
    assert cli("order", j, "--as", "entente", "retreat fr-c-01 bar_le_duc").exit_code == 0
    later = tmp_path / "later"
    _killed("inbox", str(j), str(box), "--outbox", str(later), "--no-map", step="dropped")
    for _ in range(2):
        cli("tick", j, "--no-map")
    told = [m[:2] for m in _mails(later) + _mails(out)
            if m[2].startswith("The orders of your mail")]
    assert told[:1] == [(ENTENTE, "")], told         # told once at least
    assert len(told) == 1, told


@pytest.mark.xfail(strict=True, reason="a mail written into one outbox by a killed run is "
                   "written again by a pass into another: the ledger keeps no folder")
def test_a_killed_inbox_s_reply_is_not_written_again_by_tick(tmp_path, cli):
    """The moderator's `inbox` holds the Entente's orders and is killed once it wrote his
    answer, before the ledger says it is written: the passes of `tick` answer him again."""
    j, box, out = held_for_dice(tmp_path, cli)
    mine = tmp_path / "mine"
    _killed("inbox", str(j), str(box), "--outbox", str(mine), "--no-map", step="written")
    for _ in range(2):
        cli("tick", j, "--no-map")
    answers = [m[:2] for m in _mails(mine) + _mails(out) if m[1] == "<m1@example.org>"]
    assert answers[:1] == [(ENTENTE, "<m1@example.org>")], answers     # answered at least
    assert len(answers) == 1, answers
