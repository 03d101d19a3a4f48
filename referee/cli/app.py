"""The command line: parse arguments, call the game layer, render. Also the error boundary.

Expected errors print one line on stderr (one per problem for data files)
and exit 1 (rejected order), 2 (usage) or 3 (data or journal integrity).
Anything unexpected prints one line and exits 4; never a traceback. With
`--format json` that line is one JSON error object instead (commands.error_line).

The commands themselves are in play.py, audit.py and tools.py; this module
makes them one application, each inside the error boundary, in the order
`referee --help` lists them.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from .. import __version__, load_msgspec
from ..base.errors import GameDataError, quoted
from ..base.flowing import FLOWED
from ..base.plurals import counted
from . import (
    MAILED,
    audit,
    deadlinecmd,
    handovercmd,
    mailcmd,
    play,
    sheetcmd,
    skirmishcmd,
    tools,
    wants_json,
)
from .commands import error_line, guard
from .helptext import HELP_OPTIONS, Command, Group, epilog
from .params import GAMES, OPTION_UNITS

# The rules and the data models are imported inside the commands that need
# them: `status` and `show` answer from a signed view without them.

try:                                    # Typer 0.2x carries its own Click
    from typer import TyperException as _ParseError
except ImportError:                     # pragma: no cover - older Typer runs on Click
    from click import ClickException as _ParseError


class _OneLineErrors(Group):
    """The application: an error in the arguments (an unknown option, a bad value, a missing
    journal) is one 'referee: ' line and exit 2, like every other error, not a usage box."""

    def main(self, *args, standalone_mode: bool = True, **kwargs):
        if not standalone_mode:
            return super().main(*args, standalone_mode=False, **kwargs)
        try:
            code = super().main(*args, standalone_mode=False, **kwargs)
        except _ParseError as exc:
            ctx = getattr(exc, "ctx", None)
            if type(exc).__name__ == "NoArgsIsHelpError":   # `referee` alone: the help
                if exc.format_message():            # plain text (Rich printed its own)
                    typer.echo(exc.format_message())
                sys.exit(exc.exit_code)
            where = f" (`{ctx.command_path} --help` lists them)" if ctx is not None else ""
            message = _out_of_range(exc, _arguments(args, kwargs)) or \
                " ".join(exc.format_message().split()) + where
            typer.echo(error_line(message, "usage", None, exc.exit_code)
                       if wants_json(_arguments(args, kwargs)) else f"referee: {message}",
                       err=True)
            sys.exit(exc.exit_code)
        except typer.Abort:
            typer.echo("referee: aborted", err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


def _out_of_range(exc: Exception, argv: list[str]) -> str | None:
    """'--width 10: at least 40 columns' for a number outside its option's range (or not a
    whole number), in place of the validation library's 'Input should be greater than or
    equal to 40'; None otherwise."""
    param = getattr(exc, "param", None)
    low, high = getattr(param, "min", None), getattr(param, "max", None)
    opts = getattr(param, "opts", None) or []
    text = getattr(exc, "message", "")
    if not opts or not any(w in text for w in ("greater than", "less than", "valid integer",
                                              "valid number")):
        return None
    opt, given = opts[0], None
    for i, a in enumerate(argv):
        if a in opts and i + 1 < len(argv):
            given = argv[i + 1]
        elif a.startswith(tuple(f"{o}=" for o in opts)):
            given = a.partition("=")[2]
    if given is None:
        return None
    plain = given and given.isprintable() and " " not in given and len(given) <= 20
    bound = _bound(text, low, high, OPTION_UNITS.get(param.name))
    return f"{opt} {given if plain else quoted(given)}: {bound}"


def _bound(text: str, low, high, unit: str | None) -> str:
    """What a value of the option must be, by the library's complaint: 'at least 40
    columns', 'at most 400 columns', 'a whole number of columns', 'at least 1' (no unit)."""
    if "greater than" in text or "less than" in text:
        n = low if "greater than" in text else high
        n = int(n) if isinstance(n, float) and n.is_integer() else n
        said = "at least" if "greater than" in text else "at most"
        return f"{said} {counted(n, unit) if unit else n}"
    kind = "a whole number" if "valid integer" in text else "a number"
    return f"{kind} of {unit}s" if unit else kind


def _arguments(args: tuple, kwargs: dict) -> list[str]:
    """The command line click is parsing: given to main, or the process's own."""
    given = args[0] if args else kwargs.get("args")
    return [str(a) for a in (sys.argv[1:] if given is None else given)]


app = typer.Typer(
    name="referee", add_completion=True, no_args_is_help=True, cls=_OneLineErrors,
    pretty_exceptions_enable=False, context_settings=HELP_OPTIONS, epilog=epilog(""),
    help="A judge for play-by-email games of TO THE LAST MAN!: orders in, dice and rulings "
         "out, everything in a hash-chained journal.")
games_app = typer.Typer(help="List the games; check game data directories.",
                        no_args_is_help=True, cls=Group, epilog=epilog("games"))
app.add_typer(games_app, name="games")
sheet_app = typer.Typer(help="A player's dice sheet: make one (no game needed).",
                        no_args_is_help=True, cls=Group, epilog=epilog("sheet"))
app.add_typer(sheet_app, name="sheet")
skirmish_app = typer.Typer(help="A skirmish game (games/skirmish): its tests and report.",
                           no_args_is_help=True, cls=Group, epilog=epilog("skirmish"))
app.add_typer(skirmish_app, name="skirmish")


def boundary(fn):
    """Turn expected errors into one line and an exit code; never show a traceback.

    A command returns its exit code (None for 0); commands.guard is the
    boundary the quick console-script path uses too. msgspec is loaded here,
    once for every command, before any of them imports it (see load_msgspec).
    """
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        load_msgspec()
        code = guard(lambda: fn(*args, **kwargs), json_errors=kwargs.get("format") == "json")
        if code:
            raise typer.Exit(code)
    return wrapper


def _print_version(value: bool) -> None:
    if not value:
        return
    from ..base.rules import RULES_VERSION  # start-up: only --version needs it
    from ..store.journal import SCHEMA_VERSION  # start-up: only --version needs it

    digest = "unreadable"
    try:
        load_msgspec()
        from ..data.catalog import game_names  # start-up: only --version
        from ..table import any_game_data  # start-up: only --version

        digests = []
        for name in game_names(GAMES["dir"]):
            try:
                digests.append(f"{name} {any_game_data(name, GAMES['dir']).digest[:16]}")
            except Exception:  # noqa: BLE001 - one broken game does not hide the others
                digests.append(f"{name} unreadable")
        digest = ", ".join(digests) or digest
    except Exception:  # noqa: BLE001 - --version must answer even with broken data
        pass
    typer.echo(f"referee {__version__} (rules {RULES_VERSION}, journal schema "
               f"{SCHEMA_VERSION}; game data {digest})")
    raise typer.Exit()


@app.callback()
def main_options(
    ctx: typer.Context,
    games: Annotated[Optional[Path], typer.Option(
        help="Directory holding the game data (default: the built-in games/).")] = None,
    version: Annotated[bool, typer.Option(
        "--version", callback=_print_version, is_eager=True,
        help="Print the version, the journal schema version and the game data digest.")
    ] = False,
) -> None:
    """referee: a judge for play-by-email games of TO THE LAST MAN!"""
    GAMES["dir"] = games
    if ctx.invoked_subcommand in MAILED:       # a command that writes players' mails
        token = FLOWED.set(True)
        ctx.call_on_close(lambda: FLOWED.reset(token))



# The order `referee --help` lists them in.
COMMANDS = (play.new, play.players, play.order, play.standing, play.status, play.show,
            audit.log, audit.report, tools.inbox, mailcmd.mail, mailcmd.tick, mailcmd.watch,
            deadlinecmd.deadline, deadlinecmd.extend,
            audit.verify, audit.upgrade, audit.rekey, handovercmd.handover, audit.reveal,
            audit.repair, tools.autoplay, tools.schema, tools.demo, audit.explain, audit.dice,
            tools.map_, tools.area)
for command in COMMANDS:       # map_ is `map`: the trailing _ keeps the builtin unshadowed
    name = command.__name__.rstrip("_")
    app.command(name, cls=Command, epilog=epilog(name))(boundary(command))
games_app.command("check", cls=Command, epilog=epilog("games check"))(
    boundary(tools.games_check))
games_app.command("list", cls=Command, epilog=epilog("games list"))(boundary(tools.games_list))
sheet_app.command("new", cls=Command, epilog=epilog("sheet new"))(boundary(sheetcmd.sheet_new))
skirmish_app.command("order", cls=Command, epilog=epilog("skirmish order"))(
    boundary(skirmishcmd.skirmish_order))
skirmish_app.command("report", cls=Command, epilog=epilog("skirmish report"))(
    boundary(skirmishcmd.skirmish_report))
skirmish_app.command("keys", cls=Command, epilog=epilog("skirmish keys"))(
    boundary(skirmishcmd.skirmish_keys))


def main() -> None:
    """Entry point of the `referee` console script."""
    try:
        app(prog_name="referee")
    except GameDataError as exc:  # raised before a command's boundary (not expected)
        if wants_json(sys.argv[1:]):
            typer.echo(error_line(str(exc), exc.kind, None, exc.exit_code,
                                  problems=exc.problems), err=True)
            sys.exit(exc.exit_code)
        for line in exc.lines():
            typer.echo(f"referee: {line}", err=True)
        sys.exit(exc.exit_code)
