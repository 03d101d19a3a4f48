"""How the help reads: `-h` beside `--help`, and plain text when piped.

Typer draws the help in Rich's boxes and colours. That suits a terminal, not
a pipe, a file or a script reading it, so the help is drawn plain there; the
choice is made when the help is printed, since only then is the stream known.
"""

from __future__ import annotations

import sys

from typer.core import TyperCommand, TyperGroup

# The help options of the application; every command inherits them from it.
HELP_OPTIONS = {"help_option_names": ["-h", "--help"]}


def on_terminal() -> bool:
    """Whether standard output is a terminal (the help is drawn plain anywhere else)."""
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):        # no stream, or a closed one
        return False


class _Help:
    """The help of a command or group: Rich's on a terminal, plain text elsewhere."""

    rich_markup_mode: str | None

    def format_help(self, ctx, formatter):
        # Typer draws plain text for a command without a markup mode.
        mode = self.rich_markup_mode
        if not on_terminal():
            self.rich_markup_mode = None
        try:
            return super().format_help(ctx, formatter)
        finally:
            self.rich_markup_mode = mode

    def get_params(self, ctx):
        params = super().get_params(ctx)
        for param in params:                # Rich's help would show `<bool>` after a flag
            if getattr(param, "is_flag", False) and param.metavar is None:
                param.metavar = ""
        return params


class Command(_Help, TyperCommand):
    """A command of the application."""


class Group(_Help, TyperGroup):
    """A group of commands (`referee`, `referee games`)."""
