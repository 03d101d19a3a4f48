"""A side's address the mail server refuses for now, pass after pass: how long his deadline
is held for it.

A side whose mail asking his decision has not gone out is not ruled missed (unasked.py).
Held so for a server down for everyone, the hold lasts as long as the outage: nobody can
make one. But a server that answers 4xx to one address only (a full mailbox: sending.py
tells the two apart, a session that reached the server and had each mail answered from one
that failed as a whole) may do so for weeks, and the player whose mailbox it is holds his
own deadline meanwhile, mailing orders when he likes and given the whole time again once
the mail goes. So that hold is bounded: it lasts at most the game's time for the decision
past his deadline (HOLD_SPAN: as much again as he was given; a mailbox emptied in that
time costs him nothing, the time is given back as ever). When the last session that
reached the server still refused his address for now at the end of it, his deadline is
ruled as the game's rule for a missed deadline says, no time is given back when the mail
goes at last, and the moderator is told once, in his mail and the pass's line, what
happened and what he may do (as for a mail refused for good: leftover.py).

The ledger keeps the addresses the last session that reached the server refused for now
(`for_now`: each with when it was first refused so, without a pass between that reached
the server and took his mail); a session that failed as a whole, or a route that is no
server (sendmail, an outbox), forgets them: the hold is then the outage's, as ever.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from ..base.addresses import address_key
from ..base.clock import for_players, parse_stamp, stamp
from ..base.errors import StorageError
from ..base.plurals import upper_first
from ..base.readers import MODERATOR
from ..game.clockwalk import Due
from ..render.documents import players_words
from .askagain import file_stamp, season
from .deadlinepost import Post, address_of
from .delivery import TransportError
from .ledger import game_lock, load_ledger, save_ledger
from .refusal import prose

# The ledger's part: each address refused for now by the last session that reached the
# server, with when it was first refused so.
FOR_NOW = "for_now"


def refused_now(ledger: dict) -> dict[str, str]:
    """The addresses the last session that reached the server refused for now, each with
    when it was first refused so (anything else in the ledger's part is none)."""
    found = ledger.get(FOR_NOW)
    return {a: t for a, t in found.items() if isinstance(a, str) and isinstance(t, str)} \
        if isinstance(found, dict) else {}


def noted(x, error: Exception | None, now: datetime) -> None:
    """After a pass sent the game's spool (tick's Game x; error: what the sending raised,
    None when every mail went): the addresses its server refused for now kept in the
    ledger, with when each was first refused so; a session that failed as a whole, or none
    at all, forgets them (the server down for everyone); a spool that could not be used
    changes nothing."""
    if error is not None and not isinstance(error, TransportError):
        return
    held = getattr(error, "held_for_now", None) if error is not None else None
    try:
        with game_lock(x.game_id, x.header_hash):
            ledger = load_ledger(x.game_id, x.header_hash)
            kept = refused_now(ledger)
            after = {a: kept.get(a, stamp(now)) for a in held or ()}
            if after != ledger.get(FOR_NOW, {}):
                ledger[FOR_NOW] = after
                save_ledger(ledger)
    except StorageError:
        return                  # the next pass that can keep it keeps it


def hold_ends(due: Due, span: timedelta | None) -> datetime | None:
    """The latest a side refused for now may be held for the mail asking his decision: the
    game's time for it past his deadline (None: no deadline)."""
    return None if span is None else due.due + span


def hold_over(ledger: dict, address: str | None, due: Due, span: timedelta | None,
              before: datetime) -> bool:
    """Whether a side whose mail asking his decision is still owed is held no longer: the
    last session that reached the server refused his address for now, and the bound of
    his hold (hold_ends) is reached by before."""
    if address is None or address_key(address) not in refused_now(ledger):
        return False
    end = hold_ends(due, span)
    return end is not None and before >= end


def tell_hold_over(tl, d: Due, post: Post, log: list[str]) -> None:
    """A side whose hold ended (hold_over) as his deadline is ruled: the moderator told
    once, in his mail and the pass's line, what happened and what he may do."""
    span = tl.settings.duration(d.decision)
    end, due = hold_ends(d, span), for_players(d.due, d.zone)
    since = refused_now(post.kept() or {}).get(address_key(post.address(d.side) or ""))
    first = parse_stamp(since) if since is not None else None
    who = players_words([d.side])
    said = f" since {for_players(first, d.zone)}" if first is not None else ""
    body = prose(
        f"{upper_first(who)}'s orders were due by {due}, but the mail asking them "
        f"never reached him: the mail server refuses it for now (a 4xx answer, as a full "
        f"mailbox gives) at every pass{said}. His deadline was held for it as long as the "
        f"game gives for the decision past it, until {for_players(end, d.zone)}, and is now "
        f"ruled as the game's rule for a missed deadline says ({tl.settings.missed}). His "
        f"mails stay owed and go out in their order once his server takes them; no time is "
        f"given back then. Reach him some other way (his mailbox may be full); should his "
        f"address be wrong, mend it:") + \
        f"\n\n  referee players {post.journal} --set {d.side}=ADDRESS\n"
    to = address_of(post, MODERATOR)
    written = post.write(f"deadline-{d.handoff:06d}-{d.side}-unreached-{file_stamp(d.due)}-"
                         f"{MODERATOR}.eml", to, post.subject(MODERATOR, season(tl)), body,
                         MODERATOR, wrapped=True, seq=tl.seq)
    line = (f"deadline: {who}'s orders were due by {due}; the mail asking them is refused "
            f"for now by the server at every pass{said}: held no longer than until "
            f"{for_players(end, d.zone)}, now ruled as the game's rule for a missed deadline "
            f"says (" + ("the moderator is told" if to is not None else
                         "no moderator address to tell: `referee players --set "
                         "moderator=...`") + ")")
    if (written or to is None) and line not in log:
        log.append(line)
