"""Submitting orders: one side's batch parsed, checked, sealed, appended and answered."""

from __future__ import annotations

from pathlib import Path

import msgspec

from ..base.errors import DiceError, GameDataError, JournalError, OrderError, UsageError, quoted
from ..base.readers import check_reader
from ..data.gamedata import GameData
from ..engine import (
    closes_plans,
    completes_plan,
    decide,
    decide_plan,
    is_private,
    plan_label,
    sealed_for,
)
from ..engine.reading import parse_order
from ..engine.state import State, state_to_builtins
from ..store import dice as dicemod
from ..store import snapshot
from ..store.dice import Dice, ManualDice
from ..store.journal import Journal, stale
from ..store.secrets import load_secret
from . import standing
from .replay import body, check_current, position


class Applied(msgspec.Struct):
    """One accepted order (or sealed plan) and the record it produced."""

    text: str
    record: dict


class Submission(msgspec.Struct):
    """What happened to a batch of orders."""

    applied: list[Applied] = []
    rejected: tuple[int, str, OrderError] | None = None
    not_applied: list[str] = []
    state: State | None = None
    header: dict | None = None
    data: GameData | None = None
    raw: bytes | None = None
    stopped: str | None = None          # a dry run: where and why it stopped
    stop_reason: str | None = None      # dice | cards | plans | other side
    bound: str = ""                     # what snapshots are bound to (Position.bound)
    dropped: list[tuple[int, str, str]] = []    # (index, text, why): a trailing 'done' not needed


class _DryDice(Dice):
    """Dice for a dry run: any die or shuffle stops it before the secret is used."""

    def __init__(self, game_id: str, record: int):
        super().__init__(game_id, record, None)

    def _roll(self, count: int, purpose: str) -> list[int]:
        if count == 0:
            return []
        raise _DryStop(f"it would roll dice ({purpose})", "dice")

    def shuffle(self, cards: list[str]) -> tuple[list[str], int]:
        raise _DryStop("it would shuffle the deck", "cards")

    def salt(self) -> str:
        return "0" * 32

    def order_salt(self) -> str:
        return "0" * 32

    def mail_salt(self) -> str:
        return "0" * 32

    def standing_salt(self) -> str:
        return "0" * 32


class _DryStop(Exception):
    """A dry run reached an order whose result the rules leave to the dice or the deck."""


class AlreadyApplied(OrderError):
    """The message these orders came in is in the journal already (a second inbox run)."""


def _needs_others(new_state: State, events: list, dice: Dice, side: str
                  ) -> tuple[str, str] | None:
    """(reason, what it needs) when the result of an order rests on what a batch may not
    see ahead: dice, the deck, or the other side's answer; else None."""
    if dice.rolls or dice.index:
        return "dice", "needs dice"
    if any(e.type in ("CardsDrawn", "DeckShuffled") for e in events):
        return "cards", "draws cards"
    p = new_state.pending
    if new_state.phase != "over" and p is not None and p.side != side and \
            not sealed_for(new_state, side):
        return "other side", f"hands the decision to {p.side}"
    return None


def _decision(state: State) -> tuple[str, str] | None:
    p = state.pending
    return None if p is None or state.phase == "over" else (p.kind, p.side)


def _trailing_done(order, previous, before: tuple[str, str] | None, after: State,
                   side: str) -> str | None:
    """Why a 'done' is not needed, or None: the order before it in the batch (not a 'done'
    itself) completed the decision the 'done' would have closed, so that decision is gone."""
    from ..engine.core import DECISIONS

    if isinstance(order, OrderError) or order.kind != "done" or previous is None or \
            isinstance(previous, OrderError) or previous.kind == "done" or before is None:
        return None
    kind, owner = before
    if owner != side or "done" not in DECISIONS[kind].accepts or _decision(after) == before:
        return None
    return (f"the order before it completed the decision it would have closed ({kind}, "
            f"{DECISIONS[kind].rule}); it was not needed and was dropped")


def _plan_run(parsed: list, start: int) -> int:
    """How many of the orders from start form one sealed plan: up to and including 'done'."""
    end = start
    while end < len(parsed):
        order = parsed[end]
        if isinstance(order, OrderError) or order.kind == "armistice":
            break
        end += 1
        if order.kind == "done":
            break
    return end - start


def submit(path: Path | str, side: str, texts: list[str], dice_text: str | None = None,
           expect_seq: int | None = None, games_dir: Path | None = None,
           atomic: bool = False, dry_run: bool = False,
           mail: dict | None = None, others_standing: bool = True) -> Submission:
    """Apply orders in sequence under one lock; stop at the first rejected one.

    Orders before a rejected one stay applied and the rest are not, unless
    atomic: then a rejection applies nothing. Sealed production orders given
    together become one record (7.0). A dry run writes nothing and stops at
    the first order whose result needs a die, the deck or the other side.
    Manual dice problems (missing, extra, out of range) reject the whole
    batch. `mail` (moderator-only: the message an order came in) is kept in
    each record as a secret part. Under the lock only the records after this
    user's snapshot are read.
    """
    if not texts:
        raise UsageError("no orders given (as arguments, or '-' / a file name for a list)")
    journal = Journal(path)
    result = Submission()

    def build(raw: bytes) -> tuple[int, str, list[dict]]:
        pos = position(journal, raw, games_dir)
        header, data, state = pos.header, pos.data, pos.state
        result.header, result.data, result.bound = header, data, pos.bound
        check_reader(side, data.sides, allow_moderator=False)
        check_current(pos, journal.path, games_dir)
        if expect_seq is not None and expect_seq != pos.seq:
            raise stale(pos.seq, expect_seq)
        if state.revealed:
            raise OrderError("the dice secret has been revealed; the game is closed to "
                             "further orders (dice would be predictable)")
        secret = None if dry_run else load_secret(journal.path, header)
        manual = None
        if header["dice"]["mode"] == "manual" and not dry_run:
            manual = ManualDice(dicemod.parse_manual(dice_text or ""))
        elif dice_text is not None and header["dice"]["mode"] != "manual":
            raise UsageError("--dice is for games created with --dice manual; this game "
                             "uses committed dice")
        parsed: list = []
        for text in texts:
            try:
                parsed.append(parse_order(text, data))
            except OrderError as exc:
                parsed.append(exc)
        bodies: list[dict] = []
        seq = pos.seq
        i = 0
        sets = standing.load(journal.path, header["hash"])
        # The other side's standing orders answer his decisions in this side's records, but
        # never where this side would be told their effect before it is written: in a dry run,
        # (below) in why an all-or-nothing batch ends, and where the caller says so (mail in
        # a manual-dice game, whose reply would tell whether dice were needed).
        own_only = {side: sets.get(side, [])}
        decide_sets = own_only if (dry_run or not others_standing) else sets

        def masked_need(i: int) -> tuple[str, str] | None:
            probe = _DryDice(header["game_id"], seq + 1)
            try:
                ev, st = decide(state, data, parsed[i], side, probe, texts[i],
                                standing=own_only)
            except _DryStop as stop:
                return stop.args[1], {"dice": "needs dice", "cards": "draws cards"}[
                    stop.args[1]]
            return _needs_others(st, ev, probe, side)

        def sealed_set(dice: Dice, turn: int) -> dict:
            return standing.part(sets, side, turn, dice.standing_salt())

        def next_dice() -> Dice:
            return (_DryDice(header["game_id"], seq + 1) if dry_run else
                    Dice(header["game_id"], seq + 1, secret, manual))

        def end_atomic(at: int, what: str, by: int | None = None) -> None:
            # Nothing decided after such an order may be told: a rejection would describe a
            # position reached through dice, cards or a sealed plan never written.
            by = at - 1 if by is None else by
            result.rejected = (at, texts[at], OrderError(
                f"--atomic: order {at + 1} ({quoted(texts[at])}) follows order {by + 1} "
                f"({quoted(texts[by])}), which {what}; an all-or-nothing batch ends at "
                f"such an order: send the rest once you have read its result"))
            result.not_applied = texts[at + 1:]

        if mail is not None and mail["sha256"].encode() in raw:
            raise AlreadyApplied("this message's orders are in the journal already")
        while i < len(texts):
            dice = next_dice()
            run = _plan_run(parsed, i) if sealed_for(state, side) else 0
            moot = None
            if run > 1 and parsed[i + run - 1].kind == "done" and completes_plan(
                    state, data, side, parsed[i:i + run - 1]):
                run -= 1
                moot = (f"the orders before it completed the sealed plan it would have closed "
                        f"({plan_label(state)}); it was not needed and was dropped")
            step = max(run, 1)
            last = parsed[i + step - 1]
            if not isinstance(last, OrderError) and closes_plans(state, side, last, data,
                                                                  parsed[i:i + step - 1]):
                # Its result rests on the other side's sealed plan (7.0): a dry run or an
                # all-or-nothing batch must not show it, nor anything checked after it.
                if dry_run and run > 1:
                    run = step = run - 1            # check the plan's orders before 'done'
                    moot = None                     # (the closing order comes next time)
                elif dry_run:
                    result.stopped = (f"order {i + 1} ({quoted(texts[i])}) closes "
                                      f"{plan_label(state)}: its result waits on the "
                                      f"other side's sealed plan; the dry run stops there")
                    result.stop_reason = "plans"
                    result.not_applied = texts[i + 1:]
                    break
                elif atomic and i + step + (moot is not None) < len(texts):
                    end_atomic(i + step + (moot is not None),
                               f"closes {plan_label(state)} and reveals both plans", i + step - 1)
                    break
            try:
                if isinstance(parsed[i], OrderError) and not run:
                    raise parsed[i]
                if run:
                    events, new_state = decide_plan(
                        state, data, list(zip(texts[i:i + run], parsed[i:i + run])), side, dice)
                    text, private = "\n".join(texts[i:i + run]), plan_label(state)
                else:
                    text = texts[i]
                    events, new_state = decide(state, data, parsed[i], side, dice, text,
                                               standing=decide_sets)
                    private = is_private(state, parsed[i])
            except DiceError:
                raise          # a dice problem rejects the whole batch (an OrderError too)
            except _DryStop as why:
                result.stopped = (f"order {i + 1} ({quoted(texts[i])}) is legal; the dry run "
                                  f"stops there: {why.args[0]}")
                result.stop_reason = why.args[1]
                result.not_applied = texts[i + 1:]
                break
            except OrderError as exc:
                at = i + getattr(exc, "index", 0)
                if run and at > i and not atomic:
                    # The orders of the plan before the one at fault are sealed as a plan.
                    texts_ok = texts[i:at]
                    dice = next_dice()
                    label = plan_label(state)
                    events, state = decide_plan(state, data, list(zip(texts_ok, parsed[i:at])),
                                                side, dice)
                    seq += 1
                    state.seq = seq
                    rec = body(side, "\n".join(texts_ok), events, dice, label, mail,
                               sealed_set(dice, state.turn))
                    bodies.append(rec)
                    result.applied.append(Applied("\n".join(texts_ok), rec))
                from .suggest import amend  # 'did you mean', from what the side may see

                result.rejected = (at, texts[at], amend(exc, parsed[at], state, data, side))
                result.not_applied = texts[at + 1:]
                break
            if dry_run and any(e.type == "CardsDrawn" for e in events):
                result.stopped = (f"order {i + step} ({quoted(texts[i + step - 1])}) is legal; "
                                  f"the dry run stops there: it would draw cards")
                result.stop_reason = "cards"
                result.not_applied = texts[i + step:]
                break
            nxt = i + step
            why = moot if run else None if nxt >= len(texts) else _trailing_done(
                parsed[nxt], parsed[i], _decision(state), new_state, side)
            if why is not None:
                nxt += 1
            if atomic and not dry_run and nxt < len(texts):
                need = _needs_others(new_state, events, dice, side)
                if need is not None and not run and any(
                        e.type == "StandingApplied" and e.side != side for e in events):
                    need = masked_need(i) or need   # told as if none had been given
                if need is not None:
                    end_atomic(nxt, need[1], i + step - 1)
                    break
            seq += 1
            new_state.seq = seq
            rec = body(side, text, events, dice, private, mail, sealed_set(dice, state.turn))
            bodies.append(rec)
            result.applied.append(Applied(text, rec))
            state = new_state
            i += step
            if why is not None:
                result.dropped.append((i, texts[i], why))
                i += 1
            if dry_run and state.pending is not None and state.phase != "over" \
                    and not sealed_for(state, side) and state.pending.side != side:
                if i < len(texts):
                    result.stopped = (f"order {i} ({quoted(texts[i - 1])}) is legal and hands "
                                      f"the decision to {state.pending.side}; the dry run "
                                      f"stops there")
                    result.stop_reason = "other side"
                    result.not_applied = texts[i:]
                break
        if result.rejected is None and manual is not None:
            manual.check_used_up()
        # A rejected all-or-nothing batch leaves the game as it was; so does its report.
        result.state = pos.state if atomic and result.rejected is not None else state
        if dry_run or (atomic and result.rejected is not None):
            return pos.seq, pos.hash, []
        return pos.seq, pos.hash, bodies

    try:
        raw, written = journal.append_raw(build)
    except (GameDataError, JournalError, UsageError, OrderError):
        result.applied.clear()
        raise
    result.raw = raw
    if dry_run or not written:
        if not dry_run:
            result.applied = []           # --atomic: a rejection writes nothing
        return result
    for applied, rec in zip(result.applied, written):
        applied.record = rec
    snapshot.save_state(journal.path, raw, result.bound, written[-1]["seq"],
                        written[-1]["hash"], result.header, state_to_builtins(result.state))
    return result
