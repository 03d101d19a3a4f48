"""The referee run in the test's process as its console script runs it: the quick path
(entry.py: status, show) where it answers, else the Typer application (its command tree
built once a process: conftest.py)."""

from __future__ import annotations

import contextlib
import io
import traceback

import typer.testing

from referee.cli.app import app
from referee.cli.entry import parse, run

_RUNNER = typer.testing.CliRunner()


def console(*argv) -> tuple[int, str, str, str | None]:
    """(exit code, stdout, stderr, the traceback of an exception that escaped, if any)."""
    argv = [str(a) for a in argv]
    plain = parse(argv)
    if plain is not None:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = run(*plain)
        return code, out.getvalue(), err.getvalue(), None
    r = _RUNNER.invoke(app, argv)
    escaped = None
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        escaped = "".join(traceback.format_exception(r.exception))
    return r.exit_code, r.stdout, r.stderr, escaped
