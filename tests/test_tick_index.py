"""The folder index that lets an idle `tick` pass leave a game's journal unopened
(referee/mail/gameindex.py): a pass with no mail and nothing due reads no journal; an
index deleted, truncated, another folder's, or older than a journal is a miss and the pass
does what it does without one; a moderator's order between passes is seen; a reminder
comes at its time; and two passes at once still answer each mail once. The games read a
Maildir and write to an outbox folder; time comes from REFEREE_NOW."""

from __future__ import annotations

import email
import email.policy
import json
import os
import shutil
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from mailboxes import write_maildir
from sharedgames import kept
from test_transport import ADDRESSES, mail, new_game, records
from test_unattended import at
from ticklines import unstamped

from referee.base.clock import NOW_VARIABLE
from referee.mail import gameindex, tickgame, toolarge
from referee.mail import tick as ticking

START = datetime(2026, 11, 23, 18, 0, tzinfo=UTC)


def _folder(cli, tmp_path, monkeypatch, *more: str, mbox: bool = False):
    """A folder of two 1914 games, each reading its own Maildir (or, with mbox, its own
    mbox, empty as a mail program leaves it) into its own outbox, ticked once (the opening
    mails) at START."""
    monkeypatch.setenv(NOW_VARIABLE, at(START))
    games = tmp_path / "games"
    made = {}
    for name in ("alpha", "bravo"):
        box, out = _box(tmp_path, name, [], mbox), tmp_path / f"out-{name}"
        made[name] = new_game(cli, games, name, None, "--mail-in", str(box), "--mail-out",
                              f"outbox:{out}", *more)
    assert cli("tick", games, "--no-map").exit_code == 0
    return games, made


# The folders of games the tests start from, made once a test process: a journal holds its
# mailboxes' absolute paths, and its home the folder's, so each test gets a copy of one made
# at the very place it is copied to (a folder of its own, the same for each of its tests).
def _made_name(more: tuple, mbox: bool) -> str:
    return "-".join(("games", *more, *(["mbox"] if mbox else []))).replace("--", "")


def emptied_place(tmp_path_factory) -> Path:
    """The place the folders of _copied are made at, empty: the test's own folder (the same
    for the tests of every module that starts from _copied)."""
    place = tmp_path_factory.getbasetemp() / "tick-index"
    shutil.rmtree(place, ignore_errors=True)
    place.mkdir()
    return place


@pytest.fixture
def root(tmp_path_factory) -> Path:
    return emptied_place(tmp_path_factory)


def _copied(root: Path, monkeypatch, *more: str, mbox: bool = False):
    """What _folder returns, from a copy of the folder it made once (with `more` and
    `mbox`) put back at its place (root), the home that made it given to the test."""
    from conftest import Cli

    def make(place: Path, mp) -> dict:
        _, made = _folder(Cli(), place, mp, *more, mbox=mbox)
        return {name: keys for name, (_, keys) in made.items()}

    made = kept(root.parent, _made_name(more, mbox), make, place=root)
    games = made.back() / "games"
    monkeypatch.setenv(NOW_VARIABLE, at(START))
    return games, {name: (games / f"{name}.jsonl", keys) for name, keys in made.made.items()}


def _box(tmp_path, name: str, raws: list[bytes], mbox: bool = False):
    """The mailbox of the game `name` with raws added: its Maildir, or its mbox file."""
    if not mbox:
        return write_maildir(tmp_path / f"box-{name}", raws)
    path = tmp_path / f"box-{name}.mbox"
    with open(path, "ab") as fh:
        for raw in raws:
            fh.write(b"From sender@example Mon Nov 23 18:00:00 2026\n" + raw + b"\n")
    return path


def _opened(monkeypatch) -> list[str]:
    """The journals the next passes open to read a game (load_game), by name."""
    seen: list[str] = []
    real = tickgame.load_game

    def counting(journal, games_dir):
        seen.append(journal.name)
        return real(journal, games_dir)

    monkeypatch.setattr(ticking, "load_game", counting)
    return seen


def _mail_pass(tmp_path, name: str, side: str, keys: dict, ident: str) -> None:
    """A player's `pass` with his order key, into the Maildir of the game `name`."""
    write_maildir(tmp_path / f"box-{name}", [mail(side, keys[side], ["pass"], ident)])


def _outbox(tmp_path, name: str) -> list[str]:
    return sorted(p.name for p in (tmp_path / f"out-{name}").glob("*.eml"))


def test_an_idle_pass_opens_no_journal(root, monkeypatch):
    games, _ = _copied(root, monkeypatch)
    ticking.tick(games, with_map=False)                 # the pass that writes the index
    opened = _opened(monkeypatch)
    before = {n: _outbox(root, n) for n in ("alpha", "bravo")}
    report = ticking.tick(games, with_map=False)
    assert opened == [] and not report.problems
    assert {n: _outbox(root, n) for n in ("alpha", "bravo")} == before


@pytest.mark.parametrize("damage", ["deleted", "truncated", "another folder's", "stale"])
def test_a_damaged_or_stale_index_is_a_miss_and_the_pass_does_as_without_one(
        cli, root, monkeypatch, damage):
    games, made = _copied(root, monkeypatch)
    ticking.tick(games, with_map=False)
    where = gameindex._path(games.resolve())
    assert where.is_file()
    if damage == "deleted":
        where.unlink()
    elif damage == "truncated":
        where.write_bytes(where.read_bytes()[:40])
    elif damage == "another folder's":      # signed by this referee, for another folder
        other = (root / "other").resolve()
        gameindex.save(other, gameindex.load(games))
        where.write_bytes(gameindex._path(other).read_bytes())
    else:           # the moderator orders by hand between passes: the journal moves on
        r = cli("order", made["alpha"][0], "--as", "german", "pass")
        assert r.exit_code == 0, r.output
    opened = _opened(monkeypatch)
    ticking.tick(games, with_map=False)
    assert "alpha.jsonl" in opened


def test_a_moderators_order_between_passes_is_told_to_the_players(cli, root,
                                                                   monkeypatch):
    games, made = _copied(root, monkeypatch)
    ticking.tick(games, with_map=False)
    before = _outbox(root, "alpha")
    journal = made["alpha"][0]
    assert cli("order", journal, "--as", "german", "pass").exit_code == 0
    ticking.tick(games, with_map=False)
    told = set(_outbox(root, "alpha")) - set(before)
    readers = {email.message_from_bytes((root / "out-alpha" / n).read_bytes())["To"]
               for n in told}
    assert ADDRESSES["entente"] in readers          # the German's pass is news to him


def test_a_mail_to_an_indexed_game_is_applied_and_answered(root, monkeypatch):
    games, made = _copied(root, monkeypatch)
    ticking.tick(games, with_map=False)
    journal, keys = made["bravo"]
    _mail_pass(root, "bravo", "german", keys, "<i1@example.org>")
    ticking.tick(games, with_map=False)
    assert records(journal)[-1]["order"] == "pass"


def test_a_game_reading_an_emptied_mbox_has_its_deadline_ruled(root, monkeypatch):
    """An mbox a mail program has emptied (no byte in it) holds no message: the pass reads
    it in full, and the German's missed deadline is ruled, through the index as an idle
    pass leaves it (the quiet it notes ends at the deadline)."""
    games, made = _copied(root, monkeypatch, "--deadline", "24h", mbox=True)
    journal = made["alpha"][0]
    assert (root / "box-alpha.mbox").stat().st_size == 0
    ticking.tick(games, with_map=False)         # the copy's index is stale: a pass writes it
    assert gameindex.load(games)
    monkeypatch.setenv(NOW_VARIABLE, at(START + timedelta(hours=25)))
    report = ticking.tick(games, with_map=False)
    assert not [p for p in report.problems if "could not be read" in p], report.problems
    assert records(journal)[-1]["order"] == "deadline missed"


def test_a_reminder_comes_at_its_time_past_idle_passes(root, monkeypatch):
    """Deadlines of 48h with a reminder 24h before: idle passes before it send nothing;
    the pass at the reminder's time sends it."""
    games, _ = _copied(root, monkeypatch, "--deadline", "48h", "--reminders", "24h")
    before = _outbox(root, "alpha")
    for hours in (1, 2, 23):
        monkeypatch.setenv(NOW_VARIABLE, at(START + timedelta(hours=hours)))
        ticking.tick(games, with_map=False)
    assert _outbox(root, "alpha") == before
    monkeypatch.setenv(NOW_VARIABLE, at(START + timedelta(hours=24, minutes=1)))
    ticking.tick(games, with_map=False)
    new = set(_outbox(root, "alpha")) - set(before)
    texts = [(root / "out-alpha" / n).read_text() for n in new]
    assert texts and any("remind" in t.lower() for t in texts)


def test_two_passes_at_once_answer_each_mail_once(root, monkeypatch):
    games, made = _copied(root, monkeypatch)
    ticking.tick(games, with_map=False)
    journal, keys = made["alpha"]
    _mail_pass(root, "alpha", "german", keys, "<i2@example.org>")
    before = set(_outbox(root, "alpha"))
    runs = [subprocess.Popen([sys.executable, "-m", "referee", "tick", str(games), "--no-map"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            for _ in range(2)]
    for run in runs:
        run.communicate(timeout=120)
    assert [r.get("order") for r in records(journal)].count("pass") == 1
    new = set(_outbox(root, "alpha")) - before
    to_german = [n for n in new if email.message_from_bytes(
        (root / "out-alpha" / n).read_bytes())["To"] == ADDRESSES["german"]]
    assert len(to_german) == 1



def test_watch_serves_a_game_made_and_forgets_one_moved_away_while_it_runs(cli, tmp_path,
                                                                           monkeypatch):
    """One `watch` process, no restart: a game made in the folder between two passes is
    served at the next (its opening mails sent, a mail to it applied), and a game moved out
    of the folder is no longer read (its mail is left for the moderator), with no problem
    line for either."""
    monkeypatch.setenv(NOW_VARIABLE, at(START))
    games, box = tmp_path / "games", write_maildir(tmp_path / "box", [])

    def route(name: str) -> tuple[str, ...]:
        return "--mail-in", str(box), "--mail-out", f"outbox:{tmp_path / f'out-{name}'}"

    alpha, alpha_keys = new_game(cli, games, "alpha", None, *route("alpha"))
    lines: list[str] = []
    waits: list[float] = []
    sent_to_alpha: list[int] = []

    def between_passes(seconds: float) -> bool:
        waits.append(seconds)
        if len(waits) == 1:
            sent_to_alpha.append(len(_outbox(tmp_path, "alpha")))
            _, keys = new_game(cli, games, "bravo", None, *route("bravo"))
            (box / "new" / "b.eml").write_bytes(
                mail("german", keys["german"], ["pass"], "<b1@example.org>"))
            alpha.rename(tmp_path / "alpha.jsonl")
            (box / "new" / "a.eml").write_bytes(
                mail("german", alpha_keys["german"], ["pass"], "<a1@example.org>"))
        return len(waits) == 2

    assert ticking.watch(games, 30.0, log=lines.append, with_map=False,
                         wait=between_passes) == 2
    lines = unstamped(lines)
    assert not [ln for ln in lines if ln.startswith("problem")], lines
    assert any(ln.startswith("bravo: applied") and "b.eml" in ln for ln in lines), lines
    assert any(ln.startswith("1 new message no game claims") for ln in lines), lines
    assert len(_outbox(tmp_path, "alpha")) == sent_to_alpha[0] == 2     # its opening reports
    sent = {str(m["To"]): m for m in (
        email.message_from_bytes((tmp_path / "out-bravo" / name).read_bytes(),
                                 policy=email.policy.default)
        for name in _outbox(tmp_path, "bravo"))}
    assert sorted(sent) == sorted([ADDRESSES["german"], ADDRESSES["entente"]])
    assert "German: pass" in sent[ADDRESSES["german"]].get_body(("plain",)).get_content()
    assert records(tmp_path / "alpha.jsonl")[-1]["order"] != "pass"
    assert records(games / "bravo.jsonl")[-1]["order"] == "pass"


@pytest.mark.parametrize("renamed", ["journal", "folder"])
def test_names_in_bytes_that_are_not_utf8_are_served_and_indexed(cli, root, monkeypatch,
                                                                 renamed):
    """A file name is bytes: a journal or a folder whose name is not UTF-8 (Python holds
    such a name with lone surrogates) is served like any other, and its index is kept, so
    that the next idle pass opens no journal."""
    games, made = _copied(root, monkeypatch)
    if renamed == "journal":
        for tail in (b"", b".secret"):
            os.rename(os.fsencode(games / "alpha.jsonl") + tail,
                      os.fsencode(games) + b"/alpha\xff.jsonl" + tail)
    else:
        os.rename(os.fsencode(games), os.fsencode(root) + b"/g\xe9mes")
        games = Path(os.fsdecode(os.fsencode(root) + b"/g\xe9mes"))
    r = cli("tick", games, "--no-map")
    assert r.exit_code == 0, r.output
    assert gameindex.load(games)
    opened = _opened(monkeypatch)
    report = ticking.tick(games, with_map=False)
    assert opened == [] and not report.problems
    keys = made["alpha"][1]
    _mail_pass(root, "alpha", "german", keys, "<u1@example.org>")
    report = ticking.tick(games, with_map=False)
    assert not report.problems, report.problems
    journal = next(games.glob("alpha*.jsonl"))
    assert records(journal)[-1]["order"] == "pass"


def test_a_fifo_in_a_journals_place_is_no_fingerprint_and_never_waits(tmp_path):
    """The folder is listed, then read: a FIFO put in a journal's place between the two
    (anyone who can write the folder can) gives no fingerprint, at once, instead of
    waiting for a writer that never comes."""
    import threading

    fifo = tmp_path / "swapped.jsonl"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(gameindex.fingerprint(fifo)),
                              daemon=True)
    reader.start()
    reader.join(timeout=10)
    waited = reader.is_alive()
    if waited:                      # let the blocked reader go before failing
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        reader.join(timeout=10)
    assert not waited and got == [None]


def test_a_file_name_with_a_line_end_cannot_forge_a_line_of_the_pass(cli, root,
                                                                     monkeypatch):
    """Anyone who can write the folder can name a file as he likes: a name holding a line
    end that reads like a line of the pass is shown escaped, its problem one line."""
    games, _ = _copied(root, monkeypatch)
    forged = "alpha: applied  fake (german): records 99"
    (games / f"z\n{forged}\n.jsonl").write_text("junk\n")
    r = cli("tick", games, "--no-map")
    assert r.exit_code == 3
    lines = unstamped(r.stdout) + r.stderr.splitlines()
    assert forged not in lines
    problems = [line for line in lines if "junk" in line or "z\\n" in line]
    assert problems and all("\\n" in line and forged in line for line in problems)


def test_a_file_over_any_journals_size_is_read_no_further_and_the_others_are_served(
        cli, root, monkeypatch):
    """A planted file over the most a journal may hold (a sparse one costs its planter no
    disk) is one problem line, read no further than that most plus a byte, and every other
    game of the folder is served."""
    from referee.store import home
    from referee.store import journal as journals

    games, made = _copied(root, monkeypatch)
    with open(games / "huge.jsonl", "wb") as fh:
        fh.truncate(journals.MOST_BYTES + (1 << 20))
    asked = []
    real = home.read_up_to
    monkeypatch.setattr(home, "read_up_to", lambda fd, limit: asked.append(limit) or
                        real(fd, limit))
    _mail_pass(root, "alpha", "german", made["alpha"][1], "<h1@example.org>")
    r = cli("tick", games, "--no-map")
    assert r.exit_code == 3
    problems = [line for line in r.output.splitlines() if "huge.jsonl" in line and
                "warning" not in line]
    assert problems and all("larger than 64 MB" in line for line in problems), r.output
    assert journals.MOST_BYTES in asked
    assert records(made["alpha"][0])[-1]["order"] == "pass"


def _large(side_or_stranger: str, ident: str, size: int = 1_100_000) -> bytes:
    """A mail over the size limit (a photo, say): a player's, or a stranger's."""
    sender = ADDRESSES.get(side_or_stranger, side_or_stranger)
    return (f"From: {sender}\nTo: {ADDRESSES['moderator']}\nSubject: photo\n"
            f"Message-ID: {ident}\n\n").encode() + (b"x" * 75 + b"\n") * (size // 76)


@pytest.mark.parametrize("mbox", [False, True], ids=["maildir", "mbox"])
def test_a_strangers_mail_over_the_limit_does_not_stay_a_deadline(root, monkeypatch,
                                                                   mbox):
    """Anyone can mail the referee a message too large to read: from a stranger, it is left
    for the moderator, and the German's missed deadline is still ruled; from the German,
    it is answered from its header, once, as from IMAP; from an mbox as from a Maildir
    (a stranger's mail of 17 MB there too)."""
    games, made = _copied(root, monkeypatch, "--deadline", "24h", mbox=mbox)
    journal = made["alpha"][0]
    _box(root, "alpha", [_large("spam@bureau.example", "<big1@x.example>",
                                    17 << 20 if mbox else 1_100_000),
                             _large("german", "<big2@example.org>")], mbox)
    before = set(_outbox(root, "alpha"))
    seqs = len(records(journal))
    monkeypatch.setenv(NOW_VARIABLE, at(START + timedelta(hours=25)))
    for _ in range(2):
        report = ticking.tick(games, with_map=False)
    assert not [p for p in report.problems if "could not be read" in p], report.problems
    assert [r.get("order") for r in records(journal)[seqs:]].count("deadline missed") == 1
    answers = [email.message_from_bytes((root / "out-alpha" / n).read_bytes(),
                                        policy=email.policy.default)
               for n in set(_outbox(root, "alpha")) - before]
    too_large = [m for m in answers
                 if "over the 1 MB" in m.get_body(("plain",)).get_content()]
    assert [m["To"] for m in too_large] == [ADDRESSES["german"]]
    assert all("bureau" not in m["To"] for m in answers)


def _reads(monkeypatch) -> list[str]:
    """The message files the next passes read, by place."""
    from referee.mail import mailboxes

    read: list[str] = []
    real = mailboxes._one_file
    monkeypatch.setattr(mailboxes, "_one_file",
                        lambda path, where: read.append(where) or real(path, where))
    return read


def test_a_maildirs_old_mail_is_not_read_again_and_the_idle_pass_stays_idle(
        root, monkeypatch):
    """A Maildir keeps every mail it was given: once a pass dealt with them (a player's,
    applied; a stranger's, left to the moderator and told of once), an idle pass reads
    none of them and opens no journal."""
    games, made = _copied(root, monkeypatch)
    _mail_pass(root, "alpha", "german", made["alpha"][1], "<k1@example.org>")
    write_maildir(root / "box-bravo", [mail("german", "NOT-A-KEY", ["hello"], "<s1@x>")
                                           .replace(ADDRESSES["german"].encode(),
                                                    b"spam@bureau.example")])
    first = ticking.tick(games, with_map=False)
    assert records(made["alpha"][0])[-1]["order"] == "pass"
    assert len(first.unclaimed) == 1
    ticking.tick(games, with_map=False)             # writes the index of the games
    opened, read = _opened(monkeypatch), _reads(monkeypatch)
    report = ticking.tick(games, with_map=False)
    assert opened == [] and read == [] and not report.problems
    assert report.unclaimed == first.unclaimed       # still listed, not read


@pytest.mark.parametrize("change", ["edited", "memory planted"])
def test_a_known_maildir_file_is_read_again_when_anything_changed_and_applied_once(
        root, monkeypatch, change):
    """What a pass knows of a Maildir's files is a cache: a file edited in place, or the
    cache itself planted or spoilt, and the files are read again; a mail applied is still
    applied once (its game's ledger holds it)."""
    from referee.mail import unclaimed

    games, made = _copied(root, monkeypatch)
    journal, keys = made["alpha"]
    _mail_pass(root, "alpha", "german", keys, "<k2@example.org>")
    ticking.tick(games, with_map=False)
    count = len(records(journal))
    (mine,) = list((root / "box-alpha" / "new").iterdir())
    if change == "edited":
        mine.write_bytes(mine.read_bytes() + b"\n")
    else:
        for kept in home_files(unclaimed):
            kept.write_bytes(b"referee-signed 1\n" + b"0" * 64 + b"\n{}")
    read = _reads(monkeypatch)
    ticking.tick(games, with_map=False)
    assert [place for place in read if place.endswith(mine.name)]
    assert len(records(journal)) == count
    assert [r.get("order") for r in records(journal)].count("pass") == 1


def test_a_strangers_mail_is_read_again_when_the_games_reading_the_maildir_change(
        cli, root, monkeypatch):
    """A mail no game claimed may be a game's that comes to read the Maildir later: it is
    known only while the same games read it."""
    games, _ = _copied(root, monkeypatch)
    stranger = mail("german", "NOT-A-KEY", ["hello"], "<s2@x>").replace(
        ADDRESSES["german"].encode(), b"spam@bureau.example")
    write_maildir(root / "box-alpha", [stranger])
    ticking.tick(games, with_map=False)
    read = _reads(monkeypatch)
    ticking.tick(games, with_map=False)
    assert read == []
    new_game(cli, games, "charlie", None, "--mail-in", str(root / "box-alpha"),
             "--mail-out", f"outbox:{root / 'out-charlie'}")
    ticking.tick(games, with_map=False)
    assert len(set(read)) == 1


def home_files(unclaimed) -> list:
    """The files in which passes keep what they know of Maildirs."""
    return list(unclaimed.home.data_dir("mailboxes").glob("*.files"))


def test_a_stray_file_of_one_unended_line_is_no_journal_and_no_repair_is_offered(
        cli, root, monkeypatch):
    """A file in the folder that holds no complete line is no journal: the pass says so on
    one line, without offering `referee repair` (which could keep nothing of it), and the
    other games are served."""
    games, made = _copied(root, monkeypatch)
    (games / "notes.jsonl").write_bytes(b"shopping list")
    _mail_pass(root, "alpha", "german", made["alpha"][1], "<n1@example.org>")
    r = cli("tick", games, "--no-map")
    assert r.exit_code == 3
    said = [line for line in r.output.splitlines() if "notes.jsonl" in line and
            "warning" not in line]
    assert said and all("not a journal" in line and "repair" not in line for line in said)
    assert records(made["alpha"][0])[-1]["order"] == "pass"
    r = cli("repair", games / "notes.jsonl")
    assert r.exit_code == 3 and "not a journal" in r.output


def _backed_up_then_mailed(cli, root, monkeypatch, ident: str):
    """The folder of two games, alpha's journal copied aside after its opening pass, then
    the German's `pass` put in its Maildir: (games, alpha's journal, its copy, its keys)."""
    import shutil

    games, made = _copied(root, monkeypatch)
    journal, keys = made["alpha"]
    ticking.tick(games, with_map=False)
    backup = root / "alpha-backup.jsonl"
    shutil.copy2(journal, backup)
    _mail_pass(root, "alpha", "german", keys, ident)
    return games, journal, backup, keys


def _put_back(backup, journal) -> None:
    """The moderator's restore on purpose: the copy over the journal, and the referee's
    marks of what it last wrote removed, as a pass tells him to."""
    import shutil

    from referee.store import home

    shutil.copy2(backup, journal)
    for mark in home.data_dir("written").glob("*"):
        mark.unlink()


def _pass_putting_back_before(monkeypatch, step: str, games, backup, journal) -> None:
    """One pass during which the moderator puts the journal back just before tick's `step`
    runs."""
    real = getattr(ticking, step)

    def put_back_first(*args):
        _put_back(backup, journal)
        return real(*args)

    monkeypatch.setattr(ticking, step, put_back_first)
    ticking.tick(games, with_map=False)
    monkeypatch.setattr(ticking, step, real)


def test_a_mail_a_game_took_is_read_again_when_its_journal_is_put_back_to_an_older_copy(
        cli, root, monkeypatch):
    """The moderator puts a game back to a copy from before a player's mail was applied
    (and removes the referee's mark of what it last wrote, as a restore on purpose asks):
    the mail it took is read again and applied again, as the journal no longer holds it."""
    games, journal, backup, _ = _backed_up_then_mailed(cli, root, monkeypatch,
                                                       "<r1@x.org>")
    ticking.tick(games, with_map=False)
    ticking.tick(games, with_map=False)
    assert records(journal)[-1]["order"] == "pass"
    _put_back(backup, journal)
    ticking.tick(games, with_map=False)
    assert records(journal)[-1]["order"] == "pass"
    assert [r.get("order") for r in records(journal)].count("pass") == 1


def test_names_in_the_folder_or_the_maildir_cannot_forge_a_line_of_the_pass(
        cli, root, monkeypatch):
    """Two journals of one game, one named with a line end, and a player's mail in a file
    named with one: every line of the pass names them escaped."""
    import shutil

    games, made = _copied(root, monkeypatch)
    forged = "alpha: applied  forged (german): records 99"
    shutil.copy2(made["bravo"][0], games / f"b\n{forged}\n.jsonl")
    raw = mail("german", made["alpha"][1]["german"], ["pass"], "<f1@example.org>")
    (root / "box-alpha" / "new" / f"m\n{forged}").write_bytes(raw)
    r = cli("tick", games, "--no-map")
    lines = unstamped(r.stdout) + r.stderr.splitlines()
    assert forged not in lines
    assert any("journals hold it" in line and "\\n" in line for line in lines)
    assert any(line.startswith("alpha: applied") and "\\n" in line for line in lines)


@pytest.mark.parametrize("option", ["--mail-in", "--mail-out"])
def test_a_mailbox_named_in_bytes_that_are_not_utf8_is_refused_before_the_game_is_made(
        cli, tmp_path, option):
    """A route is kept in the journal as text: a mailbox or outbox folder whose name is not
    UTF-8 is refused on one line, exit 2, and no journal is left half made."""
    odd = os.fsdecode(os.fsencode(tmp_path) + b"/box\xfe")
    route = {"--mail-in": odd, "--mail-out": f"outbox:{odd}"}
    other = {"--mail-in": str(tmp_path / "box"), "--mail-out": f"outbox:{tmp_path / 'out'}"}
    args = [a for o in ("--mail-in", "--mail-out")
            for a in (o, route[o] if o == option else other[o])]
    journal = tmp_path / "g.jsonl"
    r = cli("new", journal, "--scenario", "1914", "--game-id", "odd", "--player",
            "german=k@example.org", "--player", "entente=j@example.net", *args)
    assert r.exit_code == 2 and "not UTF-8" in r.output, r.output
    assert not journal.exists()


def test_the_moderator_is_told_of_each_unclaimed_message_once_past_two_thousand():
    """Thousands of strangers' mails in the box: each is told of once, not the oldest
    again at every pass."""
    from referee.mail import unclaimed

    places = [f"/box:new/{i}.eml" for i in range(2500)]
    assert unclaimed.not_told("/box", places) == places
    assert unclaimed.not_told("/box", places) == []
    assert unclaimed.not_told("/box", places + ["/box:new/late.eml"]) == ["/box:new/late.eml"]


def test_a_new_strangers_mail_at_the_place_in_an_mbox_of_one_told_of_is_told_of_too(
        root, monkeypatch):
    """An mbox's #N is a position: once the mail program has taken a message out, another
    takes its place. A stranger's mail there is told of once, and a new one at the same
    place is told of too."""
    games, _ = _copied(root, monkeypatch, mbox=True)
    stranger = f"From: spam@bureau.example\nTo: {ADDRESSES['moderator']}\nSubject: hello\n"
    _box(root, "alpha", [(stranger + "Message-ID: <s1@x>\n\nbuy\n").encode()], True)
    assert len(ticking.tick(games, with_map=False).fresh) == 1
    assert ticking.tick(games, with_map=False).fresh == []
    (root / "box-alpha.mbox").write_bytes(b"")        # taken out, and another comes
    _box(root, "alpha", [(stranger + "Message-ID: <s2@x>\n\nsell\n").encode()], True)
    assert [p.split("#")[-1] for p in ticking.tick(games, with_map=False).fresh] == ["1"]
    assert ticking.tick(games, with_map=False).fresh == []


def _marked_read(box, after: bytes) -> None:
    """The mbox as a mail program (mutt, alpine) leaves it once the moderator has read its
    messages: 'Status: RO' added to the header of the one whose header has `after`."""
    box.write_bytes(box.read_bytes().replace(after, after + b"Status: RO\n", 1))


def test_a_strangers_mail_in_an_mbox_marked_read_is_not_told_of_again(root,
                                                                      monkeypatch):
    games, _ = _copied(root, monkeypatch, mbox=True)
    stranger = (f"From: spam@bureau.example\nTo: {ADDRESSES['moderator']}\nSubject: hello\n"
                f"Message-ID: <s1@x>\n\nbuy\n").encode()
    box = _box(root, "alpha", [stranger], True)
    assert len(ticking.tick(games, with_map=False).fresh) == 1
    _marked_read(box, b"Subject: hello\n")
    assert ticking.tick(games, with_map=False).fresh == []


def _too_large_answers(tmp_path, before: set) -> list[str]:
    """Whom the mails written since `before` that say a message was too large went to."""
    got = []
    for name in set(_outbox(tmp_path, "alpha")) - before:
        m = email.message_from_bytes((tmp_path / "out-alpha" / name).read_bytes(),
                                     policy=email.policy.default)
        if "over the 1 MB" in m.get_body(("plain",)).get_content():
            got.append(str(m["To"]))
    return got


@pytest.mark.parametrize("runs", [("tick", "tick"), ("tick", "inbox"), ("inbox", "tick")])
def test_a_players_mail_over_the_limit_in_an_mbox_is_answered_once(cli, root, monkeypatch,
                                                                   runs):
    """The German's mail over the limit is answered by the first run, tick or inbox; the
    moderator then reads it in his mail program, which marks its header read: no second
    answer by either."""
    games, made = _copied(root, monkeypatch, mbox=True)
    journal = made["alpha"][0]
    box = _box(root, "alpha", [_large("german", "<big2@example.org>")], True)
    before = set(_outbox(root, "alpha"))
    for n, run in enumerate(runs):
        if n:
            _marked_read(box, b"Subject: photo\n")
        if run == "tick":
            ticking.tick(games, with_map=False)
        else:
            r = cli("inbox", journal, box, "--outbox", root / "out-alpha", "--no-map")
            assert r.exit_code == 0, r.stderr
        assert _too_large_answers(root, before) == [ADDRESSES["german"]], run


def test_a_players_mail_over_the_limit_answered_by_an_earlier_version_is_not_answered_again(
        cli, root, monkeypatch):
    """Earlier versions knew a message over the limit by its header block only: one they
    answered is known by that to tick and to inbox alike."""
    from referee.mail import mailboxes

    games, made = _copied(root, monkeypatch, mbox=True)
    box = _box(root, "alpha", [_large("german", "<big2@example.org>")], True)
    before = set(_outbox(root, "alpha"))
    with monkeypatch.context() as earlier:
        earlier.setattr(toolarge, "oversize_digests",
                        lambda head: mailboxes.oversize_digests(head)[1:])
        ticking.tick(games, with_map=False)
    assert _too_large_answers(root, before) == [ADDRESSES["german"]]
    r = cli("inbox", made["alpha"][0], box, "--outbox", root / "out-alpha", "--no-map")
    assert r.exit_code == 0, r.stderr
    ticking.tick(games, with_map=False)
    assert _too_large_answers(root, before) == [ADDRESSES["german"]]


def test_an_mbox_replaced_by_a_fifo_after_its_messages_were_counted_is_not_waited_on(
        tmp_path):
    """A message over the limit is measured and its header read from the mbox again after
    the mailbox library counted its messages: a FIFO put in the mbox's place by then is
    read as nothing, never waited on."""
    import threading

    from referee.mail import mailboxes

    fifo = tmp_path / "box.mbox"
    os.mkfifo(fifo)
    read = []
    reader = threading.Thread(target=lambda: read.extend(
        mailboxes._mbox_measure(fifo, 0, 2 << 20)), daemon=True)
    reader.start()
    reader.join(10)
    if reader.is_alive():                   # let the blocked open go, then fail
        with open(fifo, "wb"):
            pass
    assert read == [2 << 20, b""]


def test_a_game_whose_last_record_is_longer_than_the_tail_read_is_indexed_too(
        root, monkeypatch):
    """A journal's last record can be longer than the bytes first read from its end (a
    great battle's): it is read whole then, so that the game is indexed and an idle pass
    opens no journal."""
    monkeypatch.setattr(gameindex, "TAIL", 64)          # shorter than any record
    games, _ = _copied(root, monkeypatch)
    ticking.tick(games, with_map=False)
    opened = _opened(monkeypatch)
    report = ticking.tick(games, with_map=False)
    assert opened == [] and not report.problems


def test_a_journal_put_back_while_the_pass_still_runs_loses_no_mail(cli, root,
                                                                    monkeypatch):
    """The moderator puts the journal back to an older copy while the pass that applied a
    player's mail is still busy with other games' mail: what the pass remembers of the
    file is the journal as the mail left it, so the next pass reads it again."""
    games, journal, backup, _ = _backed_up_then_mailed(cli, root, monkeypatch,
                                                       "<w1@x.org>")
    _pass_putting_back_before(monkeypatch, "taken_now", games, backup, journal)
    assert "pass" not in [r.get("order") for r in records(journal)]
    ticking.tick(games, with_map=False)
    assert [r.get("order") for r in records(journal)].count("pass") == 1


def test_the_mark_of_what_a_game_took_comes_back_from_its_worker(cli, root,
                                                                 monkeypatch):
    """Two games reading one Maildir, a mail for each, the pass sharing them between two
    workers: each game's journal mark, taken in the worker that handled its mail under its
    lock, comes back to the pass, and what the pass remembers of the Maildir names each
    journal as its mail left it."""
    from referee.mail import sharing, unclaimed

    monkeypatch.setattr(ticking, "workers", lambda: 2)
    games, made = _copied(root, monkeypatch)
    box = root / "box-alpha"
    assert cli("mail", made["bravo"][0], "--in", box).exit_code == 0
    ticking.tick(games, with_map=False)
    write_maildir(box, [mail("german", made[name][1]["german"], ["pass"], ident)
                        for name, ident in (("alpha", "<t1@x.org>"), ("bravo", "<t2@x.org>"))])
    started = []
    real = sharing._start
    monkeypatch.setattr(sharing, "_start", lambda share, handle: started.append(
        [x.game_id for x in share]) or real(share, handle))
    ticking.tick(games, with_map=False)
    assert started                                  # a worker handled one of them
    group = [tickgame.load_game(made[name][0], None) for name in ("alpha", "bravo")]
    took, _ = unclaimed.known_files(str(box), unclaimed.readers_of(group))
    assert sorted(entry["mark"] for entry in took.values()) == \
        sorted(gameindex.mark(made[name][0]) for name in ("alpha", "bravo"))


def test_a_mail_whose_journal_could_not_be_marked_after_it_is_read_again_and_applied_once(
        root, monkeypatch):
    """When the journal cannot be read right after a game's mail was handled, the pass does
    not remember the file against the journal as it found it (a copy of that could be put
    back): the next pass reads it again, and its game's ledger answers it once."""
    games, made = _copied(root, monkeypatch)
    journal, keys = made["alpha"]
    ticking.tick(games, with_map=False)
    _mail_pass(root, "alpha", "german", keys, "<m1@example.org>")
    real = gameindex.mark
    monkeypatch.setattr(gameindex, "mark", lambda journal: None)
    ticking.tick(games, with_map=False)
    monkeypatch.setattr(gameindex, "mark", real)
    read = _reads(monkeypatch)
    ticking.tick(games, with_map=False)
    assert [place for place in read if "box-alpha" in place]
    assert [r.get("order") for r in records(journal)].count("pass") == 1


def test_a_journal_put_back_before_its_next_mail_is_handled_loses_no_earlier_mail(
        cli, root, monkeypatch):
    """A mail taken by an earlier pass is judged still held when the pass starts; the
    journal is put back before the game's next mail is handled in that pass: the earlier
    mail is not kept against the journal as the later one left it, and is read again."""
    games, journal, backup, keys = _backed_up_then_mailed(cli, root, monkeypatch,
                                                          "<e1@x.org>")
    ticking.tick(games, with_map=False)
    assert records(journal)[-1]["order"] == "pass"
    (root / "box-alpha" / "new" / "later.eml").write_bytes(
        mail("entente", keys["entente"], ["pass"], "<e2@x.org>"))
    _pass_putting_back_before(monkeypatch, "Mailboxes", games, backup, journal)
    for _ in range(2):
        ticking.tick(games, with_map=False)
    assert [(r.get("actor"), r.get("order")) for r in records(journal)].count(
        ("german", "pass")) == 1


def test_after_a_moderators_order_the_mark_of_what_a_game_took_is_checked_once(
        cli, root, monkeypatch):
    """The moderator orders by hand after a pass took a player's mail: the next pass checks
    once that the grown journal still holds what the mail left, and keeps its new mark,
    so that the passes after it check nothing."""
    games, made = _copied(root, monkeypatch)
    journal, keys = made["alpha"]
    _mail_pass(root, "alpha", "german", keys, "<o1@example.org>")
    ticking.tick(games, with_map=False)
    from referee.cli.hostbench import _asked
    from referee.table import Table

    side, order = _asked(Table(journal))                # an order the game waits for
    assert cli("order", journal, "--as", side, order).exit_code == 0
    checks = []
    real = gameindex.holds
    monkeypatch.setattr(gameindex, "holds", lambda *a: checks.append(a) or real(*a))
    ticking.tick(games, with_map=False)
    assert len(checks) == 1
    checks.clear()
    read = _reads(monkeypatch)
    ticking.tick(games, with_map=False)
    assert checks == [] and read == []


def _export_beside(cli, games: Path, journal: Path, name: str = "entente.jsonl",
                   reader: str = "entente") -> Path:
    """A reader's export of the game (docs/moderator.md: `referee log GAME --as entente
    --format json > entente.jsonl`), saved in the games' folder."""
    r = cli("log", journal, "--as", reader, "--format", "json")
    assert r.exit_code == 0, r.stderr
    (games / name).write_text(r.stdout)
    (games / name).chmod(0o600)
    return games / name


def test_exports_in_the_folder_are_passed_over_on_one_line_and_are_no_problem(
        cli, root, monkeypatch):
    """The game-over mail has the moderator export each side's log, and the public's, with
    `referee log ... --format json > SIDE.jsonl`; run in the games' folder (as the cron line
    of the docs runs tick), they land beside the games. A pass knows them for exports: no
    game, no problem (it exits 0, its tally counts the games only), one plain line naming
    them all, and no warning to make private the public export it is meant to hand out."""
    games, made = _copied(root, monkeypatch)
    exports = [_export_beside(cli, games, made["alpha"][0], f"{reader}.jsonl", reader)
               for reader in ("entente", "german", "public")]
    exports[-1].chmod(0o644)                        # the public's, for anyone to read
    _mail_pass(root, "alpha", "german", made["alpha"][1], "<x1@example.org>")
    r = cli("tick", games, "--no-map")
    assert r.exit_code == 0, r.output
    lines = unstamped(r.stdout)
    assert [ln for ln in lines if ".jsonl" in ln and "alpha.jsonl" not in ln] == [
        "passed   entente.jsonl, german.jsonl and public.jsonl: redacted exports (`referee "
        "log --format json`), not games: no game is played from them"], r.stdout
    assert lines[-1] == "2 games: all handled", r.stdout
    assert "problem" not in r.output and "chmod" not in r.stderr, r.output
    assert records(made["alpha"][0])[-1]["order"] == "pass"
    assert any(ln.startswith("alpha: applied") for ln in lines), r.stdout
    r = cli("tick", games, "--no-map", "--format", "json")
    doc = json.loads(r.stdout)
    assert r.exit_code == 0 and doc["ok"] and doc["problems"] == [], r.output
    assert doc["exports"] == [str(p) for p in exports]


def test_an_export_named_alone_is_no_game_to_tick(cli, root, monkeypatch):
    """`tick EXPORT`: a file asked for as a game that is an export is a problem, said so."""
    games, made = _copied(root, monkeypatch)
    export = _export_beside(cli, games, made["alpha"][0])
    r = cli("tick", export, "--no-map")
    assert r.exit_code == 3, r.output
    assert [ln for ln in unstamped(r.stdout) if "entente.jsonl" in ln] == [
        f"problem  {export}: a redacted export of game alpha (`referee log --format json`), "
        f"not a game's journal: no game is played from it; keep exports out of this "
        f"folder"], r.stdout


def test_a_damaged_file_in_the_folder_is_named_once_on_its_line(cli, root, monkeypatch):
    """A file of the folder that is no sound journal: its line names it once, then why."""
    games, _ = _copied(root, monkeypatch)
    (games / "notes.jsonl").write_text("my notes\n")
    (games / "notes.jsonl").chmod(0o600)
    r = cli("tick", games, "--no-map")
    assert r.exit_code == 3, r.output
    (line,) = [ln for ln in unstamped(r.stdout) if "notes.jsonl" in ln]
    assert line.startswith(f"problem  {games / 'notes.jsonl'}: record 0") and \
        line.count("notes.jsonl") == 1, line


def test_watch_names_an_export_in_the_folder_once_while_it_stays(cli, root, monkeypatch):
    """watch names the export at its first pass, not again at each pass while it stays;
    once it is gone and back, again."""
    games, made = _copied(root, monkeypatch)
    export = _export_beside(cli, games, made["alpha"][0])
    kept = root / "kept.jsonl"
    lines: list[str] = []
    waits: list[float] = []

    def between_passes(seconds: float) -> bool:
        waits.append(seconds)
        if len(waits) == 2:
            export.rename(kept)
        if len(waits) == 3:
            kept.rename(export)
        return len(waits) == 4

    assert ticking.watch(games, 30.0, log=lines.append, with_map=False,
                         wait=between_passes) == 4
    assert [ln for ln in unstamped(lines) if "redacted export" in ln] == [
        "passed   entente.jsonl: a redacted export (`referee log --format json`), not a "
        "game: no game is played from it"] * 2, lines
    assert not [ln for ln in unstamped(lines) if ln.startswith("problem")], lines
