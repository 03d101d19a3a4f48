"""A named mail, written once: what makes a file in an outbox the referee's own mail.

A mail the referee owes is written under a name made from what makes it that mail (the
message it answers, the reader and the record a report ends at, a deadline's reminder), so
that a run killed after writing it and before its ledger said so finds it, there or in the
outbox's sent/ once it went out, and writes no other. Those names are no secret: whoever
can read the journal, or count its records, can work one out. So a file of that name counts
as the mail only when it is the mail as this referee wrote it for its recipient: a regular
file (never followed through a link, never a FIFO) whose Message-ID, in its first MOST_HEAD
bytes, names the mail (and its game, for a mail about one; and a record of the game's journal as
it stands, for one written with it at hand: of_journal) and carries the mark made for
that recipient with this user's key (msgids.py). Anything else under that name (an empty
file, a link, a FIFO, a copy of another mail, other bytes) is nobody's mail: it counts for
nothing, and is left where it is. The mail is then written under its second name, NAME.MARK,
MARK keyed with this user's key by the mail's name, game and recipient (msgids.twin_mark),
which nobody else can know before the mail is written; a file not the referee's found
there (a copy of the name, once seen) is replaced. A mail program moving the mails into
sent/ keeps their headers, so a mail sent is still known there.
"""

from __future__ import annotations

import os
import re
import secrets as _secrets
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from ..base.errors import StorageError
from ..store import home
from .ledger import fault
from .msgids import names_mail, record_of, sent_to, twin_mark
from .noted import noted

MOST_HEAD = 64 * 1024      # the bytes of a mail file read for its Message-ID
# A header line's Message-ID, the line folded after the colon or not (as the email package
# writes a long one).
_MESSAGE_ID = re.compile(rb"^Message-ID:[ \t]*(?:\r?\n[ \t]+)?(<[^<>\s]{1,400}>)[ \t]*\r?$",
                         re.IGNORECASE | re.MULTILINE)
# A second name's mark at the end of a file name (msgids.twin_mark: base32, 26 signs).
_TWIN = re.compile(r"\.[a-z2-7]{26}\Z")
# The folders whose mails written within folders_synced_once wait for their one sync.
_UNSYNCED: ContextVar[set[Path] | None] = ContextVar("unsynced", default=None)


@contextmanager
def folders_synced_once() -> Iterator[None]:
    """Within: the mails written once (write_once) are each synced as they are written, and
    the folder each was linked into is synced once, when the block ends, however it ends:
    before what follows says they were written (the ledger's save after a run's mails).
    A kill within loses nothing the folder's sync guards (the kernel keeps the links), and
    what follows it is not done."""
    unsynced: set[Path] = set()
    token = _UNSYNCED.set(unsynced)
    try:
        yield
    finally:
        _UNSYNCED.reset(token)
        for folder in sorted(unsynced):
            home.sync_dir(folder)


def own_name(stem: str) -> str:
    """A mail's name from its file's (without .eml): a second name (NAME.MARK) as its own, so
    that the ledger, which names mails by their names, knows it."""
    return _TWIN.sub("", stem)


def written_already(folder: Path, name: str, to: str, game: str | None = None,
                    records: list[dict] | None = None) -> Path | None:
    """The mail named name, to the address `to` (game: the game its Message-ID names;
    records: its journal, whose records alone such a mail may name), where the outbox, or
    its sent/ once the mail went out, holds it as this referee wrote it (under its name or
    its second one): a named mail is that mail, and is not written again. None when neither
    does."""
    for where in (folder, folder / "sent"):
        for stem in _stems(name, to, game):
            if ours(path := where / f"{stem}.eml", to, name, game, records):
                return path
    return None


def ours(path: Path, to: str, name: str, game: str | None = None,
         records: list[dict] | None = None) -> bool:
    """Whether the file at path is the mail named name this referee wrote for `to`: a
    regular file whose Message-ID names the mail (and game, when given) and is marked for
    him; with records (the game's journal), one naming a record of it (of_journal)."""
    ident = written_id(path)
    return bool(ident) and names_mail(ident, name) and sent_to(ident, to) and \
        (game is None or ident.startswith(f"<rec.{game}.")) and \
        (records is None or game is None or of_journal(ident, to, game, records))


def of_journal(ident: str, to: str, game: str, records: list[dict]) -> bool:
    """Whether the record the Message-ID ident names (msgids.record_of) is one of records:
    a mail of a history the moderator set back, whose record of that number is another
    since, is not the mail the history played on owes under the same name (a name made from
    a hand-off and a time, reached again). An id an earlier version wrote names the number
    alone: it is of any record of that number."""
    told = record_of(ident, to, game)
    return told is not None and told.seq < len(records) and told.is_of(records[told.seq])


def written_id(path: Path) -> str:
    """The Message-ID of the mail file at path, read from its header ("" when it is no
    regular file, or none is found in its first MOST_HEAD bytes); unchecked."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) |
                     getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return ""
    try:
        head = os.read(fd, MOST_HEAD) if stat.S_ISREG(os.fstat(fd).st_mode) else b""
    except OSError:
        head = b""
    finally:
        os.close(fd)
    found = _MESSAGE_ID.search(head.split(b"\n\n", 1)[0])
    return found.group(1).decode("ascii", "replace") if found else ""


def write_once(folder: Path, name: str, data: bytes, to: str, game: str | None = None,
               faults: bool = True, records: list[dict] | None = None) -> Path:
    """The mail named name (its bytes data, to the address `to`) appears whole or not at
    all: written and synced under a temporary name, then linked to its name, or to its
    second one when a file not the referee's holds the first in the outbox or its sent/ (a
    crash midway leaves only the temporary file, swept later). faults: the points where the
    fault tests stop a run (a reply's). records: as written_already's."""
    tmp = folder / f".{name}.{os.getpid()}.{_secrets.token_hex(4)}.tmp"
    home.sweep_temporary(folder)
    home.write_new(tmp, data)
    try:
        if faults:
            fault("reply")
        path = _linked(tmp, folder, name, to, game, records)
        unsynced = _UNSYNCED.get()
        if unsynced is None:
            home.sync_dir(folder)
        else:                   # once for the folder, when the block ends
            unsynced.add(folder)
    finally:
        tmp.unlink(missing_ok=True)
    if faults:
        fault("written")
    return path


def _stems(name: str, to: str, game: str | None) -> list[str]:
    """The file names (without .eml) the mail may have: its own, then its second one (none
    without a key)."""
    mark = twin_mark(name, to, game)
    return [name] if mark is None else [name, f"{name}.{mark}"]


def _stands(tmp: Path, path: Path, to: str, name: str, game: str | None,
            records: list[dict] | None) -> bool:
    """Whether the mail now stands at path: tmp linked there, or the referee's own mail of
    that name found there already (noted only when linked: written now)."""
    try:
        os.link(tmp, path)
        noted(path)
        return True
    except FileExistsError:
        return ours(path, to, name, game, records)


def _linked(tmp: Path, folder: Path, name: str, to: str, game: str | None,
            records: list[dict] | None) -> Path:
    """tmp linked to the mail's own name when nothing holds it in the outbox nor its sent/
    (the mail found there stands), else to its second name, replacing a file there that is
    not the referee's. Without a key, a file of its own name stands for it, as it cannot
    be told from the referee's."""
    stems = _stems(name, to, game)
    first = folder / f"{name}.eml"
    if not any(os.path.lexists(where / first.name) for where in (folder, folder / "sent")) \
            and _stands(tmp, first, to, name, game, records):
        return first
    if len(stems) == 1:
        return first
    second = folder / f"{stems[1]}.eml"
    if _stands(tmp, second, to, name, game, records):
        return second
    try:
        os.replace(tmp, second)
    except OSError as exc:
        raise StorageError(f"{second}: not a mail of this referee's, and it cannot be "
                           f"replaced ({exc.strerror}); remove it") from None
    return noted(second)
