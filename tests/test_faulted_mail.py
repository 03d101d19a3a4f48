"""A message the referee fails on is set aside, not its game stopped (referee/mail/
faulted.py): the game's other mail is read and applied, its deadline ruled, the moderator
told once which message failed, its sender that nothing of it was applied; a second pass
does nothing more, and a run killed at each step then run again ends the same. A failure
that is not the message's (a full disk) or that comes once its record is written leaves
it to the next run, as before.

The fault is made: handling.py's reading of the one message whose Message-ID is BOOM
raises (no message the referee really fails on is left to use), in this process by
monkeypatch, in a killed run's process by the same patch before the command line starts.
"""

from __future__ import annotations

import email
import email.policy
import errno
import json
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from test_hostile_mail import mail, new_game, write_mbox
from test_inbox_faults import NOW, _end_state, _use_home
from test_tick_index import START, _folder
from test_transport import ADDRESSES as TICK_ADDRESSES
from test_transport import mail as tick_mail
from test_transport import records
from test_unattended import at

from referee.base.clock import NOW_VARIABLE
from referee.mail import handling
from referee.mail import ledger as ledgermod
from referee.mail import tick as ticking

BOOM = "<boom@potsdam.example.org>"
SAID = "ValueError: a fault no rule foresaw"
FAILED_WORDS = "the referee failed on it, a fault of its own and not of your orders"


@pytest.fixture(autouse=True)
def _clock(monkeypatch):
    monkeypatch.setenv("REFEREE_NOW", NOW)


def _failing(monkeypatch, exc: Exception | None = None, after: bool = False) -> None:
    """Handling the message BOOM alone raises exc (a ValueError): as its lines are read,
    or (after) once its record is written (where forced decisions are closed after it)."""
    def boom(m):
        if m.message_id == BOOM:
            raise exc or ValueError("a fault no rule foresaw")

    real_read, real_close, last = handling._read, handling.close_forced, []

    def read(table, m, *args):
        last[:] = [m]
        if not after:
            boom(m)
        return real_read(table, m, *args)

    def close(table, out):
        real_close(table, out)
        boom(last[0])

    monkeypatch.setattr(handling, "_read", read)
    if after:
        monkeypatch.setattr(handling, "close_forced", close)


def _box(path: Path) -> Path:
    """The German's orders in BOOM (the referee fails on it), then the same orders again in
    a mail of their own (applied)."""
    return write_mbox(path, [mail(mid=BOOM), mail(mid="<m2@potsdam.example.org>",
                                                  date="Sat, 01 Aug 1914 11:05:00 +0100")])


def _inbox(cli, journal: Path, box: Path, outbox: Path):
    r = cli("inbox", journal, box, "--outbox", outbox, "--format", "json")
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)["messages"]


def _bodies(outbox: Path) -> dict[str, str]:
    """Each mail's body by what it answers (In-Reply-To)."""
    out = {}
    for p in sorted(outbox.glob("*.eml")):
        m = email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
        out[str(m.get("In-Reply-To", ""))] = " ".join(m.get_body(("plain",)).get_content()
                                                      .split())
    return out


def test_the_message_failed_on_is_set_aside_and_the_others_are_applied(tmp_path, cli,
                                                                      monkeypatch):
    journal = new_game(cli, tmp_path / "game")
    _failing(monkeypatch)
    box, outbox = _box(tmp_path / "box.mbox"), tmp_path / "out"
    first = _inbox(cli, journal, box, outbox)
    assert [m["status"] for m in first] == ["failed", "applied"], first
    assert SAID in first[0]["reason"] and first[0]["reason"].startswith("set aside:"), first
    assert first[0]["side"] == "german" and first[0]["records"] == []
    assert [r.get("order") for r in records(journal)].count("play offensive") == 1
    # Its sender is told nothing of it was applied, and no word of the error.
    told = _bodies(outbox)[BOOM]
    assert f"your message was not applied: {FAILED_WORDS}" in told.lower(), told
    assert "Applied: nothing." in told and "ValueError" not in told, told
    # Read again: nothing more is done, the failed one is not tried again.
    before = (journal.read_bytes(), sorted(p.name for p in outbox.iterdir()))
    again = _inbox(cli, journal, box, outbox)
    assert [(m["status"], m["new"]) for m in again] == [("known", False)] * 2, again
    assert (journal.read_bytes(), sorted(p.name for p in outbox.iterdir())) == before


def test_a_full_disk_while_reading_leaves_the_message_for_the_next_run(tmp_path, cli,
                                                                      monkeypatch):
    """An OSError is no fault of the message: the run fails as before, and the next one
    (the disk freed) applies it."""
    journal = new_game(cli, tmp_path / "game")
    box, outbox = write_mbox(tmp_path / "box.mbox", [mail(mid=BOOM)]), tmp_path / "out"
    with monkeypatch.context() as patched:
        _failing(patched, exc=OSError(errno.ENOSPC, "No space left on device"))
        r = cli("inbox", journal, box, "--outbox", outbox)
    assert r.exit_code != 0
    assert [m["status"] for m in _inbox(cli, journal, box, outbox)] == ["applied"]


def test_a_fault_once_the_record_is_written_leaves_it_applied_never_set_aside(
        tmp_path, cli, monkeypatch):
    """The journal is the truth: a fault after BOOM's record is written stops the run as
    before; the next run finds it applied and answers it, as after a run without the
    fault."""
    _use_home(monkeypatch, tmp_path / "plain" / "home")
    plain = new_game(cli, tmp_path / "plain" / "game")
    box = write_mbox(tmp_path / "box.mbox", [mail(mid=BOOM)])
    assert [m["status"] for m in _inbox(cli, plain, box, tmp_path / "plain" / "out")] == \
        ["applied"]
    want = _end_state(plain, tmp_path / "plain" / "out")
    _use_home(monkeypatch, tmp_path / "home")
    journal = new_game(cli, tmp_path / "game")
    with monkeypatch.context() as patched:
        _failing(patched, after=True)
        r = cli("inbox", journal, box, "--outbox", tmp_path / "out")
    assert r.exit_code != 0 and "set aside" not in r.output, r.output
    assert records(journal)[-1].get("order") == "play offensive"
    again = _inbox(cli, journal, box, tmp_path / "out")
    assert [(m["status"], m["new"]) for m in again] == [("known", False)], again
    assert _end_state(journal, tmp_path / "out") == want


# ---------------------------------------------------------------- killed at each step

PATCHED = f"""
import sys
from referee.mail import handling
real = handling._read
def _read(table, m, *args):
    if m.message_id == {BOOM!r}:
        raise ValueError("a fault no rule foresaw")
    return real(table, m, *args)
handling._read = _read
from referee.cli.start import console
sys.argv = ["referee", *sys.argv[1:]]
console()
"""


def _run(journal: Path, box: Path, outbox: Path, fault: str | None = None
         ) -> subprocess.CompletedProcess:
    env = {**os.environ, "REFEREE_NOW": NOW}
    if fault:
        env[ledgermod.FAULT_VARIABLE] = fault
    return subprocess.run([sys.executable, "-c", PATCHED, "inbox", str(journal), str(box),
                           "--outbox", str(outbox), "--no-map", "--format", "json"],
                          capture_output=True, text=True, env=env, timeout=120)


def _ended(root: Path, monkeypatch, cli, fault: str | None, runs: int) -> list[tuple]:
    """The end state after each of `runs` runs that follow a first one (killed at `fault`):
    the first in a process of its own, the runs after it in this one, BOOM failing in each
    (as test_inbox_faults.py runs its reruns)."""
    _use_home(monkeypatch, root / "home")
    monkeypatch.setenv("REFEREE_NOW", NOW)
    journal = new_game(cli, root / "game")
    box = _box(root / "box.mbox")
    states = []
    first = _run(journal, box, root / "out", fault)
    assert first.returncode == (70 if fault else 0), first.stderr
    _failing(monkeypatch)
    for _ in range(runs):
        again = cli("inbox", journal, box, "--outbox", root / "out")
        assert again.exit_code == 0, again.output
        states.append(_end_state(journal, root / "out"))
    return states


@pytest.fixture(scope="module")
def set_aside_baseline(tmp_path_factory):
    """What a run without a kill, then one more, leave (the same for every step below)."""
    from conftest import Cli

    with pytest.MonkeyPatch.context() as monkeypatch:
        (state,) = _ended(tmp_path_factory.mktemp("aside"), monkeypatch, Cli(), None, 1)
    records_, ledger, mails = state
    assert "failed" in ledger["handled"].values(), ledger["handled"]
    assert sum(FAILED_WORDS in " ".join(m[3].split()).lower() for m in mails) == 1, mails
    return state


@pytest.mark.parametrize("step", ["applied", "ledger", "reply", "written"])
def test_killed_at_any_step_the_rerun_ends_as_a_run_without_the_kill(
        tmp_path, cli, monkeypatch, set_aside_baseline, step):
    states = _ended(tmp_path, monkeypatch, cli, step, 2)
    assert states == [set_aside_baseline, set_aside_baseline]


# ---------------------------------------------------------------- a pass of tick

def test_a_pass_sets_the_message_aside_rules_the_deadline_and_tells_the_moderator_once(
        cli, tmp_path, monkeypatch):
    """The German's only mail fails after his deadline: the pass reads the game's mail in
    full all the same, so his deadline is ruled missed, and the moderator's problem names
    the message once; the next pass does nothing more of it."""
    games, made = _folder(cli, tmp_path, monkeypatch, "--deadline", "24h")
    journal, keys = made["alpha"]
    from mailboxes import write_maildir

    write_maildir(tmp_path / "box-alpha", [tick_mail("german", keys["german"],
                                                     ["play offensive"], BOOM)])
    _failing(monkeypatch)
    monkeypatch.setenv(NOW_VARIABLE, at(START + timedelta(hours=25)))
    report = ticking.tick(games, with_map=False)
    (alpha,) = [x for x in report.games if x.game_id == "alpha"]
    assert alpha.read is True
    assert [m["status"] for m in alpha.messages] == ["failed"], alpha.messages
    named = [p for p in report.problems if BOOM in p]
    assert len(named) == 1, report.problems
    assert SAID in named[0] and TICK_ADDRESSES["german"] in named[0], named
    assert "referee order" in named[0] and "--as german" in named[0], named
    assert records(journal)[-1]["order"] == "deadline missed"
    assert "play offensive" not in [r.get("order") for r in records(journal)]
    before = journal.read_bytes()
    monkeypatch.setenv(NOW_VARIABLE, at(START + timedelta(hours=26)))
    later = ticking.tick(games, with_map=False)
    assert not [p for p in later.problems if BOOM in p], later.problems
    (alpha,) = [x for x in later.games if x.game_id == "alpha"]
    assert alpha.messages == [] and journal.read_bytes() == before

