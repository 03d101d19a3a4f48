"""For a module-scoped fixture that plays a game once for tests that only read it: while it
plays, a referee home of its own and the commands' clock at START, as the function-scoped
`referee_home` and `clock` fixtures give a test (they are set up after such a fixture)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from commandclock import START, at

from referee.base.clock import NOW_VARIABLE
from referee.store import home as homemod


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
