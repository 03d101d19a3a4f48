"""A mailbox a pass of `tick` could not read, told once for all the games reading it.

Several games of a folder may read one mailbox (one server, login and folder; or one
Maildir): when it cannot be read (its server down, refusing the login, resting after a
stall: breaker.py), every one of those games has its mail unread, for the same reason.
The pass names that once, as one problem: the mailbox (the server's host and port, the
login and the folder; never a password, which no route holds), why it failed, the games
that wait on it and what to do. Each of those games still counts it among its own
problems (its mail unread, no deadline of its ruled missed), and is otherwise served as
usual (its deadlines, the mails it owes); a problem of one game's own stays that game's.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..base.errors import RefereeError, UsageError, one_line, quoted
from ..store.mailroute import is_local, server_of
from .delivery import SESSION
from .imapsaid import check_of
from .tickgame import Game


@dataclass
class MailboxDown:
    """A mailbox the pass could not read: its route, why, its games' ids, the problem line."""

    source: str
    why: str
    games: list[str]
    problem: str

    def document(self) -> dict:
        """As `tick --format json` lists it (`mailboxes`)."""
        return {"source": self.source, "why": self.why, "games": self.games,
                "problem": self.problem}


def unread(source: str, group: list[Game], exc: RefereeError) -> MailboxDown:
    """The mailbox of source could not be read (exc): each of its games' mail unread this
    pass, the one problem line saying so in the games' problems."""
    why, check = check_of(_why(source, str(exc)))
    ids = [one_line(x.game_id) for x in group]
    waiting = f"game {ids[0]} waits" if len(ids) == 1 else f"games {', '.join(ids)} wait"
    todo = check or ("see that the mailbox is there and this user may read it"
                     if is_local(source) else "see that the server is up and takes the login")
    problem = (f"mailbox {_shown(source)}: {why}; {waiting} on it (no deadline ruled missed "
               f"meanwhile): {todo}; the first pass that reads it takes their mail")
    for x in group:
        x.read = False
        x.problems.append(problem)
    return MailboxDown(source, why, [x.game_id for x in group], problem)


def _shown(source: str) -> str:
    """The mailbox as the line names it: an IMAP folder by its server, login and folder."""
    if is_local(source):
        return one_line(source)
    try:
        s = server_of(source)
    except UsageError:
        return one_line(source)
    return f"{s.scheme} {s.host}:{s.port}, user {one_line(s.user or '')}, folder {quoted(s.folder)}"


def _why(source: str, said: str) -> str:
    """The failure in its own words, less the mailbox it names first (the line names it)."""
    if not is_local(source):
        return SESSION.sub("", said, count=1)
    for named in (f"{source}: ", f"{Path(source)}: "):
        said = said.removeprefix(named)
    return said
