"""Durable, honest writes: a failed write leaves the journal as it was, and says so."""

from __future__ import annotations

import errno
import json
import os
import resource
import signal
import subprocess
import sys

import pytest

from referee.store import home
from referee.store import journal as jm


def _half_then_full(monkeypatch):
    """Make the next journal write put half its bytes on disk, then fail: no space left."""
    real = os.write

    def write_all(fd, data):
        real(fd, bytes(data[: len(data) // 2]))
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(jm.home, "write_all", write_all)


def test_a_full_disk_during_order_leaves_the_journal_byte_identical(game, cli, monkeypatch):
    before = game.read_bytes()
    _half_then_full(monkeypatch)
    r = cli("order", game, "--as", "german", "pass", "end turn")
    assert r.exit_code == 3
    assert "No space left on device" in r.stderr and "nothing was written" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert game.read_bytes() == before
    monkeypatch.undo()
    assert cli("order", game, "--as", "german", "pass").exit_code == 0
    assert cli("verify", game).exit_code == 0


def _limited(size: int):
    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    return limit


@pytest.mark.skipif(not hasattr(resource, "RLIMIT_FSIZE"), reason="POSIX file size limit")
def test_a_real_short_write_is_cut_back(game, referee_home):
    """The kernel refuses the bytes past a file size limit, as a full disk would."""
    before = game.read_bytes()
    env = {**os.environ, "REFEREE_HOME": str(referee_home)}
    r = subprocess.run([sys.executable, "-m", "referee", "order", str(game), "--as", "german",
                        "pass", "end turn"], env=env, capture_output=True, text=True,
                       preexec_fn=_limited(len(before) + 40))
    assert r.returncode == 3, r.stderr
    assert "nothing was written" in r.stderr and "Traceback" not in r.stderr
    assert game.read_bytes() == before


def test_repair_on_a_full_disk_changes_nothing_and_leaves_no_backup(game, cli, monkeypatch):
    torn = game.read_bytes() + b'{"seq":2,"at":"2026'
    game.write_bytes(torn)

    def no_space(path, data, sync=True):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(jm.home, "write_new", no_space)
    r = cli("repair", game)
    assert r.exit_code == 3 and "backup could not be written" in r.stderr
    assert "nothing was changed" in r.stderr
    assert game.read_bytes() == torn
    assert not list(game.parent.glob("*.bak"))
    monkeypatch.undo()
    r = cli("repair", game)
    assert r.exit_code == 0 and list(game.parent.glob("*.bak"))


def test_repair_never_writes_through_a_planted_symlink(game, cli, monkeypatch, tmp_path):
    target = tmp_path / "precious.txt"
    target.write_text("keep me")
    game.write_bytes(game.read_bytes() + b'{"torn')
    monkeypatch.setattr(jm, "now", lambda: "2026-01-01T00:00:00Z")
    planted = game.with_name(f"{game.name}.2026-01-01T000000Z.bak")
    planted.symlink_to(target)
    r = cli("repair", game)
    assert r.exit_code == 0, r.stderr
    assert target.read_text() == "keep me"
    backups = [p for p in game.parent.glob("*.bak") if not p.is_symlink()]
    assert len(backups) == 1 and backups[0].read_bytes().endswith(b'{"torn')


def test_temporary_files_never_follow_a_planted_symlink(tmp_path, monkeypatch):
    target = tmp_path / "precious.txt"
    target.write_text("keep me")
    folder = tmp_path / "f"
    folder.mkdir()
    monkeypatch.setattr(home, "_tag", lambda: "abcd")
    (folder / f"x.{os.getpid()}.abcd.tmp").symlink_to(target)
    assert home.replace_atomically(folder / "x", b"data") is False
    assert target.read_text() == "keep me"


def test_stray_temporary_files_are_swept(tmp_path):
    folder = tmp_path / "snapshots"
    folder.mkdir()
    stray = folder / "abc.state.123.dead.tmp"
    stray.write_bytes(b"half")
    os.utime(stray, (1, 1))
    fresh = folder / "abc.state.456.live.tmp"
    fresh.write_bytes(b"being written")
    assert home.write_signed(folder / "abc.state", {"kind": "x"})
    assert not stray.exists() and fresh.exists()


def test_a_folder_is_swept_once_an_hour_not_at_each_write(tmp_path, monkeypatch):
    """A host's snapshot folder holds thousands of files: reading it whole at every write
    made each game's write cost as much as the games of the folder. A process that runs on
    sweeps it again an hour later."""
    folder = tmp_path / "snapshots"
    folder.mkdir()
    read = []
    real = os.scandir
    monkeypatch.setattr(home.os, "scandir", lambda path: read.append(path) or real(path))
    for n in range(5):
        assert home.write_signed(folder / f"g{n}.state", {"kind": "x"})
    assert read == [folder]
    monkeypatch.setitem(home._SWEPT, folder, home._SWEPT[folder] - 3601)   # an hour on
    assert home.write_signed(folder / "g9.state", {"kind": "x"})
    assert read == [folder, folder]


def test_new_puts_the_secret_on_disk_before_the_journal_exists(tmp_path, cli, monkeypatch):
    journal = tmp_path / "war.jsonl"
    steps = []
    real_write, real_sync = home.write_new, home.sync_dir

    def write_new(path, data, sync=True):
        steps.append(("write", path.name, sync, journal.exists()))
        return real_write(path, data, sync)

    def sync_dir(folder):
        steps.append(("sync dir", folder.name, None, journal.exists()))
        return real_sync(folder)
    monkeypatch.setattr(home, "write_new", write_new)
    monkeypatch.setattr(home, "sync_dir", sync_dir)
    assert cli("new", journal, "--scenario", "1914").exit_code == 0
    names = [s[:2] for s in steps]
    secret_at = names.index(("write", "war.jsonl.secret"))
    assert steps[secret_at][2] is True                       # fsynced
    assert names[secret_at + 1] == ("sync dir", tmp_path.name)
    assert not steps[secret_at + 1][3]                       # ... before the journal exists
    journal_at = names.index(("write", "war.jsonl"))
    assert journal_at > secret_at + 1 and names[journal_at + 1] == ("sync dir", tmp_path.name)


def test_new_with_players_and_deadlines_is_made_whole_or_not_at_all(tmp_path, cli,
                                                                    monkeypatch):
    """Guards against: the players and deadline settings were appended once the journal was
    made; a disk full (or any fault) between the two writes left a game without players
    beside its secret, and `new` again said 'already exists'. The disk here fills after
    the journal's first write: the game is whole, or there is no game at all."""
    journal = tmp_path / "war.jsonl"

    def full(*args, **kwargs):
        raise jm.StorageError(f"{journal}: the journal could not be written (No space left "
                              f"on device)")
    monkeypatch.setattr(jm.Journal, "append_raw", full)
    r = cli("new", journal, "--scenario", "1914", "--player", "german=k@example.org",
            "--player", "entente=j@example.net", "--deadline", "48h")
    if r.exit_code == 0:
        kinds = [json.loads(line).get("order") for line in journal.read_bytes().splitlines()]
        assert kinds[1:] == ["set up", "register players", "set deadlines"], kinds
    else:
        assert not [p.name for p in tmp_path.iterdir() if p.name.startswith("war.")], r.output
