"""A folder of games made once a test process and copied whole for each test that starts
from it: the games, their mailboxes and outboxes, and the referee home they were made in.
A journal holds its mailboxes' absolute paths and a home the folder's, so the folder is made
at one place and each test works in a copy put back at that very place (a test process runs
one test at a time, and each xdist worker has a base folder of its own)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from commandclock import START, at

from referee.base.clock import NOW_VARIABLE
from referee.store import home


def made_once(factory: pytest.TempPathFactory, name: str,
              make: Callable[[Path, pytest.MonkeyPatch], object]) -> tuple[Path, Path, object]:
    """make(place, monkeypatch) run at place (the base folder's `name`), its referee home
    place/home, the clock at START; the folder then kept beside it. The place, the copy kept,
    and what make returned (plain data: the folder's own paths are the same in each copy)."""
    place = factory.getbasetemp() / name
    kept = place.with_name(f"{name}-made")
    for old in (place, kept):
        shutil.rmtree(old, ignore_errors=True)
    (place / "home").mkdir(mode=0o700, parents=True)
    home._KEY.clear()                   # the key of a home made here before, by its path
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("REFEREE_HOME", str(place / "home"))
        mp.setenv(NOW_VARIABLE, at(START))
        found = make(place, mp)
    home._KEY.clear()
    shutil.copytree(place, kept, symlinks=True)
    return place, kept, found


def put_back(place: Path, kept: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The kept copy put back whole at place, its home the test's, the clock at START."""
    shutil.rmtree(place, ignore_errors=True)
    shutil.copytree(kept, place, symlinks=True)
    monkeypatch.setenv("REFEREE_HOME", str(place / "home"))
    home._KEY.clear()                   # another copy's home's key, at the same path
    monkeypatch.setenv(NOW_VARIABLE, at(START))
    return place
