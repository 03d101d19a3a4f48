"""The `referee` console script: `status`, `show` and `order` without importing Typer.

Importing Typer costs about half of the import floor, more than answering
`status` from a signed view. So the plain forms of these three commands (a
journal, the orders, and the options listed in FORMS, each valid) are parsed
here and run by the same functions the Typer application calls
(commands.py), with the same error boundary; anything else (help, a
misspelt option, a bad value, any other command) goes to the Typer
application, which gives the usage message.
"""

from __future__ import annotations

import sys
from pathlib import Path

from . import commands

# command -> option -> allowed values (None: any value)
FORMS: dict[str, dict[str, tuple[str, ...] | None]] = {
    "status": {"--as": None, "--format": ("text", "markdown", "bbcode", "json")},
    "show": {"--as": None, "--format": ("text", "markdown", "bbcode", "json"), "--at": None},
    "order": {"--as": None, "--format": ("text", "json"), "--file": None, "--dice": None,
              "--expect-seq": None},
}
INTEGERS = ("--at", "--expect-seq")


def _integer(text: str) -> int | None:
    body = text[1:] if text.startswith("-") else text
    return int(text) if body.isascii() and body.isdigit() and len(body) < 10 else None


def parse(argv: list[str]) -> tuple[str, dict, list[str]] | None:
    """(command, options, positionals) of a plain form, or None for the Typer application."""
    if not argv or argv[0] not in FORMS:
        return None
    allowed = FORMS[argv[0]]
    options: dict[str, str] = {}
    positionals: list[str] = []
    i = 1
    while i < len(argv):
        a = argv[i]
        if a.startswith("--"):
            name, eq, value = a.partition("=")
            if not eq:
                if i + 1 >= len(argv):
                    return None
                value = argv[i + 1]
                i += 1
            if name not in allowed or name in options:
                return None
            choices = allowed[name]
            if choices is not None and value not in choices:
                return None
            if name in INTEGERS and _integer(value) is None:
                return None
            options[name] = value
        elif a.startswith("-") and a != "-":
            return None
        else:
            positionals.append(a)
        i += 1
    if not positionals or (argv[0] != "order" and len(positionals) != 1):
        return None
    return argv[0], options, positionals


def emit(text: str, stream=None) -> None:
    """Print a line as click.echo would: a character the terminal's encoding lacks is
    replaced, never an error (an order's records are written by then)."""
    stream = stream or sys.stdout
    try:
        stream.write(text + "\n")
    except UnicodeEncodeError:
        data = (text + "\n").encode(stream.encoding or "utf-8", "replace")
        stream.flush()
        stream.buffer.write(data)


def run(command: str, options: dict, positionals: list[str]) -> int:
    """Run a parsed plain form; returns the exit code."""
    journal = Path(positionals[0])
    fmt = options.get("--format", "text")

    def work() -> int:
        if command == "status":
            emit(commands.status(journal, options.get("--as"), fmt))
        elif command == "show":
            at = options.get("--at")
            emit(commands.show(journal, options.get("--as", "public"), fmt,
                               None if at is None else int(at)))
        else:
            side = options.get("--as", "")
            commands.check_side(side)
            file = options.get("--file")
            texts = commands.read_orders(positionals[1:], None if file is None else Path(file))
            seq = options.get("--expect-seq")
            out, rejection = commands.order(journal, side, texts, options.get("--dice"),
                                            None if seq is None else int(seq), fmt)
            if out is not None:
                emit(out)
            if rejection is not None:
                sys.stdout.flush()
                emit(rejection, sys.stderr)
                return 1
        return 0

    return commands.guard(work, json_errors=fmt == "json")


def main() -> None:
    """Entry point of the console script."""
    plain = parse(sys.argv[1:])
    if plain is not None:
        code = run(*plain)
        sys.stdout.flush()
        raise SystemExit(code)
    from .app import main as cli_main  # start-up: the plain forms run without Typer
    cli_main()
