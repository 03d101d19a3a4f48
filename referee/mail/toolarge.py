"""A message over the size limit, answered from its header by the game whose player sent it.

The answer is owed in the game's ledger, in the save that notes the message handled, and
written at once, as a claimed message's is, before the mailbox knows the message (a
Maildir's file by its print, an IMAP message seen) and does not give it again: a pass
killed before it was written reads the message again and writes it then, one killed after
leaves it in the game's spool, which no pass skips as idle, whatever index a pass beside
it saved. The game's entry leaves the folder's index before that save all the same.
"""

from __future__ import annotations

from ..base.addresses import address_key
from ..base.errors import RefereeError, one_line
from . import gameindex
from . import message as mailtext
from .claims import tagged
from .delivery import Fetched
from .headers import header_block
from .inbox import Outcome, inbox, owed_reply
from .ledger import game_lock as mail_lock
from .ledger import handled_before, load_ledger, mail_name, may_answer, note_handled, save_ledger
from .mailboxes import oversize_digests, too_large_refusal
from .mailcodes import BY_STATUS
from .robots import AUTOMATIC, aside, automatic_headers
from .tickgame import Game, game_lock


def too_large(f: Fetched, group: list[Game], games_dir=None, with_map: bool = True
              ) -> Game | None:
    """A message over the size limit, from a player's registered address, answered from its
    header (once: the ledger knows it) with what was wrong and how to send orders instead,
    and nothing of the game (no key was read: anyone may have written its From):
    the game whose player sent it; None when no game's did (it stays unread, for the
    moderator)."""
    try:
        head = header_block(f.raw)
        sender = address_key(mailtext.sender_address(head))
        subject = mailtext.header_text(head, "Subject")
        message_id = mailtext.header_text(head, "Message-ID")
    except Exception:  # noqa: BLE001 - the email package raises many kinds on hostile mail
        return None
    named = tagged(subject, group)      # the tag's game, its case ignored as claimant's
    if named is not None and len(named) > 1:
        return None                     # several games' tags: no key read to choose by
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
    x.claimed = True                    # this pass sends what the game owes
    status, owed = _note(x, side, digest, earlier, robot,
                         Outcome(f.where, message_id, sender, "rejected", reason, side))
    if owed:
        _write_owed(x, games_dir, with_map)
    if status is None:                  # read again: handled by an earlier pass
        return x
    if status == "rejected" and not owed:
        reason += "; no reply: the day's answers to this address are given"
    x.log(f"{status:<8} {one_line(f.where)} ({side}): too large, {megabytes} MB, " +
          ("answered from its header" if robot is None else reason))
    x.messages.append({"where": f.where, "message_id": message_id, "from": sender,
                       "status": status, "side": side, "reason": reason, "records": [],
                       "new": True, "code": BY_STATUS.get(status, "too_large")})
    return x


def _note(x: Game, side: str, digest: str, earlier: list[str], robot, outcome: Outcome
          ) -> tuple[str | None, bool]:
    """The message noted handled in the game's ledger, its answer owed there within the
    address's daily quota, under the mail lock every writer of the ledger takes (inbox
    too), inside tick's own: (its status, None when an earlier pass noted it; whether an
    answer under its name is owed, that pass's too when it was killed before writing it)."""
    name = mail_name("too large", digest, side)
    with game_lock(x), mail_lock(x.game_id, x.header_hash):
        ledger = load_ledger(x.game_id, x.header_hash)
        if any(handled_before(ledger, d) for d in (digest, *earlier)):
            return None, any(e.get("name") == name for e in ledger["owed"])
        gameindex.forget(x.journal)
        # No key is read in such a mail, so anyone may forge its From: the registered
        # address's daily quota bounds the answers, which go to that address as registered,
        # and say only why (notmatched.py): no report, no hand, no key.
        owed = robot is None and may_answer(ledger, x.addresses[side], registered=True)
        if owed:
            outcome.why = outcome.reason
            ledger["owed"].append(owed_reply(name, x.addresses[side], "", outcome))
        status = "rejected" if robot is None else AUTOMATIC
        note_handled(ledger, digest, "", "", status)
        save_ledger(ledger)
    return status, owed


def _write_owed(x: Game, games_dir, with_map: bool) -> None:
    """The mails the game owes written into its spool (or its outbox) at once, as
    strays.answer writes its own: this answer, and any report owed since a player's last
    mail, which the game's own pass then does not write again."""
    try:
        with game_lock(x):
            inbox(x.journal, [], x.spool, games_dir, with_map)
    except RefereeError as exc:         # noted: written by the game's pass, or the next
        x.read = False
        x.fail(str(exc))
