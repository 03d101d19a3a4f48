"""The moderator told, once, that a game is over: the players are asked nothing more, and
the game waits on him for one thing, its dice secret published (`reveal`), which lets every
player check every die (moderator.md, When the game is over)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from ..base.readers import MODERATOR
from ..engine import game_over
from ..render.documents import result_words
from ..table import Table
from .deadlinepost import Post
from .ledger import fault, game_lock, load_ledger, save_ledger
from .refusal import prose


def tell_the_end(table: Table, outbox: Path, now: datetime) -> None:
    """Mail the moderator once that the game is over and its secret is not yet published,
    named by the record that ended it (a journal set back before it and ended again is told
    again); the ledger keeps that he was told, which his mail program taking the mail out of
    the folder does not undo (but for a pass killed between the mail written and the ledger
    saved, the mail taken out before the next pass: that one writes it again, under the
    same name and Message-ID). Decided again under the game's mail lock and then the
    journal's (the order every mail writer takes them in): `reveal` appends under the
    journal's lock, so one run between the game read and the locks taken makes the bytes
    held no longer the journal's, and nothing is sent (a journal moved otherwise is told at
    the next pass, which reads it again)."""
    state = table.game().state
    if not game_over(state) or state.revealed:
        return
    ended = _ending_record(table.records)
    head = table.records[0]
    post = Post(table, table.raw, outbox, now, head["game_id"])
    to = post.address(MODERATOR)
    if to is None:
        return

    # The journal's shared lock keeps out an append (a reveal) and writes nothing: a journal
    # another referee signed (a game folder copied here) is told as any.
    with game_lock(head["game_id"], head["hash"]), table.journal.shared() as raw:
        if raw == table.raw:            # the game read is the journal's still: not revealed
            _tell(table, post, to, state.result or {}, ended)


def _tell(table: Table, post: Post, to: str, result: dict, ended: dict) -> None:
    """The mail written, unless the ledger says it was, then the ledger told (under the
    game's mail lock and the journal's)."""
    ledger = load_ledger(post.game_id, post.head)
    if ledger.get("ended") == ended["hash"]:
        return
    post.write(f"ended-{ended['seq']:06d}-{ended['hash'][:16]}-moderator.eml", to,
               post.subject(MODERATOR, table.kind.season(table)),
               _ended_mail(post.journal, result, table.kind.sides(table)),
               wrapped=True, seq=table.records[-1]["seq"], ledger=ledger)
    fault("ended")
    ledger["ended"] = ended["hash"]
    save_ledger(ledger)


def _ending_record(records: list[dict]) -> dict:
    """The record whose events ended the game (the last one when none says so)."""
    return next((r for r in reversed(records)
                 if any(isinstance(e, dict) and e.get("type") == "GameEnded"
                        for e in r.get("events") or ())), records[-1])


def _ended_mail(journal: str, result: dict, sides: tuple[str, ...]) -> str:
    """What the moderator is told: how the game ended, the one thing left to him, the
    commands to copy (never split), and how each player checks the game then."""
    how, level = result_words({**result, "reason": result.get("reason") or "the game ended"})
    head = prose(f"The game is over: {how}" + (f"; result: {level}" if level else "") +
                 ". The players are asked nothing more. It waits on you for one thing: "
                 "publish the dice secret, so that every die can be checked:")
    then = prose(f"Then give each player his side's export, and the public theirs (SIDE: "
                 f"{', '.join(sides)} or public):")
    check = prose("which each checks with `referee verify SIDE.jsonl --export SIDE` "
                  "(moderator.md, When the game is over).")
    return (f"{head}\n\n  referee reveal {journal}\n\n{then}\n\n"
            f"  referee log {journal} --as SIDE --format json > SIDE.jsonl\n\n{check}")
