"""The console script's quick path, run in-process like the Typer app's CliRunner."""

from __future__ import annotations

import contextlib
import io

from referee.cli.entry import parse, run


def quick(*argv) -> tuple[int, str, str]:
    """Run a plain form through entry.py (no Typer): (exit code, stdout, stderr)."""
    plain = parse([str(a) for a in argv])
    assert plain is not None, f"{argv} is not a plain form"
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = run(*plain)
    return code, out.getvalue(), err.getvalue()


class Hung(Exception):
    """A command still running when its time was up (a read blocked on a FIFO, a loop)."""


def console(*argv, seconds: float = 30.0) -> tuple[int, str, str]:
    """The console script's own dispatch (entry.main: a plain form by the quick path, anything
    else by Typer) in this process: (exit code, stdout, stderr). A command still running after
    `seconds` of wall time is interrupted where it waits (an alarm raises Hung in it), so that
    a hang fails the test that meets it instead of stopping the run."""
    import signal
    import sys
    from unittest import mock

    from referee.cli.entry import main

    def alarm(signum, frame):
        raise Hung(f"{argv} still running after {seconds} s")

    out, err = io.StringIO(), io.StringIO()
    before = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        with mock.patch.object(sys, "argv", ["referee", *map(str, argv)]), \
                contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main()
                code = 0
            except SystemExit as done:
                code = done.code if isinstance(done.code, int) else 1 if done.code else 0
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)
    return code, out.getvalue(), err.getvalue()
