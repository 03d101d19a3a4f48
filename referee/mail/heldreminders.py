"""Reminders the spool held: made true again before they go.

A reminder is written into the spool at its time; when the SMTP server is down (or refuses
it for now), it waits there, and goes out with what the passes wrote meanwhile once the
server is back. By then it may say what is no longer so: "in 23 hours and 55 minutes" a
day later, beside a later reminder of the same deadline; of a deadline extended since, or
passed, or ruled missed; of a decision answered since. So before a pass sends the spool's
mails, each reminder still owed is looked at again (under the game's lock, with the journal
as it stands):

- one of a decision no longer asked (the side owes none now, or another hand-off's, the
  game is paused or his orders wait for the moderator's dice), of a deadline that moved
  (extended or set again: the mail giving the new one goes too) or passed, is not sent;
- of the others to one side, the one of the latest reminder time alone goes; nor that one
  when the side's report, written after it, gives the same deadline (a report a server
  refused for good gives nothing);
- the one that goes, written by an earlier pass, is written again with the time left now,
  under its name and at its place in the spool's order (a late reminder says the time left
  then, as reminders.py writes one).

A reminder not sent is removed from the spool: its record stands in the journal (it is
recorded as sent, as a reminder spared by a report is), so no pass writes it again, and
the ledger keeps no mark that would have it written once a mail is refused (firsttold.py).
The one kept is written whole under a temporary name and renamed over the old one, before
any other is removed: a pass killed midway leaves it whole, old or new, and the next pass
removes the others. A file that is not the referee's own mail (named.ours) is left alone.
An outbox the moderator's mail program sends from (`outbox:DIR`) is not the referee's to
change: its mails are out once written.
"""

from __future__ import annotations

import email.utils
import os
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from ..base.addresses import address_key
from ..base.clock import for_players, parse_duration, parse_stamp, span_words
from ..base.errors import StorageError, UsageError
from ..game import timeline as g_timeline
from ..game.clockwalk import has_deadlines
from ..render.documents import players_words
from ..store import home
from ..table import Table
from .askagain import file_stamp, late_tail, reminder_body, season
from .deadlinepost import Post
from .delivery import reason_of, spool_files
from .firsttold import last_mail
from .headers import header_block
from .holds import sides_on_hold
from .ledger import fault
from .named import MOST_HEAD, ours, own_name
from .observers import still_held
from .tickgame import Game

# A reminder's file name (askagain.reminder_name): hand-off, side, reminder, deadline.
NAME = re.compile(r"deadline-(\d{6})-(.+)-remind-([0-9dhm]+)-(\d{8}T\d{6}Z)\Z")
# A reminder written this long before the pass is written again: the words of the time left
# count minutes.
STALE = timedelta(minutes=1)


@dataclass
class Held:
    """A reminder owed in the spool: its file, name, recipient and when it was written."""

    path: Path
    name: str
    handoff: int
    side: str
    before: str
    due: str
    to: str
    written: datetime


def held_reminders(x: Game, games_dir, now: datetime) -> None:
    """Before a pass of `tick` sends a game's spool: its reminders made true (refresh),
    each change logged."""
    if x.direct or not x.sends:
        return
    for line in refresh(x.journal, x.spool, now, games_dir):
        x.log(line)


def refresh(journal: Path, spool: Path, now: datetime, games_dir) -> list[str]:
    """The reminders owed in spool not sent that need not go, the one that goes written with
    the time left at now; one log line for each. Run under the game's lock."""
    named = [p for p in spool_files(spool) if NAME.match(own_name(p.stem))]
    if not named:
        return []
    table = Table(journal, games_dir)
    post = Post(table, table.raw, spool, now, table.records[0].get("game_id", ""))
    held = [h for p in named if (h := _held(p, post)) is not None]
    if not held:
        return []
    tl = g_timeline.timeline(table.journal, table.raw, games_dir, table.records)
    timed = has_deadlines(table.raw)
    on_hold = sides_on_hold(table) if timed else {}
    ledger = post.kept()
    lines: list[str] = []
    dropped: list[Held] = []
    for side in sorted({h.side for h in held}):
        mine = sorted((h for h in held if h.side == side), key=lambda h: _at(h))
        why = _needless(tl, timed, on_hold, post, ledger, mine[-1])
        for h in mine[:-1]:
            dropped.append(h)
            lines.append(_line(h, tl, why or f"the {mine[-1].before} reminder goes in its "
                                               f"place"))
        if why is not None:
            dropped.append(mine[-1])
            lines.append(_line(mine[-1], tl, why))
        elif now - mine[-1].written >= STALE:
            lines.append(_rewrite(mine[-1], tl, post))
    fault("reminders refreshed")        # the one kept written: the others go after it
    for h in dropped:
        h.path.unlink(missing_ok=True)
    if dropped:
        home.sync_dir(spool)
    return lines


def _held(path: Path, post: Post) -> Held | None:
    """The spool's file at path as a reminder of this game's the referee wrote (None: it is
    another mail, or not the referee's)."""
    name = own_name(path.stem)
    found = NAME.match(name)
    if found is None:
        return None
    try:
        with open(path, "rb") as f:
            head = header_block(f.read(MOST_HEAD))
        to = email.utils.parseaddr(str(head.get("To", "")))[1]
        written = email.utils.parsedate_to_datetime(str(head.get("Date", "")))
    except (OSError, ValueError, TypeError, LookupError):
        return None
    if not to or written.tzinfo is None or \
            not ours(path, to, name, post.game_id, post.records):
        return None
    handoff, side, before, due = found.groups()
    return Held(path, name, int(handoff), side, before, due, to, written)


def _at(h: Held) -> tuple:
    """A reminder's place among a side's: by hand-off and deadline, then the later reminder
    time last."""
    try:
        ahead = parse_duration(h.before)
    except UsageError:
        ahead = None
    return h.handoff, h.due, -ahead.total_seconds() if ahead is not None else 0, h.written


def _needless(tl, timed: bool, on_hold: dict, post: Post, ledger: dict | None, h: Held
              ) -> str | None:
    """Why a side's latest reminder owed need not go (None: it goes)."""
    if not timed:
        return "the game keeps no deadlines now"
    d = tl.due_for(h.side)
    if tl.paused:
        return "the game is paused"
    if d is None or d.handoff != h.handoff:
        return "the decision it asks was answered since"
    if h.side in on_hold:
        return "his mailed orders wait for the moderator's dice"
    if file_stamp(d.due) != h.due:
        return f"his deadline is {for_players(d.due, d.zone)} now"
    if tl.is_late(d) or post.now >= d.due:
        return "the deadline has passed"
    if post.address(h.side) is None or address_key(post.address(h.side)) != address_key(h.to):
        return "his side's address is another now"
    if ledger is not None:
        kept, name = last_mail(ledger, h.side)
        sent = still_held(ledger["sent"].get(h.side), post.records)
        written = _when(kept)
        if written is not None and written > h.written and sent is not None and \
                sent >= d.handoff and name not in post.refused:
            return f"his report of {for_players(written, d.zone)} gives the deadline"
    return None


def _when(kept: str | None) -> datetime | None:
    return parse_stamp(kept) if isinstance(kept, str) else None


def _line(h: Held, tl, why: str) -> str:
    return f"reminder: {players_words([h.side])}, the {h.before} reminder held in the spool " \
           f"since {for_players(h.written, tl.settings.zone)}: not sent, {why}"


def _rewrite(h: Held, tl, post: Post) -> str:
    """The reminder that goes, written again with the time left now, in place of the one
    held: whole, under its name, and at its place in the spool's order (its time kept)."""
    d = tl.due_for(h.side)
    data = post.mail_bytes(h.name, h.to, post.subject(h.side, season(tl)),
                           reminder_body(tl, d, post.now, post), h.side, seq=tl.seq,
                           tail=late_tail(post))
    tmp = h.path.with_name(f".{h.path.name}.{os.getpid()}.tmp")
    try:
        was = h.path.stat()
        tmp.unlink(missing_ok=True)
        home.write_new(tmp, data)
        os.replace(tmp, h.path)
        os.utime(h.path, ns=(was.st_atime_ns, was.st_mtime_ns), follow_symlinks=False)
        home.sync_dir(h.path.parent)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise StorageError(f"{h.path}: a reminder held in the spool could not be written "
                           f"again ({reason_of(exc)}); it stays as it was") from None
    return f"reminder: {players_words([h.side])}, the {h.before} reminder held in the spool " \
           f"since {for_players(h.written, d.zone)} goes now, {span_words(d.due - post.now)}"
