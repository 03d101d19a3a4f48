"""A named mail written once across outboxes, not only within one.

A mail is written once under its name in a folder: the mail found there, or in its sent/,
as the referee wrote it, was written by an earlier run (named.py). A run killed after it
wrote a mail and before its ledger said so leaves that mail in its folder; a later run
writing into another folder (`inbox --outbox DIR` by hand, then `tick` into the game's
route) would not see it there.
So the ledger keeps the folders the game's mails went into (`outboxes`: each one's
absolute, resolved path, the one used last at the end), a folder saved there before the
first mail is written into it; a run looks for a mail's name in the other folders kept,
and in their sent/, before it writes the mail into its own: one found there counts as
written. A mail's name is made from what it says and the record it is about, so a name
found is that mail. The folders are saved once a run, when its folder is not the last
used, never once a mail; MOST_FOLDERS bounds them.

The folders looked in come from the signed ledger alone, where only the referee's own runs
put them (an `inbox --outbox` command line, or a game's route as `tick` read it); nothing
read from a game folder names one. A file found in another folder counts only when it is
that mail as this referee wrote it for its recipient: a regular file (never followed
through a link, never a FIFO) whose Message-ID, in its first MOST_HEAD bytes, names the
mail and is marked for him with this user's key (msgids.py, named.py). So whoever can write one of
those folders, and knows a mail's name, keeps it from no other folder. A kept folder gone,
not a folder, or not readable holds nothing.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import partial
from pathlib import Path

from ..base.errors import StorageError
from ..store import home
from .eml import write_eml, write_unfound
from .ledger import save_ledger
from .named import written_already

MOST_FOLDERS = 16          # the folders the ledger keeps (those used longest ago go first)


def resolved(folder: Path) -> str:
    """The folder as the ledger keeps it: absolute, its links resolved."""
    return os.path.realpath(os.path.abspath(folder))


def kept_folders(ledger: dict) -> list[str]:
    """The folders the ledger keeps, the one used last at the end."""
    kept = ledger["outboxes"]
    return [k for k in kept if isinstance(k, str) and os.path.isabs(k)] \
        if isinstance(kept, list) else []


def written_elsewhere(ledger: dict, folder: Path, file: str, to: str,
                      game: str | None = None, records: list[dict] | None = None
                      ) -> Path | None:
    """The mail named file, to the address `to` (game: the game its Message-ID names;
    records: as named.written_already's), where a folder the ledger keeps, other than
    folder, holds it as this referee wrote it (or that folder's sent/: named.py); None when
    none does."""
    here, name = resolved(folder), file.removesuffix(".eml")
    for there in reversed(kept_folders(ledger)):
        if there != here and \
                (found := written_already(Path(there), name, to, game, records)) is not None:
            return found
    return None


def written_anywhere(ledger: dict, path: Path, to: str, game: str | None = None,
                     records: list[dict] | None = None) -> Path | None:
    """The mail path names (folder/NAME.eml) to the address `to` (game, records: as
    written_already's) where it was written: in its own folder or its sent/, else in
    another folder the ledger keeps; None when it was written nowhere."""
    return written_already(path.parent, path.stem, to, game, records) or \
        written_elsewhere(ledger, path.parent, path.name, to, game, records)


def keep_folder(ledger: dict, folder: Path) -> None:
    """folder kept as the one the game's mails go into now, saved before any is written
    into it (StorageError when it cannot be: nothing is written). A run that writes no mail
    keeps no folder: its ledger stays the bytes it was."""
    kept, here = kept_folders(ledger), resolved(folder)
    if kept[-1:] == [here]:
        return
    ledger["outboxes"] = [*(k for k in kept if k != here), here][-MOST_FOLDERS:]
    save_ledger(ledger)


def found_or_kept(ledger: dict | None, folder: Path, name: str, to: str,
                  game: str | None = None, records: list[dict] | None = None) -> Path | None:
    """Where the mail named name (to the address `to`; game, records: as written_already's)
    was written: in folder or its sent/, else, with ledger, in another folder the ledger
    keeps. None when nowhere, folder then kept in the ledger (with one) before the caller
    writes the mail into it."""
    there = written_already(folder, name, to, game, records)
    if there is None and ledger is not None:
        there = written_elsewhere(ledger, folder, f"{name}.eml", to, game, records)
        if there is None:
            keep_folder(ledger, folder)
    return there


def write_kept(ledger: dict, folder: Path, *args, name: str | None = None, **kwargs
               ) -> Path:
    """write_eml, a named mail written once across the folders the ledger keeps: the one
    found in its own folder or in a kept one stands, else its folder is kept, then it is
    written."""
    record = kwargs.get("record")
    game = record[0] if record is not None else None
    if name is None:
        return write_eml(folder, *args, **kwargs)
    if there := found_or_kept(ledger, folder, name, args[1], game):
        return there
    return write_unfound(folder, *args, name=name, **kwargs)


def writer(ledger: dict) -> Callable[..., Path]:
    """write_eml for the mails a run owes, written once across outboxes (write_kept)."""
    return partial(write_kept, ledger)


# The steps a later mail's time is moved by, the first the file system keeps: a nanosecond,
# then its whole second, then two (FAT, some NFS and SMB mounts keep times that coarse).
STEPS_NS = (1, 10 ** 9, 2 * 10 ** 9)


def sent_after(path: Path, before: Path) -> None:
    """Give the mail at path a time after the one at before, so that the spool, which sends
    the oldest first, sends it after (two mails written within one tick of the file
    system's clock are otherwise sent in the order of their names): the least step of
    STEPS_NS the file system keeps, read back."""
    try:
        then = os.lstat(before).st_mtime_ns
        for step in STEPS_NS:
            if os.lstat(path).st_mtime_ns > then:
                return
            os.utime(path, ns=(then + step, then + step), follow_symlinks=False)
    except OSError:
        pass                                # gone already (sent): nothing to order


def check_outbox(folder: Path) -> None:
    """The outbox is a folder this user can write into, else StorageError before any order."""
    try:
        if (folder.is_symlink() or folder.exists()) and not folder.is_dir():
            raise StorageError(f"--outbox {folder}: not a folder")
        home.ensure_dir(folder)
        effective = os.access in os.supports_effective_ids
        if not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK,
                                                effective_ids=effective):
            raise StorageError(f"--outbox {folder}: this user cannot write into it")
    except OSError as exc:
        raise StorageError(f"--outbox {folder}: cannot be made ({exc.strerror})") from None
