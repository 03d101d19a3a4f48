"""Playing a game: new, players, order, standing, status and show.

Each command returns its exit code (None for 0); app.py registers it inside the error boundary.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, NamedTuple, Optional

import typer

from ..base.addresses import address_key
from ..base.errors import EXIT_REJECTED, UsageError, quoted
from ..base.gameids import check_game_id
from ..base.plurals import counted
from ..base.readers import PUBLIC
from ..contracts.outputs import NewGame
from ..contracts.results import PlayersView
from ..store.players import OBSERVER
from . import commands
from .oneaddress import warn_shared
from .params import (
    GAMES,
    READER_HELP,
    SHOW_FMT_HELP,
    WIDTH_HELP,
    BbDialect,
    Dialect,
    DiceMode,
    Fmt,
    Reader,
    ShowFmt,
    complete_reader,
    games_help,
)

# ---------------------------------------------------------------- new

GAME_HELP, SCENARIO_HELP = games_help()


SKIP_HELP = ("A deadline falling on a Saturday or Sunday (in the game's time zone) moves to "
             "Monday, same time.")
ZONE_HELP = ("The game's time zone, an IANA name like Europe/Paris or America/New_York: every "
             "time is told there (with UTC beside it) and its weekend is skipped (default "
             "UTC).")
FROM_HELP = ("The address the referee's mails come from and players answer to, the mailbox "
             "--mail-in reads (default: the moderator's address).")


def new(
    journal: Annotated[Path, typer.Argument(help="The journal file to create (JSONL).")],
    scenario: Annotated[str, typer.Option(help=SCENARIO_HELP)],
    game: Annotated[str, typer.Option(help=GAME_HELP)] = "ttlm",
    dice: Annotated[DiceMode, typer.Option(help="committed (default) or manual.")
                    ] = DiceMode.committed,
    option: Annotated[Optional[list[str]], typer.Option(
        help="An optional rule, KEY=true|false; repeat for several.")] = None,
    game_id: Annotated[Optional[str], typer.Option(
        help="Fix the game id: 1 to 64 letters, digits and '-' (default: random).")] = None,
    secret_file: Annotated[Optional[Path], typer.Option(
        help="Keep the dice secret in this file instead of beside the journal (made if "
             "missing, used if it exists): keep it out of shared or synced folders.")] = None,
    player: Annotated[Optional[list[str]], typer.Option(
        help="A player's address, SIDE=ADDRESS (also moderator=ADDRESS, and "
             "observer=ADDRESS for each observer, who gets the public report and never "
             "orders; a campaign only: a skirmish takes none); repeat for each. Each side "
             "gets an order key (`referee players --keys`).")] = None,
    sheet: Annotated[Optional[list[str]], typer.Option(
        help="A player's dice sheet, SIDE=TIP (the first line of the file `referee sheet new` "
             "made on his machine); repeat for each. His orders that roll dice then carry "
             "its next link (order --link, or 'Link:' in a mail).")] = None,
    deadline: Annotated[Optional[str], typer.Option(
        help="Each hand-off's deadline, e.g. 48h or 2d (default: no deadlines).")] = None,
    reminders: Annotated[Optional[str], typer.Option(
        help="When to remind the sides still owing orders, before the deadline, each "
             "shorter than it ('' for none; default: those of 24h,2h shorter than the "
             "deadline).")] = None,
    missed: Annotated[Optional[str], typer.Option(
        help="At a missed deadline: default (the referee answers with the rules' "
             "do-nothing order), wait (the moderator is told) or pause (default wait).")] = None,
    extensions: Annotated[Optional[int], typer.Option(
        help="How many times each side may ask for more time by mail, 'extend 24h' "
             "(default 2).")] = None,
    skip_weekends: Annotated[bool, typer.Option("--skip-weekends", help=SKIP_HELP)] = False,
    zone: Annotated[Optional[str], typer.Option(help=ZONE_HELP)] = None,
    mail_in: Annotated[Optional[str], typer.Option(
        help="Where players' mail is read (`referee mail` changes it later): an mbox file, a "
             "Maildir, or imap://USER@HOST[:PORT]/FOLDER (imaps:// for TLS).")] = None,
    mail_out: Annotated[Optional[str], typer.Option(
        help="How the referee's mail leaves: outbox:DIR, smtp://[USER@]HOST[:PORT] "
             "(smtps:// for TLS) or route:NAME, a command of your mail settings; passwords "
             "never go here.")] = None,
    mail_from: Annotated[Optional[str], typer.Option("--from", help=FROM_HELP)] = None,
    signing_key: Annotated[Optional[Path], typer.Option(
        help="Sign the journal with the key in this file (made there if missing) instead of a "
             "new one; never a file beside the journal. Either way the key is kept in your "
             "referee home's keys folder.")] = None,
    format: Annotated[Fmt, typer.Option(help="text or json.")] = Fmt.text,
) -> None:
    """Create a game: journal header, dice secret (JOURNAL.secret, mode 0600), set-up record;
    every record signed by the game's key, kept in your referee home."""
    dice = dice.value
    clock = _checked_before_new(game_id, ClockOptions(deadline, reminders, missed, extensions,
                                                      skip_weekends, zone),
                                mail_in, mail_out, player or [], mail_from)
    from ..data.catalog import check_game_name, kind_of  # start-up: only new needs it
    from ..table import Table  # start-up: only new needs it

    if kind_of(check_game_name(game, GAMES["dir"]), GAMES["dir"]) == "skirmish":
        _new_skirmish(journal, scenario, game, dice, game_id, secret_file, format,
                      player or [], clock is not None, signing_key,
                      lambda: _route_of_new(journal, mail_in, mail_out, mail_from))
        return
    game = Table.create(journal, scenario, GAMES["dir"], dice_mode=dice, options=option or [],
                        game_id=game_id, secret_file=secret_file, players=player or [],
                        game=game, sheets=sheet or [], clock=clock, signing_key=signing_key)
    where = secret_file if secret_file is not None else f"{journal}.secret"
    sides = [p.partition("=")[0].strip().casefold() for p in player or []]
    route = _route_of_new(journal, mail_in, mail_out, mail_from)
    table = Table(journal, GAMES["dir"])
    if player and "roster" in table.kind.features:
        warn_shared(journal, table.kind.players(table))
    view = table.kind.status_view(table, PUBLIC)
    aids = view.pop("_aids", None)
    if format == Fmt.json:
        return _created_json(journal, game, dice, where, sides, route, view)
    _say_created(journal, game, dice, where, sides, route)
    typer.echo(commands.key_line(game.header))
    typer.echo(_status_text(table, view, aids))


def _status_text(table, view: dict, aids) -> str:
    """The status `status` prints of the journal `new` wrote: after its route's record, with
    the deadline its set-up gave."""
    from ..render.formats import render  # start-up: only new needs it

    return render(table.kind.status_document(view, aids, False), "text")


def _new_skirmish(journal, scenario, game, dice, game_id, secret_file, format, players,
                  deadlines, signing_key, routed) -> None:
    from .skirmishcmd import new_skirmish  # start-up: only a new skirmish needs it

    if deadlines:
        raise UsageError("a skirmish takes no --deadline, --reminders or --missed: the card "
                         "has no clock, and its turns go as both sides say done")
    new_skirmish(journal, scenario, game, dice, game_id, secret_file, format, GAMES["dir"],
                 players, signing_key, routed)


def _route_of_new(journal: Path, mail_in, mail_out, mail_from) -> dict:
    """The game's mail route, recorded when `new` was given one."""
    if mail_in is None and mail_out is None and mail_from is None:
        return {"source": None, "target": None, "sender": None}
    from ..mail.routes import set_route  # start-up: new with a mail route only

    return set_route(journal, mail_in, mail_out, GAMES["dir"], sender=mail_from)


class ClockOptions(NamedTuple):
    """The deadline options `new` was given, named as game/timeline.py's new_settings
    takes them."""

    deadline: str | None
    reminders: str | None
    missed: str | None
    extensions: int | None
    skip_weekends: bool
    zone: str | None


def _checked_before_new(game_id, clock: ClockOptions, mail_in, mail_out, players: list[str],
                        mail_from=None):
    """The options of `new` that can be wrong without the game: the game id, the deadline
    settings (their fact for the journal, or None), the mail route and an address beyond
    ASCII its SMTP server would not take, refused before any file is made."""
    from ..game.timeline import new_settings  # start-up: only new and deadline need it
    from ..store.mailroute import check_source, check_target, is_local  # start-up: new only

    if game_id is not None:
        check_game_id(game_id)
    for value, check, option in ((mail_in, check_source, "--mail-in"),
                                 (mail_out, check_target, "--mail-out")):
        if value is not None:
            from ..mail.delivery import check_allowed  # start-up: new with a route only

            check_allowed(check(value, option), option, value)
    if mail_in is not None and is_local(check_source(mail_in, "--mail-in")):
        from ..mail.mailboxes import check_mailbox  # start-up: new with a route only

        check_mailbox(check_source(mail_in, "--mail-in"), "--mail-in")
    if mail_out is not None and check_target(mail_out, "--mail-out").startswith("outbox:"):
        from ..mail.mailboxes import check_outbox_folder  # start-up: new with a route only

        check_outbox_folder(check_target(mail_out, "--mail-out"), "--mail-out")
    if mail_from is not None:
        _check_own_address(mail_from, players)
    wide = [p.partition("=")[2].strip() for p in players if not p.isascii()]
    if wide and mail_out is not None:
        from ..mail.routes import refuse_unmailable  # start-up: new with a route only

        refuse_unmailable(check_target(mail_out, "--mail-out"), wide, "--player")
    if clock.deadline is not None:
        return new_settings(**clock._asdict())
    if clock.reminders or clock.missed or clock.extensions is not None or \
            clock.skip_weekends or clock.zone is not None:
        raise UsageError("--reminders, --missed, --extensions, --skip-weekends and --zone go "
                         "with --deadline (no deadline, nothing to remind of or to miss)")
    return None


def _check_own_address(mail_from: str, players: list[str]) -> None:
    """--from: one plain address, no player's or observer's (mail from it is never read as
    orders), refused before any file is made."""
    from ..store.mailroute import check_sender  # start-up: new with --from only

    sender = check_sender(mail_from)
    for item in players:
        who, _, address = item.partition("=")
        if who.strip().casefold() != "moderator" and \
                address_key(address) == address_key(sender):
            raise UsageError(f"--from {quoted(sender)}: that is the address of --player "
                             f"{quoted(item)}; the referee's own address must be one no "
                             f"player uses (mail from it is never read as orders)")


def _created_json(journal, game, dice: str, where, sides: list[str], route: dict,
                  view: dict) -> None:
    typer.echo(commands.dump(NewGame.of(
        journal=str(journal), game_id=game.game_id, game=game.data.info.id,
        scenario=game.scenario.id, dice=dice, secret_file=str(where),
        signing_key=commands.key_facts(game.header), players=[s for s in sides if s != OBSERVER],
        observers=sides.count(OBSERVER), status=view, mail_in=route["source"],
        mail_out=route["target"], mail_from=route.get("sender"))))


def _say_created(journal, game, dice: str, where, sides: list[str], route: dict) -> None:
    typer.echo(f"created {journal} (game {game.game_id}, scenario {game.scenario.id}, dice "
               f"{dice}); the dice secret is in {where} — keep it private")
    if any(s != OBSERVER for s in sides):
        typer.echo(f"players registered; `referee players {journal} --keys` prints their order "
                   f"keys (for the moderator only)")
    if commands.route_line(journal, route):
        typer.echo(commands.route_line(journal, route))
    if OBSERVER in sides:
        typer.echo(f"{counted(sides.count(OBSERVER), 'observer')} registered: each is sent "
                   f"the public report, and none can order")


def players(
    journal: Annotated[Path, typer.Argument(help="The game's journal.")],
    keys: Annotated[bool, typer.Option("--keys", help="Print each side's order key too.")] = False,
    set_: Annotated[Optional[list[str]], typer.Option(
        "--set", help="Change an address, SIDE=ADDRESS, or add an observer, "
                      "observer=ADDRESS (a new roster record).")] = None,
    new_key: Annotated[Optional[list[str]], typer.Option(
        help="Give this side a new order key (the old one stops working).")] = None,
    drop_observer: Annotated[Optional[list[str]], typer.Option(
        help="Stop sending this observer the public report (a new roster record).")] = None,
    sheet: Annotated[Optional[list[str]], typer.Option(
        help="Register a player's dice sheet, SIDE=TIP (the tip he sent; a record each; a "
             "new sheet replaces his last).")] = None,
    format: Annotated[Fmt, typer.Option(help="text or json.")] = Fmt.text,
) -> None:
    """The players' addresses (and order keys) and the observers — for the moderator only."""
    from ..mail import inbox as mail  # start-up: mail's parsers, for players and inbox only

    commands.check_private(journal)
    commands.load_msgspec()
    table = commands.table_of(journal, GAMES["dir"], shown=True)
    for option, given in (("--set", set_), ("--new-key", new_key),
                          ("--drop-observer", drop_observer)):
        if given:
            table.kind.needs("roster", f"players {option}", journal)
    if sheet:
        table.kind.needs("sheets", "players --sheet", journal)
    if set_ or new_key or drop_observer or sheet:
        commands.check_ours(journal)
        # start-up: the rules, for a write of the roster only
        from ..mail.headeralone import refuse_header_alone

        refuse_header_alone(table.whole())  # a record appended would fork it from its backup
    sheets = table.register_sheets(sheet) if sheet else []
    before = table.kind.players(table) if "roster" in table.kind.features and set_ else {}
    same: dict[str, str] = {}
    if "roster" in table.kind.features:
        listed, watchers, same = mail.players(journal, set_ or [], new_key or [], keys,
                                              GAMES["dir"], drop_observer or [])
    else:
        listed, watchers = _fixed_players(table, keys), []
    rekeyed = _rekeyed(before, listed)
    if set_ and "roster" in table.kind.features:
        now = {p["side"]: p["address"] for p in listed}
        warn_shared(journal, now, [s for s, a in now.items() if s not in before or
                                   address_key(a) != address_key(before[s])], before)
    renewed = rekeyed + [p["side"] for p in listed                 # --new-key's, as --set's
                         if p["side"] in (new_key or []) and p["side"] not in rekeyed]
    if format == Fmt.json:
        typer.echo(commands.dump(PlayersView.of(
            players=listed, observers=watchers,
            sheets=[{"side": r["sheet"]["side"], "tip": r["sheet"]["tip"], "seq": r["seq"]}
                    for r in sheets], **({"unchanged": sorted(same)} if same else {}),
            **({"new_key": renewed} if renewed else {}))))
        return
    for line in _already(same, listed):
        typer.echo(line)
    if same and len(same) == len(set_) and not (new_key or drop_observer or sheet or keys):
        return                  # nothing written: the roster is as it was
    for r in sheets:
        typer.echo(f"record {r['seq']}: the dice sheet of {r['sheet']['side']} registered, tip "
                   f"{r['sheet']['tip']}")
    if not listed and not watchers:
        typer.echo(f"{journal}: no players registered (new --player SIDE=ADDRESS, or "
                   f"players --set SIDE=ADDRESS)")
    for p in listed:
        key = f"  order key {p['key']}" if p.get("key") else ""
        typer.echo(f"{p['side']:<10} {p['address']}{key}")
    for address in watchers:
        typer.echo(f"{'observer':<10} {address}")
    for side in rekeyed:
        typer.echo(f"{side}: a new order key goes with the new address (the old one no longer "
                   f"counts); the next mail to it carries the key")
    for p in listed:
        if p["side"] in (new_key or []) and p["side"] not in rekeyed:
            typer.echo(f"{p['side']}: a new order key (the old one no longer counts); the next "
                       f"mail to {p['address']} carries it")


def _rekeyed(before: dict[str, str], listed: list[dict]) -> list[str]:
    """The sides whose address --set changed to another mailbox, and so whose order key is
    new (store/players.py roster_body): the moderator who passes keys on by hand must know
    the old one is dead. A side given its first address had no key out."""
    return [p["side"] for p in listed if p["side"] != "moderator" and p["side"] in before
            and address_key(p["address"]) != address_key(before[p["side"]])]


def _already(same: dict[str, str], listed: list[dict]) -> list[str]:
    """A line for each side whose --set address is registered for it already (the same
    mailbox, however its letters are cased): not changed, and no record written for it."""
    registered = {p["side"]: p["address"] for p in listed}
    return [f"{side}: {address} is already registered for {side}"
            + (f" (as {registered[side]})" if registered.get(side, address) != address else "")
            + "; not changed" for side, address in sorted(same.items())]


def _fixed_players(table, keys: bool) -> list[dict]:
    """The players of a game whose players are fixed when it is made (its record 0), with
    their order keys when asked."""
    known = table.kind.order_keys(table) if keys else {}
    return [{"side": side, "address": address, **({"key": known[side]} if side in known else {})}
            for side, address in sorted(table.kind.players(table).items())]


# ---------------------------------------------------------------- order

def order(
    journal: Annotated[Path, typer.Argument(help="The game's journal.")],
    orders: Annotated[Optional[list[str]], typer.Argument(
        help="Orders, one per argument; '-' reads them from stdin.")] = None,
    as_: Annotated[str, typer.Option("--as", help="Who gives the orders: a side of the game.")
                   ] = "",
    file: Annotated[Optional[Path], typer.Option(
        help="Read the orders from this file ('-': standard input).")] = None,
    dice: Annotated[Optional[str], typer.Option(
        help="Manual games: the dice rolled, in order, e.g. 3,1,6.")] = None,
    link: Annotated[Optional[str], typer.Option(
        help="The next link of the side's dice sheet (64 hex digits): needed when the orders "
             "roll dice or shuffle the deck and the side holds a sheet; always checked.")
    ] = None,
    expect_seq: Annotated[Optional[int], typer.Option(
        help="Reject unless the journal's last record is this one (stale view guard).")] = None,
    format: Annotated[Fmt, typer.Option(help="text or json.")] = Fmt.text,
    atomic: Annotated[bool, typer.Option(
        "--atomic",
        help="Apply the whole batch or nothing: one rejected order rejects them all.")] = False,
    dry_run: Annotated[bool, typer.Option(
        "--dry-run",
        help="Check the orders without writing, up to the first one whose result needs dice, "
             "the deck or the other side.")] = False,
) -> None:
    """Submit orders; they are applied in sequence and stop at the first rejected one."""
    commands.check_side(as_, journal, GAMES["dir"])
    texts = commands.read_orders(orders or [], file)
    out, rejection = commands.order(journal, as_, texts, dice, expect_seq, format.value,
                                    GAMES["dir"], atomic=atomic, dry_run=dry_run, link=link)
    if out is not None:
        typer.echo(out)
    if rejection is not None:
        typer.echo(rejection, err=True)
        return EXIT_REJECTED
    return None


def standing(
    journal: Annotated[Path, typer.Argument(help="The game's journal.")],
    as_: Annotated[str, typer.Option("--as", help="Whose standing orders: a side of the game.")
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
                                        GAMES["dir"]))


# ---------------------------------------------------------------- status / show / log

def status(
    journal: Annotated[Path, typer.Argument(help="The game's journal.")],
    as_: Annotated[str, typer.Option(
        "--as", autocompletion=complete_reader,
        help=READER_HELP + " A side sees its own orders; moderator those of the side waited "
                           "on; public none.")] = "public",
    format: Annotated[ShowFmt, typer.Option(help=SHOW_FMT_HELP)] = ShowFmt.text,
    bbcode_dialect: Dialect = BbDialect.common,
    width: Annotated[int, typer.Option(min=40, max=400, help=WIDTH_HELP)] = 72,
    all_: Annotated[bool, typer.Option(
        "--all", help="Every legal order whole, one a line, exactly as `order` takes it "
                      "(the text formats group them for reading; JSON always lists them "
                      "whole).")] = False,
) -> None:
    """Whose decision it is, what kind, and the legal orders, grouped for reading."""
    typer.echo(commands.status(journal, as_, format.value, GAMES["dir"], width, all_,
                               bbcode_dialect.value))


def show(
    journal: Annotated[Path, typer.Argument(help="The game's journal.")],
    as_: Reader = "public",
    format: Annotated[ShowFmt, typer.Option(help=SHOW_FMT_HELP)] = ShowFmt.text,
    bbcode_dialect: Dialect = BbDialect.common,
    at: Annotated[Optional[int], typer.Option(
        help="Show the game as it stood after this record (replay to any point).")] = None,
    width: Annotated[int, typer.Option(min=40, max=400, help=WIDTH_HELP)] = 72,
) -> None:
    """Turn, phase, VP and level, every area with its control and units, the reader's hand."""
    typer.echo(commands.show(journal, as_, format.value, at, GAMES["dir"], width,
                             bbcode_dialect.value))
