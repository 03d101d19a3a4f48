"""A side not yet asked his decision: the mail asking it has not gone out.

A deadline is ruled missed only by a pass that read the game's mailbox in full: orders
that reached the server in time count (tick.py). The other way holds too: a side whose
mail asking the decision is still owed, written into the spool by a pass whose server
was down (or refused it for now) and not handed to the server since, has not been asked.
His deadline is neither reminded nor ruled missed meanwhile, whatever the time (a
reminder would reach him with the report it follows, or before it), unless the server
refuses his address alone for now for longer than a hold may last (fornow.py). So too for a side
whose deadline passed before the report asking him was written at all (`tick` first run
after it): the pass writes it after the check.

Once that mail goes out, the pass gives him the time the game gives for his decision,
from then (holdtime.py does the same for a hold): his deadline is extended, as the
moderator extends one (no extension of the player's own is spent), when less is left of
it. It is given just before the pass sends, once the server takes a session, and the mail
written again with it (unaskedfold.py): he gets one mail, with the deadline that holds. A
pass that could not look first (the extension not given then) gives it after the mail
went, its news following in the same pass. It is given once: the ledger keeps the
sides held so (`unasked`: the hand-off and its record's hash), and the extension names
them by a digest (ClockFact `hold`), none written again for a mark an extension of the
journal names. A mail that went out within the grace a late mail has (reminders.GRACE)
cost him nothing worth a record.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta
from pathlib import Path

from ..base.clock import parse_stamp
from ..game import timeline as g_timeline
from ..game.clockwalk import Due, has_deadlines
from ..render.documents import players_words
from ..table import Table
from .deadlinepost import Post
from .delivery import spool_files
from .firsttold import last_mail
from .fornow import hold_over
from .holdtime import UNASKED as LATE_MAIL
from .holdtime import extended
from .ledger import game_lock, load_ledger, save_ledger
from .leftover import held_by
from .observers import still_held
from .tickgame import Game

# The ledger's part: each side held so, [hand-off, its record's hash].
UNASKED = "unasked"
# Why a side is not yet asked: the mail asking him waits in the spool; none is written yet;
# it waits there still, refused for now to his address for as long as a hold lasts
# (fornow.py: he is held no longer).
OWED, UNWRITTEN, OVER = "owed", "unwritten", "over"


def owed_stems(spool: Path) -> set[str]:
    """The names (less .eml) of the mails owed in a spool the referee sends from."""
    return {p.stem for p in spool_files(spool)}


def unasked_sides(post: Post, dues: list[Due], sending: bool, before: datetime,
                  settings=None) -> dict[str, str]:
    """The sides owing orders not yet asked (OWED or UNWRITTEN), by side: a side with an
    address whose last mail ended before his hand-off (the report asking him is still to
    be written), or whose mail since, written by `before` (a pass that wrote it later may
    send it yet: the grace of a mail slowed on its way), waits in the spool (sending: the
    spool's mails are the referee's to send; an outbox's are out once written). A side a
    mail to whom a server refused for good waits on the moderator (leftover.py): not
    counted here. With the game's settings, one held so whose address the server refuses
    for now, held as long as the hold may last, is OVER instead (fornow.py)."""
    ledger = post.kept()
    if ledger is None:
        return {}
    owed = owed_stems(post.outbox) if sending else set()
    found: dict[str, str] = {}
    for d in dues:
        if post.address(d.side) is None or d.side in held_by(post.refused, ledger):
            continue
        sent = still_held(ledger["sent"].get(d.side), post.records)
        if sent is None or sent < d.handoff:
            found[d.side] = UNWRITTEN
            continue
        written, name = last_mail(ledger, d.side)
        when = parse_stamp(written) if isinstance(written, str) else None
        if name is not None and name.removesuffix(".eml") in owed and \
                when is not None and when <= before:
            over = settings is not None and hold_over(
                ledger, post.address(d.side), d, settings.duration(d.decision), before)
            found[d.side] = OVER if over else OWED
    return found


def keep_unasked(post: Post, d: Due) -> None:
    """The side held for a mail not yet gone out, kept in the ledger (saved) for the pass
    that sends it."""
    ledger = post.kept()
    if ledger is None:
        return
    kept = kept_unasked(ledger)
    mark = [d.handoff, post.records[d.handoff].get("hash")]
    if kept.get(d.side) != mark:
        ledger[UNASKED] = {**kept, d.side: mark}
        save_ledger(ledger)


def forget_unasked(post: Post, side: str) -> None:
    """The side no longer kept as held for a mail not yet gone out (his hold ended:
    fornow.py): none of the time is given back when it goes."""
    ledger = post.kept()
    if ledger is not None and side in kept_unasked(ledger):
        ledger[UNASKED] = {s: m for s, m in kept_unasked(ledger).items() if s != side}
        save_ledger(ledger)


def kept_unasked(ledger: dict) -> dict:
    """The sides held for a mail not yet gone out, each [hand-off, its record's hash]."""
    found = ledger.get(UNASKED)
    return {s: m for s, m in found.items() if isinstance(m, list) and len(m) == 2} \
        if isinstance(found, dict) else {}


def gave_back(x: Game, games_dir, now: datetime, grace: timedelta) -> bool:
    """After a pass of `tick` sent the game's mails: the time given back to each side held
    for a mail that went now (give_back), each logged; whether any was (its news is owed,
    to be mailed in the same pass)."""
    lines = give_back(x.journal, x.spool, now, games_dir, x.sends, grace)
    for line in lines:
        x.log(line)
    return bool(lines) and bool(x.keys)


def give_back(journal: Path, spool: Path, now: datetime, games_dir, sending: bool,
              grace: timedelta) -> list[str]:
    """After a pass's mails went out: each side held for a mail not yet gone out whose mail
    went now, his deadline extended to the game's time for his decision from now (when
    more than grace is missing), once; the ledger forgets him. One log line per
    extension."""
    table = Table.writing(journal, games_dir)
    head = table.records[0]
    lines: list[str] = []
    with game_lock(head["game_id"], head["hash"]):
        ledger = load_ledger(head["game_id"], head["hash"])
        kept = kept_unasked(ledger)
        if not kept:
            return lines
        tl = g_timeline.timeline(table.journal, table.raw, games_dir,
                                 table.records_of(table.raw))
        post = Post(table, table.raw, spool, now, head["game_id"])
        still = unasked_sides(post, tl.dues, sending, now, tl.settings) \
            if has_deadlines(table.raw) else {}
        for side, (handoff, made) in sorted(kept.items()):
            if still.get(side) == OVER:     # held no longer: nothing is given back
                del ledger[UNASKED][side]
                continue
            if side in still:
                continue                    # not gone yet: the next pass looks again
            line = extend_now(table, tl, side, handoff, made, now, grace)
            if line is not None:
                lines.append(line)
            del ledger[UNASKED][side]
        save_ledger(ledger)
    return lines


def extend_now(table: Table, tl, side: str, handoff, made, now: datetime,
            grace: timedelta) -> str | None:
    """The side's deadline extended to the game's time for his decision from now, if it
    still runs from the hand-off he was held at and more than grace of that time is
    missing; the log line."""
    due = tl.due_for(side)
    span = None if due is None else tl.settings.duration(due.decision)
    if tl.paused or due is None or span is None or due.handoff != handoff:
        return None
    short = now + span - due.due
    mark = unasked_mark(side, handoff, made)
    if short <= grace or g_timeline.gave_back(table.raw, mark):
        return None
    text = extended(table, side, short, mark, now, LATE_MAIL)
    if text is None:
        return None
    return (f"deadline: the referee extends {players_words([side])}'s deadline by {text}, the "
            f"game's time for the decision from now: the mail asking his orders went out only "
            f"now")


def unasked_mark(side: str, handoff, made) -> str:
    """The digest an extension names the time given back by (ClockFact `hold`): the side
    and the hand-off he was held at, by number and hash."""
    said = ["unasked", side, str(handoff), str(made)]
    return hashlib.sha256("\n".join(said).encode()).hexdigest()[:16]
