"""The processes code under test forks, counted where it forks them."""

from __future__ import annotations

import os


def count_forks(monkeypatch) -> list[int]:
    """The pids of the children os.fork makes from now on in this process (a child's own
    forks are not seen)."""
    forked: list[int] = []
    real = os.fork

    def counting():
        pid = real()
        if pid:
            forked.append(pid)
        return pid

    monkeypatch.setattr(os, "fork", counting)
    return forked
