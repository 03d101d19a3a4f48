"""The moderator told, once, that a wait on him he was mailed of is over because the player
himself ended it: at a deadline missed under the policy wait (missednotice.py) the side may
still ask for more time by mail, or send his orders; either ends the wait, and the
moderator, who was told that nothing moves until he acts, is told that it no longer waits
on him, so that he does not add an extension of his own to the player's. His own acts (his
extension, the orders he enters by hand, the game he resumes) end it without a mail: he
knows what he did. The ledger keeps the missed deadline's record told (`waits_over`),
under the game's mail lock and the journal's, as the mail of a game over is kept
(ended.py); the mail's name is that record's, so it is written once across crashes and
passes.

Only each side's last wait is looked at, and a ledger that never kept a wait told (a game
begun under a referee that did not tell them) is not mailed of a wait its player ended
more than a day before: that is not news.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from ..base.clock import for_players, parse_stamp
from ..base.plurals import counted, upper_first
from ..base.readers import MODERATOR
from ..game import timeline as g_timeline
from ..game.clockwalk import has_deadlines
from ..game.timeline import Timeline
from ..render.documents import players_words
from ..table import Table
from .deadlinepost import Post
from .ledger import fault, game_lock, load_ledger, save_ledger

# The ledger's part: the hashes of the missed deadlines' records whose end was told.
TOLD = "waits_over"
# A missed deadline's extension by mail runs from it: 24h after it, it gives no time.
DAY = timedelta(hours=24)


def still_theirs(tl: Timeline, late: list) -> str:
    """For the moderator's mail at missed deadlines (late: their Dues): whether each late
    side may still end the wait himself with an extension by mail, until when and how many
    he has left, and that the moderator is mailed if he does; '' in a game that allows no
    extension by mail."""
    allowed = tl.settings.extensions
    if not allowed:
        return ""
    parts = []
    for d in late:
        who = players_words([d.side])
        left = allowed - tl.used.get(d.side, 0)
        if left <= 0:
            parts.append(f"{upper_first(who)} has asked for the "
                         f"{counted(allowed, 'extension')} this game allows: only you can "
                         f"give more time.")
            continue
        parts.append(f"{upper_first(who)} may still extend it himself, with a line "
                     f"'extend 24h' in a mail read by the referee before "
                     f"{for_players(d.due + DAY, d.zone)} ({counted(left, 'extension')} "
                     f"left of the {allowed} this game allows).")
    whose = "his" if len(late) == 1 else "a player's"
    return " ".join(parts) + (f" If {whose} extension or his orders come first, you are "
                              f"mailed that the game no longer waits on you for him, and "
                              f"nothing is asked of you.")


def ended_by_player(records: list[dict]) -> list[tuple[dict, dict]]:
    """(the missed deadline's record, the record that ended its wait) for each side whose
    last deadline missed under the policy wait was ended by his own record: his extension
    by mail or his orders by mail. A wait the moderator ended (his extension, his orders
    entered by hand, the game resumed) is left out, and so is one not ended yet."""
    last: dict[str, dict] = {}
    for rec in records:
        fact = _clock(rec)
        if fact.get("kind") == "missed" and fact.get("missed") == "wait":
            last[fact.get("side")] = rec
    out = []
    for side, missed in last.items():
        ender = next((r for r in records[missed["seq"] + 1:] if _ends(r, side)), None)
        if ender is not None and ender.get("actor") == side and \
                (_clock(ender).get("kind") == "extend" or ender.get("by") == "mail"):
            out.append((missed, ender))
    return out


def _clock(rec: dict) -> dict:
    fact = rec.get("clock")
    return fact if isinstance(fact, dict) else {}


def _ends(rec: dict, side: str) -> bool:
    """Whether rec ends the wait for side's missed orders: an extension of his deadline (his
    or the moderator's), the game resumed (its deadlines run again from then), or an order
    of his side (by his mail, or by the moderator's hand)."""
    kind = _clock(rec).get("kind")
    if kind == "extend":
        return _clock(rec).get("side") == side
    if kind is not None:
        return kind == "resume"
    return rec.get("actor") == side and rec.get("by") in ("mail", "hand")


def tell_wait_over(table: Table, outbox: Path, now: datetime) -> None:
    """A campaign's deadlines pass: the moderator mailed once, by his registered address
    (none: nothing is written), for each wait on him a player himself ended."""
    if not has_deadlines(table.raw):
        return
    ended = ended_by_player(table.records)
    head = table.records[0]
    if not ended or _all_told(load_ledger(head["game_id"], head["hash"]), ended, now):
        return              # the common case costs no timeline: each wait told once
    post = Post(table, table.raw, outbox, now, head["game_id"])
    to = post.address(MODERATOR)
    if to is None:
        return
    tl = g_timeline.timeline(table.journal, table.raw, table.games_dir,
                             table.records_of(table.raw))
    subject = post.subject(MODERATOR, tl.data.label(tl.state.turn))
    with game_lock(head["game_id"], head["hash"]), table.journal.shared() as raw:
        if raw != table.raw:            # the game read is no longer the journal's
            return
        book = load_ledger(head["game_id"], head["hash"])
        kept = set(book.get(TOLD) or [])
        hashes = {r["hash"] for r in table.records}
        for missed, ender in ended:
            if _told(book, kept, missed, ender, now):
                continue
            post.write(f"waitover-{missed['seq']:06d}-{missed['hash'][:16]}-moderator.eml", to,
                       subject, over_words(tl, missed, ender),
                       seq=table.records[-1]["seq"], ledger=book)
            fault("wait over")
            kept.add(missed["hash"])
        book[TOLD] = sorted(h for h in kept if h in hashes)
        save_ledger(book)


def _all_told(book: dict, ended: list[tuple[dict, dict]], now: datetime) -> bool:
    kept = set(book.get(TOLD) or [])
    return all(_told(book, kept, missed, ender, now) for missed, ender in ended)


def _told(book: dict, kept: set, missed: dict, ender: dict, now: datetime) -> bool:
    """Whether the end of this wait is told already, or is not news: a game whose ledger
    never kept a wait told (a referee that did not tell them before) is not mailed of a
    wait ended more than a day ago; it is kept as told."""
    if missed["hash"] in kept:
        return True
    at = parse_stamp(str(ender.get("at")))
    if TOLD not in book and at is not None and now - at > DAY:
        kept.add(missed["hash"])
        return True
    return False


def over_words(tl: Timeline, missed: dict, ender: dict) -> str:
    """The mail: whose wait is over, how he ended it, and that nothing is asked of the
    moderator for him (or what the game still waits on him for)."""
    fact, side = _clock(missed), _clock(missed).get("side")
    who = players_words([side])
    d = tl.due_for(side)
    if _clock(ender).get("kind") == "extend":
        how = (f"{who} extended his deadline himself by mail ({_clock(ender).get('by')}, "
               f"record {ender['seq']})")
        how += f"; his orders are now due by {for_players(d.due, d.zone)}" if d else ""
    else:
        how = f"{who}'s orders came by mail (record {ender['seq']})"
    missed_at = _missed_due(tl, fact)
    still = [d.side for d in tl.late() if d.side != side]
    rest = (f" The game still waits on you for {players_words(sorted(still))}'s orders."
            if still else "")
    return (f"The game no longer waits on you for {who}'s orders, due by {missed_at} and "
            f"missed (record {missed['seq']}): {how}. Nothing is asked of you for him: an "
            f"extension of yours now would add to his.{rest}\n")


def _missed_due(tl: Timeline, fact: dict) -> str:
    """The missed deadline as the players read it, in the game's time zone."""
    due = parse_stamp(str(fact.get("due")))
    return for_players(due, tl.settings.zone) if due is not None else str(fact.get("due"))
