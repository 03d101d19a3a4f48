"""A game that runs itself: mail (its route), tick (one pass) and watch (a loop of them).

Each command returns its exit code (None for 0); app.py registers it inside the error boundary.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from ..contracts.outputs import MailRouteShown
from . import commands
from .params import GAMES, Fmt

SOURCE_HELP = ("Where players' mail is read: an mbox file, a Maildir, or "
               "imap://USER@HOST[:PORT]/FOLDER (imaps:// for TLS, else STARTTLS).")
TARGET_HELP = ("How the referee's mail leaves: outbox:DIR (written, never sent), "
               "smtp://[USER@]HOST[:PORT] (smtps:// for TLS, else STARTTLS) or route:NAME, "
               "a command of your mail settings that gets each mail on its standard input. "
               "Servers must be hosts of your mail settings; passwords come from the "
               "environment, the referee's password file or ~/.netrc, never from here.")

FROM_HELP = ("The address the referee's mails come from and players answer to: the mailbox "
             "--in reads (default: the moderator's address). Mail for the moderator goes to "
             "his own address.")

UNSET_SENDER = ("the moderator's address (`referee mail JOURNAL --from ADDRESS` gives the "
                "referee an address of its own)")
NO_SENDER = ("referee@localhost, which no mailbox reads: the game has no moderator's "
             "address, so players' replies reach nobody (`referee mail JOURNAL --from "
             "ADDRESS` gives the referee an address of its own)")


def mail(
    journal: Annotated[Path, typer.Argument(help="The game's journal.")],
    in_: Annotated[Optional[str], typer.Option("--in", help=SOURCE_HELP)] = None,
    out: Annotated[Optional[str], typer.Option("--out", help=TARGET_HELP)] = None,
    mail_from: Annotated[Optional[str], typer.Option("--from", help=FROM_HELP)] = None,
    format: Annotated[Fmt, typer.Option(help="text or json.")] = Fmt.text,
) -> None:
    """Show where the game's mail comes from and goes to, or change it (a moderator record;
    no password is ever recorded)."""
    from ..mail import routes  # start-up: the mail route, for mail only

    commands.check_private(journal)
    commands.load_msgspec()
    table = commands.needing(journal, "route", "mail", GAMES["dir"], shown=True)
    if in_ is not None or out is not None or mail_from is not None:
        commands.check_ours(journal)
        route = routes.set_route(journal, in_, out, GAMES["dir"], ("--in", "--out"),
                                 sender=mail_from)
    else:               # from the bytes whose check passed, not from the journal read again
        route = routes.route_of(table)
    if format == Fmt.json:
        typer.echo(commands.dump(MailRouteShown.of(journal=str(journal), **route)))
        return
    typer.echo(f"mail in:  {route['source'] or 'not set (`referee mail JOURNAL --in SOURCE`)'}")
    typer.echo(f"mail out: {route['target'] or 'not set (`referee mail JOURNAL --out TARGET`)'}")
    typer.echo(f"mail from: {_sender_shown(route, table)}")


def _sender_shown(route: dict, table) -> str:
    """Where the game's mails come from, as mailroute.referee_address finds it: the route's
    own address, else the moderator's (a campaign's roster or a skirmish's header names
    him), else a local one no reply reaches."""
    from ..store.mailroute import moderator_address  # start-up: the route, for mail only

    if route["sender"]:
        return route["sender"]
    return UNSET_SENDER if moderator_address(table.whole().records) else NO_SENDER


def tick(
    path: Annotated[Path, typer.Argument(
        help="A game's journal, or a folder of journals (*.jsonl).", metavar="JOURNAL|DIR")],
    format: Annotated[Fmt, typer.Option(help="text or json.")] = Fmt.text,
    with_map: Annotated[bool, typer.Option(
        "--map/--no-map",
        help="Attach the pictures (closeup.png, map.png) to the players' mails.")] = True,
) -> None:
    """One pass, for cron or a timer: fetch each game's new mail, apply it as inbox does,
    check the deadlines and send every mail owed. Exit 0 when all was handled."""
    commands.print_pass(*commands.tick_pass(path, format.value, with_map, GAMES["dir"]))


def watch(
    path: Annotated[Path, typer.Argument(
        help="A game's journal, or a folder of journals (*.jsonl).", metavar="JOURNAL|DIR")],
    interval: Annotated[float, typer.Option(
        help="Seconds between two passes (at most a day: deadlines are kept by the passes).",
        min=1.0, max=86400.0)] = 300.0,
    with_map: Annotated[bool, typer.Option(
        "--map/--no-map",
        help="Attach the pictures (closeup.png, map.png) to the players' mails.")] = True,
) -> None:
    """Run tick again and again, one log line per action, until SIGTERM or SIGINT (the pass
    under way is finished first; exit 0)."""
    from ..mail import tick as ticking  # start-up: the mail transport, for tick and watch

    for journal in ticking.journals_in(path):
        commands.check_private(journal)
    ticking.watch(path, interval, GAMES["dir"], lambda line: typer.echo(line, err=False),
                  with_map)
