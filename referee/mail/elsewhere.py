"""A named mail written once across outboxes, not only within one.

A mail is written once under its name in a folder: the name found there, or in its sent/,
was written by an earlier run (eml.py). A run killed after it wrote a mail and before its
ledger said so leaves that mail in its folder; a later run writing into another folder
(`inbox --outbox DIR` by hand, then `tick` into the game's route) would not see it there.
So before a named mail is written, the ledger keeps the folder it goes into (its absolute,
resolved path) under the mail's file name (`folders`), saved at once; a run writing into
another folder looks for the name in each folder kept for it, and in its sent/, first: a
mail found there counts as written. A name's folders are forgotten once the ledger knows
its mail written (forget_folders); MOST_FOLDERS bounds them besides.

The folders looked in come from the signed ledger alone, where only the referee's own runs
put them (an `inbox --outbox` command line, or a game's route as `tick` read it); nothing
read from a game folder names one. A kept folder gone, not a folder, or not readable holds
nothing: written_already looks at names alone, never opening a file (a FIFO), and a
symbolic link that loops is no mail.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import partial
from pathlib import Path

from .eml import write_eml, written_already
from .ledger import save_ledger

MOST_FOLDERS = 2000        # names whose folders the ledger keeps (the oldest go first)


def resolved(folder: Path) -> str:
    """The folder as the ledger keeps it: absolute, its links resolved."""
    return os.path.realpath(os.path.abspath(folder))


def written_elsewhere(ledger: dict, folder: Path, file: str) -> Path | None:
    """The mail named file where a folder the ledger keeps for it, other than folder, holds
    it (or that folder's sent/); None when none does."""
    kept = ledger["folders"].get(file)
    here = resolved(folder)
    for there in kept if isinstance(kept, list) else []:
        if not isinstance(there, str) or not os.path.isabs(there) or there == here:
            continue
        if (found := written_already(Path(there), file.removesuffix(".eml"))) is not None:
            return found
    return None


def keep_folder(ledger: dict, folder: Path, file: str) -> None:
    """The folder the mail named file is about to be written into, kept in the ledger and
    saved (StorageError when it cannot be: nothing is written)."""
    kept = ledger["folders"].get(file)
    kept = [k for k in kept if isinstance(k, str)] if isinstance(kept, list) else []
    here = resolved(folder)
    if here in kept:
        return
    ledger["folders"].pop(file, None)
    ledger["folders"][file] = [*kept, here]
    for old in list(ledger["folders"])[:-MOST_FOLDERS]:
        del ledger["folders"][old]
    save_ledger(ledger)


def forget_folders(ledger: dict, files: list[str]) -> None:
    """The folders of mails the ledger now knows written, forgotten (with the save that
    says so)."""
    for file in files:
        ledger["folders"].pop(file, None)


def write_kept(ledger: dict, folder: Path, *args, name: str | None = None, **kwargs
               ) -> Path:
    """write_eml, a named mail written once across the folders the ledger keeps for it:
    the one found in its own folder or in a kept one stands, else its folder is kept, then
    it is written."""
    if name is not None and written_already(folder, name) is None:
        file = f"{name}.eml"
        if (there := written_elsewhere(ledger, folder, file)) is not None:
            return there
        keep_folder(ledger, folder, file)
    return write_eml(folder, *args, name=name, **kwargs)


def writer(ledger: dict) -> Callable[..., Path]:
    """write_eml for the mails a run owes, written once across outboxes (write_kept)."""
    return partial(write_kept, ledger)
