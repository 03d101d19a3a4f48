"""A pass of `tick` killed at one of its steps (REFEREE_FAULT: a real process that ends
there, with what it held in memory), and the outbox it leaves read back as a list of mails
that a pass never killed can be compared with."""

from __future__ import annotations

import email
import email.policy
import os
import re
import subprocess
import sys
from pathlib import Path

from mailkinds import first_line

from referee.mail import ledger as ledgermod

KILLED = 70                 # the exit status of a process ended at its fault step


def killed_tick(journal: Path, step: str, *args: str) -> subprocess.CompletedProcess:
    """`referee tick journal --no-map` in a process of its own, ended at step."""
    return subprocess.run([sys.executable, "-m", "referee", "tick", str(journal), "--no-map",
                           *args], env={**os.environ, ledgermod.FAULT_VARIABLE: step},
                          capture_output=True, text=True, timeout=120)


def outbox_mails(out: Path) -> list[tuple[str, str, str]]:
    """Each mail of the outbox: to whom, what it answers, what it is (its first line's
    words before the first colon or comma), sorted."""
    found = [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
             for p in out.glob("*.eml")]
    return sorted((str(m["To"]), str(m.get("In-Reply-To", "")),
                   re.split("[:,]", first_line(m))[0]) for m in found)
