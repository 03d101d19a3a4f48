"""The mails of the deadline pass that ask a side for his orders without a report: the
reminder before his deadline, and the mail that tells him it passed while the game waits
for them. Each lets him answer from the mail itself, as a phone reader does: what he is
asked, the orders open to him, the extensions he may still ask for, where his last map is,
and his order key (deadlinepost.Post.write ends every mail to a side with it); the late
one, as his report does, the receipt after it.

A reminder is sent once, and never beside a mail that gave the side his deadline
(firsttold.py): one whose time came by the time such a mail was written counts as sent, its
record written as any reminder's, no mail made.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from ..base.clock import duration_text, for_players, left_label, span_words, stamp
from ..base.plurals import counted, upper_first
from ..base.readers import MODERATOR
from ..engine import pending_prompt
from ..game.clockwalk import Due
from ..game.decisionwords import owed_words
from ..game.defaults import default_answer
from ..game.timeline import REMINDED, Timeline, fact_body
from ..render.documents import players_words
from ..render.reports import receipt_text
from .deadlinepost import Post
from .firsttold import (
    drop_spared,
    keep_spared,
    reminders_passed,
    spared_by,
    spared_for_refused,
)
from .ordersopen import orders_open_text

# A missed deadline's extension runs from it: 24h after it, it gives no time.
DAY = timedelta(hours=24)
POLICY_WORDS = {
    "wait": "the moderator is told, and the game waits",
    "pause": "the game is paused until the moderator resumes it",
}


def more_time(tl: Timeline, side: str, passed: Due | None = None) -> str:
    """What a side owing orders reads of the extensions it may still ask for by mail (none in
    a game that allows none); after its deadline `passed`, until when 24h gives him."""
    allowed = tl.settings.extensions
    if not allowed:
        return ""
    if allowed - tl.used.get(side, 0) <= 0:
        return (f" You have asked for the {counted(allowed, 'extension')} this game allows; "
                f"only the moderator can give more time now.")
    until = "" if passed is None else ", read by the referee before " + for_players(
        passed.due + DAY, passed.zone) + ": it counts from the deadline that passed"
    return f" More time: a line 'extend 24h' alone in a mail ({extensions_left(tl, side)})" \
           f"{until}."


def going_on(tl: Timeline, d: Due) -> str:
    """What a side reads of his deadline once it passed and the referee answered part of his
    decision, the rest still owed (the run cut at the answers a pass makes): the referee
    goes on answering at the next pass, which reads his mail first (tick.py), so the orders
    he may still send; the extensions he may still ask for."""
    return (f"Your orders were due by {for_players(d.due, d.zone)} and none came: the "
            f"decision asks more of you, and the referee goes on answering for you in the "
            f"same way at the next pass. Send your orders for it to have them applied "
            f"instead: he reads the mail before he answers.{more_time(tl, d.side, d)}")


def extensions_left(tl: Timeline, side: str) -> str:
    """The extensions a side may still ask for by mail: '1 extension left of the 2 this
    game allows'."""
    allowed = tl.settings.extensions
    left = max(allowed - tl.used.get(side, 0), 0)
    return f"{counted(left, 'extension') if left else 'no extension'} left of the {allowed} " \
           f"this game allows"


def remind(tl: Timeline, d: Due, now: datetime, post: Post, log: list[str],
           reporting: bool) -> list[dict]:
    """The reminder due now for a side owing orders (the latest reminder time passed), once;
    none at or before the hand-off or extension its deadline runs from (Due.reminders), or
    the report that first asked him the decision (reporting: firsttold.py). One whose time
    came by the time a mail of the referee's gave him this deadline (his report in this
    pass, answering his orders step by step) counts as sent: its record, no mail; its mail
    is written once a server refused that one for good (firsttold.py)."""
    reminders = d.reminders(tl.settings)
    if not any(now >= d.due - r for r in reminders):
        return []
    # The game's ledger, read once for all a reminder asks of it (under the game's mail
    # lock, each change saved as made): when the side was told of his deadline, by which
    # mail, whether a report goes to him in this pass, and where the mail goes.
    ledger = post.kept() if reporting else None
    passed = reminders_passed(post, ledger, d, now, reminders)
    if not passed:
        return []
    before = duration_text(min(passed))
    recorded = (d.side, d.handoff, before, stamp(d.due)) in tl.reminded
    if recorded and not (ledger is not None and spared_for_refused(post, ledger, d, before)):
        return []
    due, who = for_players(d.due, d.zone), players_words([d.side])
    told = left_label(min(passed), d.due, now)      # late: the time left, not the set one
    fact = fact_body(MODERATOR, REMINDED, {"kind": "reminded", "side": d.side,
                                           "handoff": d.handoff, "before": before,
                                           "due": stamp(d.due)})
    spared = spared_by(post, ledger, d, now, min(passed)) if ledger is not None else None
    if spared is not None:
        log.append(f"reminder: {who}, orders due by {due} ({told} before): not sent, "
                   f"{spared[0]}")
        keep_spared(ledger, d, before, spared[1])
        return [] if recorded else [fact]
    post.write(reminder_name(d, before), post.address(d.side),
               post.subject(d.side, season(tl)), reminder_body(tl, d, now, post), d.side,
               seq=tl.seq, ledger=ledger,
               tail=late_tail(post))       # his receipt, as every mail of his ends
    if recorded:            # its mail, once the mail that gave the deadline was refused
        drop_spared(ledger, d, before)
        log.append(f"reminder: {who}, orders due by {due} ({told} before): the mail "
                   f"that gave the deadline was refused for good")
        return []
    log.append(f"reminder: {who}, orders due by {due} ({told} before)")
    return [fact]


def reminder_name(d: Due, before: str) -> str:
    """The file name of the reminder `before` the side's deadline (written once under it)."""
    return f"deadline-{d.handoff:06d}-{d.side}-remind-{before}-{file_stamp(d.due)}.eml"


def reminder_body(tl: Timeline, d: Due, now: datetime, post: Post) -> str:
    """A reminder's text at now: the time left then, the decision, and what lets him
    answer from the mail."""
    # The time first, and once: a phone's list of mails shows the first line alone.
    lead = (f"A reminder: your orders are due by {for_players(d.due, d.zone)}, "
            f"{span_words(d.due - now)}: {pending_prompt(tl.state, tl.data, d.side)}.")
    return asking_body(tl, d, post, lead, more_time(tl, d.side),
                       f"If none come by then, {_policy_words(tl, d.side)}.")


def late_mail(tl: Timeline, d: Due, post: Post, due: str) -> str:
    """The mail to the side whose deadline passed while the game waits for him: that it
    did, then what a reminder gives him to answer from the mail itself (the decision, the
    orders open, the extensions, his last map; his key ends it, then late_tail)."""
    lead = (f"Your orders were due by {due} and none came: the game waits for them. Send "
            f"them now: {owed_words(tl.state, tl.data, d.side, d.decision)}.")
    return asking_body(tl, d, post, lead, more_time(tl, d.side, d),
                       "The moderator is told; he may extend the deadline or give an order "
                       "for you.")


def late_tail(post: Post) -> str:
    """What ends a reminder or the late side's mail after his key, as his report ends: the
    receipt of the journal's last record before the reminder's or the missed deadline's
    own, which is written after this mail and moves nothing."""
    return receipt_text(post.records[0], post.records[-1]) + "\n"


def asking_body(tl: Timeline, d: Due, post: Post, lead: str, more: str, then: str) -> str:
    """A mail asking side for his orders without a report: its first line (a phone's list
    of mails shows it alone), what follows his decision, the orders open to him and the
    link of his dice sheet due (ordersopen.py), more time, what follows, and where his last
    map is."""
    orders = orders_open_text(tl.state, tl.data, d.side, post.sheets.get(d.side),
                              post.standing)
    where = post.map_line(d.side)
    more = more.strip()
    return (f"{lead}\n\n" + (f"{orders}\n\n" if orders else "") +
            (f"{more}\n\n" if more else "") + f"{then}\n" +
            (f"\n{where}\n" if where else ""))


def season(tl: Timeline) -> str:
    """The season a timeline stands in, as its mails' subjects name it (subjects.py)."""
    return tl.data.label(tl.state.turn)


def _policy_words(tl: Timeline, side: str) -> str:
    """What the game's policy does if side's orders do not come in time, in his own words:
    under default, the answer the referee will give for the decision at hand (his own units
    and cards may be named: the reminder goes to him alone)."""
    if tl.settings.missed != "default":
        return POLICY_WORDS[tl.settings.missed]
    answer = default_answer(tl.state, tl.data, side)
    if answer is None:
        return (f"{POLICY_WORDS['wait']} (no order the referee may give for you is open "
                f"here)")
    return f"the referee answers for you with {answer.words()}"


def whose(tl: Timeline, reader: str, side: str, opening: bool = False) -> str:
    """Whose orders a mail about side's deadline names to reader: 'your' to the side's own
    player, 'the German player's' to anyone else (a side named in words, never by the bare
    'German's' that read, to the German himself, as a stranger's); opening: a sentence's
    first words ('Your', 'The German player's')."""
    words = "your" if reader == side else f"{tl.data.player_words(side)}'s"
    return upper_first(words) if opening else words


def file_stamp(moment: datetime) -> str:
    """A deadline as part of a mail's file name."""
    return stamp(moment).replace(":", "").replace("-", "")
