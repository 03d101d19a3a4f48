"""For a fixture that plays a game once for tests that read it or play on from a copy: while
it plays, a referee home of its own and the commands' clock at START, as the function-scoped
`referee_home` and `clock` fixtures give a test (they are set up after such a fixture); and
the folder and the home it left kept, put back for each test (Kept)."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Generic, TypeVar

import pytest
from commandclock import START, at

from referee.base.clock import NOW_VARIABLE
from referee.store import home as homemod
from referee.store.secrets import remember_secret

T = TypeVar("T")


@contextmanager
def played_apart(folder: Path) -> Iterator[pytest.MonkeyPatch]:
    """The referee home folder/home and the clock at START until the block ends."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("REFEREE_HOME", str(folder / "home"))
        mp.setenv(NOW_VARIABLE, at(START))
        homemod._KEY.clear()
        try:
            yield mp
        finally:
            homemod._KEY.clear()


class Kept(Generic[T]):
    """A folder of games made once for the test process and kept as made, with the referee
    home that made it, for tests that each play on from their own copy.

    `back()` puts the folder back as it was made at the very place it was made (journals
    and homes name their folders' absolute paths), or copies it into another folder, and
    gives the test's referee home (REFEREE_HOME) what the home that made it held (its key,
    the games' marks, views and ledgers); the key read from another home is forgotten."""

    def __init__(self, place: Path, kept: Path, make: Callable[[Path, pytest.MonkeyPatch], T]):
        self.place, self._kept, self._make = place, kept, make
        self.made: T | None = None

    def _build(self) -> None:
        """make(place, mp) once, in a home of its own and the clock at START (mp may set
        another), then the folder and the home moved aside as they were left."""
        for folder in (self.place, self._kept):        # what a make that failed left
            shutil.rmtree(folder, ignore_errors=True)
        self.place.mkdir(parents=True)
        (self._kept / "home").mkdir(mode=0o700, parents=True)
        with played_apart(self._kept) as mp:
            self.made = self._make(self.place, mp)
        self.place.rename(self._kept / "folder")

    def back(self, to: Path | None = None, secret: tuple[str, str] | None = None) -> Path:
        """The folder as made, at its place or copied into `to`; with `secret` (the journal's
        and the secret file's paths in it), the place of the game's secret noted again in
        the test's home, as `new` notes it."""
        if not (self._kept / "folder").exists():
            self._build()
        folder = to if to is not None else self.place
        if to is None:
            shutil.rmtree(folder, ignore_errors=True)
        shutil.copytree(self._kept / "folder", folder, symlinks=True, dirs_exist_ok=True)
        shutil.copytree(self._kept / "home", os.environ["REFEREE_HOME"], symlinks=True,
                        dirs_exist_ok=True)
        homemod._KEY.clear()
        if secret is not None:
            journal, secret_file = folder / secret[0], folder / secret[1]
            header = json.loads(journal.read_bytes().split(b"\n", 1)[0])
            remember_secret(header["game_id"], header["dice"]["commitment"], secret_file)
        return folder


_KEPT: dict[str, Kept] = {}


def kept(base: Path, name: str, make: Callable[[Path, pytest.MonkeyPatch], T],
         place: Path | None = None) -> Kept[T]:
    """The folder `name` of this test process, kept in `base` (the process's temporary
    folder), made by `make` at `place` (by default base/name) when a test first puts it
    back, whichever module and however often its tests run."""
    if name not in _KEPT:
        _KEPT[name] = Kept(place or base / name, base / f"{name}.kept", make)
    return _KEPT[name]
