"""A message over the size limit, answered from its header by the game whose player sent it.

The answer is owed in the game's ledger, in the save that notes the message handled, and
sent by the pass with the game's other mail. The message is then known to the mailbox
(a Maildir's file by its print, an IMAP message seen) and not read again: so the game's
entry leaves the folder's index before that save, and a pass killed before the answer
went out leaves the next pass to open the game and send it, not skip it as idle.
"""

from __future__ import annotations

from email.parser import BytesHeaderParser

from ..base.addresses import address_key
from ..base.errors import one_line
from . import gameindex
from . import message as mailtext
from .claims import tagged
from .delivery import Fetched
from .inbox import Outcome, owed_reply
from .ledger import game_lock as mail_lock
from .ledger import handled_before, load_ledger, mail_name, may_answer, note_handled, save_ledger
from .mailboxes import oversize_digests, too_large_refusal
from .robots import AUTOMATIC, aside, automatic_headers
from .tickgame import Game, game_lock


def too_large(f: Fetched, group: list[Game], *_) -> Game | None:
    """A message over the size limit, from a player's registered address, answered from its
    header (once: the ledger knows it) with what was wrong and how to send orders instead:
    the game whose player sent it; None when no game's did (it stays unread, for the
    moderator)."""
    try:
        head = BytesHeaderParser(policy=mailtext.reading_policy()).parsebytes(f.raw)
        sender = address_key(mailtext.sender_address(head))
        subject = mailtext.header_text(head, "Subject")
        message_id = mailtext.header_text(head, "Message-ID")
    except Exception:  # noqa: BLE001 - the email package raises many kinds on hostile mail
        return None
    named = tagged(subject, group)      # the tag's game, its case ignored as claimant's
    players = [(x, side) for x in (group if named is None else named)
               for side, address in x.addresses.items()
               if sender and address_key(address) == sender]
    if len(players) != 1:
        return None
    x, side = players[0]
    digest, *earlier = oversize_digests(f.raw)
    megabytes = f"{f.oversize / (1 << 20):.1f}"
    robot = automatic_headers(head)     # an out-of-office quoting a mail, its map and all
    reason = too_large_refusal(f.oversize) if robot is None else aside(robot)
    # Under the mail lock every writer of the ledger takes (inbox too), inside tick's own.
    x.claimed = True                    # this pass sends what the game owes
    with game_lock(x), mail_lock(x.game_id, x.header_hash):
        ledger = load_ledger(x.game_id, x.header_hash)
        if any(handled_before(ledger, d) for d in (digest, *earlier)):
            return x
        gameindex.forget(x.journal)
        # No key is read in such a mail, so anyone may forge its From: the registered
        # address's daily quota bounds the answers, which go to that address as registered.
        if robot is None and may_answer(ledger, x.addresses[side], registered=True):
            ledger["owed"].append(owed_reply(
                mail_name("too large", digest, side), x.addresses[side], side,
                Outcome(f.where, message_id, sender, "rejected", reason, side)))
        elif robot is None:
            reason += "; no reply: the day's answers to this address are given"
        status = "rejected" if robot is None else AUTOMATIC
        note_handled(ledger, digest, "", "", status)
        save_ledger(ledger)
    x.log(f"{status:<8} {one_line(f.where)} ({side}): too large, {megabytes} MB, " +
          ("answered from its header" if robot is None else reason))
    x.messages.append({"where": f.where, "message_id": message_id, "from": sender,
                       "status": status, "side": side, "reason": reason, "records": [],
                       "new": True})
    return x
