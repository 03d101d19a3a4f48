"""What a mail costs the disk in a pass over a folder of games (tick): the saves of each
game's mail ledger and the fsyncs, counted per mail. A save that would carry nothing new (the
file holds the ledger as it is) is not written, so a mail applied and answered costs two
saves of its game's ledger: the one that makes its handling known before the next message,
and the one after the replies are written; the replies' folder is synced once, before that
save, not once a reply."""

from __future__ import annotations

import os

from test_tick_sharing import _folder, _settings
from test_transport import records

from referee.mail import tick as ticking
from referee.store import home

NAMES = ("alpha", "bravo", "charlie")


def _counted(monkeypatch) -> dict[str, int]:
    """Counters of the ledgers written (each rename onto a .ledger) and of the fsyncs."""
    seen = {"ledger saves": 0, "fsyncs": 0}
    replace, fsync = os.replace, os.fsync

    def counting_replace(src, dst, *args, **kwargs):
        if str(dst).endswith(".ledger"):
            seen["ledger saves"] += 1
        return replace(src, dst, *args, **kwargs)

    def counting_fsync(fd):
        seen["fsyncs"] += 1
        return fsync(fd)

    monkeypatch.setattr(home.os, "replace", counting_replace)
    monkeypatch.setattr(home.os, "fsync", counting_fsync)
    return seen


def test_a_mail_costs_two_ledger_saves_and_no_sync_that_guards_nothing(cli, tmp_path,
                                                                        monkeypatch):
    _settings(1)                    # one process: every write of the pass is counted here
    made = _folder(cli, tmp_path, monkeypatch, NAMES, NAMES)
    before = {n: len(records(made[n][0])) for n in NAMES}
    seen = _counted(monkeypatch)
    report = ticking.tick(tmp_path / "games", with_map=False)
    assert not report.problems
    for name in NAMES:              # each German's pass applied, once
        assert len(records(made[name][0])) == before[name] + 1
    assert [m["status"] for x in report.games for m in x.messages] == ["applied"] * 3
    assert seen["ledger saves"] == 2 * len(NAMES), seen
    # The journal's record, each save's file and folder, each of the two mails written
    # (the German's reply, the other side's report) and their folder once.
    assert seen["fsyncs"] <= 8 * len(NAMES), seen


def test_a_second_pass_over_the_same_mail_writes_no_ledger(cli, tmp_path, monkeypatch):
    """The mail known, nothing new to keep: no ledger is written again."""
    _settings(1)
    _folder(cli, tmp_path, monkeypatch, NAMES, NAMES)
    assert not ticking.tick(tmp_path / "games", with_map=False).problems
    seen = _counted(monkeypatch)
    assert not ticking.tick(tmp_path / "games", with_map=False).problems
    assert seen["ledger saves"] == 0, seen


def test_the_games_mail_of_a_pass_is_kept_in_one_private_folder(cli, tmp_path, monkeypatch):
    """One private folder (made, locked and swept once, removed once) holds every game's
    messages of the pass, each game's in a Maildir of its own; none is left after it."""
    import tempfile

    from referee.mail import claims

    _settings(1)
    _folder(cli, tmp_path, monkeypatch, NAMES, NAMES)
    made = []
    real = tempfile.mkdtemp

    def counted(*args, **kwargs):
        made.append(real(*args, **kwargs))
        return made[-1]

    monkeypatch.setattr(claims.tempfile, "mkdtemp", counted)
    report = ticking.tick(tmp_path / "games", with_map=False)
    assert [m["status"] for x in report.games for m in x.messages] == ["applied"] * 3
    assert len(made) == 1 and not os.path.exists(made[0])
    assert not list(home.data_dir("incoming").iterdir())
