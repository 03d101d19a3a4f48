"""The command line: parse arguments, call the game layer, render. Also the error boundary.

Expected errors print one line on stderr (one per problem for data files)
and exit 1 (rejected order), 2 (usage) or 3 (data or journal integrity).
Anything unexpected prints one line and exits 4; never a traceback.
"""

from __future__ import annotations

import functools
import json
import sys
import tempfile
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer
from typer.core import TyperGroup

from . import commands
from .commands import guard
from .errors import EXIT_REJECTED, GameDataError, UsageError
from .readers import check_reader

# The rules and the data models are imported inside the commands that need
# them: `status` and `show` answer from a signed view without them.

try:                                    # Typer 0.2x carries its own Click
    from typer import TyperException as _ParseError
except ImportError:                     # pragma: no cover - older Typer runs on Click
    from click import ClickException as _ParseError


class _OneLineErrors(TyperGroup):
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
                if not getattr(typer.core, "HAS_RICH", False):
                    exc.show()                      # (Rich printed it already)
                sys.exit(exc.exit_code)
            where = f" (`{ctx.command_path} --help` lists them)" if ctx is not None else ""
            message = " ".join(exc.format_message().split())
            typer.echo(f"referee: {message}{where}", err=True)
            sys.exit(exc.exit_code)
        except typer.Abort:
            typer.echo("referee: aborted", err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


app = typer.Typer(
    name="referee", add_completion=False, no_args_is_help=True, cls=_OneLineErrors,
    pretty_exceptions_enable=False,
    help="A judge for play-by-email games of TO THE LAST MAN!: orders in, dice and rulings "
         "out, everything in a hash-chained journal.")
games_app = typer.Typer(help="Check game data directories.", no_args_is_help=True)
app.add_typer(games_app, name="games")

_GAMES: dict[str, Optional[Path]] = {"dir": None}


class Fmt(str, Enum):
    text = "text"
    json = "json"


class ShowFmt(str, Enum):
    text = "text"
    markdown = "markdown"
    json = "json"


def boundary(fn):
    """Turn expected errors into one line and an exit code; never show a traceback.

    A command returns its exit code (None for 0); commands.guard is the
    boundary the quick console-script path uses too.
    """
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        code = guard(lambda: fn(*args, **kwargs))
        if code:
            raise typer.Exit(code)
    return wrapper


@app.callback()
def main_options(
    games: Annotated[Optional[Path], typer.Option(
        help="Directory holding the game data (default: the built-in games/).")] = None,
) -> None:
    """referee: a judge for play-by-email games of TO THE LAST MAN!"""
    _GAMES["dir"] = games


# ---------------------------------------------------------------- new

@app.command()
@boundary
def new(
    journal: Annotated[Path, typer.Argument(help="The journal file to create (JSONL).")],
    scenario: Annotated[str, typer.Option(help="1914, 1916, 1918, or a scenario YAML file.")],
    dice: Annotated[str, typer.Option(help="committed (default) or manual.")] = "committed",
    option: Annotated[Optional[list[str]], typer.Option(
        help="An optional rule, KEY=true|false; repeat for several.")] = None,
    game_id: Annotated[Optional[str], typer.Option(
        help="Fix the game id (default: random).")] = None,
    secret_file: Annotated[Optional[Path], typer.Option(
        help="Keep the dice secret in this file instead of beside the journal (made if "
             "missing, used if it exists): keep it out of shared or synced folders.")] = None,
) -> None:
    """Create a game: journal header, dice secret (JOURNAL.secret, mode 0600), set-up record."""
    from . import game as g
    from .render.text import status_text
    from .views import status_view

    game = g.create_game(journal, scenario, dice, option or [], game_id, secret_file,
                         _GAMES["dir"])
    where = secret_file if secret_file is not None else f"{journal}.secret"
    typer.echo(f"created {journal} (game {game.game_id}, scenario {game.scenario.id}, dice "
               f"{dice}); the dice secret is in {where} — keep it private")
    typer.echo(status_text(status_view(game.state, game.data, None, game.game_id)))


# ---------------------------------------------------------------- order

@app.command()
@boundary
def order(
    journal: Annotated[Path, typer.Argument(help="The game's journal.")],
    orders: Annotated[Optional[list[str]], typer.Argument(
        help="Orders, one per argument; '-' reads them from stdin.")] = None,
    as_: Annotated[str, typer.Option("--as", help="Who gives the orders: german or entente.")] = "",
    file: Annotated[Optional[Path], typer.Option(help="Read the orders from this file.")] = None,
    dice: Annotated[Optional[str], typer.Option(
        help="Manual games: the dice rolled, in order, e.g. 3,1,6.")] = None,
    expect_seq: Annotated[Optional[int], typer.Option(
        help="Reject unless the journal's last record is this one (stale view guard).")] = None,
    format: Annotated[Fmt, typer.Option(help="text or json.")] = Fmt.text,
) -> None:
    """Submit orders; they are applied in sequence and stop at the first rejected one."""
    commands.check_side(as_)
    texts = commands.read_orders(orders or [], file)
    out, rejection = commands.order(journal, as_, texts, dice, expect_seq, format.value,
                                    _GAMES["dir"])
    if out is not None:
        typer.echo(out)
    if rejection is not None:
        typer.echo(rejection, err=True)
        return EXIT_REJECTED
    return None


# ---------------------------------------------------------------- status / show / log

@app.command()
@boundary
def status(
    journal: Annotated[Path, typer.Argument(help="The game's journal.")],
    as_: Annotated[Optional[str], typer.Option(
        "--as", help="List the legal orders of this side (default: the side waited on).")] = None,
    format: Annotated[Fmt, typer.Option(help="text or json.")] = Fmt.text,
) -> None:
    """Whose decision it is, what kind, and every legal order in the form `order` takes."""
    typer.echo(commands.status(journal, as_, format.value, _GAMES["dir"]))


@app.command()
@boundary
def show(
    journal: Annotated[Path, typer.Argument(help="The game's journal.")],
    as_: Annotated[str, typer.Option("--as", help="german, entente or moderator.")] = "moderator",
    format: Annotated[ShowFmt, typer.Option(help="text, markdown or json.")] = ShowFmt.text,
    at: Annotated[Optional[int], typer.Option(
        help="Show the game as it stood after this record (replay to any point).")] = None,
) -> None:
    """Turn, phase, VP and level, every area with its control and units, the reader's hand."""
    typer.echo(commands.show(journal, as_, format.value, at, _GAMES["dir"]))


@app.command()
@boundary
def log(
    journal: Annotated[Path, typer.Argument(help="The game's journal.")],
    since: Annotated[int, typer.Option(help="First record to print.")] = 0,
    as_: Annotated[str, typer.Option(
        "--as", help="Reader: german, entente or moderator (others' secrets as digests).")
    ] = "moderator",
    format: Annotated[Fmt, typer.Option(
        help="text, or json (JSONL records, redacted for the reader; still verifiable).")
    ] = Fmt.text,
) -> None:
    """The records with their orders, dice and events."""
    from . import game as g
    from .errors import JournalError
    from .journal import Journal, redact, scan
    from .records import header_of, record_of
    from .render.text import record_lines

    check_reader(as_)
    commands.check_private(journal)
    source = Journal(journal)
    raw = source.raw()
    # First every record is checked, then printed: a damaged journal prints nothing but the
    # record where it is damaged. Both passes stream, so memory stays flat.
    records = scan(raw, source.name)
    header = header_of(next(records), source.name)
    for rec in records:
        record_of(rec, source.name)
    data = g.game_data(header.game, _GAMES["dir"])
    for rec in scan(raw, source.name):
        if rec["seq"] < since:
            continue
        shown = redact(rec, as_)
        if format == Fmt.json:
            typer.echo(json.dumps(shown, sort_keys=True, separators=(",", ":")))
            continue
        try:
            lines = record_lines(shown, data, as_)
        except (KeyError, ValueError, TypeError, AttributeError, IndexError) as exc:
            raise JournalError(f"{source.name}: record {rec['seq']} cannot be shown: it names "
                               f"something the game data does not have ({exc})",
                               record=rec["seq"]) from None
        typer.echo("\n".join(lines))


# ---------------------------------------------------------------- verify / reveal / repair

@app.command()
@boundary
def verify(
    journal: Annotated[Path, typer.Argument(help="The game's journal (or a redacted export).")],
    secret: Annotated[Optional[Path], typer.Option(
        help="The dice secret file: recompute every die and shuffle.")] = None,
    export: Annotated[Optional[str], typer.Option(
        help="The file is a redacted export made for this reader (german, entente, "
             "moderator): check its chain and its redactions only.")] = None,
) -> None:
    """Check the hash chain, decide every record again, and (with the secret) every die."""
    from .verify import verify as check

    report = check(journal, secret, _GAMES["dir"], export=export)
    for line in report.lines:
        typer.echo(line)
    typer.echo("verify: OK" + (" (chain only)" if export else ""))


@app.command()
@boundary
def reveal(
    journal: Annotated[Path, typer.Argument(help="The game's journal.")],
    force: Annotated[bool, typer.Option(
        help="Reveal before the game is over (closes it).")] = False,
) -> None:
    """Append the dice secret to the journal so that anyone can check every roll."""
    commands.check_private(journal)
    from . import game as g

    rec = g.reveal(journal, force, _GAMES["dir"])
    typer.echo(f"record {rec['seq']}: secret revealed; `referee verify {journal}` now "
               f"recomputes every die")


@app.command()
@boundary
def repair(journal: Annotated[Path, typer.Argument(help="The game's journal.")]) -> None:
    """Remove a torn last line (after backing the file up); any other damage is refused."""
    commands.check_private(journal)
    from .journal import Journal

    kept, backup = Journal(journal).repair()
    if backup is None:
        typer.echo(f"{journal}: nothing to repair ({kept} complete records)")
    else:
        typer.echo(f"{journal}: torn last line removed, {kept} complete records kept; the "
                   f"file as it was is in {backup}")


# ---------------------------------------------------------------- games / schema / demo

@app.command()
@boundary
def autoplay(
    journal: Annotated[Path, typer.Argument(help="The game's journal (committed dice).")],
    seed: Annotated[int, typer.Option(help="Seed of the random choices.")] = 0,
    until: Annotated[Optional[int], typer.Option(
        help="Stop once this seasonal turn is over.")] = None,
) -> None:
    """Play random legal orders for whoever must decide, checking invariants after each record."""
    commands.check_private(journal)
    from .autoplay import autoplay as play

    out = play(journal, seed, until, games_dir=_GAMES["dir"])
    typer.echo(f"{out.records} records played; turn {out.turn}; "
               + (f"game over: {(out.result or {}).get('level_name')}" if out.over else
                  "game not over"))
    if out.failure:
        typer.echo(f"referee: invariant broken at {out.failure}; the journal holds every "
                   f"record up to it", err=True)
        return 3
    return None


@games_app.command("check")
@boundary
def games_check(directory: Annotated[Path, typer.Argument(help="A game data directory.")]) -> None:
    """Check a game data directory and list every problem found."""
    from .gamedata import load_game

    data = load_game(directory)
    typer.echo(f"{directory}: OK — {len(data.areas)} areas, {len(data.cards)} cards, "
               f"scenarios {', '.join(data.scenarios)}; data digest {data.digest[:16]}")


@app.command()
@boundary
def schema(name: Annotated[Optional[str], typer.Argument(help="Which schema.")] = None) -> None:
    """Print a JSON Schema (orders, events, journal records, views, game data, scenario)."""
    from .schemas import SCHEMAS, schema_text

    if name is None or name not in SCHEMAS:
        if name is not None:
            raise UsageError(f"no schema {name!r}; the schemas are {', '.join(SCHEMAS)}")
        typer.echo("\n".join(SCHEMAS))
        return
    typer.echo(schema_text(name), nl=False)


DEMO_SECRET = "0b" * 32
DEMO_OPENING = ["play offensive", "move ge-1 liege", "move ge-4:cavalry ardennes",
                "end movement"]


def _demo_choice(orders: list[str]) -> str:
    """What the demo's players answer once the scripted opening is over."""
    for prefer in ("done", "lose", "ersatz"):
        for o in orders:
            if o == prefer or o.startswith(prefer + " "):
                return o
    return orders[0]


@app.command()
@boundary
def demo(
    keep: Annotated[Optional[Path], typer.Option(
        help="Write the demo journal here instead of a temporary folder.")] = None,
) -> None:
    """Play a scripted opening of the 1914 scenario (a battle at Liège) and show the result."""
    from . import game as g
    from .dice import write_secret
    from .engine import legal_orders
    from .engine.orders import format_order
    from .journal import redact
    from .render.text import describe, show_text, status_text
    from .views import state_view, status_view

    folder = Path(tempfile.mkdtemp(prefix="referee-demo-")) if keep is None else keep
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "demo-1914.jsonl"
    # A fixed, published secret makes the demo play the same way every time.
    secret = folder / "demo.secret"
    for old in (secret, path, path.with_name(path.name + ".secret")):
        old.unlink(missing_ok=True)
    write_secret(secret, bytes.fromhex(DEMO_SECRET))
    game = g.create_game(path, "1914", game_id="demo-1914", secret_file=secret,
                         games_dir=_GAMES["dir"])
    data = game.data
    typer.echo(f"$ referee new {path.name} --scenario 1914      (dice secret fixed for the demo)")

    def submit(side: str, orders: list[str]) -> None:
        typer.echo(f"\n$ referee order {path.name} --as {side} " +
                   " ".join(f"'{o}'" for o in orders))
        result = g.submit(path, side, orders, games_dir=_GAMES["dir"])
        for a in result.applied:
            for ev in redact(a.record, side)["events"]:
                line = describe(ev, data, side)
                if line:
                    typer.echo(f"    {line}")
        if result.rejected:
            raise result.rejected[2]

    submit("german", DEMO_OPENING)
    # The German turn goes on to its end: both players answer each decision in turn.
    while True:
        st = g.open_game(path, games_dir=_GAMES["dir"]).state
        if st.phase == "over" or (st.pending.kind == "card_or_pass" and
                                  st.pending.side == "entente"):
            break
        side = st.pending.side
        orders = [format_order(o) for o in legal_orders(st, data, side)
                  if o.kind != "armistice"]
        submit(side, [_demo_choice(orders)])
    game = g.open_game(path, games_dir=_GAMES["dir"])
    typer.echo(f"\n$ referee show {path.name} --as entente\n")
    typer.echo(show_text(state_view(game.state, data, "entente", game.game_id)))
    typer.echo(f"\n$ referee status {path.name} --as entente\n")
    typer.echo(status_text(status_view(game.state, data, "entente", game.game_id)))
    typer.echo(f"\n$ referee verify {path.name} --secret {secret.name}")
    for line in g.verify(path, secret, games_dir=_GAMES["dir"]).lines:
        typer.echo(line)
    typer.echo(f"\nThe demo journal is {path}; try `referee log {path}`.")


def main() -> None:
    """Entry point of the `referee` console script."""
    try:
        app(prog_name="referee")
    except GameDataError as exc:  # raised before a command's boundary (not expected)
        for line in exc.lines():
            typer.echo(f"referee: {line}", err=True)
        sys.exit(exc.exit_code)
