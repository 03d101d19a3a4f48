"""The tests' own folders in memory (conftest.py): a memory-backed folder is taken only with
room to spare, and the folders failed runs left there are kept to the newest few, never one
a run beside may be using."""

from __future__ import annotations

import os
import time

from conftest import forget_old_runs, ram_folder


def test_a_folder_without_room_or_not_there_is_not_taken(tmp_path):
    assert ram_folder([str(tmp_path / "absent")]) is None
    assert ram_folder([str(tmp_path)], room=1 << 62) is None
    assert ram_folder([str(tmp_path / "absent"), str(tmp_path)], room=1) == str(tmp_path)


def test_the_folders_of_failed_runs_are_kept_to_the_newest_three_idle_ones(tmp_path):
    now = time.time()
    ages = {"referee-tests-a": 5, "referee-tests-b": 4, "referee-tests-c": 3,
            "referee-tests-d": 2, "referee-tests-e": 0.1, "other-f": 9}      # in hours
    for name, hours in ages.items():
        (tmp_path / name).mkdir()
        os.utime(tmp_path / name, (now - hours * 3600, now - hours * 3600))
    forget_old_runs(str(tmp_path))
    # The newest three stay; of the rest, those idle for over an hour go; another name stays.
    assert sorted(p.name for p in tmp_path.iterdir()) == \
        ["other-f", "referee-tests-c", "referee-tests-d", "referee-tests-e"]
    (tmp_path / "referee-tests-z").mkdir()                  # a run going on beside: touched now
    os.utime(tmp_path / "referee-tests-e", (now - 7200, now - 7200))
    forget_old_runs(str(tmp_path), keep=0)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other-f", "referee-tests-z"]
