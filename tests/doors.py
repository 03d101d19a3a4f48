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
