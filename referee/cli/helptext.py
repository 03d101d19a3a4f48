"""How the help reads: `-h` beside `--help`, plain text when piped, and one example a command.

Typer draws the help in Rich's boxes and colours. That suits a terminal, not
a pipe, a file or a script reading it, so the help is drawn plain there; the
choice is made when the help is printed, since only then is the stream known.
Every command's help ends with one example, a line that runs as it stands
(a test parses each).
"""

from __future__ import annotations

import sys

from typer.core import TyperCommand, TyperGroup

# The help options of the application; every command inherits them from it.
HELP_OPTIONS = {"help_option_names": ["-h", "--help"]}

EXAMPLE = "Example:"

# One example for each command, by its path without `referee`: what its help ends with.
EXAMPLES = {
    "": "referee new war.jsonl --scenario 1914",
    "new": "referee new war.jsonl --scenario 1914 --game-id war",
    "players": "referee players war.jsonl --keys",
    "order": 'referee order war.jsonl --as german "play offensive"',
    "standing": 'referee standing war.jsonl --as entente --add "no combat cards"',
    "status": "referee status war.jsonl --as german",
    "show": "referee show war.jsonl --as entente --format markdown",
    "log": "referee log war.jsonl --as entente --since 2",
    "report": "referee report war.jsonl --as german --format bbcode",
    "inbox": "referee inbox war.jsonl mail.mbox --outbox outbox",
    "deadline": "referee deadline war.jsonl --set 72h --kind movement",
    "extend": "referee extend war.jsonl german 24h",
    "mail": "referee mail war.jsonl --in imaps://referee@mail.example.org/INBOX --out "
            "smtps://referee@mail.example.org",
    "tick": "referee tick games/ --format json",
    "watch": "referee watch games/ --interval 60",
    "verify": "referee verify war.jsonl --secret war.jsonl.secret",
    "upgrade": "referee upgrade war.jsonl",
    "rekey": "referee rekey war.jsonl",
    "handover": "referee handover war.jsonl",
    "reveal": "referee reveal war.jsonl",
    "repair": "referee repair war.jsonl",
    "autoplay": "referee autoplay war.jsonl --seed 7 --until 2",
    "schema": "referee schema status-view",
    "demo": "referee demo --keep demo-game",
    "explain": "referee explain war.jsonl 2",
    "dice": "referee dice war.jsonl --format json",
    "map": "referee map war.jsonl -o map.svg --as german",
    "area": "referee area war.jsonl liege",
    "games": "referee games list",
    "games check": "referee games check games/ttlm",
    "games list": "referee games list",
    "sheet": "referee sheet new -o german.sheet",
    "sheet new": "referee sheet new -o german.sheet --links 100",
    "skirmish": "referee skirmish report patrol.jsonl",
    "skirmish order": "referee skirmish order patrol.jsonl --as british 'fire B3 at=G2 "
                      "range=24 cover=soft state=halted command=yes'",
    "skirmish report": "referee skirmish report patrol.jsonl --format json",
    "skirmish keys": "referee skirmish keys patrol.jsonl",
}


def epilog(path: str) -> str | None:
    """The end of a command's help: its example (path: the command without `referee`). A
    command without one still runs; tests/test_help.py names it."""
    return f"\b\n{EXAMPLE}\n  {EXAMPLES[path]}" if path in EXAMPLES else None


def example_of(text: str | None) -> str | None:
    """The example line at the end of a help text or an epilog, if it has one."""
    lines = [line.strip() for line in (text or "").splitlines() if line.strip()]
    if len(lines) >= 2 and lines[-2] == EXAMPLE and lines[-1].startswith("referee "):
        return lines[-1]
    return None


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
