"""A game's mail route as its journal records it, and what is asked of its SMTP server
before an address is registered or the route changes.

`set_route` records where the mail comes from and goes to (a moderator record, no
password in it); an address beyond ASCII is refused at once when the game's SMTP server
takes none (`refuse_unmailable`), rather than each mail to it being set aside later.
"""

from __future__ import annotations

from pathlib import Path

from ..base.addresses import address_key
from ..base.errors import UsageError, quoted
from ..base.readers import MODERATOR
from ..store.dice import Dice
from ..store.journal import scan
from ..store.mailroute import (
    check_sender,
    check_source,
    check_target,
    is_local,
    mail_route,
    route_body,
    server_of,
)
from ..store.players import observer_addresses, roster
from ..store.secrets import load_secret, secret_missing
from ..table import Table
from .delivery import SmtpSession, TransportError, check_allowed
from .headeralone import refuse_header_alone
from .mailboxes import check_mailbox, check_outbox_folder


def set_route(journal: Path, source: str | None, target: str | None,
              games_dir: Path | None = None, options: tuple[str, str] = ("--mail-in",
                                                                          "--mail-out"),
              sender: str | None = None) -> dict:
    """Record a new mail route (each of source, target and sender checked; None keeps the
    one in force) and return it; nothing is recorded when all are as they were."""
    table = Table.writing(journal, games_dir).whole()
    refuse_header_alone(table)  # a route appended now would fork it from the backup put back
    game = table.game()
    secret = load_secret(game.journal.path, game.header)
    game_id = game.header["game_id"]
    if secret is None:
        raise secret_missing(game.journal.path, game.header, "to record the mail route")
    new = {"source": check_source(source, options[0]) if source is not None else None,
           "target": check_target(target, options[1]) if target is not None else None,
           "sender": check_sender(sender) if sender is not None else None}
    for value, given, option in zip((new["source"], new["target"]), (source, target),
                                    options):
        if value is not None:
            check_allowed(value, option, given)
    if new["source"] is not None and is_local(new["source"]):
        check_mailbox(new["source"], options[0])    # a server is never tried: it may be down
    if new["target"] is not None and new["target"].startswith("outbox:"):
        check_outbox_folder(new["target"], options[1])
    if new["sender"] is not None:
        refuse_a_players(new["sender"], table.records, table.kind.players(table))
    if new["target"] is not None:
        people = roster(table.records)
        refuse_unmailable(new["target"], [str(p.get("address", "")) for p in people.values()]
                          + observer_addresses(table.records), options[1])

    def build(raw: bytes):
        records = list(scan(raw, game.journal.path.name))
        seq, last = records[-1]["seq"], records[-1]["hash"]
        now = mail_route(records)
        route = {k: new[k] if new[k] is not None else now[k] for k in new}
        if route == now:
            return seq, last, []
        salt = Dice(game_id, seq + 1, secret).salt()
        return seq, last, [table.kind.route_record(
            route_body(route["source"], route["target"], salt, route["sender"]))]

    table.append(build)
    return mail_route(table.records)


def refuse_a_players(sender: str, records: list[dict],
                     players: dict[str, str] | None = None) -> None:
    """UsageError when the referee's own address is a side's or an observer's: mail from
    it is never read as a player's, so that player could never order by mail. players:
    each side's address as the game's kind keeps them (a skirmish's, in its record 0)."""
    people = roster(records)
    taken = {address_key(str(p.get("address", ""))): s for s, p in people.items()
             if s != MODERATOR}
    taken.update({address_key(a): s for s, a in (players or {}).items() if s != MODERATOR})
    taken.update({address_key(a): "an observer" for a in observer_addresses(records)})
    if address_key(sender) in taken:
        raise UsageError(f"--from {quoted(sender)}: that is {taken[address_key(sender)]}'s "
                         f"address; the referee's own address must be one no player uses "
                         f"(mail from it is never read as orders)")


def route_of(table: Table) -> dict:
    """{'source': ..., 'target': ...} in force for the game of a Table (None: not set)."""
    return mail_route(table.whole().records)


def smtputf8_offered(target: str) -> bool | None:
    """Whether the SMTP server of a checked target takes addresses beyond ASCII (offers
    SMTPUTF8, RFC 6531), asked over TLS as a pass would but without logging in; None when
    it cannot be asked now (not reachable, not a host of the mail settings, TLS wanted and
    not offered)."""
    try:
        with SmtpSession(server_of(target), None, login=False) as conn:
            return bool(conn.has_extn("smtputf8"))
    except TransportError:
        return None


def refuse_unmailable(target: str | None, addresses: list[str], option: str) -> None:
    """Refuse (UsageError) an address beyond ASCII when the game's mail goes through an SMTP
    server that takes none: asked once, at new, players or mail, instead of each mail being
    set aside later. A server that cannot be asked now is not refused here (each such mail
    is then set aside, and the moderator told, if it refuses)."""
    wide = [a for a in addresses if not a.isascii()]
    if not wide or target is None or not target.startswith(("smtp://", "smtps://")):
        return
    try:
        check_allowed(target, option)
    except UsageError:
        return                  # not a server of the mail settings: nothing is asked of it
    if smtputf8_offered(target) is False:
        server = server_of(target)
        raise UsageError(f"{option} {quoted(wide[0])}: the mail server {server.host}:"
                         f"{server.port} takes no address beyond ASCII (it does not offer "
                         f"SMTPUTF8, RFC 6531), so no mail could reach it; give an address "
                         f"in ASCII, or send through a server or route that takes it")


