"""The commands' clock for the tests of deadlines: REFEREE_NOW, set by the `clock` fixture
(conftest.py offers it to every test module), from the moment the games begin."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from referee.base.clock import NOW_VARIABLE

START = datetime(2026, 11, 23, 18, 0, tzinfo=UTC)          # a Monday


def at(moment: datetime) -> str:
    """A moment as a record's time (and REFEREE_NOW) writes it."""
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


@pytest.fixture
def clock(monkeypatch):
    """Set the commands' clock: clock(moment); it starts at START."""
    def set_to(moment: datetime) -> None:
        monkeypatch.setenv(NOW_VARIABLE, at(moment))
    set_to(START)
    return set_to
