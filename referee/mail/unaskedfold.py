"""A side held for a mail not yet gone out: the time given back before that mail goes, and
the mail written again with it, so that he gets one mail with the deadline that holds.

unasked.py gives a side whose mail asking his orders waited in the spool the game's time
for his decision from the moment it goes out. Given after the pass sent that mail, the
extension's news followed it in the same pass: two mails, the first giving a deadline
already superseded. So, before a pass that will send the game's mails (its server takes a
session now: sending.takes_mail) hands them over, each such side's time is given back
first (unasked.extend_now; not for one whose address the server refused for now at the
last session: fornow.py), and every mail to him still owed from before it (his report,
or a reply to his mail) is taken back: the ledger's record of what he was told goes back to
where the first of them started (ledger `starts`), his pictures with it, and the pass
writes his report again, from there to the journal's end, with the deadline that holds
(tick.py: the reports owed). The extension is recorded first; the mails are taken back
while it stands in the journal after what the ledger says he was told and they are still
owed: a pass killed at any step leaves that so, and the next one finishes it, once.

Should the mails not go after all (the server lost between the session that looked and
the one that sends), the time stays given from this pass; a later pass gives no more.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from ..base.addresses import address_key
from ..base.readers import MODERATOR
from ..game import timeline as g_timeline
from ..game.clockwalk import has_deadlines
from ..table import Table
from .deadlinepost import Post
from .fornow import refused_now
from .ledger import load_ledger
from .observers import still_held
from .sending import takes_mail
from .takeback import owed_by_name, take_back_mails
from .tickgame import Game
from .unasked import OWED, extend_now, kept_unasked, unasked_mark, unasked_sides


def give_back_first(x: Game, games_dir, now: datetime, grace: timedelta) -> None:
    """Before a pass of `tick` sends the game's mails (under the game's lock): the time of
    each side held for a mail not yet gone out given back, when the server takes mail now,
    and his mails owed taken back to be written again (take_back); each logged."""
    if x.direct or not x.sends:
        return
    ledger = load_ledger(x.game_id, x.header_hash)
    kept = kept_unasked(ledger)
    if not kept:                    # the common case: no journal opened for it
        return
    table = Table.writing(x.journal, games_dir)
    head = table.records[0]
    if not has_deadlines(table.raw):
        return
    tl = g_timeline.timeline(table.journal, table.raw, games_dir,
                             table.records_of(table.raw))
    post = Post(table, table.raw, x.spool, now, head["game_id"])
    owed = {s for s, why in unasked_sides(post, tl.dues, True, now, tl.settings).items()
            if why == OWED and s in kept}
    # A side whose address the last session refused for now waits on that: his time is
    # given once his mail went (unasked.give_back), as before.
    refused = refused_now(ledger)
    due = [s for s in sorted(owed) if not g_timeline.gave_back(
        table.raw, unasked_mark(s, *kept[s])) and
        address_key(post.address(s) or "") not in refused]
    if due and takes_mail(x.spool, x.target):
        for side in due:
            line = extend_now(table, tl, side, *kept[side], now, grace)
            if line is not None:
                x.log(line)
    for line in take_back(x, games_dir, kept):
        x.log(line)


def take_back(x: Game, games_dir, kept: dict) -> list[str]:
    """The mails owed to each side held whose time was given back after what the ledger
    says he was told: the ledger set back to where the first of them started, then the
    mails removed from the spool (the pass writes his report again); a line each side."""
    table = Table(x.journal, games_dir)
    head = table.records[0]
    ledger = load_ledger(head["game_id"], head["hash"])
    given = _given_at(table, kept)
    owed = owed_by_name(x.spool)
    due = [side for side, seq in sorted(given.items())
           if (told := still_held(ledger["sent"].get(side), table.records)) is None or
           told < seq]
    return [f"deadline: {side}'s {n} mail(s) owed from before his deadline was extended "
            f"taken back: his report is written again with it"
            for side, n in take_back_mails(x.spool, ledger, owed, due).items()]


def _given_at(table: Table, kept: dict) -> dict[str, int]:
    """The record each side held had his time given back at (his extension naming the
    hold), by side."""
    marks = {unasked_mark(s, *m): s for s, m in kept.items()}
    found: dict[str, int] = {}
    for rec in table.records:
        clock = rec.get("clock")
        if rec.get("actor") == MODERATOR and isinstance(clock, dict) and \
                clock.get("hold") in marks and clock.get("side") == marks[clock["hold"]]:
            found[marks[clock["hold"]]] = rec["seq"]
    return found
