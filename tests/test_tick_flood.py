"""A pass of `tick` over a Maildir on this machine holds one message in memory at a time,
however much mail waits there: a flood of strangers' mail (claimed by no game), or of mail
naming a game's tag (claimed by it, and kept on disk until the game's inbox reads it one by
one). What the pass does with the mail is unchanged: the player's orders among the flood
are applied, the strangers' mail is left for the moderator or refused."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

import pytest
from commandclock import START, at
from mailboxes import write_maildir
from memorypeak import peak_of
from sharedgames import kept
from test_tick_index import _folder, records
from test_transport import ADDRESSES, mail

from referee.base.clock import NOW_VARIABLE
from referee.mail import tick as ticking

MESSAGES = 64
FILLER = (b"x" * 75 + b"\n") * 2_700           # 205 kB: a big mail, under the 1 MB limit


def _stranger(i: int, subject: str) -> bytes:
    return (f"From: crowd{i}@bureau.example\nTo: {ADDRESSES['moderator']}\n"
            f"Subject: {subject}\nDate: Sun, 09 Sep 2001 01:46:{i:02d} +0000\n"
            f"Message-ID: <flood{i}@bureau.example>\n\n").encode() + FILLER


def unclaimed_after_a_pass(games: str) -> int:
    """The messages a pass over the folder leaves unclaimed."""
    return len(ticking.tick(Path(games), with_map=False).unclaimed)


def alphas_refusals_after_a_pass(games: str) -> dict:
    """What a pass over the folder refused of the game alpha's mail, and left unclaimed."""
    report = ticking.tick(Path(games), with_map=False)
    (alpha,) = [x for x in report.games if x.game_id == "alpha"]
    return {"refused": sum(m["status"] == "rejected" for m in alpha.messages),
            "unclaimed": len(report.unclaimed)}


@pytest.fixture
def folder(tmp_path_factory, monkeypatch) -> tuple[Path, dict]:
    """What _folder returns: its two games made once a test process (sharedgames.kept) and
    put back at their place for each test, their home's key and marks in the test's home;
    the games' folder's parent is the test's own folder."""
    from conftest import Cli

    def make(place, mp):
        _, made = _folder(Cli(), place, mp)
        return {name: keys for name, (_, keys) in made.items()}

    made = kept(tmp_path_factory.getbasetemp(), "tick-flood", make)
    games = made.back() / "games"
    monkeypatch.setenv(NOW_VARIABLE, at(START))
    return games, {name: (games / f"{name}.jsonl", keys) for name, keys in made.made.items()}


def _flooded(folder, subject: str, messages: int = MESSAGES):
    games, made = folder
    journal, keys = made["alpha"]
    flood = [_stranger(i, subject) for i in range(messages)]
    write_maildir(games.parent / "box-alpha",
                  flood[:8] + [mail("german", keys["german"], ["pass"], "<p1@example.org>")]
                  + flood[8:])
    return games, journal, sum(map(len, flood))


def test_strangers_mail_no_game_claims_is_read_one_message_at_a_time(folder):
    games, journal, size = _flooded(folder, "hello")
    peak, unclaimed = peak_of("test_tick_flood:unclaimed_after_a_pass", str(games))
    assert records(journal)[-1]["order"] == "pass"
    assert unclaimed == MESSAGES          # left for the moderator
    assert peak < size // 2, (peak, size)      # a message's handling, not the flood


def test_mail_naming_a_games_tag_is_kept_on_disk_until_the_game_reads_it(folder):
    games, journal, size = _flooded(folder, "[referee alpha #1] hi")
    peak, told = peak_of("test_tick_flood:alphas_refusals_after_a_pass", str(games))
    assert records(journal)[-1]["order"] == "pass"
    assert told == {"refused": MESSAGES, "unclaimed": 0}
    assert peak < size // 2, (peak, size)      # a message's handling, not the flood


BRIEF = 6          # messages of the brief forms: a pass over one, another, then the rest


def rises_of_passes(work: str, games: str, box: str, *held: str) -> list:
    """A pass over the folder, then for each folder of `held` in turn its messages moved
    into the Maildir `box` and a pass over them: how far each pass raised the memory traced,
    and what it returned (work: a function of this module)."""
    import os
    import tracemalloc

    rises = []
    for folder in ("", *held):
        for name in sorted(os.listdir(Path(folder, "new"))) if folder else ():
            os.rename(Path(folder, "new", name), Path(box, "new", name))
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        found = globals()[work](games)
        rises.append((tracemalloc.get_traced_memory()[1] - before, found))
    return rises


def _flooded_in_turns(folder, tmp_path, subject: str):
    """The game alpha's Maildir with a stranger's message and the German's orders in it;
    held aside, one more message, then BRIEF - 2 more (the flood)."""
    games, made = folder
    journal, keys = made["alpha"]
    flood = [_stranger(i, subject) for i in range(BRIEF)]
    write_maildir(games.parent / "box-alpha", flood[:1] + [
        mail("german", keys["german"], ["pass"], "<p1@example.org>")])
    held = [tmp_path / "one", tmp_path / "flood"]
    for turn, (folder, raws) in enumerate(zip(held, (flood[1:2], flood[2:]))):
        write_maildir(folder, raws)
        for path in (folder / "new").iterdir():    # named after those already in the box
            path.rename(folder / "new" / f"{turn + 2}{path.name}")
    return games, journal, [str(games.parent / "box-alpha"), *map(str, held)], \
        sum(map(len, flood[2:]))


def test_strangers_mail_no_game_claims_is_read_one_message_at_a_time_briefly(
        folder, tmp_path):
    """The flood at BRIEF messages: a pass over the last BRIEF - 2 holds little more than
    the pass before it, over one message, did."""
    games, journal, boxes, size = _flooded_in_turns(folder, tmp_path, "hello")
    _, (_, (one, _), (flood, unclaimed)) = peak_of(
        "test_tick_flood:rises_of_passes", "unclaimed_after_a_pass", str(games), *boxes)
    assert records(journal)[-1]["order"] == "pass"
    assert unclaimed == BRIEF             # left for the moderator
    assert flood - one < size // 2, (flood, one, size)


def test_mail_naming_a_games_tag_is_kept_on_disk_until_the_game_reads_it_briefly(
        folder, tmp_path):
    """The flood at BRIEF messages: a pass over the last BRIEF - 2 holds little more than
    the pass before it, over one message, did."""
    games, journal, boxes, size = _flooded_in_turns(folder, tmp_path,
                                                    "[referee alpha #1] hi")
    _, (_, (one, _), (flood, told)) = peak_of(
        "test_tick_flood:rises_of_passes", "alphas_refusals_after_a_pass", str(games), *boxes)
    assert records(journal)[-1]["order"] == "pass"
    assert told == {"refused": BRIEF - 2, "unclaimed": 0}
    assert flood - one < size // 2, (flood, one, size)


def test_mail_that_cannot_be_kept_for_its_game_is_read_again_on_the_next_pass(
        folder, monkeypatch):
    """A full disk where a pass keeps a game's mail for it: the game says so in one
    problem line, nothing is applied, and the next pass applies the German's orders once."""
    import errno

    from referee.mail import claims
    from referee.store import home

    games, journal, _ = _flooded(folder, "[referee alpha #1] hi", messages=2)
    before = journal.read_bytes()
    real = home.write_new

    def full(path, data, sync=True):
        if path.parent.name == "new" and "incoming" in path.parts:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(path, data, sync)

    monkeypatch.setattr(claims.home, "write_new", full)
    report = ticking.tick(games, with_map=False)
    (problem,) = [p for p in report.problems if p.startswith("alpha:")]
    assert "cannot be kept" in problem and "No space left" in problem
    assert journal.read_bytes() == before
    assert not list(home.data_dir("incoming").glob("*/new/*"))      # nothing left behind
    monkeypatch.setattr(claims.home, "write_new", real)
    for _ in range(2):
        ticking.tick(games, with_map=False)
    assert [r.get("order") for r in records(journal)].count("pass") == 1


@contextmanager
def copies_vanishing(monkeypatch):
    """Meanwhile, a pass's own copy of each message it claimed vanishes as the game's inbox
    reads it."""
    from referee.mail import mailboxes

    real_load = mailboxes.Mailboxes.load

    def load(self, m, parse=True):
        if "incoming" in m.where and m.loc:
            Path(m.loc[0]).unlink(missing_ok=True)
        return real_load(self, m, parse)

    with monkeypatch.context() as patched:
        patched.setattr(mailboxes.Mailboxes, "load", load)
        yield


def _swept_by_another_pass() -> None:
    """What another pass's sweep of `incoming/` does, every private Maildir made to look
    over an hour old."""
    import os
    import time

    from referee.mail import claims
    from referee.store import home

    base = home.data_dir("incoming")
    old = time.time() - 2 * claims.SWEEP_AFTER
    for folder in base.iterdir():
        if folder.is_dir():
            os.utime(folder, (old, old))
    claims._sweep(base)


def test_another_pass_sweeps_no_private_maildir_a_pass_still_uses(folder, monkeypatch):
    """A pass that takes over an hour to reach a game (a flood elsewhere) while another
    pass starts: the other pass's sweep leaves this pass's private Maildirs alone, and the
    German's orders are applied once."""
    games, journal, _ = _flooded(folder, "hello", messages=2)
    real = ticking._handle_mail

    def late(x, spool, games_dir, with_map):
        _swept_by_another_pass()
        assert spool.folder is None or (spool.folder / "new").is_dir()
        return real(x, spool, games_dir, with_map)

    monkeypatch.setattr(ticking, "_handle_mail", late)
    report = ticking.tick(games, with_map=False)
    assert not [p for p in report.problems if p.startswith("alpha:")], report.problems
    assert [r.get("order") for r in records(journal)].count("pass") == 1


def test_a_message_gone_from_the_pass_s_own_copy_is_read_again_next_pass(folder,
                                                                         monkeypatch):
    """The pass's copy of the German's mail vanishes while the game's inbox reads it (a
    sweep by a pass of an older version, a hand in the folder): the game's mail counts as
    unread, with a problem line, and the next pass applies his orders once."""
    games, journal, _ = _flooded(folder, "hello", messages=2)
    with copies_vanishing(monkeypatch):
        report = ticking.tick(games, with_map=False)
    assert any("could not be read back" in p for p in report.problems), report.problems
    assert [r.get("order") for r in records(journal)].count("pass") == 0
    for _ in range(2):
        ticking.tick(games, with_map=False)
    assert [r.get("order") for r in records(journal)].count("pass") == 1


def test_a_sweep_follows_no_link_and_waits_on_no_fifo_put_in_a_lock_s_place(tmp_path):
    """Old private Maildirs whose lock file is a link (to a file not there) or a FIFO: the
    sweep creates nothing through the link and never waits on the FIFO."""
    import os
    import time

    from referee.mail import claims

    base = tmp_path / "incoming"
    linked, piped = base / "linked", base / "piped"
    for folder in (linked, piped):
        (folder / "new").mkdir(parents=True)
    (linked / claims.IN_USE).symlink_to(tmp_path / "elsewhere")
    os.mkfifo(piped / claims.IN_USE)
    old = time.time() - 2 * claims.SWEEP_AFTER
    for folder in (linked, piped):
        os.utime(folder, (old, old))
    claims._sweep(base)
    assert not (tmp_path / "elsewhere").exists()
    assert linked.exists() and not piped.exists()      # a link is left to the moderator
