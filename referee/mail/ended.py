"""The moderator told, once, that a game is over, for every kind of game: the kind says
which record ended it and what he is told (GameKind.ended: a campaign waits on him for its
dice secret published, `reveal`, which lets every player check every die, moderator.md
When the game is over; a skirmish also for a dispute within a challenge window); this
module keeps in the signed ledger that he was told, under the game's mail lock and the
journal's, whichever pass mails him: a campaign's deadlines pass (waiting.py), or the pass
of a game whose mail is read directly (direct.py), each with its own writer."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from ..base.readers import MODERATOR
from ..table import Table
from .deadlinepost import Post
from .ledger import fault, game_lock, load_ledger, save_ledger
from .senders import typed_journal

# How a pass writes the mail: its file name, its text and the ledger it is told in.
Write = Callable[[str, str, dict], Any]


def tell_the_end(table: Table, outbox: Path, now: datetime) -> None:
    """A campaign's pass: the moderator mailed once that the game is over and its secret
    is not yet published, by his registered address (none: nothing is written); the ledger
    keeps that he was told, which his mail program taking the mail out of the folder does
    not undo (but for a pass killed between the mail written and the ledger saved, the mail
    taken out before the next pass: that one writes it again, under the same name and
    Message-ID)."""
    end = table.kind.ended(table, typed_journal(table.path))
    if end is None:
        return
    head = table.records[0]
    post = Post(table, table.raw, outbox, now, head["game_id"])
    to = post.address(MODERATOR)
    if to is None:
        return
    subject = post.subject(MODERATOR, table.kind.season(table))
    _told(table, end, lambda name, text, ledger: post.write(
        name, to, subject, text, wrapped=True, seq=table.records[-1]["seq"], ledger=ledger))


def end_told(table: Table, write: Write, ledger: dict, reported: bool = False) -> list:
    """A direct pass, which holds the game's mail lock and its ledger (saved by the pass):
    what write returned for the mail telling the moderator the game is over, or nothing;
    reported: this pass's answer to his mail carried his report, which says it, so the
    ledger only keeps that he was told (one mail a pass)."""
    end = table.kind.ended(table, typed_journal(table.path))
    return [] if end is None else _told(table, end, write, ledger, reported)


def _told(table: Table, end: tuple[dict, str], write: Write, ledger: dict | None = None,
          reported: bool = False) -> list:
    """The mail written, named by the record that ended the game (a journal set back before
    it and ended again is told again), unless the ledger says it was; then the ledger told
    (saved here unless the caller holds it). Decided again under the game's mail lock and
    then the journal's (the order every mail writer takes them in): `reveal` appends under
    the journal's lock, so one run between the game read and the locks taken makes the
    bytes held no longer the journal's, and nothing is sent (a journal moved otherwise is
    told at the next pass, which reads it again). The journal's shared lock keeps out an
    append (a reveal) and writes nothing: a journal another referee signed (a game folder
    copied here) is told as any."""
    rec, text = end
    head = table.records[0]
    with game_lock(head["game_id"], head["hash"]), table.journal.shared() as raw:
        if raw != table.raw:            # the game read is no longer the journal's
            return []
        book = load_ledger(head["game_id"], head["hash"]) if ledger is None else ledger
        if book.get("ended") == rec["hash"]:
            return []
        out = []
        if not reported:
            out = write(f"ended-{rec['seq']:06d}-{rec['hash'][:16]}-moderator.eml", text, book)
            fault("ended")
        book["ended"] = rec["hash"]
        if ledger is None:
            save_ledger(book)
        return out
