"""A game of the folder that this referee handed over to another machine (store/handedover.py):
`tick` and `watch` pass it over, take none of its mail (the machine it went to reads it) and
say so in a standing line, no problem: cron stays quiet, and `watch` repeats the line as it
repeats the others that stand.

Its mail in a mailbox the pass still reads for the folder's other games is not "mail no game
claims" either: a message the game would claim (its tag, one of its order keys, a sender
registered in it) is claimed by it and left exactly as it is, unread on IMAP, not known as
dealt with in a Maildir, for the new machine to take, as the mail of a game the pass cannot
play is held (withheld.py); its line counts those the pass found. What claims its mail is
what the folder's index kept of it, as for an unreadable journal (this machine reads the
journal of a game handed over only to show it, never to mail its players). When nothing is
kept (the journal moved away, the index deleted or rebuilt), the home's own marks still tell
the game: a message whose tag names the id of a game marked handed over is left the same
way, from any mailbox the pass reads (the mark names none), and counted in a line of that
game's, said only when the pass found some (marked_away). Only this home's signed marks
count: one copied into the game folder, forged or damaged is none (store/handedover.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..base.errors import RefereeError, one_line
from ..base.plurals import counted
from ..store import handedover
from ..store.journal import Journal
from . import withheld
from .tickgame import Game


@dataclass
class Handed:
    """A journal of the folder whose game is handed over: its mark, and what claims its mail
    (None when nothing tells it: its mail is then no game's, as before)."""

    journal: Path | None        # None: the folder holds no journal of it (marked_away)
    mark: dict
    claims: withheld.Withheld | None = None

    @property
    def line(self) -> str | None:
        """Its standing line, with how many messages the pass left for the other machine;
        None for a game the folder holds no journal of, when the pass found none for it."""
        n = len(self.claims.waiting) if self.claims is not None else 0
        left = f"{counted(n, 'message')} for it" if n else "its mail"
        if self.journal is None and not n:
            return None
        named = f"{one_line(self.journal.name)}: game" if self.journal else "game"
        return (f"handed   {named} "
                f"{one_line(str(self.mark['game_id']))} was handed over to another machine at "
                f"record {self.mark['seq']} (`referee handover`): passed over, {left} left for "
                f"that machine")


def handed_over(journal: Path, served: Game | None, known: dict, fields: tuple[str, ...]
                ) -> Handed | None:
    """The journal's game if it is handed over (served: its game as the folder's index holds
    it, else its record 0 is read), or None; with what claims its mail: the served game, else
    what the index kept of it (known, as gameindex.load_all gives it) while that is the
    marked game's."""
    if served is not None:
        mark = handedover.of_game(served.game_id, served.header_hash)
    else:
        try:
            mark = handedover.of_journal(Journal(journal).first_line())
        except (RefereeError, ValueError):
            return None
    if mark is None:
        return None
    game = served or _known(journal, mark, known, fields)
    claims = None
    if game is not None and game.source is not None:
        claims = withheld.Withheld([journal], [game], -1, "", handed=True)
    return Handed(journal, mark, claims)


def _known(journal: Path, mark: dict, known: dict, fields: tuple[str, ...]) -> Game | None:
    found = known.get(journal.name)
    if not isinstance(found, dict) or found.get("game_id") != mark["game_id"] or \
            found.get("header_hash") != mark["first"]:
        return None
    try:
        return Game(journal, **{k: found[k] for k in fields})
    except (KeyError, TypeError):
        return None


def said(handed: list[Handed]) -> list[str]:
    """The standing lines of these games, each made once (Handed.line formats it anew at every
    read); a game the folder holds no journal of, that the pass found no mail for, has none."""
    return [line for h in handed if (line := h.line) is not None]


def marked_away(handed: list[Handed], games: list[Game]) -> list[Handed]:
    """The games this home marks handed over that the folder holds no journal of (moved
    away, the index that knew them lost) nor plays: each claims the mail whose tag names its
    id, in any mailbox the pass reads (the mark knows none), leaving it for that machine."""
    here = {(x.game_id, x.header_hash) for x in games}
    out = []    # the marks of the folder's games handed over, read this pass, are not read again
    for mark in handedover.every_mark(frozenset(handedover.mark_path(h.mark["game_id"])
                                                for h in handed)):
        if (mark["game_id"], mark["first"]) in here:
            continue
        game = Game(Path(one_line(str(mark.get("path")))), mark["game_id"], mark["first"],
                    None, None, [])
        out.append(Handed(None, mark, withheld.Withheld([], [game], -1, "", handed=True)))
    return out
