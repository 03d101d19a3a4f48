"""The redacted exports saved in a games' folder, told from a game's journal made to look
like one.

The game-over mail has the moderator save each reader's export (`referee log --as SIDE
--format json > SIDE.jsonl`), and run from the games' folder they land beside the games; a
pass passes them over quietly (tick.py). Their bytes alone (a whole chain, a secret part in
it a digest) are also what anyone who can write the folder makes of a live journal: a
secret part digested in place (the hash covers the digest alone, so every hash and
signature still holds), or an older export copied over it. So what decides is what this
referee knows of the file, first from its own home, which the folder's writer cannot
write: a file at a name the folder's index knows a game at (gameindex.py), or at the path
its game's mark notes as the one written last (store/written.py), or with a dice secret
beside it, is a game's journal. Its failure is a problem line, the referee's own refusal
first (cut back, a key handed over), its mail held for it (withheld.py); it is never called
an export. Only a file the referee never knew as a game's journal is passed over as one.

A game's journal moved to another name, with an export saved at its old one, is thus a
problem until the export goes under another name: the folder cannot tell that move from
an attack, and the moderator can.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection
from pathlib import Path

from ..base.errors import JournalError, RefereeError, one_line
from ..store import written, writtenat
from . import gameindex
from .leftover import named
from .tickgame import exported_game


def kept_as_journal(journal: Path, game: str, names: Collection[str]) -> str | None:
    """Why this referee knows the file (by its bytes, an export of game `game`) as a game's
    journal, in the words of a problem line, or None: the mark of the game notes its path
    as the one written last, the folder's index knows a game at its name (names: the
    index's entries, and what it kept of the journals it read), or a dice secret is beside
    it."""
    if written.written_at(game) == writtenat.place(journal):
        return f"this referee wrote game {one_line(game)} there last"
    if journal.name in names:
        return "the folder's index knows a game there"
    if os.path.lexists(journal.with_name(f"{journal.name}.secret")):
        return "its dice secret is beside it"
    return None


def seen_as(journal: Path, names: Collection[str]) -> tuple[str | None, str | None]:
    """A file no game could be read from: the game its bytes are a redacted export of
    (None: they are not), and why this referee knows it as a game's journal (None: it never
    did, and an export is one)."""
    game = exported_game(journal)
    return game, None if game is None else kept_as_journal(journal, game, names)


def unplayable(journal: Path, exc: RefereeError, game: str | None, why: str | None) -> str:
    """The problem line of a file of the folder no game could be read from (seen_as: game,
    why), the file named once: an export never known as a journal said to be one; a
    journal known as such that holds a secret part as a digest said to have lost it; any
    other with its error (the referee's refusal, when it refused it)."""
    if game is not None and why is None:
        return (f"{named(journal)}: a redacted export of game {one_line(game)} (`referee log "
                f"--format json`), not a game's journal: no game is played from it; keep "
                f"exports out of this folder")
    if game is not None and isinstance(exc, JournalError) and exc.redacted is not None:
        return (f"{named(journal)}: game {one_line(game)}'s journal ({why}), yet record "
                f"{exc.record} holds a secret part of {one_line(exc.redacted)!r} as a digest "
                f"where this referee wrote the secret itself: someone who can write the "
                f"folder took it out; no game is played from the journal until it is "
                f"restored (docs/moderator.md, Restoring a journal from a backup)")
    return f"{named(journal)}: {str(exc).removeprefix(f'{journal.name}: ')}"


def never_a_journal(path: Path) -> Callable[[Path], bool]:
    """Whether a file of `path` (a folder, or one journal) is a redacted export this referee
    never knew as a game's journal (the folder's index read once, when first asked)."""
    names: list[set[str]] = []

    def ask(journal: Path) -> bool:
        if not names:
            index, known = gameindex.load_all(path)
            names.append({*index, *known})
        game, why = seen_as(journal, names[0])
        return game is not None and why is None
    return ask
