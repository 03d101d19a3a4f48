"""A file planted under the name of a mail the referee owes never stops that mail.

A mail the referee owes is written under a name made from what makes it that mail, so that
a run killed after writing it, before its ledger said so, writes no other (named.py). The
names are no secret: whoever can read the journal (or count its records) works one out,
and here the names are foreseen as he would, by running the same pass on a copy of the game
and of the referee home. A file found under such a name, in the outbox or its sent/, is
planted before the pass: empty, a link, a FIFO, a copy of a real mail of another record, a
mail of the right name with other bytes. The pass must still write each mail it owes, the
very bytes the copy's pass wrote, exactly once; the next pass writes none again; and a
run killed between writing a mail and its ledger writes it once in all.
"""

from __future__ import annotations

import email
import email.policy
import os
import shutil
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import forkedruns
import pytest
from test_deadline_one_mail import VERDUN, VERDUN_STEPS
from test_defaults import ADDRESSES, DUE, START, answered, game
from test_hostile_mail import KEYS, mail, new_game, write_mbox

from referee.base.clock import NOW_VARIABLE
from referee.mail.inbox import inbox
from referee.mail.ledger import FAULT_VARIABLE
from referee.mail.msgids import twin_mark
from referee.mail.named import own_name
from referee.mail.reminders import check_deadlines
from referee.store import home as homemod

NOW = START.strftime("%Y-%m-%dT%H:%M:%SZ")
FORMS = ["empty", "link", "fifo", "another mail", "other bytes", "empty in sent"]


@pytest.fixture(autouse=True)
def clock(monkeypatch):
    """Every record and mail is made at START, so that a pass on a copy writes the same
    bytes."""
    monkeypatch.setenv(NOW_VARIABLE, NOW)


def _foreseen(folder: Path, step: Callable[[Path], object]) -> dict[str, bytes]:
    """The mails step (a pass, given the game's folder) writes into folder/out, by name
    (without .eml), as someone who can read the game folder foresees them: the same pass
    run on a copy of the folder and of the referee home."""
    shadow = folder.parent / f"{folder.name}-foreseen"
    shutil.rmtree(shadow, ignore_errors=True)
    home = Path(os.environ["REFEREE_HOME"])
    shutil.copytree(folder, shadow / "game", symlinks=True)
    shutil.copytree(home, shadow / "home", symlinks=True)
    before = {p.name for p in (folder / "out").glob("*.eml")}
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("REFEREE_HOME", str(shadow / "home"))
        homemod._KEY.clear()
        step(shadow / "game")
    homemod._KEY.clear()
    return {p.stem: p.read_bytes() for p in sorted((shadow / "game" / "out").glob("*.eml"))
            if p.name not in before}


def _plant(out: Path, name: str, form: str, real: Path) -> None:
    """A file under the mail's name that is not the mail (real: a mail of the referee's,
    of another record, in the outbox)."""
    path = (out / "sent" if form == "empty in sent" else out) / f"{name}.eml"
    path.parent.mkdir(exist_ok=True)
    if form in ("empty", "empty in sent"):
        path.write_bytes(b"")
    elif form == "link":
        path.symlink_to(real)
    elif form == "fifo":
        os.mkfifo(path)
    elif form == "another mail":
        shutil.copyfile(real, path)
    else:                       # its own name in the Message-ID, the mark another mail's
        path.write_bytes(real.read_bytes().replace(real.stem.encode(), name.encode()))


def _written(out: Path, owed: dict[str, bytes]) -> None:
    """Each mail owed is in the outbox once, as the copy's pass wrote it (its recipient and
    Message-ID; its text may name the journal's path), in a regular file of its own (named
    after it: its name, or its second one)."""
    for name, data in owed.items():
        found = [p for p in out.iterdir() if p.name.startswith(name) and
                 p.name.endswith(".eml") and not p.is_symlink() and p.is_file() and
                 _said(p.read_bytes()) == _said(data)]
        assert len(found) == 1, (name, sorted(p.name for p in out.iterdir()))


def _said(data: bytes) -> tuple[str, str, str]:
    """A mail's recipient, subject and Message-ID."""
    m = email.message_from_bytes(data, policy=email.policy.default)
    return str(m["To"]), str(m["Subject"]), str(m["Message-ID"])


def _listing(out: Path) -> list[str]:
    return sorted(str(p.relative_to(out)) for p in out.rglob("*"))


def _to(data: bytes) -> str:
    return str(email.message_from_bytes(data, policy=email.policy.default)["To"])


def _journal(folder: Path) -> Path:
    [journal] = folder.glob("*.jsonl")
    return journal


def _reports(folder: Path) -> None:
    """A pass's reports owed (as tick writes them after the deadlines)."""
    inbox(_journal(folder), [], folder / "out", with_map=False)


@pytest.mark.parametrize("form", FORMS)
def test_a_file_planted_under_a_report_s_name_does_not_stop_the_report(cli, tmp_path,
                                                                       form):
    folder = tmp_path / "game"
    journal = new_game(cli, folder)
    _reports(folder)                                         # the first reports
    first = sorted((folder / "out").glob("*.eml"))
    assert cli("order", journal, "--as", "german", "pass").exit_code == 0
    owed = _foreseen(folder, _reports)
    assert len(owed) == 2                                    # a report a side
    for name in owed:
        _plant(folder / "out", name, form, first[0])
    _reports(folder)
    _written(folder / "out", owed)
    before = _listing(folder / "out")
    _reports(folder)                                         # nothing owed: nothing new
    assert _listing(folder / "out") == before


def _killed(cli, journal: Path, out: Path, step: str) -> int:
    """The inbox pass with an empty mailbox, a process forked from this one, killed at step."""
    box = write_mbox(journal.parent / "empty.mbox", [])
    return forkedruns.run(forkedruns.command, cli, "inbox", journal, box, "--outbox", out,
                          "--no-map", env={FAULT_VARIABLE: step})


@pytest.mark.parametrize("moved", [False, True])
def test_a_run_killed_after_writing_a_mail_under_its_second_name_does_not_write_it_again(
        cli, tmp_path, moved):
    """Planted files under both reports' names; the run is killed once the first report is
    written (under its second name), before its ledger: the next run writes the other one
    alone, whether the first still waits in the outbox or was moved into its sent/ (a
    sender's way)."""
    folder = tmp_path / "game"
    journal = new_game(cli, folder)
    _reports(folder)
    assert cli("order", journal, "--as", "german", "pass").exit_code == 0
    owed = _foreseen(folder, _reports)
    assert len(owed) == 2
    out = folder / "out"
    earlier = {p.name for p in out.glob("*.eml")}
    for name in owed:
        _plant(out, name, "empty", out)
    assert _killed(cli, journal, out, "written") == 70
    [done] = [p for p in out.glob("*.*.eml")]
    if moved:
        (out / "sent").mkdir(exist_ok=True)
        done.rename(out / "sent" / done.name)
    box = journal.parent / "empty.mbox"
    r = cli("inbox", journal, box, "--outbox", out, "--no-map")    # the next run
    assert r.exit_code == 0, r.output
    everything = [_said(p.read_bytes()) for p in (*out.glob("*.eml"), *out.glob("sent/*.eml"))
                  if p.stat().st_size and p.name not in earlier]
    assert sorted(everything) == sorted(map(_said, owed.values()))


def test_a_file_planted_under_the_moderator_s_key_warning_does_not_stop_it(cli, tmp_path):
    """A side's real order key from an address not his: the moderator's warning is named
    from the game, the side and the sender, all known to the sender."""
    folder = tmp_path / "game"
    new_game(cli, folder)
    _reports(folder)
    thief = "thief@evil.example"
    write_mbox(folder / "box", [mail(thief, f"pass\n\nOrder key: {KEYS['entente']}\n",
                                     mid="<k1@evil.example>")])

    def step(game_folder: Path) -> None:
        inbox(_journal(game_folder), [game_folder / "box"], game_folder / "out",
              with_map=False)

    owed = _foreseen(folder, step)
    warning = {n: d for n, d in owed.items() if _to(d) == "umpire@example.com"}
    assert len(warning) == 1
    for name in owed:
        _plant(folder / "out", name, "empty", folder / "out")
    step(folder)
    _written(folder / "out", owed)


def test_a_file_planted_under_a_skirmish_report_s_name_does_not_stop_it(cli, tmp_path):
    """A skirmish's report is named by the side and the record number alone: no read of
    the journal is needed to foresee it."""
    folder = tmp_path / "game"
    folder.mkdir()
    journal = folder / "g.jsonl"
    r = cli("new", journal, "--game", "skirmish", "--scenario", "patrol",
            "--player", "british=tommy@example.net", "--player", "german=hans@example.org",
            "--player", "moderator=me@example.com")
    assert r.exit_code == 0, r.output
    _reports(folder)
    first = sorted((folder / "out").glob("*.eml"))
    assert cli("skirmish", "order", journal, "--as", "british",
               "move B2 mode=manoeuvre command=yes"
               ).exit_code == 0
    owed = _foreseen(folder, _reports)
    assert owed
    for name in owed:
        _plant(folder / "out", name, "fifo", first[0])
    _reports(folder)
    _written(folder / "out", owed)


def test_planted_files_never_keep_a_side_from_the_mails_of_his_deadline(tmp_path):
    """Under 48h deadlines, reminders at 24h and 2h and the policy default (test_defaults'
    Verdun, the Entente to pay three hits): the report that asks the Entente, his reminder,
    and the notices of the referee's answers at his missed deadline (with the mark that
    says they were told) are each written though a file holds each name before; and the
    deadline is ruled only for a side that was asked."""
    folder = tmp_path / "game"
    folder.mkdir()
    journal = game(folder, "1916", VERDUN_STEPS, **VERDUN)
    out = folder / "out"

    owed = _foreseen(folder, _reports)                        # the reports that ask
    assert ADDRESSES["entente"] in map(_to, owed.values())
    for name in owed:
        _plant(out, name, "empty", out)
    _reports(folder)
    _written(out, owed)
    asking = next(d for d in owed.values() if _to(d) == ADDRESSES["entente"])
    assert b"Wed 25 Nov 18:00 UTC" in asking or b"25 Nov" in asking

    moment = DUE - timedelta(hours=24) + timedelta(minutes=1)

    def remind(game_folder: Path) -> None:
        check_deadlines(_journal(game_folder), game_folder / "out", moment)

    owed = _foreseen(folder, remind)
    assert [_to(d) for d in owed.values()] == [ADDRESSES["entente"]]
    for name in owed:
        _plant(out, name, "link", next(iter(out.glob("*.eml"))))
    remind(folder)
    _written(out, owed)

    def rule(game_folder: Path) -> None:
        check_deadlines(_journal(game_folder), game_folder / "out", DUE)

    before = len(journal.read_text().splitlines())
    owed = _foreseen(folder, rule)
    assert len(owed) == 2, sorted(owed)                       # a notice a side
    for name in owed:
        _plant(out, name, "fifo", out)
    for seq in range(before, before + 8):
        (out / f".deadline-{seq:06d}-told").write_bytes(b"")
    rule(folder)
    assert len(answered(journal, before - 1)) == 3
    _written(out, owed)
    listed = _listing(out)
    rule(folder)
    assert _listing(out) == listed


def test_a_mail_under_its_second_name_is_known_to_the_ledger_by_its_own():
    """The ledger names mails by their names (where each starts, those left in an earlier
    route's folder, those refused for good): a file of a second name reads as its own."""
    name = "deadline-000009-entente-remind-24h-20261125T180000Z"
    mark = twin_mark(name, ADDRESSES["entente"], "defaults")
    assert mark is not None and own_name(f"{name}.{mark}") == name
    assert own_name(name) == name and own_name("0123456789abcdef01234567") == \
        "0123456789abcdef01234567"
