"""The Message-IDs of the referee's mails, each marked for its recipient with a key only
this referee holds: a bounce is believed (robots.py) only when it returns one whose mark
checks out for the address it says failed.

A Message-ID is <LOCAL.MARK@referee.invalid>: LOCAL is a named mail's name (the same mail
written again gets the same Message-ID) or a random one (email.utils.make_msgid's), after
`rec.GAME.N.hHHHHHHHHHHHH.` in a mail about a game (N its journal's last record as the mail
was written, HHHHHHHHHHHH the first 12 hex digits of that record's hash: a reply answering
it is judged stale or not by them, answered.py; the hash tells record N of a history the
moderator set back from the record N written since, and its `h` tells it from the random
part, whose first 12 digits are a time; the ids an earlier version wrote, `rec.GAME.N.`
alone, name the number only), and MARK is an HMAC-SHA256 of LOCAL and the recipient's
address as base/addresses.py's address_key has it (trimmed, its ASCII letters in lower
case and nothing else folded: straße@ and strasse@, or K@ with a Kelvin sign and k@, are
two mailboxes, and a stranger answered at one must hold no mark for the other), cut to
16 bytes and written in base32 (26 letters and digits). Its key is derived from the
signing key of this user's referee home (store/home.py), which never sits in a game
folder: nothing new is stored anywhere. Whoever received a mail, or saw it on its way, can
quote its Message-ID; nobody else can make one that checks out for an address, and one
made for another address, or by another referee, does not.
"""

from __future__ import annotations

import base64
import email.utils
import hashlib
import hmac
import re
from typing import NamedTuple

from ..base.addresses import address_key
from ..store import home

DOMAIN = "referee.invalid"
MARK_BYTES = 16
MOST_IDS = 64                   # distinct marked Message-IDs of one bounce that are checked
# What the MAC key is derived with from the home's key (which also signs snapshots, the
# ledger and the marks of what was written): a key of its own for this use alone.
_LABEL = b"referee mail: the mark in the Message-ID of each mail, by recipient (v1)"
# The like for the second file name of a named mail (twin_mark).
_TWIN_LABEL = b"referee mail: the second file name of a named mail, by recipient (v1)"
# The first hex digits of a record's hash a Message-ID names (48 bits: no two records of one
# game's histories meet by chance).
HASH_DIGITS = 12
_RECORD = re.compile(r"<rec\.([A-Za-z0-9-]{1,64})\.(\d{1,9})\.(?:h([0-9a-f]{"
                     + str(HASH_DIGITS) + r"})\.)?")
_MARKED = re.compile(r"<([^<>\s@]{1,200})\.([A-Za-z2-7]{26})@referee\.invalid>", re.IGNORECASE)


class Answered(NamedTuple):
    """The record a mail of the referee's ended at, as its Message-ID names it: its number,
    and the first HASH_DIGITS hex digits of its hash (None in an id an earlier version
    wrote, or a subject's tag: the number alone)."""

    seq: int
    hash: str | None = None

    def is_of(self, record: dict) -> bool:
        """Whether the journal's record of that number is this one (the number alone: yes)."""
        h = record.get("hash")
        return self.hash is None or (isinstance(h, str) and h[:HASH_DIGITS] == self.hash)


def message_id(to: str, name: str | None = None, record: tuple[str, dict] | None = None
               ) -> str:
    """The Message-ID of a mail of the referee's to the address `to`: fixed by name for a
    named mail, else random; with record (game id, its journal's last record), that record
    first, by number and hash; marked for `to` (unmarked when this user has no key and none
    can be made: a bounce of that mail is then only logged)."""
    local = name if name is not None else \
        email.utils.make_msgid(domain=DOMAIN)[1:].rpartition("@")[0]
    if record is not None:
        game_id, rec = record
        local = f"rec.{game_id}.{rec['seq']}.h{rec['hash'][:HASH_DIGITS]}.{local}"
    key = _mark_key(create=True)
    return f"<{local}.{_mark(key, local, to)}@{DOMAIN}>" if key else f"<{local}@{DOMAIN}>"


def marked_ids(text: str) -> list[str]:
    """The Message-IDs in text that look like a marked one of the referee's (unchecked),
    each once, the first MOST_IDS."""
    seen: dict[str, None] = {}
    for m in _MARKED.finditer(text):
        seen.setdefault(m.group(0), None)
        if len(seen) >= MOST_IDS:
            break
    return list(seen)


def last_marked_ids(text: str) -> list[str]:
    """marked_ids of text from its end: the last MOST_IDS, the last first (a References
    header names the mail answered last; text: a header's end, already bounded)."""
    found = [m.group(0) for m in _MARKED.finditer(text)]
    return list(dict.fromkeys(reversed(found)))[:MOST_IDS]


def sent_to(ident: str, address: str) -> bool:
    """Whether ident is the Message-ID of a mail this referee made for address (its mark
    checks out with this user's key; constant-time comparison)."""
    m = _MARKED.fullmatch(ident.strip())
    key = _mark_key(create=False) if m else None
    if m is None or key is None:
        return False
    return hmac.compare_digest(_mark(key, m.group(1), address), m.group(2).lower())


def names_mail(ident: str, name: str) -> bool:
    """Whether ident is the Message-ID of the mail named name (message_id's fixed form: the
    name ends its part before the mark; unchecked, as sent_to checks the mark)."""
    m = _MARKED.fullmatch(ident.strip())
    return m is not None and (m.group(1) == name or m.group(1).endswith(f".{name}"))


def record_of(ident: str, address: str, game_id: str) -> Answered | None:
    """The record a Message-ID of this referee's names for game_id (message_id's record: its
    number, and its hash's first digits when the id carries them), when it was made for
    address (sent_to); None for any other (another game's, even one whose id differs from
    game_id in case alone: the id is written as it is, and the mark covers it; one made for
    another address or by another referee, one naming no record, a forged one: the mark
    covers the hash too)."""
    m = _RECORD.match(ident.strip())
    if m is None or m.group(1) != game_id or not sent_to(ident, address):
        return None
    return Answered(int(m.group(2)), m.group(3))


def twin_mark(name: str, address: str, game_id: str | None) -> str | None:
    """The mark of the second file name a named mail may take (named.py), when a file that
    is not the referee's holds its own: made from the mail's name, its game and its
    recipient's address with a key of its own derived from this user's, so that nobody
    else can know it ahead (None: no key)."""
    key = _mark_key(create=True, label=_TWIN_LABEL)
    if key is None:
        return None
    return _mark(key, f"{name}\n{game_id or ''}", address)


def _mark_key(create: bool, label: bytes = _LABEL) -> bytes | None:
    k = home.key(create=create)
    # SHA-512, cut to 32 bytes: the home's signatures are HMAC-SHA256 (home.sign), so no
    # signature of any file, whatever it holds, is this key.
    return None if k is None else hmac.new(k, label, hashlib.sha512).digest()[:32]


def _mark(key: bytes, local: str, address: str) -> str:
    said = f"{local}\n{address_key(address)}".encode("utf-8", "surrogatepass")
    mac = hmac.new(key, said, hashlib.sha256).digest()[:MARK_BYTES]
    return base64.b32encode(mac).decode("ascii").rstrip("=").lower()
