"""The command line: parse arguments, call the game layer, render. Also the error boundary.

Expected errors print one line on stderr (one per problem for data files)
and exit 1 (rejected order), 2 (usage) or 3 (data or journal integrity).
Anything unexpected prints one line and exits 4; never a traceback.
"""

from __future__ import annotations

import functools
import json
import os
import sys
import tempfile
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer

from . import cache
from .errors import EXIT_REJECTED, GameDataError, RefereeError, UsageError
from .readers import check_reader

# The rules and the data models are imported inside the commands that need
# them: `status` and `show` answer from the snapshot cache without them.

EXIT_INTERNAL = 4

app = typer.Typer(
    name="referee", add_completion=False, no_args_is_help=True,
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
    """Turn expected errors into one line and an exit code; never show a traceback."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except RefereeError as exc:
            for line in exc.lines():
                typer.echo(f"referee: {line}", err=True)
            raise typer.Exit(exc.exit_code) from None
        except (typer.Exit, typer.Abort):
            raise
        except KeyboardInterrupt:
            raise typer.Exit(130) from None
        except BrokenPipeError:           # output piped into `head` and the like
            sys.stderr = open(os.devnull, "w")
            raise typer.Exit(0) from None
        except Exception as exc:  # the boundary: a bug must not show a traceback
            typer.echo(f"referee: internal error ({type(exc).__name__}: {exc}); nothing was "
                       f"written. Please report it with the command you ran.", err=True)
            raise typer.Exit(EXIT_INTERNAL) from None
    return wrapper


def _dump(obj) -> str:
    return json.dumps(obj, indent=2, ensure_ascii=False)


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
        help="Use this existing secret instead of a fresh one (tests, replays).")] = None,
) -> None:
    """Create a game: journal header, dice secret (JOURNAL.secret, mode 0600), set-up record."""
    from . import game as g
    from .render.text import status_text
    from .views import status_view

    game = g.create_game(journal, scenario, dice, option or [], game_id, secret_file,
                         _GAMES["dir"])
    typer.echo(f"created {journal} (game {game.game_id}, scenario {game.scenario.id}, dice "
               f"{dice}); the dice secret is in {journal}.secret — keep it private")
    typer.echo(status_text(status_view(game.state, game.data, None, game.game_id)))


# ---------------------------------------------------------------- order

def _read_orders(orders: list[str], file: Optional[Path]) -> list[str]:
    from .engine.reading import order_lines

    texts: list[str] = []
    if file is not None:
        try:
            texts += order_lines(file.read_text(encoding="utf-8"))
        except OSError as exc:
            raise UsageError(f"--file {file}: {exc.strerror}") from None
    for item in orders:
        if item == "-":
            texts += order_lines(sys.stdin.read())
        else:
            texts += order_lines(item)
    return texts


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
    from . import game as g
    from .journal import redact
    from .render.text import record_lines, status_text
    from .views import status_view

    if not as_:
        raise UsageError("say who gives the orders: --as german or --as entente")
    check_reader(as_, allow_moderator=False)
    texts = _read_orders(orders or [], file)
    result = g.submit(journal, as_, texts, dice, expect_seq, _GAMES["dir"])
    data = g.game_data("ttlm", _GAMES["dir"])
    state = result.state
    if format == Fmt.json:
        out = {
            "applied": [{"order": a.text, "seq": a.record.get("seq"),
                         "events": redact(a.record, as_)["events"]} for a in result.applied],
            "rejected": None if result.rejected is None else {
                "index": result.rejected[0], "order": result.rejected[1],
                "error": str(result.rejected[2]),
                "rule": getattr(result.rejected[2], "rule", None)},
            "not_applied": result.not_applied,
            "status": status_view(state, data, as_) if state else None,
        }
        typer.echo(_dump(out))
    else:
        for a in result.applied:
            typer.echo("\n".join(record_lines(redact(a.record, as_), data, as_)))
        if state is not None and result.rejected is None:
            typer.echo(status_text(status_view(state, data, as_)))
    if state is not None and result.applied:
        _warm_cache(journal, state, data)
    if result.rejected is not None:
        # One line: what was rejected and why, and what happened to the rest of the batch.
        i, text, exc = result.rejected
        line = f"referee: {exc}"
        if result.applied:
            line += f"; orders 1-{i} were applied, order {i + 1} ({text!r}) was rejected"
        if result.not_applied:
            line += f"; not applied: {', '.join(map(repr, result.not_applied))}"
        typer.echo(line, err=True)
        raise typer.Exit(EXIT_REJECTED)


def _warm_cache(journal: Path, state, data) -> None:
    """Put the views players ask for next into the snapshot cache (best effort)."""
    from .views import state_view, status_view

    try:
        for reader in (None, "german", "entente"):
            cache.add_view(journal, f"status:{reader}",
                           status_view(state, data, reader, state.game_id), _GAMES["dir"])
        for reader in ("german", "entente", "moderator"):
            cache.add_view(journal, f"show:{reader}",
                           state_view(state, data, reader, state.game_id), _GAMES["dir"])
    except Exception:  # noqa: BLE001 - a cache is only a cache
        pass


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
    from .render.text import status_text

    if as_ is not None:
        check_reader(as_)
    key = f"status:{as_}"
    view = cache.view(journal, key, _GAMES["dir"])
    if view is None:
        from . import game as g
        from .views import status_view

        game = g.open_game(journal, games_dir=_GAMES["dir"])
        view = status_view(game.state, game.data, as_, game.game_id)
        cache.add_view(journal, key, view, _GAMES["dir"])
    typer.echo(_dump(view) if format == Fmt.json else status_text(view))


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
    from .render.markdown import show_markdown
    from .render.text import show_text

    check_reader(as_)
    key = f"show:{as_}"
    view = cache.view(journal, key, _GAMES["dir"]) if at is None else None
    if view is None:
        from . import game as g
        from .views import state_view

        game = g.open_game(journal, upto=at, games_dir=_GAMES["dir"])
        view = state_view(game.state, game.data, as_, game.game_id)
        if at is None:
            cache.add_view(journal, key, view, _GAMES["dir"])
    if format == ShowFmt.json:
        typer.echo(_dump(view))
    elif format == ShowFmt.markdown:
        typer.echo(show_markdown(view))
    else:
        typer.echo(show_text(view))


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
    from .journal import Journal, redact
    from .render.text import record_lines

    check_reader(as_)
    records = Journal(journal).read()
    data = g.game_data(records[0].get("game", "ttlm"), _GAMES["dir"])
    for rec in records:
        if rec["seq"] < since:
            continue
        shown = redact(rec, as_)
        if format == Fmt.json:
            typer.echo(json.dumps(shown, sort_keys=True, separators=(",", ":")))
        else:
            typer.echo("\n".join(record_lines(shown, data, as_)))


# ---------------------------------------------------------------- verify / reveal / repair

@app.command()
@boundary
def verify(
    journal: Annotated[Path, typer.Argument(help="The game's journal (or a redacted export).")],
    secret: Annotated[Optional[Path], typer.Option(
        help="The dice secret file: recompute every die and shuffle.")] = None,
) -> None:
    """Check the hash chain, decide every record again, and (with the secret) every die."""
    from . import game as g

    report = g.verify(journal, secret, _GAMES["dir"])
    for line in report.lines:
        typer.echo(line)
    typer.echo("verify: OK")


@app.command()
@boundary
def reveal(
    journal: Annotated[Path, typer.Argument(help="The game's journal.")],
    force: Annotated[bool, typer.Option(
        help="Reveal before the game is over (closes it).")] = False,
) -> None:
    """Append the dice secret to the journal so that anyone can check every roll."""
    from . import game as g

    rec = g.reveal(journal, force, _GAMES["dir"])
    typer.echo(f"record {rec['seq']}: secret revealed; `referee verify {journal}` now "
               f"recomputes every die")


@app.command()
@boundary
def repair(journal: Annotated[Path, typer.Argument(help="The game's journal.")]) -> None:
    """Remove a torn last line (after backing the file up); any other damage is refused."""
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
    from .autoplay import autoplay as play

    out = play(journal, seed, until, games_dir=_GAMES["dir"])
    typer.echo(f"{out.records} records played; turn {out.turn}; "
               + (f"game over: {(out.result or {}).get('level_name')}" if out.over else
                  "game not over"))
    if out.failure:
        typer.echo(f"referee: invariant broken at {out.failure}; the journal holds every "
                   f"record up to it", err=True)
        raise typer.Exit(3)


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
    secret.write_text(DEMO_SECRET + "\n")
    path.unlink(missing_ok=True)
    path.with_name(path.name + ".secret").unlink(missing_ok=True)
    path.with_name(path.name + ".cache").unlink(missing_ok=True)
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
