"""`referee skirmish order` and `referee skirmish report`: a game of kind skirmish."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Optional

import typer

from ..base.errors import OrderError
from ..base.readers import PUBLIC, check_reader
from ..contracts.outputs import NewGame
from ..contracts.skirmish import SkirmishKeys, SkirmishOrderResult
from . import commands
from .params import Fmt


def skirmish_order(
    journal: Annotated[Path, typer.Argument(help="The skirmish game's journal.")],
    text: Annotated[str, typer.Argument(help="The order: a test and the facts of the table, "
                                             "e.g. 'fire B2 at=G2 range=24 cover=soft'.")],
    as_: Annotated[str, typer.Option("--as", help="The side giving the order, or moderator "
                                                  "(settle).")],
    dice: Annotated[Optional[str], typer.Option(
        help="The dice, in a --dice manual game: every die in order (3,17,5).")] = None,
    expect_seq: Annotated[Optional[int], typer.Option(
        help="Reject unless the journal's last record is this one (stale view guard).")] = None,
    format: Annotated[Fmt, typer.Option(help="text or json.")] = Fmt.text,
) -> None:
    """Take one order of a skirmish: roll its test, record it, print the test."""
    from ..table.skirmish.kind import given_dice  # start-up: only a skirmish order needs it
    from ..table.skirmish.life import submit  # start-up: only a skirmish order needs it
    from ..table.skirmish.order_text import rejection  # start-up: likewise

    commands.check_side(as_, journal)      # as `order` takes it: a side's name as it is
    try:
        rec = submit(journal, as_, text, given_dice(dice), expect_seq)
    except OrderError as exc:       # printed with the order rejected, then the error
        if format == Fmt.json:
            typer.echo(commands.dump(SkirmishOrderResult.of(
                record=None, body=None, rejected=rejection([text], 0, exc))))
        raise
    if format == Fmt.json:
        typer.echo(commands.dump(SkirmishOrderResult.of(record=rec["seq"], body=rec)))
        return
    table = commands.table_of(journal)
    typer.echo(table.kind.taken_text(table, [rec]))


def skirmish_report(
    journal: Annotated[Path, typer.Argument(help="The skirmish game's journal.")],
    turn: Annotated[Optional[int], typer.Option(help="Only this turn's tests.")] = None,
    as_: Annotated[str, typer.Option(
        "--as", help="Who reads it: a side, public or moderator. What is asked of him now "
                     "follows, as his mail gives it, with his own order key (a side's or "
                     "the moderator's, never the public's).")] = PUBLIC,
    format: Annotated[Fmt, typer.Option(help="text or json.")] = Fmt.text,
) -> None:
    """Every test of a skirmish with its dice, modifiers and result, the forces' state, and
    what the reader's mail asks of him now."""
    from ..table.skirmish.kind import reader_report, reader_report_text  # start-up: skirmish
    from ..table.skirmish.life import open_skirmish  # start-up: only a skirmish report

    # Shown only as this referee wrote it (Table.vouched), as status and show do: a journal
    # of its game edited and chained again without the key is refused, not reported.
    table = commands.table_of(journal, shown=True)
    game = open_skirmish(journal, table.records)
    check_reader(as_, tuple(game.state.sides))
    doc = reader_report(table.kind, table, as_, turn, _own_key(journal, table, as_))
    if format == Fmt.json:
        typer.echo(commands.dump(doc))
        return
    typer.echo(reader_report_text(doc), nl=False)


def _own_key(journal: Path, table, reader: str) -> str | None:
    """The order key reader's mail carries: a registered side's or the moderator's own;
    none for the public, nor for a reader the game has no address for."""
    if reader == PUBLIC or reader not in table.records[0].get("players", {}):
        return None
    commands.check_private(journal)         # a key printed: the journal should be private
    return table.kind.order_keys(table)[reader]


def new_skirmish(journal: Path, scenario: str, game: str, dice: str, game_id: str | None,
                 secret_file: Path | None, format: Fmt, games_dir: Path | None,
                 players: list[str], signing_key: Path | None = None,
                 routed: Callable[[], dict] | None = None) -> None:
    """`new --game skirmish`: the journal with the card and forces, and the first report;
    routed: records the mail route `new` was given (its source, target and sender), said
    as a campaign's `new` says it."""
    from ..store.players import parse_players  # start-up: only a new skirmish needs it
    from ..table.skirmish.kind import SKIRMISH, waited  # start-up: only a new skirmish
    from ..table.skirmish.life import create_skirmish, scenario_of  # start-up: skirmish
    from ..table.skirmish.report import report_document, report_text  # start-up: skirmish

    refuse_observers(players)
    data = SKIRMISH.load(game, games_dir)
    sides = scenario_of(data, scenario).sides
    addresses = parse_players(players, sides)
    sk = create_skirmish(journal, data, scenario, dice, game_id, secret_file, addresses,
                         signing_key)
    scenario = sk.header["scenario"]
    route = routed() if routed else {"source": None, "target": None, "sender": None}
    doc = report_document(sk.header, sk.card, sk.state, waiting=waited(sk))
    where = secret_file if secret_file is not None else f"{journal}.secret"
    if format == Fmt.json:
        typer.echo(commands.dump(NewGame.of(
            journal=str(journal), game_id=sk.header["game_id"], game=game, scenario=scenario,
            dice=dice, secret_file=str(where), signing_key=commands.key_facts(sk.header),
            players=list(addresses), observers=0, status=doc, mail_in=route["source"],
            mail_out=route["target"], mail_from=route.get("sender"))))
        return
    typer.echo(f"created {journal} (game {sk.header['game_id']}, scenario {scenario}, dice "
               f"{dice}); the dice secret is in {where} — keep it private")
    typer.echo(commands.key_line(sk.header))
    if addresses:
        typer.echo(f"players registered; `referee skirmish keys {journal}` prints their order "
                   f"keys (for the moderator only)")
    if commands.route_line(journal, route):
        typer.echo(commands.route_line(journal, route))
    typer.echo(report_text(doc), nl=False)


def refuse_observers(players: list[str]) -> None:
    """A skirmish takes no observer (UsageError, before any file is made): its players are
    fixed when it is made (no `players --set` or `--drop-observer`, so an observer could
    never be taken off), and its mail answers the sides alone; the public report is for
    the moderator to pass on (`skirmish report --as public`)."""
    from ..base.errors import UsageError, quoted  # start-up: only a new skirmish needs it
    from ..store.players import OBSERVER  # start-up: only a new skirmish needs it

    for item in players:
        if item.partition("=")[0].strip().casefold() == OBSERVER:
            raise UsageError(f"--player {quoted(item)}: a skirmish takes no observers (its "
                             f"players are fixed when it is made and its mail goes to the "
                             f"sides alone); pass its public report on yourself: `referee "
                             f"skirmish report JOURNAL --as public`")


def skirmish_keys(
    journal: Annotated[Path, typer.Argument(help="The skirmish game's journal.")],
    format: Annotated[Fmt, typer.Option(help="text or json.")] = Fmt.text,
) -> None:
    """Print each registered side's order key (for the moderator, who sends each his own)."""
    from ..base.errors import UsageError  # start-up: only skirmish keys needs it
    from ..table.skirmish.life import is_skirmish, order_keys  # start-up: skirmish keys

    commands.check_private(journal)
    # Shown only as this referee wrote it (Table.vouched), as `players --keys` shows them.
    header = commands.table_of(journal, shown=True).records[0]
    if not is_skirmish(header):
        raise UsageError(f"{journal.name}: not a skirmish game (`referee players "
                         f"{journal} --keys` prints a campaign's order keys)")
    keys = order_keys(journal, header)
    if format == Fmt.json:
        typer.echo(commands.dump(SkirmishKeys.of(keys=keys)))
        return
    for side, key in keys.items():
        typer.echo(f"{side}: {key}")
