"""Where a deadline's mails go (reminders.py, waiting.py): the outbox, the game's addresses,
each side's order key, and the time they carry; and every reader a result goes to.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from functools import cached_property
from pathlib import Path

from ..base.addresses import address_key
from ..base.errors import StorageError
from ..base.readers import MODERATOR
from ..game.timeline import Timeline
from ..store.mailroute import referee_address
from ..store.players import observer_addresses, order_key, roster
from ..store.secrets import load_secret
from ..store.sheets import sheets_in
from ..table import Table
from . import message as mailtext
from .elsewhere import found_or_kept
from .eml import plain_mail
from .ledger import fault, load_ledger, lock_held
from .leftover import refused_names
from .named import write_once
from .pictures import last_map_line
from .refusal import prose
from .senders import typed_journal
from .subjects import OBSERVER_READERS, thread_subject
from .threads import thread_of


class Post:
    """Where a run's mails go: the outbox, the game's addresses, the time they carry."""

    def __init__(self, table: Table, raw: bytes, outbox: Path, now: datetime,
                 game_id: str):
        records = self.records = table.records_of(raw)
        self.people = roster(records)
        self.observers = observer_addresses(records)
        self.outbox, self.now, self.game_id = outbox, now, game_id
        # The journal as the moderator's commands name it, quoted for a shell where needed.
        self.journal = typed_journal(table.path)
        self.sender = referee_address(records)
        # Each side's order key, ending each mail to it (to its own address only), so that a
        # reply quoting the mail carries it, as a reply to a report does.
        secret = load_secret(table.path, records[0])
        self.keys = {} if secret is None else {
            side: order_key(secret, game_id, side, p.get("key_no") or 0)
            for side, p in self.people.items() if side != MODERATOR}
        self.head = records[0].get("hash")
        self.sheets = sheets_in(raw)        # each side's dice sheet: his link due
        self._table, self._raw = table, raw

    @cached_property
    def standing(self) -> dict[str, list[dict]]:
        """The sides' standing orders as kept, read once (ordersopen.kept_standing): his
        mail asking for orders reads them as his report does."""
        from .ordersopen import kept_standing  # start-up: only a mail asking for orders

        return kept_standing(self._table, self._raw)

    def _record(self, seq: int | None) -> tuple[str, dict] | None:
        """The game and its record seq, for a Message-ID (None: no record named)."""
        if seq is None or not 0 <= seq < len(self.records):
            return None
        return self.game_id, self.records[seq]

    @cached_property
    def _ledger(self) -> tuple[dict | None, bool]:
        """The game's ledger, read once, when first asked (a pass with no mail to write
        reads none), and whether this process held the game's mail lock then (None: a
        record 0 with no hash)."""
        if not isinstance(self.head, str):
            return None, False
        return load_ledger(self.game_id, self.head), lock_held(self.game_id, self.head)

    def kept(self) -> dict | None:
        """The game's ledger as it stands: the one this Post read, when it read it under the
        game's mail lock (a check's step: every mail and reminder of it keeps its changes in
        that one dict, each saved as made), else read now (None: a record 0 with no
        hash)."""
        ledger, locked = self._ledger
        if ledger is None or locked:
            return ledger
        return load_ledger(self.game_id, self.head)

    def map_line(self, side: str) -> str:
        """Where the side's last map is: a reminder carries no picture (pictures.py)."""
        ledger = self._ledger[0]
        return last_map_line((ledger["maps"] if ledger is not None else {}).get(side))

    @cached_property
    def refused(self) -> set[str]:
        """The names of the mails a server refused for good, waiting in the outbox's
        refused/ (leftover.refused_names): listed once for this Post (one step of the
        deadline check, which sends nothing meanwhile), however many reminders ask."""
        return refused_names(self.outbox)

    def address(self, reader: str) -> str | None:
        return self.people.get(reader, {}).get("address")

    def write(self, name: str, to: str | None, subject: str, body: str,
              reader: str | None = None, wrapped: bool = False, seq: int | None = None,
              ledger: dict | None = None, tail: str = "") -> bool:
        """One mail as outbox/name (0600), unless a mail of that name was written before
        (there, or sent: in outbox/sent, as the referee wrote it, named.py; with ledger, or
        while this process holds the game's mail lock, in another folder the ledger keeps,
        and it keeps this one before: elsewhere.py); False when it was or nobody has the
        address.
        A mail to a side (reader) ends with its order key. The body is wrapped at 72
        columns unless the caller did (wrapped: a command to copy is never split). seq: the
        record the game stood at, which its Message-ID names (a reply to it is stale once
        the reader's decision changed since: answered.py). tail: lines after the key (a
        receipt), as the caller wrote them."""
        stem, record = name.removesuffix(".eml"), self._record(seq)
        game = record[0] if record is not None else None
        records = self.records if record is not None else None    # of this history alone
        if to is None:
            return False
        if ledger is None and isinstance(self.head, str) and \
                lock_held(self.game_id, self.head):     # the ledger as it stands now
            ledger = self.kept()
        if found_or_kept(ledger, self.outbox, stem, to, game, records) is not None:
            return False
        data = self.mail_bytes(stem, to, subject, body, reader, wrapped, seq, tail)
        try:
            self.outbox.mkdir(parents=True, exist_ok=True)
            write_once(self.outbox, stem, data, to, game, faults=False, records=records)
        except OSError as exc:
            raise StorageError(f"--outbox {self.outbox}: a mail could not be written ({exc}); "
                               f"the journal holds what was done") from None
        fault("deadline mail")
        return True

    def mail_bytes(self, stem: str, to: str, subject: str, body: str,
                   reader: str | None = None, wrapped: bool = False, seq: int | None = None,
                   tail: str = "") -> bytes:
        """The mail named stem as write writes it, dated now."""
        if reader in self.keys:
            body += f"\nOrder key: {self.keys[reader]}\n"
        body = (body if wrapped else prose(body)) + tail
        msg = plain_mail(self.sender, to, subject, body, None, thread_of(self.game_id, to),
                         stem, date=self.now, record=self._record(seq))
        return mailtext.mail_bytes(msg)

    def subject(self, reader: str, season: str) -> str:
        """The subject of every mail to reader in season (subjects.py)."""
        return thread_subject(self.game_id, reader, season)


def everyone(tl: Timeline, post: Post, moderator: bool = True) -> list[str]:
    """Every reader a result goes to: the sides, the moderator (unless not), the observers,
    each by his address (observer_reader)."""
    return [*tl.data.sides, *([MODERATOR] if moderator else []),
            *(observer_reader(a) for a in post.observers)]


def observer_reader(address: str) -> str:
    """An observer as a reader of a deadline's mails, whose names it is part of: by his
    address (its mailbox, as address_key reads it), never by his place in the list, which
    moves when one before him is removed (the next would then be taken as told already)."""
    digest = hashlib.sha256(address_key(address).encode("utf-8", "surrogatepass")).hexdigest()
    return f"{OBSERVER_READERS}{digest[:12]}"


def address_of(post: Post, reader: str) -> str | None:
    """A reader's address: an observer's by his reader name, a side's or the moderator's by
    name."""
    if reader.startswith(OBSERVER_READERS):
        return next((a for a in post.observers if observer_reader(a) == reader), None)
    return post.address(reader)
