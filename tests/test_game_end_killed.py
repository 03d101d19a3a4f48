"""A pass of `tick` killed at each step of the moderator's mail telling him the game is over
(REFEREE_FAULT, a real process ended there), then two passes: one such mail in the outbox
(under a route that sends it, gone once, and in the spool's sent/), and the ledger saying
he was told, as after a pass never killed.

ended: the mail written, the ledger not told (the next pass finds it under its name);
sent: the route took it, it was not yet moved into sent/ (the one window in which a mail
goes twice, docs/design.md "Sent once, but for one window")."""

from __future__ import annotations

import email
import email.policy
import os
import subprocess
import sys

import pytest
from mailboxes import write_maildir
from mailservers import mail_settings
from test_deadlines import new_game
from test_inbox import ADDRESSES

import gamecalls as g
from referee.mail import ledger as ledgermod
from referee.mail import tick as ticking
from referee.table import Table


def _over(tmp_path, cli, target: str):
    """A game whose opening mails went out through target, then over (the German
    surrenders): its journal."""
    journal = new_game(tmp_path, cli)
    box = write_maildir(tmp_path / "box", [])
    assert cli("mail", journal, "--in", str(box), "--out", target).exit_code == 0
    assert cli("tick", journal, "--no-map").exit_code == 0
    assert g.submit(journal, "german", ["surrender"]).rejected is None
    return journal


def _killed_then_twice(cli, journal, step: str | None) -> None:
    if step is not None:
        killed = subprocess.run([sys.executable, "-m", "referee", "tick", str(journal),
                                 "--no-map"], env={**os.environ, ledgermod.FAULT_VARIABLE: step},
                                capture_output=True, text=True, timeout=120)
        assert killed.returncode == 70, killed.stderr
    for _ in range(2):
        r = cli("tick", journal, "--no-map")
        assert r.exit_code == 0, r.output


def _told(journal) -> bool:
    """Whether the ledger says the moderator was told of the record that ended the game."""
    records = Table(journal).records
    ledger = ledgermod.load_ledger(records[0]["game_id"], records[0]["hash"])
    return ledger.get("ended") == records[-1]["hash"]


def _to_moderator(paths) -> list[str]:
    """The Message-IDs of the mails among paths to the moderator."""
    found = [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
             for p in paths]
    return [str(m["Message-ID"]) for m in found if str(m["To"]) == ADDRESSES["moderator"]]


@pytest.mark.parametrize("step", [None, "ended"])
def test_a_pass_killed_at_the_end_mail_into_an_outbox_leaves_one(tmp_path, cli, clock, step):
    out = tmp_path / "out"
    journal = _over(tmp_path, cli, f"outbox:{out}")
    _killed_then_twice(cli, journal, step)
    assert len(_to_moderator(out.glob("ended-*.eml"))) == 1, step
    assert len(_to_moderator(out.glob("*.eml"))) == 1, step
    assert _told(journal), step


@pytest.mark.parametrize("step", [None, "ended", "sent"])
def test_a_pass_killed_at_the_end_mail_through_a_route_sends_it_once(tmp_path, cli, clock,
                                                                      step):
    """Through a route whose command takes each mail (kept here as a file each); under
    `sent` the command took the end mail (the pass's first) and the pass was killed
    before moving it: the rerun gives it again, the same bytes."""
    taken = tmp_path / "taken"
    taken.mkdir()
    script = tmp_path / "sendmail"
    script.write_text(f"#!/bin/sh\ncat > \"$(mktemp '{taken}/m.XXXXXX')\"\n")
    script.chmod(0o700)
    mail_settings(f'[routes.local]\nsendmail = ["{script}", "-t"]\n')
    journal = _over(tmp_path, cli, "route:local")
    opening = set(taken.iterdir())
    _killed_then_twice(cli, journal, step)
    spool = ticking.load_game(journal, None).spool
    assert list(spool.glob("*.eml")) == [], step
    [kept] = _to_moderator((spool / "sent").glob("ended-*.eml"))
    given = _to_moderator(set(taken.iterdir()) - opening)
    assert given == [kept] * (2 if step == "sent" else 1), step
    assert _told(journal), step
