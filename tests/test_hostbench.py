"""The judge-host benchmark (`make bench`, cli/hostbench.py) runs on a small folder: its
passes go through the real `referee` script and each is measured, an idle pass with that
mail still in the box is measured, `watch` answers the mail dropped while it runs, and its
plot is a PNG. The folders are of one and two games and `watch` serves one round of mail
(`make bench` two): each pass is a process of its own, and the passes, not the games, are
what the test runs through."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from PIL import Image

from referee.cli import hostbench


def test_the_host_benchmark_measures_a_small_folder_and_plots_it(tmp_path, monkeypatch):
    referee = shutil.which("referee", path=str(Path(sys.executable).parent))
    assert referee, "the referee script beside this Python"
    monkeypatch.setattr(hostbench, "SIZES", (1, 2))
    monkeypatch.setattr(hostbench, "WATCH_ROUNDS", 1)
    rows = hostbench.measure(referee)
    assert [r["games"] for r in rows] == [1, 2] and all(r["mails"] >= 1 for r in rows)
    assert all(r["applied"] == r["mails"] for r in rows)      # orders the games wait for
    # measured, not compared: a loaded machine can make an idle pass slower than a busy one
    assert all(r["busy"] > 0 and r["idle"] > 0 and r["rss"] > 0 for r in rows)
    # the round's mail kept in the box: measured (that it is read no more is counted, not
    # timed, in test_tick_index.py: a loaded machine can make any pass slow)
    assert all(r["idle_kept"] > 0 for r in rows)
    # the largest folder's second round of mail, passed in one process
    assert rows[0]["one_core"] == (0.0, 0) and rows[1]["one_core"][0] > 0
    assert rows[1]["one_core"][1] == rows[1]["mails"]
    # watch served the largest folder through its round of mail, all answered
    assert rows[0]["watch"] == 0 and rows[1]["watch"] > rows[1]["rss"] / 2
    hostbench.plot(rows, tmp_path / "growth.png")
    assert Image.open(tmp_path / "growth.png").size == (1000, 640)
