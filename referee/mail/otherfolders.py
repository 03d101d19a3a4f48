"""The games of this user's other folders that read the same mailbox (a game moved to a
second folder, `tick games` and `tick games2` taken in turn).

Each pass keeps, for each mailbox its folder's games read, what claims their mail (their
tags, order keys and addresses, as the folder's index keeps them), by folder, in a file of
this user's data folder signed like the ledgers; and it reads there the other folders'
games. For a pass, the games reading a mailbox are those of every folder: a message no game
of its own folder claims but one of another folder would is that folder's, neither taken
nor told of as unclaimed (the other folder's pass takes it); the messages no game claimed,
and the files games took, are known against all of them, so that two folders' passes taken
in turn do not each find "the games changed" and read them all again.

Only this user's referee writes the file, from the games its passes read: nothing read from
a mailbox or a folder adds a game there. A folder's games count while their journals are
still where the pass found them; a folder whose journals are all gone is forgotten.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from ..store import home
from ..store.locks import BusyError, let_go, open_lock, take
from . import gameindex
from .tickgame import Game

MOST_FOLDERS = 64       # folders kept for a mailbox: past it, those written longest ago go


def _path(source: str, what: str = ".readers") -> Path:
    tag = hashlib.sha256(source.encode()).hexdigest()[:32]
    return home.data_dir("mailboxes") / f"{tag}{what}"


def _kept(source: str) -> dict[str, dict]:
    kept = home.read_signed(_path(source))
    if not isinstance(kept, dict) or kept.get("source") != source or \
            not isinstance(kept.get("folders"), dict):
        return {}
    return {k: v for k, v in kept["folders"].items() if isinstance(v, dict)}


def _present(games: dict) -> bool:
    return any(Path(journal).is_file() for journal in games)


def _keep(source: str, where: str, mine: dict) -> dict[str, dict]:
    """This folder's games into the file (read again and written under its lock, so that a
    pass over another folder at the same time loses nothing; best effort: when it cannot be
    written, the other folders still see this one as its last pass left it). The folders
    kept, this one's as now."""
    path = _path(source, ".readers.lock")
    try:
        fd = open_lock(home.ensure_dir(path.parent) / path.name)
    except OSError:
        return {**_kept(source), where: mine}
    try:
        take(fd, True, "the games reading the mailbox")
        folders = _kept(source)
        if folders.get(where) != mine:
            folders.pop(where, None)
            folders = {k: v for k, v in folders.items() if _present(v)}
            if mine:
                folders[where] = mine
            folders = dict(list(folders.items())[-MOST_FOLDERS:])
            home.write_signed(_path(source), {"source": source, "folders": folders})
        return folders
    except (BusyError, OSError):
        return {**_kept(source), where: mine}
    finally:
        let_go(fd)


def elsewhere(source: str, folder: Path, group: list[Game], fields: tuple[str, ...]
              ) -> list[Game]:
    """This folder's games reading the source kept for the other folders' passes; and the
    games of the other folders reading it, each as its folder's last pass found it, while its
    journal is still there (and is none of this folder's)."""
    where = str(folder.resolve())
    mine = {str(x.journal.resolve()): {k: getattr(x, k) for k in fields} for x in group}
    out = []
    for other, games in _keep(source, where, mine).items():
        if other == where:
            continue
        for journal, found in games.items():
            j = Path(journal)
            if journal in mine or not isinstance(found, dict) or \
                    found.get("source") != source or not j.is_file():
                continue
            try:
                out.append(Game(j, **{k: found[k] for k in fields},
                                printed=gameindex.fingerprint(j)))
            except (KeyError, TypeError):
                continue
    return out
