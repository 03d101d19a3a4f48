"""A player's fresh mail to the referee's address that neither a game's tag, an order key
nor a thread claims (a new mail, "my orders", "pass"): it is claimed by the address it
comes from. From the address of a side of one game of the mailbox, that game's (claims.py),
whose inbox answers it as any mail of his without his key (notmatched.py). From an address
that is a side's in several games of the mailbox, it is no one game's: one answer goes to
that address, saying so and naming his games by their tags (so that he replies to the
report of the game his orders are for), and nothing else of them.

Anyone may write a player's From: the answer goes to the address as registered, never to
the From as written, and a mail from an address that is no side's stays unclaimed, for the
moderator, as before. It is kept in the ledger of the first of his games (by id) that
answers by its inbox, within that address's daily quota there for mail not taken as a
side's (ledger.may_answer), and with the message's digest, under the game's locks: it is
answered once, whatever pass was killed or ran beside. A mail no person wrote (an
auto-reply), one carrying a referee tag, or one holding an order key (of a game moved
away, say) is never answered so: it is the moderator's to see.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import partial

from ..base.addresses import address_key
from ..base.errors import RefereeError, one_line
from ..base.gameids import REFEREE_TAG
from . import gameindex
from . import ledger as ledgermod
from . import message as mailtext
from .delivery import Fetched
from .inbox import inbox
from .ledger import (
    fault,
    handled_before,
    load_ledger,
    mail_name,
    may_answer,
    note_handled,
    save_ledger,
)
from .ledger import game_lock as mail_lock
from .outcome import Outcome, owed_reply
from .robots import automatic_headers
from .senders import key_shaped
from .tickgame import Game, game_lock


def sender_games(msg, games: list[Game]) -> list[Game]:
    """The games one of whose sides registered the address the message's From names (as
    address_key compares them; the moderator's is no side's); none when the message holds
    an order key (another game's, one moved away: the moderator's to see) or its line."""
    sender = address_key(mailtext.sender_address(msg))
    try:
        if key_shaped(mailtext.plain_body(msg)):
            return []
    except (mailtext.MailError, RecursionError, LookupError, ValueError):
        pass                        # no text to read: no key in it
    return [x for x in games if sender and
            any(address_key(a) == sender for a in x.addresses.values())]


@dataclass(frozen=True)
class Stray:
    """A message no game claimed, from a side's address in several games of the mailbox."""

    digest: str                 # of its bytes: what the ledger knows it by
    message_id: str
    sender: str                 # its From's address_key
    games: tuple[str, ...]      # the ids of the games it is a side's address in, sorted


def stray(f: Fetched, games: list[Game]):
    """(f without its bytes, what answers it) for a message claims.claimant gave to no game
    that comes from a side's address in several games (no tag in its subject, no robot's);
    None for any other."""
    try:
        msg = mailtext.parse_message(f.raw)
        if REFEREE_TAG.search(mailtext.header_text(msg, "Subject")) or \
                automatic_headers(msg) is not None:
            return None
        mine = sender_games(msg, games)
        found = Stray(hashlib.sha256(f.raw).hexdigest(), mailtext.header_text(
            msg, "Message-ID"), address_key(mailtext.sender_address(msg)),
            tuple(sorted(x.game_id for x in mine)))
    except Exception:  # noqa: BLE001 - the email package raises many kinds on hostile mail
        return None
    if len(found.games) < 2:
        return None
    return Fetched(f.where, b"", f.uid, f.oversize), partial(answer, found)


def answer(found: Stray, f: Fetched, group: list[Game], games_dir=None,
           with_map: bool = True) -> Game | None:
    """The stray's answer owed in the ledger of the first of its games that answers by its
    inbox (once: the ledger knows its digest) and written at once, as a claimed message's
    is, before the message is marked read or known: that game, which takes it; None when
    none of them answers so (it stays unclaimed)."""
    mine = sorted((x for x in group if x.game_id in found.games and x.keys and
                   not x.direct), key=lambda x: x.game_id)
    if not mine:
        return None
    x = mine[0]
    side, address = next((s, a) for s, a in x.addresses.items()
                         if address_key(a) == found.sender)
    noted = False
    try:
        with game_lock(x):
            reason, owed = _owe(found, f, x, address)
            noted = True
            if owed:                # this pass's, or one a killed pass left unwritten
                x.claimed = True
                inbox(x.journal, [], x.spool, games_dir, with_map)
            x.took = gameindex.mark(x.journal)
    except RefereeError as exc:
        if not noted:               # in no ledger: left unread, listed for the moderator
            x.log(f"left {one_line(f.where)} unclaimed: {one_line(str(exc))}")
            return None
        x.read = False              # noted: written by the game's pass after its mail, or
        x.fail(str(exc))            # the next
        return x
    if reason is not None:
        x.log(f"rejected {one_line(f.where)} ({side}): {reason}")
        x.messages.append({"where": f.where, "message_id": found.message_id, "from":
                           found.sender, "status": "rejected", "side": side,
                           "reason": reason, "records": [], "new": True, "code": "no_key"})
    return x


def _owe(found: Stray, f: Fetched, x: Game, address: str) -> tuple[str | None, bool]:
    """Under the game's mail lock, the stray noted in its ledger with the answer owed,
    within the address's quota: why it was not taken (None: noted by an earlier pass), and
    whether its answer is owed still."""
    name = mail_name("several games", found.digest)
    with mail_lock(x.game_id, x.header_hash):
        ledger = load_ledger(x.game_id, x.header_hash)
        if handled_before(ledger, found.digest):
            return None, any(e.get("name") == name for e in ledger["owed"])
        reason = f"no game's tag nor order key, from a side's address in " \
                 f"{len(found.games)} games ({', '.join(found.games)})"
        owed = may_answer(ledger, address, registered=True)
        if owed:
            ledger["owed"].append({**owed_reply(name, address, "", Outcome(
                f.where, found.message_id, found.sender, "rejected", reason)),
                "games": list(found.games)})
        else:
            reason += f"; no reply: {ledgermod.REGISTERED_PER_DAY} a day at most to a " \
                      f"registered address for messages not taken as his side's"
        note_handled(ledger, found.digest, "", "", "rejected")
        save_ledger(ledger)
        fault("stray")
    return reason + (": answered with their tags" if owed else ""), owed
