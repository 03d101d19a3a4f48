"""Every command's help: `-h` as `--help`, plain text when piped, and an example that parses.

The commands are read from the Typer application itself, groups and all, so a new
command is checked as soon as it is registered.
"""

from __future__ import annotations

import functools
import io
import os
import shlex
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from unittest import mock

import pytest
import typer

from referee.cli.app import app
from referee.cli.entry import main as referee_main
from referee.cli.helptext import EXAMPLE, EXAMPLES, example_of

ROOT = Path(__file__).resolve().parent.parent
COMMAND = typer.main.get_command(app)
BOXES = [chr(c) for c in range(0x2500, 0x2580)]           # Rich's panels are drawn with them


def command_paths(cmd=COMMAND, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command and group of the application, as the words after `referee`."""
    out = [path]
    for name, sub in getattr(cmd, "commands", {}).items():
        if not sub.hidden:
            out += command_paths(sub, (*path, name))
    return out


PATHS = command_paths()


def referee(argv: list[str]) -> tuple[int, str, str]:
    """Run the console script's entry point on argv, its output piped: (code, stdout, stderr);
    each help once per test process (several tests read the same help)."""
    return _run(tuple(argv))


@functools.cache
def _run(argv: tuple[str, ...]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with mock.patch.object(sys, "argv", ["referee", *argv]), redirect_stdout(out), \
            redirect_stderr(err):
        try:
            referee_main()
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return code, out.getvalue(), err.getvalue()


def parsed(argv: list[str]):
    """The context Click's own parser makes of `referee ARGV`, down to the last command."""
    ctx = COMMAND.make_context("referee", list(argv), resilient_parsing=False)
    while hasattr(ctx.command, "resolve_command"):
        rest = [*(getattr(ctx, "_protected_args", None) or ctx.protected_args), *ctx.args]
        if not rest:
            break
        name, cmd, rest = ctx.command.resolve_command(ctx, rest)
        ctx = cmd.make_context(name, rest, parent=ctx, resilient_parsing=False)
    return ctx


def test_the_application_has_groups_and_commands():
    assert () in PATHS and ("games",) in PATHS and ("games", "check") in PATHS
    assert ("status",) in PATHS and ("map",) in PATHS and len(PATHS) > 20


@pytest.mark.parametrize("option", ["--help", "-h"])
@pytest.mark.parametrize("path", PATHS, ids=lambda p: " ".join(p) or "referee")
def test_help_is_plain_text_and_ends_with_an_example(path, option):
    code, out, err = referee([*path, option])
    assert code == 0 and not err
    assert out.startswith(f"Usage: {' '.join(['referee', *path])} ")
    assert "\x1b" not in out, "colour codes in help that is not on a terminal"
    assert not [c for c in BOXES if c in out], "Rich's boxes in help that is not on a terminal"
    lines = [line.strip() for line in out.splitlines() if line.strip()]
    assert lines[-2] == EXAMPLE and lines[-1].startswith("referee "), lines[-3:]


@pytest.mark.parametrize("path", PATHS, ids=lambda p: " ".join(p) or "referee")
def test_h_is_help_everywhere(path):
    assert referee([*path, "-h"]) == referee([*path, "--help"])


def test_no_command_takes_h_for_anything_else():
    def opts(cmd):
        for p in cmd.params:
            yield from (*getattr(p, "opts", ()), *getattr(p, "secondary_opts", ()))
        for sub in getattr(cmd, "commands", {}).values():
            yield from opts(sub)
    assert "-h" not in set(opts(COMMAND))


@pytest.mark.parametrize("path", PATHS, ids=lambda p: " ".join(p) or "referee")
def test_each_example_parses_as_its_command(path):
    example = example_of(referee([*path, "--help"])[1])
    argv = shlex.split(example)
    assert argv[0] == "referee"
    ctx = parsed(argv[1:])           # an example Click's parser refuses raises here
    assert ctx.command_path.startswith(" ".join(["referee", *path]))
    if getattr(ctx.command, "commands", None) is None:
        assert not ctx.args, f"{example}: extra arguments {ctx.args}"


def test_every_example_belongs_to_a_command():
    assert set(EXAMPLES) == {" ".join(p) for p in PATHS}


def test_referee_alone_prints_the_plain_help():
    code, out, _ = referee([])
    assert code == 2 and out.startswith("Usage: referee ") and example_of(out)


def _environment() -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100"}
    env.pop("FORCE_COLOR", None)
    return env


def test_help_through_a_pipe_is_plain_text():
    r = subprocess.run([sys.executable, "-m", "referee", "status", "-h"], capture_output=True,
                       text=True, env=_environment(), timeout=120)
    assert r.returncode == 0 and r.stdout.startswith("Usage: referee status ")
    assert "\x1b" not in r.stdout and not [c for c in BOXES if c in r.stdout]
    assert example_of(r.stdout) == EXAMPLES["status"]


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="no pseudo-terminal here")
def test_help_on_a_terminal_is_still_drawn_by_rich_and_flags_show_no_type():
    leader, follower = os.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "referee", "order", "--help"],
                            stdout=follower, stderr=subprocess.DEVNULL, env=_environment())
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 1 << 16)
        except OSError:                 # the terminal closed: the help is all read
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    shown = b"".join(chunks).decode("utf-8", "replace")
    assert proc.wait(timeout=120) == 0
    assert [c for c in BOXES if c in shown] and EXAMPLE in shown
    assert "<bool>" not in shown
