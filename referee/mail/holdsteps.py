"""Orders held for the moderator's dice as `inbox` keeps and tells them, as a pass of `tick`
does: a moderator who runs `inbox` by hand is mailed about each hold, and a player whose
held orders were not entered is told so, as under `tick`.

Before the messages are read, the holds that ended are pruned, each player whose orders
were not entered told so and given back the time they were held (waiting.end_holds: before
a mail of his held anew takes the place of a hold that ended, whose news would be lost with
it); after them, the moderator is told of each hold that stands, once (waiting.py keeps
him told in the ledger). Each mail goes into the outbox the run writes its replies into.
Once: a later pass, `tick`'s or `inbox`'s, finds the hold forgotten, or kept as told, and
the time given back (holdtime.py), and writes none again, whatever outbox it writes into.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ..base.clock import now as clock_now
from ..table import Table
from .dropped import replaced_notes
from .ledger import load_ledger
from .noted import noting_written
from .outboxcount import left_in
from .waiting import end_holds, waits_on_a_person


def keep_hold(table: Table, ledger: dict, out) -> None:
    """A message's orders held (out: its outcome.Outcome): kept in the ledger as the side's
    hold, in place of the one held before it, which its answer names (replaced_notes)."""
    out.notes += replaced_notes(table, out.side, ledger["held"].get(out.side))
    ledger["held"][out.side] = out.held or table.records[-1]["seq"]


def with_holds(table: Table, outbox: Path | None, run: Callable[[], tuple[list, list[Path]]]
               ) -> tuple[list, list[Path]]:
    """run() (an `inbox` run's messages: its outcomes and the mails it wrote) between the
    holds pruned and the moderator told of those that stand, those mails added to its own
    (none when it writes no outbox: the next pass that does tells them). Each step reads
    the journal as it is then, and only when the ledger keeps a hold."""
    if outbox is None:
        return run()
    head = table.records[0]
    game = (head["game_id"], head["hash"])
    ended = _held_mails(game, outbox, lambda: end_holds(table.path, outbox, clock_now(),
                                                        table.games_dir))
    outcomes, written = run()
    told = _held_mails(game, outbox, lambda: waits_on_a_person(
        Table(table.path, table.games_dir).whole(), str(table.path), outbox, clock_now()))
    return outcomes, ended + written + told


def _held_mails(game: tuple[str, str], outbox: Path, step: Callable[[], object]
                ) -> list[Path]:
    """The mails a step of the holds wrote into outbox and left there (none when the ledger
    of the game, by its id and record 0's hash, keeps no hold): its own, not every mail new
    in a folder other games may write into meanwhile (outboxcount.py)."""
    if not load_ledger(*game)["held"]:
        return []
    with noting_written() as written:
        step()
    return sorted(left_in(outbox, written))
