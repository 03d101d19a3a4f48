"""The subject of every mail of the referee's about a game: `[referee GAME] READER, SEASON`,
the same for every mail to one reader (a side's player, the moderator, the public) in one
season of the game (a campaign's turn track label, 'SUMMER 1914'; a skirmish's turn,
'turn 3'). Gmail groups a conversation by its subject alone (Re: and Fwd: aside): a subject
that changed with every mail would start a new conversation each time, and one fixed for the
whole game would grow past its hundred messages. What kind of mail each is (a report, a
refusal, a reminder...) its first line says, which Gmail's list shows beside the subject.

The record a reply answers is read from the Message-ID it answers (answered.py), never from
the subject: a subject of an earlier version, `[referee GAME #N] ...`, still names it.
"""

from __future__ import annotations

from ..base.readers import PUBLIC
from ..render.documents import reader_words
from ..store.players import OBSERVER

# The readers of reminders.py's mails that are observers, by number: "+observer0",
# "+observer1"..., after a sign no side's name has (the game data names sides in lower-case
# letters, digits and _), so that no side, whatever its name, is taken for one (and sent
# another's mail, or its key to an observer).
OBSERVER_READERS = "+observer"


def thread_subject(game_id: str, reader: str, season: str) -> str:
    """The subject of every mail of game_id to reader in season (its words as kind.season
    gives them)."""
    return f"[referee {game_id}] {reader_phrase(reader)}, {season}"


def table_subject(table, reader: str) -> str:
    """thread_subject for the game of table (a Table) as its journal stands."""
    return thread_subject(table.records[0]["game_id"], reader, table.kind.season(table))


def reader_phrase(reader: str) -> str:
    """A mail's reader as its subject names him: 'German player', 'moderator', 'public'."""
    public = reader == OBSERVER or reader.startswith(OBSERVER_READERS)
    return reader_words(PUBLIC if public else reader).removeprefix("the ")
