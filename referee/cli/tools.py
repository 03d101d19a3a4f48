"""Mail, pictures and tools: inbox, autoplay, games check/list, schema, demo, map and area.

Each command returns its exit code (None for 0); app.py registers it inside the error boundary.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from ..base.errors import EXIT_INTEGRITY, GameDataError, UsageError, quoted
from ..base.plurals import counted
from ..contracts.outputs import GamesCheck, GamesList, SchemaDocument, SchemaList
from ..contracts.results import InboxResult
from ..mail.outcomewords import outcome_words
from . import commands
from .params import (
    GAMES,
    SHOW_FMT_HELP,
    WIDTH_HELP,
    BbDialect,
    Dialect,
    Fmt,
    MapFmt,
    Reader,
    ShowFmt,
)


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
    with_map: Annotated[bool, typer.Option(
        "--map/--no-map", help="Attach the pictures to the players' mails, drawn as each "
                               "may see them: closeup.png of the decision asked, map.png "
                               "(1,000 pixels wide, for a phone).")
    ] = True,
) -> None:
    """Apply the players' mailed orders (address and order key must match; all or nothing
    per message) and write the replies into an outbox."""
    from ..mail import inbox as mail  # start-up: mail's parsers, for inbox and players only
    from ..mail.mailcodes import message_json  # start-up: as mail

    commands.check_private(journal)
    outcomes, written = mail.inbox(journal, source, outbox, GAMES["dir"], with_map)
    if format == Fmt.json:
        typer.echo(commands.dump(InboxResult.of(
            messages=[message_json(o) for o in outcomes],
            outbox=[str(p) for p in written])))
        return
    # The mailbox keeps growing: a message handled by an earlier run is only counted, so
    # each run prints what it did.
    fresh = [o for o in outcomes if o.new]
    for o in fresh:
        who = o.side or o.sender or "?"
        what = outcome_words(o.records, o.reason)
        typer.echo(f"{o.status:<8} {o.where} ({who}): {what}")
    for p in written:
        typer.echo(f"outbox   {p}")
    older = len(outcomes) - len(fresh)
    typer.echo(f"{counted(len(fresh), 'message')} handled; "
               + (f"{counted(older, 'older message')} already handled; " if older else "")
               + f"{counted(len(written), 'mail')} in the outbox")

# ---------------------------------------------------------------- games / schema / demo

def autoplay(
    journal: Annotated[Path, typer.Argument(help="The game's journal (committed dice).")],
    seed: Annotated[int, typer.Option(help="Seed of the random choices.")] = 0,
    until: Annotated[Optional[int], typer.Option(
        help="Stop once this turn is over (a campaign's seasonal turn; a skirmish's turn, "
             "every phase of its card's sequence of play gone through).")] = None,
    format: Annotated[Fmt, typer.Option(help="text or json.")] = Fmt.text,
) -> None:
    """Play random legal orders for whoever must decide, checking invariants after each record;
    one broken (in a skirmish: an order its check took, then refused) stops it, exit 3."""
    commands.check_private(journal)
    commands.load_msgspec()
    table = commands.needing(journal, "autoplay", "autoplay", GAMES["dir"])
    shown, failure = table.kind.autoplay(table, seed, until, format.value)
    typer.echo(commands.dump(shown) if format == Fmt.json else shown)
    if failure:
        typer.echo(commands.error_line(failure, "invariant", None, EXIT_INTEGRITY)
                   if format == Fmt.json else f"referee: {failure}", err=True)
        return EXIT_INTEGRITY
    return None


def games_check(
    directory: Annotated[Path, typer.Argument(help="A game data directory.")],
    format: Annotated[Fmt, typer.Option(help="text or json.")] = Fmt.text,
) -> None:
    """Check a game data directory and list every problem found."""
    from ..data.catalog import folder_kind  # start-up: YAML, for games check only
    from ..data.dataload import load_game  # start-up: YAML, for games check only

    if folder_kind(directory) == "skirmish":
        return skirmish_check(directory, format)
    data = load_game(directory)
    from ..data.gameinfo import describe  # start-up: only games check needs it

    if format == Fmt.json:
        typer.echo(commands.dump(GamesCheck.of(
            directory=str(directory), name=data.info.name, areas=len(data.areas),
            cards=len(data.cards), scenarios=list(data.scenarios), digest=data.digest,
            notes=describe(data))))
        return
    typer.echo(f"{directory}: OK — {len(data.areas)} areas, {len(data.cards)} cards, "
               f"scenarios {', '.join(data.scenarios)}; data digest {data.digest[:16]}")
    for line in describe(data):
        typer.echo(line)


def skirmish_check(directory: Path, format: Fmt) -> None:
    """games check for a game of kind skirmish: its card, tables and scenarios."""
    from ..table.skirmish.loading import load_skirmish  # start-up: YAML, for games check only

    data = load_skirmish(directory)
    notes = [f"ruleset: {data.info.ruleset}", f"challenge window: "
             f"{data.info.challenge_window} records"]
    if format == Fmt.json:
        typer.echo(commands.dump(GamesCheck.of(
            directory=str(directory), name=data.info.name, areas=0, cards=0,
            scenarios=list(data.scenarios), digest=data.digest, notes=notes)))
        return
    typer.echo(f"{directory}: OK — skirmish, {len(data.card.weapons.kinds)} weapons, "
               f"scenarios {', '.join(data.scenarios)}; data digest {data.digest[:16]}")
    for line in notes:
        typer.echo(line)


def games_list(format: Annotated[Fmt, typer.Option(help="text or json.")] = Fmt.text) -> None:
    """List the games of the games directory: id, name and scenarios (for `new --game`)."""
    from ..data.catalog import game_names  # start-up: only games list
    from ..table import any_game_data  # start-up: only games list

    folder = GAMES["dir"]
    if folder is not None and not folder.is_dir():     # a path typed that is no folder
        raise UsageError(f"--games {quoted(str(folder))}: "
                         f"{'not a directory' if folder.exists() else 'no such directory'}")
    games = []
    for name in game_names(folder):
        try:
            data = any_game_data(name, GAMES["dir"])
            games.append({"id": name, "readable": True, "name": data.info.name,
                          "scenarios": list(data.scenarios), "sides": list(data.sides)})
        except (GameDataError, UsageError):
            games.append({"id": name, "readable": False, "name": None, "scenarios": [],
                          "sides": []})
    if format == Fmt.json:
        typer.echo(commands.dump(GamesList.of(games=games)))
        return
    for game in games:
        if not game["readable"]:
            typer.echo(f"{game['id']}: unreadable; `referee games check` on its folder lists why")
            continue
        text = f"{game['name']} — scenarios {', '.join(game['scenarios'])}"
        typer.echo(f"{game['id']}: " + "".join(c for c in text if c.isprintable()))


def schema(
    name: Annotated[Optional[str], typer.Argument(help="Which schema.")] = None,
    format: Annotated[Fmt, typer.Option(help="text or json.")] = Fmt.text,
) -> None:
    """Print a JSON Schema (orders, events, journal records, views, game data, scenario)."""
    from ..contracts.schemas import SCHEMAS, schema_text  # start-up: only schema needs it

    if name is None or name not in SCHEMAS:
        if name is not None:
            raise UsageError(f"no schema {name!r}; the schemas are {', '.join(SCHEMAS)}")
        typer.echo(commands.dump(SchemaList.of(schemas=list(SCHEMAS)))
                   if format == Fmt.json else "\n".join(SCHEMAS))
        return
    if format == Fmt.json:
        document = SchemaDocument.of(name=name, schema=json.loads(schema_text(name)))
        typer.echo(commands.dump(document))
        return
    typer.echo(schema_text(name), nl=False)


def demo(
    keep: Annotated[Optional[Path], typer.Option(
        help="Write the demo journal here instead of a temporary folder.")] = None,
    format: Annotated[Fmt, typer.Option(help="text or json.")] = Fmt.text,
) -> None:
    """Play a scripted opening of the 1914 scenario (a battle at Liège) and show the result."""
    from .demo import play  # start-up: the demo's rules and renderers, for demo only

    play(keep, format.value)


def map_(
    journal: Annotated[Path, typer.Argument(help="The game's journal.")],
    output: Annotated[Optional[Path], typer.Option(
        "-o", "--output", help="The picture to write: FILE.svg or FILE.png (1,000 pixels "
                               "wide, for a phone).")] = None,
    as_: Reader = "public",
    at: Annotated[Optional[int], typer.Option(
        help="Draw the game as it stood after this record.")] = None,
    format: Annotated[MapFmt, typer.Option(
        help="text or json: say what -o got; svg or png: the picture, into -o or on "
             "standard output (never a terminal).")] = MapFmt.text,
    close_up: Annotated[bool, typer.Option(
        "--close-up", help="Draw the close-up a mail asking the decision carries: the areas "
                           "it concerns and their neighbours, in larger writing.")] = False,
) -> None:
    """Draw the map for one reader: each area by control with every unit on it as a
    counter, supply sources and VP, a line for every pair of neighbours, and a key."""
    out = commands.map_picture(journal, as_, output, at, GAMES["dir"], format.value,
                               sys.stdout.isatty(), close_up)
    if isinstance(out, bytes):
        typer.echo(out, nl=False)
    else:
        typer.echo(out)


# ---------------------------------------------------------------- area

def area(
    journal: Annotated[Path, typer.Argument(help="The game's journal.")],
    name: Annotated[Optional[list[str]], typer.Argument(
        help="The area: its id, name or an alias, as orders name it (case and accents do "
             "not matter).")] = None,
    list_: Annotated[bool, typer.Option(
        "--list", help="List every area: id, name, control, VP, terrain.")] = False,
    as_: Reader = "public",
    format: Annotated[ShowFmt, typer.Option(help=SHOW_FMT_HELP)] = ShowFmt.text,
    bbcode_dialect: Dialect = BbDialect.common,
    width: Annotated[int, typer.Option(min=40, max=400, help=WIDTH_HELP)] = 72,
) -> None:
    """One area: control, terrain, VP, supply, fort, battle, the units the reader may see and
    its neighbours; or --list for every area."""
    from .areacmd import area_command  # start-up: only area needs it

    typer.echo(area_command(journal, name or [], list_, as_, format.value, GAMES["dir"],
                            width, bbcode_dialect.value))
