"""What a record's dice mix in and what keys them (store/sheets.py says why), worked out the
same way when the referee writes a record and when verify decides it again."""

from __future__ import annotations

from ..base.errors import SheetError, quoted
from ..data.gamedata import GameData
from ..engine import sealed_for, sealed_sides
from ..engine.state import State
from ..store import sheets
from ..store.dice import Dice
from .drydice import CountingDice, DryDice


def plans_stream(state: State, side: str) -> str | None:
    """The stream of a record of side's sealed plan when several sides give theirs at once
    (7.0, 2.0 I, 2.0 V.3): the phase's ("plans-production.5"), the same whichever plan
    closes it; None otherwise."""
    if not sealed_for(state, side) or len(sealed_sides(state)) < 2:
        return None
    return f"{sheets.PLANS}{state.pending.kind}.{state.turn}"


def record_source(known: dict, state: State, side: str, mail: str | None, before: int,
                  referees: bool, mailed: bool) -> dict:
    """A record's `dice_from` as the referee writes it (store/sheets.py own_source,
    plans_source): state is the position before it, mail the digest of the order lines
    of the mail it came in (verify reads it in the record, which holds none in a phase
    of sealed plans), mailed whether it came in one, before the side's count of records
    with one, referees whether it is the referee's own answer for the side. A record of
    sealed plans given at once takes the phase's stream when it has a side's link, came
    in a mail or is the referee's answer, the digest of one mail being left out, since
    the other plan might have closed the phase; by hand with no link, nothing."""
    phase = plans_stream(state, side)
    if phase is not None:
        source = sheets.plans_source(known, sealed_sides(state), phase)
        if "links" in source or mailed or referees:
            return source
        return {}       # orders by hand, nobody's material: the record's number
    return sheets.own_source(known, side, mail, before, referees)


def batch_dice(b) -> Dice:
    """The dice of a batch's next record (game/batch.py): the secret's stream, mixing in the
    side's own link (its batch's) or, without a sheet, the digest of the mail's order
    lines, keyed by the side's count of such records, as the referee's own answer for it
    is; a record of sealed plans given at once, each sheet holder's plan link, keyed by the
    phase. A dry run's dice only count or stop."""
    q, game_id = b.q, b.header["game_id"]
    if q.dry_run and q.count_with is not None:
        return CountingDice(game_id, b.seq + 1, q.count_with)
    if q.dry_run:
        return DryDice(game_id, b.seq + 1)
    digest = None if q.mail is None else sheets.lines_digest(
        [t for j, t in enumerate(q.texts[:b.upto]) if j not in b.hidden])
    source = record_source(b.sheets, b.state, q.side, digest, b.rolls_before,
                           q.clock is not None or bool(q.closing), q.mail is not None)
    need = None
    if q.side in b.sheets and not b.fresh and plans_stream(b.state, q.side) is None:
        owner = b.owner()
        need = (f"the next link of {owner}'s dice sheet, {sheets.NONE_GIVES}: "
                f"link {b.sheets[q.side].due()} of {owner}'s dice sheet is due "
                f"({sheets.LINK_HOW})")
    return Dice(game_id, b.seq + 1, b.secret, b.manual, source=source, link=b.link, need=need)


def order_needs(exc: SheetError, i: int, text: str) -> SheetError:
    """A dice sheet's refusal met deciding the order at i (its text), naming that order."""
    return SheetError(f"order {i + 1} ({quoted(text)}): {exc.reason}", i, exc.reason)


def plan_takes_a_link(b, i: int) -> None:
    """A sheet holder's sealed plan given at once with the other side's carries his next
    link, whether or not it closes the phase: the record that does rolls with both sides'
    plan links, whichever comes last (store/sheets.py plans_source). SheetError otherwise:
    nothing is written. The referee's own answer for a silent side needs none: the record
    mixes in his latest link, public, beside the other side's fresh one."""
    q = b.q
    if q.dry_run or q.side not in b.sheets or b.fresh or q.clock is not None or q.closing or \
            plans_stream(b.state, q.side) is None:
        return
    owner = b.owner()
    raise order_needs(SheetError(
        f"a sealed plan given at once with the other side's carries the next link of "
        f"{owner}'s dice sheet, since the plan that closes the phase rolls with both: "
        f"link {b.sheets[q.side].due()} of {owner}'s dice sheet is due "
        f"({sheets.LINK_HOW})"), i, q.texts[i])


def needs_others(new_state: State, events: list, dice: Dice, side: str
                 ) -> tuple[str, str, str | None] | None:
    """(reason, what it needs, to whom the decision passed) when the result of an order
    rests on what a batch may not see ahead: dice, the deck, or the other side's answer;
    else None."""
    if dice.rolls or dice.index:
        return "dice", "needs dice", None
    if any(e.type in ("CardsDrawn", "DeckShuffled") for e in events):
        return "cards", "draws cards", None
    p = new_state.pending
    if new_state.phase != "over" and p is not None and p.side != side and \
            not sealed_for(new_state, side):
        return "other side", f"hands the decision to {GameData.player_words(p.side)}", p.side
    return None
