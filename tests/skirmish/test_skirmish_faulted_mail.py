"""A skirmish mail the referee fails on is set aside as a campaign's is (mail/faulted.py),
not its game stopped: the game's other mail is taken, its sender told that nothing of it
was recorded (no word of the error), the moderator told once by the pass which message and
the skirmish's command that enters its orders; a second pass does nothing more, and a run
killed at each step then run again ends as a run without the kill.

The fault is made: the kind's taking of the one mail whose Message-ID is BOOM raises (no
mail the skirmish's path really fails on was found), in this process by monkeypatch, in a
killed run's process by the same patch before the command line starts.
"""

from __future__ import annotations

import email
import json
import os
import subprocess
import sys
from email.policy import default
from pathlib import Path

import pytest
from test_inbox_faults import _use_home
from test_skirmish_mail import BRITISH, mail, mailed_patrol
from test_skirmish_one_mail_a_pass import Route

from referee.mail.faulted import TOLD_HIM
from referee.mail.ledger import FAULT_VARIABLE
from referee.mail.refusal import NOT_RECORDED
from referee.table.skirmish.kind import SkirmishKind

BOOM = "<m1@example.org>"          # the first mail mail() writes
SAID = "ValueError: a fault no rule foresaw"
TOLD = ("Nothing of your mail was recorded: the referee failed on it, a fault of its own "
        "and not of your orders")
MOVES = ("move B2 mode=manoeuvre command=yes", "move B3 mode=stealthy command=yes", "done")
NOW = "2026-11-23T12:00:00Z"


def _failing(monkeypatch) -> None:
    real = SkirmishKind.take_mail

    def take_mail(self, table, side, lines, message_id, content=""):
        if message_id == BOOM:
            raise ValueError("a fault no rule foresaw")
        return real(self, table, side, lines, message_id, content)

    monkeypatch.setattr(SkirmishKind, "take_mail", take_mail)


def _game(cli, root: Path, secret_file) -> tuple[Path, list[Path]]:
    """A patrol played by mail, and its mailbox: the British moves in BOOM (the referee
    fails on it), then the same moves again in a mail of their own (applied)."""
    j, folder = root / "patrol.jsonl", root / "mail"
    key = mailed_patrol(cli, j, secret_file)["british"]
    folder.mkdir()
    return j, [mail(folder, n, BRITISH, key, *MOVES) for n in (1, 2)]


def _inbox(cli, j: Path, box: list[Path], out: Path, *more: str) -> list[dict]:
    r = cli("inbox", j, *box, "--outbox", out, "--format", "json", *more)
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)["messages"]


def _text(p: Path) -> str:
    body = email.message_from_bytes(p.read_bytes(), policy=default).get_body(("plain",))
    return " ".join(body.get_content().split())


def _orders(j: Path) -> list[str]:
    return [json.loads(x).get("order", "") for x in j.read_text().splitlines()]


def test_the_mail_failed_on_is_set_aside_and_the_next_one_applied(cli, tmp_path,
                                                                   secret_file, monkeypatch):
    j, box = _game(cli, tmp_path, secret_file)
    _failing(monkeypatch)
    out = tmp_path / "out"
    first = _inbox(cli, j, box, out)
    assert [(m["status"], m["side"]) for m in first] == [("failed", "british"),
                                                         ("applied", "british")], first
    assert first[0]["reason"].startswith("set aside:") and SAID in first[0]["reason"]
    assert first[0]["records"] == [] and first[1]["records"] == [1, 2, 3]
    assert _orders(j).count(MOVES[0]) == 1
    answers = {email.message_from_bytes(p.read_bytes())["In-Reply-To"]: _text(p)
               for p in out.glob("*.eml")}
    told = answers[BOOM]
    assert told.startswith(TOLD) and "ValueError" not in told, told
    assert answers["<m2@example.org>"].startswith("Your mail was recorded: #1"), answers
    before = (j.read_bytes(), sorted(p.name for p in out.iterdir()))
    again = _inbox(cli, j, box, out)
    assert [(m["status"], m["new"]) for m in again] == [("done", False)] * 2, again
    assert (j.read_bytes(), sorted(p.name for p in out.iterdir())) == before


def test_a_pass_sets_it_aside_and_tells_the_moderator_once(cli, tmp_path, secret_file,
                                                           monkeypatch):
    route = Route(cli, tmp_path, secret_file)
    route.post("british", *MOVES)
    route.post("british", *MOVES)
    _failing(monkeypatch)
    r = cli("tick", route.j, "--no-map", "--format", "json")
    doc = json.loads(r.stdout)
    (game,) = doc["games"]
    assert [(m["status"], m["side"]) for m in game["messages"]] == \
        [("failed", "british"), ("applied", "british")], game["messages"]
    named = [p for p in game["problems"] if BOOM in p]
    assert len(named) == 1 and SAID in named[0] and BRITISH in named[0], game["problems"]
    assert f"`referee skirmish order {route.j} 'ORDER' --as british`" in named[0], named
    mails = route.mails()
    assert [_text_of(m).startswith(TOLD) for m in mails[BRITISH]] == [True, False], mails
    later = json.loads(cli("tick", route.j, "--no-map", "--format", "json").stdout)
    (game,) = later["games"]
    assert game["messages"] == [] and not [p for p in game["problems"] if BOOM in p]
    assert not route.mails()


def _text_of(m) -> str:
    return " ".join(m.get_body(("plain",)).get_content().split())


# ---------------------------------------------------------------- killed at each step

PATCHED = f"""
import sys
from referee.table.skirmish.kind import SkirmishKind
real = SkirmishKind.take_mail
def take_mail(self, table, side, lines, message_id, content=""):
    if message_id == {BOOM!r}:
        raise ValueError("a fault no rule foresaw")
    return real(self, table, side, lines, message_id, content)
SkirmishKind.take_mail = take_mail
from referee.cli.start import console
sys.argv = ["referee", *sys.argv[1:]]
console()
"""


def _run(j: Path, box: list[Path], out: Path, fault: str | None = None
         ) -> subprocess.CompletedProcess:
    env = {**os.environ, "REFEREE_NOW": NOW, **({FAULT_VARIABLE: fault} if fault else {})}
    return subprocess.run([sys.executable, "-c", PATCHED, "inbox", str(j), *map(str, box),
                           "--outbox", str(out), "--no-map", "--format", "json"],
                          capture_output=True, text=True, env=env, timeout=120)


def _end_state(j: Path, out: Path) -> tuple:
    """The journal's orders and each answer: what it answers and its first sentence."""
    answers = sorted((str(email.message_from_bytes(p.read_bytes())["In-Reply-To"]),
                      _text(p).split(".")[0]) for p in out.glob("**/*.eml"))
    return _orders(j), answers


def _ended(root: Path, cli, monkeypatch, secret_file, fault: str | None) -> tuple:
    """The end state after each of two inbox runs that follow a first one, killed at the
    step `fault` in a process of its own, or (None) run here whole. Each run here fails on
    BOOM as the killed one's patch does."""
    _use_home(monkeypatch, root / "home")
    monkeypatch.setenv("REFEREE_NOW", NOW)
    j, box = _game(cli, root, secret_file)
    _failing(monkeypatch)
    if fault:
        first = _run(j, box, root / "out", fault)
        assert first.returncode == 70, first.stderr
    else:
        _inbox(cli, j, box, root / "out", "--no-map")
    states = []
    for _ in range(2):
        _inbox(cli, j, box, root / "out", "--no-map")
        states.append(_end_state(j, root / "out"))
    return states


@pytest.mark.parametrize("step", ["direct applied", "direct answered", "reply", "written"])
def test_killed_at_any_step_the_rerun_ends_as_a_run_without_the_kill(
        tmp_path, cli, monkeypatch, secret_file, step):
    want, same = _ended(tmp_path / "plain", cli, monkeypatch, secret_file, None)
    assert want == same
    orders, answers = want
    assert orders.count(MOVES[0]) == 1
    assert [a for a in answers if a[0] == BOOM] == [(BOOM, f"{NOT_RECORDED}: {TOLD_HIM}")], \
        answers
    assert _ended(tmp_path / "killed", cli, monkeypatch, secret_file, step) == [want, want]
