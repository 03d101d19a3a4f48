"""Who sent a message the game's mailbox holds, as far as the referee can tell before
reading it as orders: its own mail (never read), the moderator's (no orders by mail), an
observer's (never orders), or a stranger's, and for the last which check it failed."""

from __future__ import annotations

import email.utils
import re
import shlex
from pathlib import Path

from ..base.addresses import address_key
from ..base.errors import one_line
from ..base.readers import MODERATOR
from ..store.mailroute import referee_address
from ..store.players import ALPHABET, former_addresses
from . import message as mailtext
from .mailboxes import Message
from .msgids import sent_to
from .severaltags import other_game

SENT_BY_THE_REFEREE = ("from the address the referee's own mails come from: never read as "
                       "a player's mail, and never answered")
OWN_MAIL = ("a mail the referee wrote (its Message-ID is the one the referee marked for the "
            "address it went to): never read as orders, and never answered")


def typed_journal(journal: Path) -> str:
    """A journal as a command mailed to the moderator names it, to be copied as it stands:
    its whole path (he types it wherever he reads his mail, not in the folder a pass of
    `tick .` ran in), one line, quoted for a shell where it needs it."""
    return shlex.quote(one_line(str(Path(journal).absolute())))


MODERATOR_MAIL = ("it comes from the moderator's address, and the referee takes no orders by "
                  "mail from the moderator")


def moderator_mail(journal: Path) -> str:
    """Why a message from the moderator's address is not read, with the command he gives
    orders with (his answer shows that command alone on a line: notmatched.py)."""
    return f"{MODERATOR_MAIL}: give them with `{moderator_command(journal).strip()}`"


def moderator_command(journal: Path) -> str:
    """The command the moderator gives orders with, as his answer shows it: alone on an
    indented line, to be copied whole (wrapped with the prose, a long path cut it in two)."""
    return f"  referee order {typed_journal(journal)} --as SIDE ..."


def _from_only(m: Message, address: str, people: dict) -> bool:
    """Whether m comes from address, when that is no side's address too (a player registered
    with it is a player)."""
    if not m.sender or m.sender != address_key(address):
        return False
    return not any(address_key(p["address"]) == m.sender for s, p in people.items()
                   if s != MODERATOR)


def from_the_moderator(m: Message, people: dict) -> bool:
    """Whether m comes from the moderator's address (one of his own: the referee's is told
    apart before), when that is no side's address too."""
    return _from_only(m, str(people.get(MODERATOR, {}).get("address") or ""), people)


# An order key as the referee writes them (store/players.py: its alphabet, in three groups
# of four), or a line saying one; each read in one pass over the text.
_KEY_SHAPE = re.compile(rf"(?i)(?<![a-z0-9])(?:[{ALPHABET}]{{4}}-){{2}}[{ALPHABET}]{{4}}"
                        rf"(?![a-z0-9])|(?im:^[ \t>]*order[ \t-]*key[ \t]*:)")


def from_the_referee(m: Message, people: dict, records: list[dict]) -> bool:
    """Whether m comes from the address the referee's own mails come from, when that is no
    side's address too (a player registered with the moderator's address is a player)."""
    return _from_only(m, referee_address(records), people)


def own_mail(m: Message, addresses: list[str]) -> bool:
    """Whether m is a mail the referee wrote, come back to a mailbox it reads: its
    Message-ID carries the mark this user's referee home makes for the address it was sent
    to (msgids.py), that is its To, or one of addresses (the game's registered ones: a
    relay may rewrite a To). Only the holder of the home's key can make such a mark: the
    moderator's own mail, from the same address, carries his mail program's Message-ID."""
    if not m.message_id:
        return False
    return any(sent_to(m.message_id, a) for a in dict.fromkeys([*_to(m), *addresses]) if a)


def _to(m: Message) -> list[str]:
    """The addresses of m's To header ([] when it has none or none can be read)."""
    if m.msg is None:
        return []
    try:
        return [a for _, a in email.utils.getaddresses([mailtext.header_text(m.msg, "To")])]
    except Exception:  # noqa: BLE001 - a header nothing can read names no address
        return []


# Why a mail from a side's address with a key in it, not the side's, is refused.
NOT_THE_KEY = "the order key in it is not the one for its sender's address"
# Why a mail from an address a side had before the moderator registered another is refused.
MOVED = ("its sender's address no longer plays the side it was sent for: the moderator "
         "registered another address for that side (if that is wrong, ask him)")
FORMER = ("its sender's address was a player's, and is no longer registered: the moderator "
          "registered another address in its place (if that is wrong, ask him)")
# Why a mail from an address no player of the game registered is refused.
STRANGER = ("its sender's address is not one a player of this game registered (a player who "
            "has a new address writes from the one the moderator has, or asks him to "
            "register the new one)")
# Why a mail from a side's address without a key in it is refused.
NO_KEY_IN_IT = "it carries no order key (a player's mail carries the key his reports end with)"


def unmatched(m: Message, people: dict, records: list[dict] = ()) -> str:
    """Which check a message matched to no player failed, in words its sender may read
    (the reply goes to the address it came from: a forged From's answer reaches the real
    owner of the address, never the forger), saying nothing of the game. An address a
    side had before the moderator registered another for it (records' rosters) is told
    so: its owner played the side, and is not to ask for his address to be registered."""
    owners = [s for s, p in people.items()
              if m.sender and address_key(p["address"]) == m.sender]
    if not owners and m.sender and m.sender in former_addresses(records):
        return FORMER
    if not owners:
        return STRANGER
    if key_shaped(body_or_empty(m)):
        return NOT_THE_KEY
    return NO_KEY_IN_IT


def key_shaped(body: str) -> bool:
    """Whether a mail's text holds an order key, or an 'Order key:' line, of any game."""
    return bool(_KEY_SHAPE.search(body[:1 << 20]))


def from_observer(m: Message, watchers: list[str], game_id: str) -> bool:
    """Whether m comes from an observer's address (and names no other game): whatever it
    says, nothing of it is applied."""
    return bool(m.sender) and m.sender in {address_key(a) for a in watchers} and \
        other_game(m.subject, game_id, m.sha256) is None


def body_or_empty(m: Message) -> str:
    if m.msg is None:
        return ""
    try:
        return mailtext.plain_body(m.msg)
    except (mailtext.MailError, RecursionError, LookupError, ValueError):
        return ""
