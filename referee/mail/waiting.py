"""Whether a game can go on without the moderator, for `tick`: one line saying what it
waits on and what he may do, at every pass until he acts (None: it waits on nobody, or on
a player whose mail and deadline will move it).

A game waits on the moderator when it is paused, when a deadline passed that nobody
answered for (reminders.py), when a player's orders need dice in a manual-dice game
(held: only the moderator can enter them), or when the side it waits on has no address
the referee could mail.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from ..base.readers import MODERATOR
from ..store.players import roster
from ..table import Table
from .ledger import game_lock, load_ledger, save_ledger
from .reminders import Post, waits_on_the_moderator


def waits_on_a_person(table: Table, name: str, outbox: Path, now: datetime) -> str | None:
    """The line saying what the game waits on, when that is the moderator (name: the journal
    as the line may show it); the moderator is mailed once for orders held for dice."""
    line = waits_on_the_moderator(table, name)
    if line is not None:
        return line
    held = _held_for_dice(table, outbox, now)
    if held is not None:
        return (f"the game waits on the moderator: {held}'s orders need dice in a manual-dice "
                f"game and were held; enter them (`referee order {name} --as {held} --dice "
                f"...`), as his mail gives them")
    people = roster(table.records)
    lost = [s for s in table.kind.waiting_on(table) if s not in people]
    if lost:
        return (f"the game waits on {lost[0]}, who has no registered address, so no mail "
                f"reaches him: register one (`referee players {name} --set {lost[0]}="
                f"ADDRESS`) or give his orders (`referee order {name} --as {lost[0]} ...`)")
    return None


def _held_for_dice(table: Table, outbox: Path, now: datetime) -> str | None:
    """The side whose mailed orders wait for the moderator's dice since the journal's last
    record (a record since means he acted), the moderator told by mail once."""
    head = table.records[0]
    with game_lock(head["game_id"], head["hash"]):
        ledger = load_ledger(head["game_id"], head["hash"])
        last = table.last_seq()
        held = {s: seq for s, seq in ledger["held"].items() if seq == last}
        if held != ledger["held"]:
            ledger["held"] = held
            save_ledger(ledger)
    if not held:
        return None
    side = sorted(held)[0]
    post = Post(table, table.raw, outbox, now, head["game_id"])
    post.write(f"held-{last:06d}-{side}-moderator.eml", post.address(MODERATOR),
               post.subject(last, f"{side}'s orders wait for your dice"),
               f"{side}'s mailed orders need dice, and this is a manual-dice game: they are "
               f"held until you enter them with the dice you rolled, as his mail gives them "
               f"(`referee order JOURNAL --as {side} --dice ...`). Nothing moves until "
               f"then.\n")
    return side
