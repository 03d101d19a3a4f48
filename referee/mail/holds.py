"""Whether a side's decision is still the one a record asked of him, and so whether mailed
orders held for the moderator's dice (the ledger's `held`, waiting.py) still stand.

A hold stands while the decision it answered is still its side's decision, the test a
stale reply meets (handling.py): a record since that leaves that decision as it was (the
game paused or resumed, a deadline set, a reminder, a roster changed, the other side's
deadline missed, the side's own `extend` or the armistice he proposes or refuses) leaves
the hold; an order of the side's since that answers his decision (the moderator entering
the held orders; but while he is part way through them, the rest may still be entered:
entered.py), a record that changes his decision or one that closes the game (`reveal`:
no order is entered in it any more) ends it. A hold made at a record
the journal no longer holds as it was (a journal cut back, or cut back and written again)
is gone.
"""

from __future__ import annotations

from typing import NamedTuple

from ..engine import game_over, pending_prompt, sealed_for, waiting_on
from ..engine.victory import victory_level
from ..table import Table
from .entered import entering, first_order
from .ledger import load_ledger
from .outcome import halt_of


def decision_of(table: Table, seq: int | None, reader: str) -> tuple:
    """What reader was asked to decide after record seq (2.0; for stale replies and held
    orders); while he is not waited on, nothing but what he may give at any time rests on
    (asked_nothing)."""
    game = table.game(upto=seq)
    st = game.state
    decision = None if game_over(st) else st.pending.kind
    if reader not in waiting_on(st):
        return asked_nothing(game, decision is None)
    # A sealed decision is one for both sides at once (7.0, 2.0 I, 2.0 V.3): the other side's
    # plan closing does not change what this reader was asked, though the prompt changes.
    sealed = decision is not None and any(sealed_for(st, x) for x in game.data.sides)
    prompt = None if decision is None or sealed else pending_prompt(st, game.data)
    return (reader in waiting_on(st), decision, st.turn, st.phase, prompt)


def asked_nothing(game, over: bool) -> tuple:
    """What a reader asked nothing answers: the other side's orders within the same step
    change none of it (what he may give at any time, an order not his refused as such, an
    armistice proposed to him since, which his answer can only mean, 3.2), but a step, a
    player turn or a level of victory another (his own decision asked and answered between,
    the level an armistice or a surrender ends the game at, 3.2, 3.3, the turn a Military
    Crisis! is his in, 9.8, 9.9) does."""
    st = game.state
    if over:
        return (False, True)
    return (False, False, st.turn, st.phase, getattr(st.turn_state, "side", None),
            victory_level(st, game.data)[1].id)


def held_at(entry) -> int | None:
    """The record a held entry waits at (an older ledger kept that number alone)."""
    seq = entry.get("seq") if isinstance(entry, dict) else entry
    return seq if isinstance(seq, int) and not isinstance(seq, bool) else None


def lines_left(table: Table, entry, side: str) -> list[str]:
    """The held lines of a hold that stands not yet entered: all of them but while the
    moderator is part way through entering them (entered.py)."""
    lines = held_lines(entry)
    at = first_order(table.records, side, held_at(entry))
    return [lines[i] for i in entering(table, side, at, lines)] if at < len(
        table.records) else lines


def held_lines(entry) -> list[str]:
    """The order lines a held entry keeps (none when it keeps none that are text)."""
    lines = entry.get("lines") if isinstance(entry, dict) else None
    return [t for t in lines if isinstance(t, str)] if isinstance(lines, list) else []


def record_kept(table: Table, entry) -> bool:
    """Whether the record a held entry waits at is still the journal's (not cut back, nor
    cut back and written again)."""
    seq, records = held_at(entry), table.records
    if seq is None or not 0 <= seq < len(records) or records[seq].get("seq") != seq:
        return False
    made_at = entry.get("hash") if isinstance(entry, dict) else None
    return made_at is None or records[seq].get("hash") == made_at


def standing(table: Table, held: dict) -> dict:
    """The entries of a ledger's `held` (by side) whose hold still stands in the journal a
    Table holds."""
    return {side: entry for side, entry in held.items()
            if isinstance(side, str) and _stands(table, side, entry)}


class Hold(NamedTuple):
    """A side's mailed orders held for the moderator's dice: the order lines held, and
    those not yet entered (fewer while he is part way through entering them)."""

    lines: list[str]
    left: list[str]


def sides_on_hold(table: Table) -> dict[str, Hold]:
    """The sides whose mailed orders wait for the moderator's dice now, each with its Hold:
    the game waits on him, not on them (no reminder, no missed deadline: reminders.py). The
    ledger is found by record 0 unchecked, so that a game holding none reads no record for
    it; a hold is judged on the records checked."""
    head = table.header_line()
    game_id, header_hash = (head or {}).get("game_id"), table.header_hash()
    if not isinstance(game_id, str) or header_hash is None:
        return {}
    held = load_ledger(game_id, header_hash)["held"]
    return holds_of(table, standing(table, held)) if held else {}


def holds_of(table: Table, held: dict) -> dict[str, Hold]:
    """Each side's Hold, of the ledger's `held` entries that stand (standing)."""
    return {side: Hold(held_lines(entry), lines_left(table, entry, side))
            for side, entry in held.items()}


def _stands(table: Table, side: str, entry) -> bool:
    if not record_kept(table, entry):
        return False                    # the journal was cut back (and written again)
    seq, records = held_at(entry), table.records
    if halt_of(table) == "closed":
        return False                    # revealed: no order is entered in it any more
    if seq == len(records) - 1:
        return True
    at = first_order(records, side, seq)
    if at < len(records):               # an order of his since: the moderator acted, and
        return bool(entering(table, side, at, held_lines(entry)))   # may not be done
    return decision_of(table, seq, side) == decision_of(table, None, side)
