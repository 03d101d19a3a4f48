"""A game handed over to another machine (`referee handover`): a mark in this referee's home.

A game moved by copying its journal, its secret and its key file is whole on the new machine,
but the old one still holds the key and the journal: its `tick` would go on applying the
players' mail, and two journals of one game, each validly signed, would disagree. Handing over
marks, in this user's referee home (signed with the home's key, as the mark of the last
record written is: written.py), that the game, as of its last record, is another machine's.
From then on every command that writes to it here refuses, writing nothing, and `tick` and
`watch` pass it over; reading it (status, show, log, verify) goes on. The mark knows the game
by its id and record 0: another game that only shares the id is not touched, and a mark put in
the game folder, or one copied from another home, is no mark (only this home's key signs one).
Removing the file takes the game back on this machine.
"""

from __future__ import annotations

from pathlib import Path

from ..base.errors import ForeignGameError, one_line
from . import home
from .written import game_file, head


class HandedOverError(ForeignGameError):
    """A command that writes was given a game this referee handed over to another machine."""

    kind = "handed_over"


def mark_path(game_id: str) -> Path:
    """Where the handover mark of a game is kept (its file named for the id's digest)."""
    return game_file("handed", game_id, "handed")


def of_game(game_id: object, first: object) -> dict | None:
    """The handover mark of the game of this id whose record 0 has the hash first, or None."""
    if not isinstance(game_id, str) or not isinstance(first, str):
        return None
    mark = _kept(mark_path(game_id))
    return mark if mark and mark["game_id"] == game_id and mark["first"] == first else None


def every_mark(read: frozenset[Path] = frozenset()) -> list[dict]:
    """Every handover mark this home holds but those at the paths read (already read by
    of_game), each as of_game takes it (_kept)."""
    try:
        paths = sorted(mark_path("").parent.glob("*.handed"))
    except OSError:
        return []
    return [mark for path in paths if path not in read and (mark := _kept(path))]


def _kept(path: Path) -> dict | None:
    """The mark at path, if it is one: signed by this home's key, naming its game's id and
    record 0, and kept under that game's name (one damaged, forged, or copied under another
    game's name is no mark)."""
    mark = home.read_signed(path, max_bytes=1 << 16)
    if mark and isinstance(mark.get("game_id"), str) and isinstance(mark.get("first"), str) \
            and mark_path(mark["game_id"]) == path:
        return mark
    return None


def of_journal(raw: bytes) -> dict | None:
    """The handover mark of the game these journal bytes hold, or None."""
    first = head(raw)
    return of_game(first.get("game_id"), first.get("hash"))


def note(raw: bytes, last: dict, path: Path | str) -> dict:
    """Mark the game of raw (last: its last record) handed over as of that record; the mark,
    on disk when this returns (OSError when it cannot be kept)."""
    from .chain import now  # start-up: only handover needs it
    from .writtenat import place  # start-up: only handover needs it

    first = head(raw)
    mark = {"game_id": first["game_id"], "first": first["hash"], "seq": last["seq"],
            "hash": last["hash"], "path": place(path), "at": now()}
    home.keep_signed(mark_path(first["game_id"]), mark)
    return mark


def words(mark: dict) -> str:
    """What a refusal says of the game handed over (without the file's name)."""
    return (f"game {one_line(str(mark.get('game_id')))} was handed over to another machine at "
            f"record {mark.get('seq')} (`referee handover`, {one_line(str(mark.get('at')))}); "
            f"nothing was written here; to take it back on this machine, remove "
            f"{mark_path(str(mark.get('game_id')))}")


def refuse(raw: bytes, name: str) -> None:
    """HandedOverError, one line, when the game of raw is handed over from this machine."""
    mark = of_journal(raw)
    if mark is not None:
        raise HandedOverError(f"{name}: {words(mark)}")
