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

from ..base.errors import EXIT_OLDER_RULES, EXIT_REJECTED, GameDataError, UsageError
from ..base.readers import check_name, check_reader
from . import commands
from .commands import guard

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
    name="referee", add_completion=True, no_args_is_help=True, cls=_OneLineErrors,
    pretty_exceptions_enable=False,
    help="A judge for play-by-email games of TO THE LAST MAN!: orders in, dice and rulings "
         "out, everything in a hash-chained journal.")
games_app = typer.Typer(help="List the games; check game data directories.",
                        no_args_is_help=True)
app.add_typer(games_app, name="games")

_GAMES: dict[str, Optional[Path]] = {"dir": None}


class Fmt(str, Enum):
    text = "text"
    json = "json"


class ShowFmt(str, Enum):
    text = "text"
    markdown = "markdown"
    bbcode = "bbcode"
    json = "json"


class DiceMode(str, Enum):
    committed = "committed"
    manual = "manual"


READER_HELP = ("Who reads it: a side (german, entente), public (a forum spectator: no hand, "
               "no deck order, no sealed plan) or moderator (everything). Default: public.")
WIDTH_HELP = "Wrap text at this many columns (an order line is never split)."


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


def _print_version(value: bool) -> None:
    if not value:
        return
    from .. import __version__
    from ..store.journal import SCHEMA_VERSION

    digest = "unreadable"
    try:
        from .. import load_msgspec

        load_msgspec()
        from ..game import game_data, game_names

        digests = []
        for name in game_names(_GAMES["dir"]):
            try:
                digests.append(f"{name} {game_data(name, _GAMES['dir']).digest[:16]}")
            except Exception:  # noqa: BLE001 - one broken game does not hide the others
                digests.append(f"{name} unreadable")
        digest = ", ".join(digests) or digest
    except Exception:  # noqa: BLE001 - --version must answer even with broken data
        pass
    typer.echo(f"referee {__version__} (journal schema {SCHEMA_VERSION}; game data "
               f"{digest})")
    raise typer.Exit()


def complete_reader(ctx: typer.Context, incomplete: str) -> list[str]:
    """Shell completion for --as: the sides of the journal's game, public, moderator."""
    from ..base.readers import DEFAULT_SIDES, readers_of

    sides = DEFAULT_SIDES
    try:
        journal = ctx.params.get("journal")
        if journal:
            from .. import load_msgspec

            load_msgspec()
            from ..game import game_data

            with open(journal, "rb") as fh:
                game = json.loads(fh.readline()).get("game", "ttlm")
            sides = game_data(game, _GAMES["dir"]).sides
    except Exception:  # noqa: BLE001 - completion offers the defaults rather than fail
        pass
    return [r for r in readers_of(sides) if r.startswith(incomplete)]


# The --as option of every command that shows the game to one reader.
Reader = Annotated[str, typer.Option("--as", help=READER_HELP, autocompletion=complete_reader)]


@app.callback()
def main_options(
    games: Annotated[Optional[Path], typer.Option(
        help="Directory holding the game data (default: the built-in games/).")] = None,
    version: Annotated[bool, typer.Option(
        "--version", callback=_print_version, is_eager=True,
        help="Print the version, the journal schema version and the game data digest.")
    ] = False,
) -> None:
    """referee: a judge for play-by-email games of TO THE LAST MAN!"""
    _GAMES["dir"] = games


# ---------------------------------------------------------------- new

@app.command()
@boundary
def new(
    journal: Annotated[Path, typer.Argument(help="The journal file to create (JSONL).")],
    scenario: Annotated[str, typer.Option(
        help="A scenario of the game (ttlm: 1914, 1916, 1918; aac: 1914) or a scenario "
             "YAML file.")],
    game: Annotated[str, typer.Option(
        help="The game: a folder of the games directory (ttlm, aac).")] = "ttlm",
    dice: Annotated[DiceMode, typer.Option(help="committed (default) or manual.")
                    ] = DiceMode.committed,
    option: Annotated[Optional[list[str]], typer.Option(
        help="An optional rule, KEY=true|false; repeat for several.")] = None,
    game_id: Annotated[Optional[str], typer.Option(
        help="Fix the game id (default: random).")] = None,
    secret_file: Annotated[Optional[Path], typer.Option(
        help="Keep the dice secret in this file instead of beside the journal (made if "
             "missing, used if it exists): keep it out of shared or synced folders.")] = None,
    player: Annotated[Optional[list[str]], typer.Option(
        help="A player's address, SIDE=ADDRESS (also moderator=ADDRESS); repeat for each. "
             "Each side gets an order key (`referee players --keys`).")] = None,
) -> None:
    """Create a game: journal header, dice secret (JOURNAL.secret, mode 0600), set-up record."""
    from .. import game as g
    from ..game.views import status_view
    from ..render.documents import status_document
    from ..render.formats import render

    dice = dice.value
    game = g.create_game(journal, scenario, dice, option or [], game_id, secret_file,
                         _GAMES["dir"], players=player or [], game=game)
    where = secret_file if secret_file is not None else f"{journal}.secret"
    typer.echo(f"created {journal} (game {game.game_id}, scenario {game.scenario.id}, dice "
               f"{dice}); the dice secret is in {where} — keep it private")
    if player:
        typer.echo(f"players registered; `referee players {journal} --keys` prints their order "
                   f"keys (for the moderator only)")
    typer.echo(render(status_document(status_view(game.state, game.data, None, game.game_id)),
                      "text"))


@app.command()
@boundary
def players(
    journal: Annotated[Path, typer.Argument(help="The game's journal.")],
    keys: Annotated[bool, typer.Option(help="Print each side's order key too.")] = False,
    set_: Annotated[Optional[list[str]], typer.Option(
        "--set", help="Change an address, SIDE=ADDRESS (a new roster record).")] = None,
    new_key: Annotated[Optional[list[str]], typer.Option(
        help="Give this side a new order key (the old one stops working).")] = None,
    format: Annotated[Fmt, typer.Option(help="text or json.")] = Fmt.text,
) -> None:
    """The players' addresses (and order keys) — for the moderator only."""
    from .. import load_msgspec

    load_msgspec()
    from ..mail import inbox as mail

    commands.check_private(journal)
    listed = mail.players(journal, set_ or [], new_key or [], keys, _GAMES["dir"])
    if format == Fmt.json:
        typer.echo(commands.dump({"schema_version": 1, "players": listed}))
        return
    if not listed:
        typer.echo(f"{journal}: no players registered (new --player SIDE=ADDRESS, or "
                   f"players --set SIDE=ADDRESS)")
    for p in listed:
        key = f"  order key {p['key']}" if p.get("key") else ""
        typer.echo(f"{p['side']:<10} {p['address']}{key}")


# ---------------------------------------------------------------- order

@app.command()
@boundary
def order(
    journal: Annotated[Path, typer.Argument(help="The game's journal.")],
    orders: Annotated[Optional[list[str]], typer.Argument(
        help="Orders, one per argument; '-' reads them from stdin.")] = None,
    as_: Annotated[str, typer.Option("--as", help="Who gives the orders: german or entente.")] = "",
    file: Annotated[Optional[Path], typer.Option(
        help="Read the orders from this file ('-': standard input).")] = None,
    dice: Annotated[Optional[str], typer.Option(
        help="Manual games: the dice rolled, in order, e.g. 3,1,6.")] = None,
    expect_seq: Annotated[Optional[int], typer.Option(
        help="Reject unless the journal's last record is this one (stale view guard).")] = None,
    format: Annotated[Fmt, typer.Option(help="text or json.")] = Fmt.text,
    atomic: Annotated[bool, typer.Option(
        help="Apply the whole batch or nothing: one rejected order rejects them all.")] = False,
    dry_run: Annotated[bool, typer.Option(
        help="Check the orders without writing, up to the first one whose result needs dice, "
             "the deck or the other side.")] = False,
) -> None:
    """Submit orders; they are applied in sequence and stop at the first rejected one."""
    commands.check_side(as_)
    texts = commands.read_orders(orders or [], file)
    out, rejection = commands.order(journal, as_, texts, dice, expect_seq, format.value,
                                    _GAMES["dir"], atomic=atomic, dry_run=dry_run)
    if out is not None:
        typer.echo(out)
    if rejection is not None:
        typer.echo(rejection, err=True)
        return EXIT_REJECTED
    return None


@app.command()
@boundary
def standing(
    journal: Annotated[Path, typer.Argument(help="The game's journal.")],
    as_: Annotated[str, typer.Option("--as", help="Whose standing orders: german or entente.")
                   ] = "",
    add: Annotated[Optional[list[str]], typer.Option(
        help="Add one (repeatable): 'no cavalry retreat', 'no retreat after combat', "
             "'no combat cards', 'stand and fight', 'pay hits with units', 'eliminate ARMY'; "
             "each may end with 'this turn'.")] = None,
    withdraw: Annotated[Optional[list[str]], typer.Option(
        help="Withdraw one (repeatable), by its phrase.")] = None,
    format: Annotated[Fmt, typer.Option(help="text or json.")] = Fmt.text,
) -> None:
    """List, add and withdraw a side's sealed standing orders: answers the referee gives for
    him when their decision comes up and they are legal then."""
    typer.echo(commands.standing_orders(journal, as_, add or [], withdraw or [], format.value,
                                        _GAMES["dir"]))


# ---------------------------------------------------------------- status / show / log

@app.command()
@boundary
def status(
    journal: Annotated[Path, typer.Argument(help="The game's journal.")],
    as_: Annotated[str, typer.Option(
        "--as", autocompletion=complete_reader,
        help=READER_HELP + " A side sees its own orders; moderator those of the side waited "
                           "on; public none.")] = "public",
    format: Annotated[ShowFmt, typer.Option(help="text, markdown, bbcode or json.")
                      ] = ShowFmt.text,
    width: Annotated[int, typer.Option(min=40, max=400, help=WIDTH_HELP)] = 72,
    all_: Annotated[bool, typer.Option(
        "--all", help="Every legal order whole, one a line, exactly as `order` takes it "
                      "(the text formats group them for reading; JSON always lists them "
                      "whole).")] = False,
) -> None:
    """Whose decision it is, what kind, and the legal orders, grouped for reading."""
    typer.echo(commands.status(journal, as_, format.value, _GAMES["dir"], width, all_))


@app.command()
@boundary
def show(
    journal: Annotated[Path, typer.Argument(help="The game's journal.")],
    as_: Reader = "public",
    format: Annotated[ShowFmt, typer.Option(help="text, markdown, bbcode or json.")
                      ] = ShowFmt.text,
    at: Annotated[Optional[int], typer.Option(
        help="Show the game as it stood after this record (replay to any point).")] = None,
    width: Annotated[int, typer.Option(min=40, max=400, help=WIDTH_HELP)] = 72,
) -> None:
    """Turn, phase, VP and level, every area with its control and units, the reader's hand."""
    typer.echo(commands.show(journal, as_, format.value, at, _GAMES["dir"], width))


@app.command()
@boundary
def log(
    journal: Annotated[Path, typer.Argument(help="The game's journal.")],
    since: Annotated[int, typer.Option(help="First record to print.")] = 0,
    as_: Annotated[str, typer.Option(
        "--as", autocompletion=complete_reader,
        help=READER_HELP + " Secrets the reader may not see are digests.")] = "public",
    format: Annotated[Fmt, typer.Option(
        help="text, or json (JSONL records, redacted for the reader; still verifiable).")
    ] = Fmt.text,
    width: Annotated[int, typer.Option(min=40, max=400, help=WIDTH_HELP)] = 72,
) -> None:
    """The records with their orders, dice and events."""
    from .. import game as g
    from ..base.errors import JournalError
    from ..game.records import header_of, record_of
    from ..render.text import note_pending, record_lines, wrap_lines
    from ..store.journal import Journal, redact, scan

    check_name(as_)
    commands.check_private(journal)
    source = Journal(journal)
    raw = source.raw()
    # First every record is checked, then printed: a damaged journal prints nothing but the
    # record where it is damaged. Both passes stream, so memory stays flat.
    records = scan(raw, source.name)
    first = next(records)
    header_of(first, source.name)
    data = g.data_for(first, source.name, _GAMES["dir"])      # the data it was played with
    for rec in records:
        g.check_actor(record_of(rec, source.name).actor, rec.get("seq"), data, source.name)
    check_reader(as_, data.sides)
    pending: dict[str, str] = {}
    for rec in scan(raw, source.name):
        for ev in rec.get("events", []):
            if ev.get("type") == "RulesUpgraded":      # later records: the data it names
                data = g.data_by_digest(first["game"], ev["data_digest"], _GAMES["dir"],
                                        source.name, rec["seq"])
        if rec["seq"] < since:
            note_pending(rec, pending)
            continue
        shown = redact(rec, as_)
        if format == Fmt.json:
            typer.echo(json.dumps(shown, sort_keys=True, separators=(",", ":")))
            continue
        try:
            lines = wrap_lines(record_lines(shown, data, as_, pending), width)
        except (KeyError, ValueError, TypeError, AttributeError, IndexError) as exc:
            raise JournalError(f"{source.name}: record {rec['seq']} cannot be shown: it names "
                               f"something the game data does not have ({exc})",
                               record=rec["seq"]) from None
        typer.echo("\n".join(lines))


@app.command()
@boundary
def report(
    journal: Annotated[Path, typer.Argument(help="The game's journal.")],
    as_: Reader = "public",
    since: Annotated[Optional[int], typer.Option(
        help="Report every record after this one (default: after this reader's last "
             "report).")] = None,
    format: Annotated[ShowFmt, typer.Option(help="text, markdown, bbcode or json.")
                      ] = ShowFmt.text,
    width: Annotated[int, typer.Option(min=40, max=400, help=WIDTH_HELP)] = 72,
) -> None:
    """What happened since the reader's last report, his decision now, and a receipt."""
    from .. import load_msgspec

    load_msgspec()
    from ..render import reports

    commands.check_private(journal)
    check_name(as_)
    doc, meta = reports.build(journal, as_, since, _GAMES["dir"])
    typer.echo(reports.render_report(doc, meta, format.value, width))


@app.command()
@boundary
def inbox(
    journal: Annotated[Path, typer.Argument(help="The game's journal.")],
    # readable=False: a mailbox this user may not read is the referee's to report (exit 3),
    # not a usage error from the option parser's access() check.
    source: Annotated[list[Path], typer.Argument(
        help="An mbox file, a Maildir folder, or .eml files.", readable=False)],
    outbox: Annotated[Optional[Path], typer.Option(
        help="Write each reply and each player's report here as .eml files (never sent).")
    ] = None,
    format: Annotated[Fmt, typer.Option(help="text or json.")] = Fmt.text,
    attach_map: Annotated[bool, typer.Option(
        help="Attach map.svg to each player's mail, drawn as that player may see it.")
    ] = False,
) -> None:
    """Apply the players' mailed orders (address and order key must match; all or nothing
    per message) and write the replies into an outbox."""
    from .. import load_msgspec

    load_msgspec()
    from ..mail import inbox as mail

    commands.check_private(journal)
    outcomes, written = mail.inbox(journal, source, outbox, _GAMES["dir"], attach_map)
    if format == Fmt.json:
        typer.echo(commands.dump({
            "schema_version": 1,
            "messages": [{"where": o.where, "message_id": o.message_id, "from": o.sender,
                          "status": o.status, "side": o.side, "reason": o.reason,
                          "records": o.records} for o in outcomes],
            "outbox": [str(p) for p in written]}))
        return
    for o in outcomes:
        who = o.side or o.sender or "?"
        what = f"records {', '.join(map(str, o.records))}" if o.records else o.reason
        typer.echo(f"{o.status:<8} {o.where} ({who}): {what}")
    for p in written:
        typer.echo(f"outbox   {p}")
    typer.echo(f"{len(outcomes)} message(s) handled; {len(written)} mail(s) in the outbox")


# ---------------------------------------------------------------- verify / reveal / repair

@app.command()
@boundary
def verify(
    journal: Annotated[Path, typer.Argument(help="The game's journal (or a redacted export).")],
    secret: Annotated[Optional[Path], typer.Option(
        help="The dice secret file: recompute every die and shuffle.")] = None,
    export: Annotated[Optional[str], typer.Option(
        help="The file is a redacted export made for this reader (german, entente, public, "
             "moderator): check its chain and its redactions only.")] = None,
    receipt: Annotated[Optional[list[str]], typer.Option(
        help="SEQ:HASH from a report or mail: fail unless the journal still holds that "
             "record as it was (repeatable).")] = None,
) -> int | None:
    """Check the hash chain, decide every record again, and (with the secret) every die."""
    from ..game.verification import check_receipts
    from ..game.verification import verify as check

    receipts = check_receipts(journal, receipt or [])
    report = check(journal, secret, _GAMES["dir"], export=export)
    report.lines.extend(receipts)
    for line in report.lines:
        typer.echo(line)
    if report.older:
        # Not damage, and not fully verified either: a status of its own (README: exit codes).
        typer.echo(f"verify: OK UNDER OLDER RULES ({report.older} records made under older "
                   f"rules were replayed, not decided again)")
        return EXIT_OLDER_RULES
    typer.echo("verify: OK" + (" (chain only)" if export else ""))


@app.command()
@boundary
def upgrade(journal: Annotated[Path, typer.Argument(help="The game's journal.")]) -> None:
    """Move a game played under older rules or game data on to this referee's (moderator)."""
    commands.check_private(journal)
    from .. import game as g

    rec = g.upgrade(journal, _GAMES["dir"])
    ev = rec["events"][0]
    typer.echo(f"record {rec['seq']}: the game moves from rules {ev['from_rules']} (game data "
               f"{ev['from_data_digest'][:12]}) to rules {ev['rules']} (game data "
               f"{ev['data_digest'][:12]}); later orders are decided under them")


@app.command()
@boundary
def reveal(
    journal: Annotated[Path, typer.Argument(help="The game's journal.")],
    force: Annotated[bool, typer.Option(
        help="Reveal before the game is over (closes it).")] = False,
) -> None:
    """Append the dice secret to the journal so that anyone can check every roll."""
    commands.check_private(journal)
    from .. import game as g

    rec = g.reveal(journal, force, _GAMES["dir"])
    typer.echo(f"record {rec['seq']}: secret revealed; `referee verify {journal}` now "
               f"recomputes every die")


@app.command()
@boundary
def repair(journal: Annotated[Path, typer.Argument(help="The game's journal.")]) -> None:
    """Remove a torn last line (after backing the file up); any other damage is refused."""
    commands.check_private(journal)
    from ..store.journal import Journal

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
    from ..game.autoplay import autoplay as play

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
    from ..data.dataload import load_game

    data = load_game(directory)
    typer.echo(f"{directory}: OK — {len(data.areas)} areas, {len(data.cards)} cards, "
               f"scenarios {', '.join(data.scenarios)}; data digest {data.digest[:16]}")
    from ..data.gameinfo import describe

    for line in describe(data):
        typer.echo(line)


@games_app.command("list")
@boundary
def games_list() -> None:
    """List the games of the games directory: id, name and scenarios (for `new --game`)."""
    from .. import load_msgspec

    load_msgspec()
    from ..game import game_data, game_names

    for name in game_names(_GAMES["dir"]):
        try:
            data = game_data(name, _GAMES["dir"])
            text = f"{data.info.name} — scenarios {', '.join(data.scenarios)}"
            typer.echo(f"{name}: " + "".join(c for c in text if c.isprintable()))
        except (GameDataError, UsageError):
            typer.echo(f"{name}: unreadable; `referee games check` on its folder lists why")


@app.command()
@boundary
def schema(name: Annotated[Optional[str], typer.Argument(help="Which schema.")] = None) -> None:
    """Print a JSON Schema (orders, events, journal records, views, game data, scenario)."""
    from ..game.schemas import SCHEMAS, schema_text

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
    from .. import game as g
    from ..engine import legal_orders
    from ..engine.orders import format_order
    from ..game.views import state_view, status_view
    from ..render.documents import show_document, status_document
    from ..render.formats import render
    from ..render.text import describe
    from ..store.dice import write_secret
    from ..store.journal import redact

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
    typer.echo(render(show_document(state_view(game.state, data, "entente", game.game_id)),
                      "text"))
    typer.echo(f"\n$ referee status {path.name} --as entente\n")
    typer.echo(render(status_document(status_view(game.state, data, "entente", game.game_id)),
                      "text"))
    typer.echo(f"\n$ referee verify {path.name} --secret {secret.name}")
    for line in g.verify(path, secret, games_dir=_GAMES["dir"]).lines:
        typer.echo(line)
    typer.echo(f"\nThe demo journal is {path}; try `referee report {path} --as entente "
               f"--since 0`, or `--as public --format bbcode` for a forum post.")


# ---------------------------------------------------------------- explain / dice (audit)

@app.command()
@boundary
def explain(
    journal: Annotated[Path, typer.Argument(help="The game's journal.")],
    seq: Annotated[str, typer.Argument(help="The record to explain (its number, as `log` "
                                            "shows it).")],
    as_: Reader = "public",
    format: Annotated[Fmt, typer.Option(help="text or json.")] = Fmt.text,
    width: Annotated[int, typer.Option(min=40, max=400, help=WIDTH_HELP)] = 72,
) -> None:
    """One record: the order, the decision it answered and its rule, the checks it passed,
    each die and what it was for, each hit and how it was paid, what it changed."""
    from .. import load_msgspec

    load_msgspec()
    from ..game.audit import explain as explain_record
    from ..game.audit import explain_document
    from ..render.formats import render

    commands.check_private(journal)
    doc = explain_record(journal, seq, as_, _GAMES["dir"])
    typer.echo(commands.dump(doc) if format == Fmt.json else
               render(explain_document(doc), "text", width), nl=format == Fmt.json)


@app.command()
@boundary
def dice(
    journal: Annotated[Path, typer.Argument(help="The game's journal.")],
    as_: Reader = "public",
    format: Annotated[Fmt, typer.Option(help="text or json.")] = Fmt.text,
    width: Annotated[int, typer.Option(min=40, max=400, help=WIDTH_HELP)] = 72,
) -> None:
    """Each side's dice so far by face and purpose, beside the expected counts, with a
    chi-square figure."""
    from .. import load_msgspec

    load_msgspec()
    from ..game.audit import dice_counts, dice_document
    from ..render.formats import render

    commands.check_private(journal)
    doc = dice_counts(journal, as_, _GAMES["dir"])
    typer.echo(commands.dump(doc) if format == Fmt.json else
               render(dice_document(doc), "text", width), nl=format == Fmt.json)


@app.command("map")
@boundary
def map_(
    journal: Annotated[Path, typer.Argument(help="The game's journal.")],
    output: Annotated[Path, typer.Option(
        "-o", "--output", help="The picture to write: FILE.svg, or FILE.png where an SVG "
                               "renderer (cairosvg or rsvg-convert) is installed.")],
    as_: Reader = "public",
    at: Annotated[Optional[int], typer.Option(
        help="Draw the game as it stood after this record.")] = None,
) -> None:
    """Draw the map for one reader: each area by control with its units, forts, supply
    sources and VP, a line for every pair of neighbours, and a legend."""
    typer.echo(commands.map_picture(journal, as_, output, at, _GAMES["dir"]))


# ---------------------------------------------------------------- area

@app.command()
@boundary
def area(
    journal: Annotated[Path, typer.Argument(help="The game's journal.")],
    name: Annotated[Optional[list[str]], typer.Argument(
        help="The area: its id, name or an alias, as orders name it (case and accents do "
             "not matter).")] = None,
    list_: Annotated[bool, typer.Option(
        "--list", help="List every area: id, name, control, VP, terrain.")] = False,
    as_: Reader = "public",
    format: Annotated[ShowFmt, typer.Option(help="text, markdown, bbcode or json.")
                      ] = ShowFmt.text,
    width: Annotated[int, typer.Option(min=40, max=400, help=WIDTH_HELP)] = 72,
) -> None:
    """One area: control, terrain, VP, supply, fort, battle, the units the reader may see and
    its neighbours; or --list for every area."""
    from ..render.areas import area_command

    typer.echo(area_command(journal, name or [], list_, as_, format.value, _GAMES["dir"],
                            width))


def main() -> None:
    """Entry point of the `referee` console script."""
    try:
        app(prog_name="referee")
    except GameDataError as exc:  # raised before a command's boundary (not expected)
        for line in exc.lines():
            typer.echo(f"referee: {line}", err=True)
        sys.exit(exc.exit_code)
