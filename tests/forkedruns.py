"""Runs that must be processes of their own (killed at a step, several at once on one game),
forked from the test's process: a real process that dies with what it held in memory, its
imports already done, so a fresh interpreter's start and imports, which such a test does not
check (test_start_up.py does), are left out."""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections.abc import Callable
from multiprocessing.process import BaseProcess


def _in_child(env: dict[str, str], target: Callable[..., int | None], args: tuple) -> None:
    os.environ.update(env)
    sys.exit(target(*args) or 0)


def start(target: Callable[..., int | None], *args, env: dict[str, str] | None = None
          ) -> BaseProcess:
    """target(*args) in a forked process, env set in it first; its exit status is what target
    returns (0 for None), or os._exit's where it is killed."""
    process = multiprocessing.get_context("fork").Process(
        target=_in_child, args=(env or {}, target, args))
    process.start()
    return process


def finish(process: BaseProcess, timeout: float = 120) -> int:
    """Its exit status; one still running after timeout is killed (and fails what waits for
    another status)."""
    process.join(timeout)
    if process.exitcode is None:
        process.kill()
        process.join()
    return process.exitcode


def run(target: Callable[..., int | None], *args, env: dict[str, str] | None = None,
        timeout: float = 120) -> int:
    """start, then finish."""
    return finish(start(target, *args, env=env), timeout)


def command(cli, *args) -> int:
    """The referee command (in-process, as the cli fixture runs it) in the forked process: its
    exit status, its output told on stderr when that is not 0."""
    r = cli(*args)
    if r.exit_code:
        print(r.stdout, r.stderr, file=sys.stderr, sep="\n")
    return r.exit_code
