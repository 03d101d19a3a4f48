"""A game folder's content digest (data/paths.py), taken again by the same process: a pass
over many games, `watch` and every command read it each time a journal is opened. The
files of a folder left alone are not read again; an edit to any of them is seen, even one
that keeps the file's size and modification time, and even one made just after the
digest was taken."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from referee.data import paths
from referee.data.paths import default_games_dir, source_digest


@pytest.fixture
def settled(tmp_path: Path, monkeypatch) -> Path:
    """A copy of the TTLM folder, taken as settled (as a folder a user has not touched for
    a while) as soon as it is written: no change time can be set back."""
    root = tmp_path / "ttlm"
    shutil.copytree(default_games_dir() / "ttlm", root)
    monkeypatch.setattr(paths, "SETTLED_NS", 0, raising=False)
    monkeypatch.setattr(paths, "_DIGESTS", {}, raising=False)
    return root


def _next_tick() -> None:
    """Past the file system clock's step (a few ms at most), so that the next write's change
    time is another one."""
    time.sleep(0.05)


def _reads(monkeypatch) -> list[str]:
    reads: list[str] = []
    real = paths.read_named

    def counting(path, what, limit):
        reads.append(str(path))
        return real(path, what, limit)

    monkeypatch.setattr(paths, "read_named", counting)
    return reads


def test_a_folder_left_alone_is_read_once_by_a_process(settled, monkeypatch):
    reads = _reads(monkeypatch)
    first = source_digest(settled)
    n = len(reads)
    assert n >= 8                                      # every file, once
    assert [source_digest(settled) for _ in range(3)] == [first] * 3
    assert len(reads) == n                             # not read again


def test_an_edit_that_keeps_size_and_times_is_seen_by_the_same_process(settled):
    first = source_digest(settled)
    _next_tick()
    path = settled / "map.yaml"
    st = path.stat()
    text = path.read_text(encoding="utf-8")
    assert "name: Ypres" in text
    path.write_text(text.replace("name: Ypres", "name: YpreZ", 1), encoding="utf-8")
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert path.stat().st_size == st.st_size and path.stat().st_mtime_ns == st.st_mtime_ns
    second = source_digest(settled)
    assert second != first
    _next_tick()
    path.write_text(text, encoding="utf-8")            # back as it was: the first digest
    assert source_digest(settled) == first


def test_a_folder_just_written_is_read_again_each_time(tmp_path, monkeypatch):
    """Files changed within the clock's step of the reading could change again unseen by
    their print: their folder's digest is worked out afresh at every call."""
    root = tmp_path / "ttlm"
    shutil.copytree(default_games_dir() / "ttlm", root)
    monkeypatch.setattr(paths, "_DIGESTS", {}, raising=False)
    reads = _reads(monkeypatch)
    first = source_digest(root)
    n = len(reads)
    assert source_digest(root) == first and len(reads) == 2 * n


def test_a_file_added_removed_or_renamed_is_seen(settled):
    first = source_digest(settled)
    _next_tick()
    (settled / "notes.txt").write_text("x")
    added = source_digest(settled)
    (settled / "notes.txt").unlink()
    assert source_digest(settled) == first
    (settled / "units.yaml").rename(settled / "units.yml")
    assert len({first, added, source_digest(settled)}) == 3


def test_a_file_that_cannot_be_read_whole_still_makes_no_digest(settled):
    assert source_digest(settled) is not None
    os.mkfifo(settled / "pipe.yaml")
    assert source_digest(settled) is None
    (settled / "pipe.yaml").unlink()
    (settled / "big.yaml").write_bytes(b"#" * (paths.MAX_SOURCE_BYTES + 1))
    assert source_digest(settled) is None


def test_a_digest_is_believed_a_minute_at_most_while_the_prints_hold(settled, monkeypatch):
    """A write through a shared writable mapping can change a file and not its print (the
    kernel moves its times at the first write to a page only): a long-lived process (`watch`)
    takes the digest again once the one it keeps is a minute old. The print kept here
    stands for one such a write leaves as it was."""
    now = [0]
    monkeypatch.setattr(paths, "clock", lambda: now[0], raising=False)
    monkeypatch.setattr(paths, "print_of", lambda st: [st.st_ino, 0, 0, st.st_ino, 0])
    first = source_digest(settled)
    path = settled / "map.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("name: Ypres", "name: YpreZ", 1),
                    encoding="utf-8")
    now[0] = 30 * 10**9
    assert source_digest(settled) == first          # within the minute: the print is believed
    now[0] = 61 * 10**9
    second = source_digest(settled)
    assert second != first                          # then the folder is read again
    now[0] = 90 * 10**9
    assert source_digest(settled) == second         # and kept from then on, a minute again
