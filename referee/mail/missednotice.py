"""The mails of a deadline that passed with nobody answering for the side: the policy wait
(or a default the rules give no answer for), the moderator told; the policy pause, everyone.

A sealed plan both sides make at once (production, reinforcements, discards: 2.0 I, 2.0
V.3, 7.0) is one decision, asked of both by one record: when both let its deadline pass, one
pass finds both, and each reader gets one mail for the two, not one for each side. A side's
own says first that his orders are missing, then that the other side's are too (never what
they hold), what he sends now and what the moderator may do; the moderator's and an
observer's name both sides. Each side's missed deadline is a record of its own under wait
(each is ruled once); under pause the first record pauses the game, as before.
"""

from __future__ import annotations

from ..base.clock import for_players, stamp
from ..base.plurals import upper_first
from ..base.readers import MODERATOR
from ..engine import pending_prompt
from ..game.clockwalk import Due
from ..game.decisionwords import decision_words, owed_words
from ..game.extendfromnow import FROM_NOW
from ..game.timeline import MISSED, Timeline, fact_body
from ..render.documents import players_words
from .askagain import asking_body, file_stamp, late_mail, late_tail, more_time, season, whose
from .deadlinepost import Post, address_of, everyone
from .firsttold import reported_this_pass
from .refusal import prose
from .waitover import still_theirs

# Why the game waits under the policy default when no answer is open (reminders.fate_of).
NO_ANSWER = "no order the referee may give for the side is open here"


def missed_facts(tl: Timeline, late: list[Due], policy: str, post: Post, log: list[str],
                 why: str = NO_ANSWER, reporting: bool = False) -> list[dict]:
    """The sides of one decision whose deadlines a pass rules missed with nobody answering
    (late: their Dues, one hand-off), each reader's one mail of them, and the records: under
    wait, one a side (the moderator told; `why` the game waits under the policy default);
    under pause, the one that pauses the game (everyone told). reporting: the reports owed
    follow (tick); a player or observer the pass sends one reads it there, in the record's
    lines and his deadline's (a late side: the orders open to him), and no mail goes
    beside it (the referee's answer for a side before the one he cannot give: the game
    then waits, and that answer owes everyone a report)."""
    d = late[0]
    if policy != "wait":
        _tell_each(tl, late, post, "paused", lambda reader: _paused_mail(tl, late, reader,
                                                                         post.journal),
                   _unreported(tl, post, everyone(tl, post), reporting))
        log.append(f"missed: {players_words([d.side])}'s orders were due by "
                   f"{for_players(d.due, d.zone)}; the "
                   f"game is paused")
        return [_fact(d, policy)]
    reason = "" if tl.settings.missed == "wait" else (
        f" The game's policy is default, but {why}, so the game waits.")
    theirs = still_theirs(tl, late)     # the players' own extensions, and his mail after one
    body = prose(f"The game waits on you: {late_words(tl, MODERATOR, late)} and none came "
                 f"(the decision: {decision_of(tl, late)}).{reason}") + \
        (f"\n\n{prose(theirs)}" if theirs else "") + \
        "\n\n" + _waiting_choices(post.journal, [e.side for e in late])
    told = _tell_each(tl, late, post, "missed", lambda reader: body if reader == MODERATOR
                      else _waiting_mail(tl, late, reader, post),
                      _unreported(tl, post, [MODERATOR, *everyone(tl, post, moderator=False)],
                                  reporting), late_tail(post))
    for e in late:
        log.append(f"missed: {players_words([e.side])}'s orders were due by "
                   f"{for_players(e.due, e.zone)}; "
                   f"waiting" + (" (the moderator is told)" if told[MODERATOR] else
                                 " (no moderator address to tell: `referee players --set "
                                 "moderator=...`)"))
    return [_fact(e, policy) for e in late]


def waiting_words(tl: Timeline, late: list[Due], name: str) -> str:
    """The line `tick` gives while the game waits on the moderator for the late sides'
    missed orders (every side it waits on), with what he may do (name: the journal as the
    line may show it)."""
    one = len(late) == 1
    orders = ", ".join(f"`referee order {name} --as {d.side} ...`" for d in late)
    extend = ", ".join(f"`referee extend {name} {d.side} 24h {FROM_NOW}`" for d in late)
    return (f"the game waits on the moderator: {late_words(tl, MODERATOR, late)} and none "
            f"came (the decision: {decision_of(tl, late)}); give them ({orders}), extend the "
            f"deadline{'' if one else 's'} ({extend}) or pause the game (`referee deadline "
            f"{name} --pause`)")


def _unreported(tl: Timeline, post: Post, readers: list[str], reporting: bool) -> list[str]:
    """The readers a missed deadline's own mail goes to: the moderator, sent no report, and
    each other reader unless the pass sends him a report after the check (reporting), which
    tells the record it is about (written now, after every record of the journal)."""
    after = post.records[-1]["seq"] + 1
    return [r for r in readers if r == MODERATOR or not reporting or
            not reported_this_pass(post, tl, r, after, after)]


def _fact(d: Due, policy: str) -> dict:
    """The record of one side's missed deadline, the moderator's."""
    return fact_body(MODERATOR, MISSED, {"kind": "missed", "side": d.side,
                                         "handoff": d.handoff, "due": stamp(d.due),
                                         "missed": policy})


def late_words(tl: Timeline, reader: str, late: list[Due], opening: bool = False) -> str:
    """Whose orders were due by when, as reader takes it: 'your orders were due by …' (one
    side), 'your orders and the German player's were due by …' (his and another's), 'the
    German and Entente players' orders were due by …' (to anyone else); each deadline named
    where they differ (one side's extended). The reader's own first."""
    late = sorted(late, key=lambda e: e.side != reader)
    first, others = late[0], late[1:]
    when = {for_players(e.due, e.zone) for e in late}
    if len(when) > 1:
        words = f"{whose(tl, reader, first.side)} orders were due by " \
                f"{for_players(first.due, first.zone)}" + "".join(
                    f" and {whose(tl, reader, e.side)} by {for_players(e.due, e.zone)}"
                    for e in others)
    elif not others:
        words = f"{whose(tl, reader, first.side)} orders were due by {when.pop()}"
    elif first.side == reader:
        words = f"your orders and {_possessive([e.side for e in others])} were due by " \
                f"{when.pop()}"
    else:
        words = f"{_possessive([e.side for e in late])} orders were due by {when.pop()}"
    return upper_first(words) if opening else words


def _possessive(sides: list[str]) -> str:
    """'the German player's', 'the German and Entente players''."""
    named = players_words(sides)
    return named + ("'s" if len(sides) == 1 else "'")


def decision_of(tl: Timeline, late: list[Due]) -> str:
    """The decision the late sides owe, as the engine asks it (a sealed plan's prompt names
    both sides' part: the Build Points of each), else its kind's words."""
    pending = tl.state.pending
    asked = next((e for e in late if pending is not None and pending.side == e.side), late[0])
    return owed_words(tl.state, tl.data, asked.side, asked.decision)


def _tell_each(tl: Timeline, late: list[Due], post: Post, what: str, body_of,
               readers: list[str], tail: str = "") -> dict[str, bool]:
    """Each reader's mail of the late sides' missed deadline (what: missed, paused), in
    turn, each written once under the name that makes it that mail; the moderator's wrapped
    by its maker (a command to copy is never split); tail after a late side's own key.
    Whether each was written now."""
    d, sides = late[0], [e.side for e in late]
    return {reader: post.write(f"deadline-{d.handoff:06d}-{'-'.join(sides)}-{what}-"
                               f"{file_stamp(d.due)}-{reader}.eml", address_of(post, reader),
                               post.subject(reader, season(tl)), body_of(reader), reader,
                               wrapped=reader == MODERATOR, seq=tl.seq,
                               tail=tail if reader in sides else "")
            for reader in readers}


def _waiting_mail(tl: Timeline, late: list[Due], reader: str, post: Post) -> str:
    """A missed deadline under wait as a player or an observer takes it: the game waits for
    the sides' orders, the moderator told; a late side's player is asked for his again in a
    mail he can answer from (askagain.late_mail)."""
    own = next((e for e in late if e.side == reader), None)
    if len(late) == 1 and own is not None:
        return late_mail(tl, own, post, for_players(own.due, own.zone))
    if own is not None:
        lead = (f"{late_words(tl, reader, late, True)} and none came: the game waits for "
                f"them. Send yours now: {_own_words(tl, own)}.")
        return asking_body(tl, own, post, lead, more_time(tl, reader, own),
                           "The moderator is told; he may extend the deadline or give an "
                           "order for you.")
    may = "the deadline or give an order for that side" if len(late) == 1 else \
        "the deadlines or give orders for those sides"
    return (f"{late_words(tl, reader, late, True)} and none came: the game waits for them. "
            f"The moderator is told; he may extend {may}.\n")


def _own_words(tl: Timeline, d: Due) -> str:
    """What a late side is asked, in his own words where the decision at hand has them (his
    part of a sealed plan, his Build Points first), else its kind's words."""
    pending = tl.state.pending
    if pending is not None and pending.kind == d.decision:
        return pending_prompt(tl.state, tl.data, d.side)
    return decision_words(d.decision)


def _paused_mail(tl: Timeline, late: list[Due], reader: str, journal: str) -> str:
    """A pause at the late sides' missed deadline as reader takes it: the moderator, the
    only one who can resume the game, is given the command, alone on its line to be copied
    whole."""
    paused = (f"The game is paused: {late_words(tl, reader, late)} and none came, and under "
              f"the game's rule for a missed deadline no orders are taken until ")
    if reader != MODERATOR:
        return paused + "the moderator resumes it.\n"
    return prose(paused + "you resume it:") + f"\n\n  referee deadline {journal} --resume\n"


def _waiting_choices(journal: str, sides: list[str]) -> str:
    """What the moderator may do for a game waiting on the sides' missed orders: each
    command alone on an indented line, to be copied whole (wrapped with the prose, a command
    was cut in two at a space, its journal's path on one line and the rest on the next)."""
    one = len(sides) == 1
    orders = "".join(f"  referee order {journal} --as {side} ...\n" for side in sides)
    extend = "".join(f"  referee extend {journal} {side} 24h {FROM_NOW}\n" for side in sides)
    return (prose("Nothing moves until they come. You may give them yourself, as the " +
                  ("player sends" if one else "players send") +
                  " them to you some other way:") +
            f"\n\n{orders}\n" + ("Or extend the deadline:" if one else
                                 "Or extend the deadlines:") + f"\n\n{extend}\n"
            "Or pause the game:\n\n"
            f"  referee deadline {journal} --pause\n")
