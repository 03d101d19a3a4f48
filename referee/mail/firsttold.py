"""The reminders a side may be sent: none due by the time he was told of his deadline.

A deadline runs from the hand-off (game/clockwalk.py Due.since), and no reminder is due at
it or before it. But a side learns of the decision from the report that asks it, and that
report may go out later than the hand-off: `tick` started a day after `new`, or the pass
after the moderator's order at his command line. A reminder whose time came by then would
go out in the same pass as that report ("here is your decision", "24 hours left"), or in
the pass after it. It is not sent: the report gives the deadline. So too for the report
that first gives a deadline the moderator set, extended or resumed since the hand-off.

Whether the side was told is the ledger's: the record his last mail ended at (`sent`). A
side with an address whose last mail ended before the hand-off, or before a later record
setting the deadlines, extending or resuming, is told by the report `tick` sends after
the deadlines are checked (tick.py), so in this pass; the ledger keeps that moment
(`asked`: the side's hand-off, its record's hash and the time), for the passes after it.
A side told by a mail made at the hand-off (the answer to his own orders) was told then,
as the deadline's start says.

A side answering his decision step by step (a card, then his moves) is sent a report
answering each mail of his, each giving his deadline; the deadline runs on from the same
hand-off. A reminder whose time came by the time the last of them was written (the ledger
keeps when: `mailed`, ledger.note_start) would repeat it, in the same pass or a later one:
it counts as sent (told_by_mail; reminders are recorded as sent, no mail made). A reminder
whose time comes after it is sent at its time: he may have left the game since. So too
for the report or news a pass mails him after the deadlines are checked, for whatever moved
the game since his last mail (an order the moderator entered for the other side, another
side's deadline extended, the referee's answer for a silent side: the check makes the
answers before it decides the reminders): it asks the same decision, lists the orders open
to him and gives the same deadline (told_this_pass).

A mail a server refused for good (it waits in the outbox's refused/ until the moderator
acts: leftover.py) told him nothing. It holds back no reminder: a side that mail was to
tell is reminded as though it had never been written, and no report goes to him meanwhile
(inbox.py), so none tells him in this pass either. A reminder already recorded as sent
without a mail for it (the ledger keeps which: `spared`, with the mail's name; the report
this pass writes is named once written: ledger.note_start) has its mail written by the next
pass that finds that mail refused, once.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from ..base.addresses import address_key
from ..base.clock import for_players, parse_stamp, stamp
from ..base.readers import PUBLIC
from ..game.clockwalk import Due, clock_of
from ..game.timeline import Timeline
from ..store.players import OBSERVER
from .deadlinepost import Post, address_of
from .ledger import MAILED, SPARED, save_ledger
from .leftover import held_by
from .newsmail import owed
from .observers import resume_from, still_held
from .refusal import FULL_MOST
from .subjects import OBSERVER_READERS

# The ledger's part: each side's hand-off (its record and hash) and when he was last told.
ASKED = "asked"
# The facts about time after a hand-off that a side's next report tells him anew.
TOLD_ANEW = ("settings", "extend", "resume")
# The reminders the ledger keeps as spared (ledger.SPARED; the oldest are long past their
# deadlines).
MOST_SPARED = 64


def reminders_passed(post: Post, ledger: dict | None, d: Due, now: datetime,
                     reminders: list[timedelta]) -> list[timedelta]:
    """The reminders of a side's deadline whose time has come by now, less those due by the
    time he was told of his deadline (ledger: the game's, when the pass sends each side the
    report he is owed after this check, as `tick` does; None: the deadline's start is that
    time)."""
    passed = [r for r in reminders if now >= d.due - r]
    if not passed or ledger is None or post.address(d.side) is None:
        return passed
    told = _told_at(post, ledger, d, now)
    return [r for r in passed if d.due - r > told]


def _told_at(post: Post, ledger: dict, d: Due, now: datetime) -> datetime:
    """When the side was told of his deadline as it now runs: now if his last mail ended
    before its hand-off or a later record that changed it (the report this pass sends tells
    him; kept in the ledger), else the time the ledger kept, else the deadline's start."""
    handoff = [d.handoff, post.records[d.handoff].get("hash")]
    sent = still_held(ledger["sent"].get(d.side), post.records)
    asked = ledger.get(ASKED) if isinstance(ledger.get(ASKED), dict) else {}
    if sent is None or sent < _last_change(post.records, d):
        if d.side in held_by(post.refused, ledger):
            # A mail to him waits refused for good: no report goes to him in this pass, and
            # none that reached him gave this deadline.
            return d.since
        ledger[ASKED] = {**asked, d.side: [*handoff, stamp(now)]}
        save_ledger(ledger)
        return now
    kept = asked.get(d.side)
    # A time after now was never when he was told (a trial run ahead on the game's own
    # ledger, a clock set back since): it holds back no reminder.
    if isinstance(kept, list) and len(kept) == 3 and kept[:2] == handoff and \
            isinstance(kept[2], str) and (told := parse_stamp(kept[2])) is not None and \
            told <= now:
        return max(told, d.since)
    return d.since


def _last_change(records: list[dict], d: Due) -> int:
    """The last record that set the deadline a side's report gives: its hand-off, or a
    later one setting the deadlines, extending one or resuming the game."""
    return max([d.handoff] + [r["seq"] for r in records[d.handoff + 1:]
                              if (clock_of(r) or {}).get("kind") in TOLD_ANEW])


def told_by_mail(post: Post, ledger: dict, d: Due, now: datetime) -> datetime | None:
    """When the side's last report or reply was written, each giving his deadline (the
    ledger's `mailed`), if it was since his deadline's start and by now (a time after now
    was never when he was told: a trial run ahead, a clock set back) and no server refused
    it for good; else None."""
    kept, name = last_mail(ledger, d.side)
    told = parse_stamp(kept) if isinstance(kept, str) else None
    if name is not None and name in post.refused:
        return None
    return told if told is not None and d.since <= told <= now else None


def last_mail(ledger: dict, side: str) -> tuple[str | None, str | None]:
    """When the side's last report or reply was written, and its name, as the ledger keeps
    them (`mailed`: a ledger of before the name was kept holds the time alone)."""
    mailed = ledger.get(MAILED)
    kept = mailed.get(side) if isinstance(mailed, dict) else None
    if isinstance(kept, list) and len(kept) == 2 and all(isinstance(k, str) for k in kept):
        return kept[0], kept[1]
    return (kept, None) if isinstance(kept, str) else (None, None)


def _spared(ledger: dict) -> list[list]:
    """The reminders kept as spared, each [side, hand-off, before, due, mail's name or
    None]; an entry of any other shape is passed over."""
    found = ledger.get(SPARED)
    return [e for e in found if isinstance(e, list) and len(e) == 5 and
            type(e[1]) is int and all(isinstance(x, str) for x in (e[0], e[2], e[3])) and
            (e[4] is None or isinstance(e[4], str))] if isinstance(found, list) else []


def spared_by(post: Post, ledger: dict, d: Due, now: datetime, first: timedelta
              ) -> tuple[str, str | None] | None:
    """Why the reminder whose time is d.due - first is recorded as sent without a mail, and
    the name of the mail that gives the deadline in its place (None: the report this pass
    writes after the check); None when it is mailed."""
    if told_this_pass(post, ledger, d.side):
        return "the report this pass mails him gives the deadline", None
    told = told_by_mail(post, ledger, d, now)
    if told is not None and d.due - first <= told:
        return (f"the referee's mail to him of {for_players(told, d.zone)} gave the "
                f"deadline",
                last_mail(ledger, d.side)[1])
    return None


def told_this_pass(post: Post, ledger: dict, side: str) -> bool:
    """Whether the pass mails the side a report or the news after this check (tick: the
    records since his last mail owe him one, whatever moved the game, and no mail to him
    waits refused): it asks his decision, lists the orders open to him and gives his
    deadline, as a reminder does."""
    if post.address(side) is None or side in held_by(post.refused, ledger):
        return False
    since = resume_from(ledger["sent"].get(side), post.records)
    return owed(post.records, since, side) is not None


def reported_this_pass(post: Post, tl: Timeline, reader: str, first: int, upto: int
                       ) -> bool:
    """Whether a mail of this pass's tells reader a run of the referee's answers ending at
    record upto, each with the order and why it is this one: the report (or news) the pass
    sends after the check (told_this_pass; an observer's public one goes out with the
    players' reports, when the pass sends any), or the one a mail of his took past the run
    since (a run cut off before its notices, a reply written before they were). So too
    while the referee goes on answering his decision: his report's deadline line says so,
    as the notice would (reminders._due_line). Not when the run (from record first) began
    FULL_MOST records or more before the journal's end: a report mail tells those in brief,
    without the answers (no record is added after the check in its pass, and a later
    pass's report is longer still)."""
    ledger = post.kept()
    if ledger is None or post.records[-1]["seq"] - first >= FULL_MOST:
        return False
    if not reader.startswith(OBSERVER_READERS):
        since = resume_from(ledger["sent"].get(reader), post.records)
        return since >= upto or told_this_pass(post, ledger, reader)
    address = address_of(post, reader)
    if address is None:
        return False
    since = resume_from(ledger["sent"].get(f"{OBSERVER}:{address_key(address)}"), post.records)
    return since >= upto or (owed(post.records, since, PUBLIC) is not None and
                             any(told_this_pass(post, ledger, s) for s in tl.data.sides))


def keep_spared(ledger: dict, d: Due, before: str, name: str | None) -> None:
    """A reminder recorded as sent without a mail kept with the mail that gave the deadline
    in its place (name; None: the report this pass writes after the check, which takes the
    name of the side's first mail written since: ledger.note_start), in place of an entry
    it had before, the ledger saved, should a server refuse that mail."""
    key = [d.side, d.handoff, before, stamp(d.due)]
    ledger[SPARED] = [*(e for e in _spared(ledger) if e[:4] != key), [*key, name]
                      ][-MOST_SPARED:]
    save_ledger(ledger)


def spared_for_refused(post: Post, ledger: dict, d: Due, before: str) -> bool:
    """Whether the reminder, recorded as sent without a mail, was spared for a mail a server
    has since refused for good (its mail is then owed; an entry whose report is not yet
    written, for the side's last mail)."""
    refused, last = post.refused, last_mail(ledger, d.side)[1]
    return any(e[:4] == [d.side, d.handoff, before, stamp(d.due)] and
               (last if e[4] is None else e[4]) in refused for e in _spared(ledger))


def drop_spared(ledger: dict, d: Due, before: str) -> None:
    """The reminder's mail written: it is no longer kept as spared (the ledger saved)."""
    ledger[SPARED] = [e for e in _spared(ledger)
                      if e[:4] != [d.side, d.handoff, before, stamp(d.due)]]
    save_ledger(ledger)
