"""Submitting orders: one side's batch parsed, checked, sealed, appended and answered."""

from __future__ import annotations

from pathlib import Path

import msgspec

from ..base.errors import (
    DiceError,
    GameDataError,
    JournalError,
    OrderError,
    SheetError,
    UsageError,
    quoted,
)
from ..base.readers import check_reader
from ..data.gamedata import GameData
from ..engine import (
    closes_plans,
    completes_plan,
    decide,
    decide_plan,
    is_private,
    plan_label,
    resumed_decision,
    sealed_for,
)
from ..engine.core import DECISIONS
from ..engine.intake import kept_line, parse_new_order
from ..engine.state import State, state_to_builtins
from ..store import dice as dicemod
from ..store import sheets, snapshot
from ..store.dice import Dice, ManualDice
from ..store.journal import Journal, now, stale
from ..store.secrets import load_secret
from . import standing
from .clockwalk import Walk, walked_on
from .decisionwords import decision_words, roll_waits
from .dicesource import batch_dice, needs_others, order_needs, plan_takes_a_link
from .drydice import DryDice, DryStop
from .dryplan import dry_close, others_planned
from .records import keep_contract
from .refused import refusal
from .replay import body, check_current, kept_walk, position
from .timeline import taking_orders


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
    rules: int = 0                      # the rules version it was decided under
    begun: State | None = None          # the position it was decided from
    dropped: list[tuple[int, str, str]] = []    # (index, text, why): a trailing 'done' not needed
    # handoff_ends: the batch ended before order `index` (not_applied from it), when the
    # decision had passed to `side` (None: the game was over).
    left: tuple[int, str | None] | None = None
    walk: Walk | None = None            # the deadlines' walk to its last record, when walked
    rolled: int = 0                     # the dice the records decided rolled
    # An all-or-nothing batch refused at a line after legal ones that rolled no die: the
    # position that line was decided at (what was open to its sender there).
    refused_at: State | None = None


class AlreadyApplied(OrderError):
    """The message these orders came in is in the journal already (a second inbox run)."""


def _decision(state: State) -> tuple[str, str] | None:
    p = state.pending
    return None if p is None or state.phase == "over" else (p.kind, p.side)


def _trailing_done(order, previous, before: tuple[str, str] | None, after: State,
                   side: str) -> str | None:
    """Why a 'done' is not needed, or None: the order before it in the batch (not a 'done'
    itself) completed the decision the 'done' would have closed, so that decision is gone.
    A decision a crisis interrupted is not gone: it is asked again once the crisis is
    answered, and the 'done' is still needed then."""
    if isinstance(order, OrderError) or order.kind != "done" or previous is None or \
            isinstance(previous, OrderError) or previous.kind == "done" or before is None:
        return None
    kind, owner = before
    if owner != side or "done" not in DECISIONS[kind].accepts or \
            before in (_decision(after), resumed_decision(after)):
        return None
    return (f"the order before it completed the decision it would have closed "
            f"({decision_words(kind)}); it was not needed and was dropped")


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


class Request(msgspec.Struct):
    """What a caller asks of one batch (submit's arguments, beside the journal)."""

    side: str
    texts: list[str]
    dice_text: str | None = None
    expect_seq: int | None = None
    games_dir: Path | None = None
    atomic: bool = False
    dry_run: bool = False
    mail: dict | None = None
    others_standing: bool = True
    standing_change: tuple[list[str], list[str]] | None = None
    link: str | None = None             # the next link of the side's dice sheet
    sheet: str | None = None            # a dice sheet's tip, registered before the orders
    clock: dict | None = None           # a missed deadline the referee answers for (first record)
    # The position the caller holds for the journal's bytes (the Table's), or None when it
    # holds other bytes: then the batch reads the records after this user's snapshot.
    start: object = None
    # An all-or-nothing batch (a mail) whose orders run past a hand-off (the other side
    # decides next, or the game is over) is applied up to there and ends (Submission.left);
    # else it is refused whole.
    handoff_ends: bool = False
    closing: bool = False     # the referee closes a decision for the side (game/forced.py)
    # A dry run that rolls each die as this value, to count the dice (Submission.rolled),
    # the other side's standing orders answering as they will: for the moderator alone.
    count_with: int | None = None


class _Stop(Exception):
    """The batch ends here (a rejection, a dry run's limit, an all-or-nothing boundary);
    what to tell is already in the Submission."""


class Batch:
    """One side's orders decided one record at a time against the journal's last position,
    under the journal's lock: parse, check, seal each record, and answer (Submission)."""

    def __init__(self, journal: Journal, request: Request):
        self.journal, self.q = journal, request
        self.result = Submission()
        self.bodies: list[dict] = []
        self.states: list[State] = []   # the state after each record of self.bodies
        self.previous_standing: dict | None = None
        self.upto: int | None = None     # the orders a mail's digest covers (None: all)

    # ------------------------------------------------------------ under the lock

    def build(self, raw: bytes) -> tuple[int, str, list[dict]]:
        """What journal.append_raw writes: (last seq, last hash, record bodies)."""
        self.open(raw)
        self.parse()
        self.load_standing(raw)
        if self.q.mail is not None and self.q.mail["sha256"].encode() in raw:
            raise AlreadyApplied("this message's orders are in the journal already")
        if self.q.sheet is not None:
            self.seal_sheet()
        i = 0
        try:
            while i < len(self.q.texts):
                i = self.step(i)
        except _Stop:
            pass
        return self.finish()

    def open(self, raw: bytes) -> None:
        """Read the position under the lock and check the batch may be decided there."""
        q, journal = self.q, self.journal
        known = q.start(raw) if q.start is not None else None
        pos = self.pos = known if known is not None else position(journal, raw, q.games_dir)
        self.header, self.data, self.state, self.seq = pos.header, pos.data, pos.state, pos.seq
        self.result.header, self.result.data, self.result.bound = pos.header, pos.data, pos.bound
        self.result.rules, self.result.begun = pos.rules, pos.state
        check_reader(q.side, self.data.sides, allow_moderator=False)
        check_current(pos, journal.path, q.games_dir)
        if q.expect_seq is not None and q.expect_seq != pos.seq:
            raise stale(pos.seq, q.expect_seq)
        taking_orders(self.state, raw, resume_with=journal.path if q.mail is None else None)
        self.secret = None if q.dry_run else load_secret(journal.path, self.header)
        self.manual = None
        if self.header["dice"]["mode"] == "manual" and not q.dry_run:
            self.manual = ManualDice(dicemod.parse_manual(q.dice_text or ""))
        elif q.dice_text is not None and self.header["dice"]["mode"] != "manual":
            raise UsageError("--dice is for games created with --dice manual; this game "
                             "uses committed dice")
        self.open_sheets(raw)

    def open_sheets(self, raw: bytes) -> None:
        """The dice sheets as the journal leaves them, with this batch's tip registered and
        its link checked (SheetError: nothing is written, no die is used)."""
        q = self.q
        self.sheets = sheets.sheets_in(raw)
        self.hidden: set[int] = set()        # orders whose text the opponent may not see
        self.link: dict | None = None
        self.fresh = False
        if q.sheet is not None:
            if self.header["dice"]["mode"] == "manual":
                raise SheetError("a dice sheet mixes the players' entropy into committed "
                                 "dice; in this --dice manual game the players roll the dice "
                                 "themselves")
            tip = sheets.check_tip(q.sheet, self.sheets.get(q.side), "Sheet:")
            sheets.register(self.sheets, q.side, tip, self.seq + 1)
        # The side's records with material dice (sheets.own_source keys its next with their
        # count): counted only when its records mix any in, never for orders by hand.
        keyed = q.side in self.sheets or q.mail is not None or q.clock is not None or q.closing
        self.rolls_before = sheets.rolls_before(raw, q.side) if keyed else 0
        if q.link is not None:
            self.link = sheets.check_link(self.sheets, q.side, q.link, self.owner())
            self.fresh = True
            if not q.texts:
                no = self.link["no"]
                raise SheetError(f"link {no} of {self.owner()}'s dice sheet goes with the "
                                 f"orders that roll dice, and none came with it: send them with "
                                 f"link {no + 1} (link {no} has been read)")
            pos = self.sheets[q.side]
            self.sheets[q.side] = sheets.SheetPos(pos.tip, self.link["no"], self.link["value"],
                                                  self.seq + 1)

    def owner(self) -> str:
        """The batch's side as its refusals name him: 'the German player'."""
        return self.data.player_words(self.q.side)

    def seal_sheet(self) -> None:
        """The record registering this side's dice sheet, before its orders."""
        self.seq += 1
        self.state = self.state.clone()
        self.state.seq = self.seq
        rec = sheets.sheet_body(self.q.side, self.q.side, self.sheets[self.q.side].tip, now())
        if self.q.mail is not None:
            salt = Dice(self.header["game_id"], self.seq, self.secret).mail_salt() \
                if self.secret is not None else "0" * 32
            rec["mail"] = {"to": "moderator", "salt": salt, "data": dict(self.q.mail)}
        self.bodies.append(rec)
        self.states.append(self.state)
        self.result.applied.append(Applied(sheets.SHEET, rec))

    def parse(self) -> None:
        """Each text as an order, up to the first that cannot be read: its OrderError, told
        when its turn comes (nothing after it is decided, so none is read)."""
        self.parsed: list = []
        self.kept: list[str] = []      # each line as its record keeps it (intake.kept_line)
        for text in self.q.texts:
            try:
                self.parsed.append(parse_new_order(text, self.data))
            except OrderError as exc:
                self.parsed.append(exc)
                return
            self.kept.append(kept_line(text, self.parsed[-1], self.data))

    def load_standing(self, raw: bytes) -> None:
        """Both sides' standing orders, with this batch's own change to them applied.

        The other side's answer his decisions in this side's records, but never where this
        side would be told their effect before it is written: in a dry run, in why an
        all-or-nothing batch ends, and where the caller says so (mail in a manual-dice game,
        whose reply would tell whether dice were needed)."""
        q = self.q
        self.sets = standing.load(self.journal.path, self.header["hash"], raw)
        if q.standing_change is not None:
            self.previous_standing = {k: list(v) for k, v in self.sets.items()}
            add, withdraw = q.standing_change
            try:
                self.sets = standing.changed(self.sets, q.side, self.data, self.state.turn,
                                             add, withdraw)
            except UsageError as exc:
                raise OrderError(str(exc)) from None
        self.own_only = {q.side: self.sets.get(q.side, [])}
        hide = (q.dry_run and q.count_with is None) or not q.others_standing
        self.decide_sets = self.own_only if hide else self.sets

    def next_dice(self) -> Dice:
        """The dice of the next record (dicesource.batch_dice)."""
        return batch_dice(self)

    def step(self, i: int) -> int:
        """Decide the order (or sealed plan) at i, seal its record; the index after it."""
        run, step, moot = self.plan_at(i)
        self.note_hidden(i, run)
        if run:
            plan_takes_a_link(self, i)
        dice = self.next_dice()
        events, new_state, text, private = self.decide_at(i, run, step, dice)
        if self.q.dry_run and any(e.type == "CardsDrawn" for e in events):
            self.stop(f"order {i + step} ({quoted(self.q.texts[i + step - 1])}) is legal; "
                      f"the dry run stops there: it would draw cards", "cards", i + step)
        nxt = i + step
        why = moot if run else None if nxt >= len(self.q.texts) else _trailing_done(
            self.parsed[nxt], self.parsed[i], _decision(self.state), new_state, self.q.side)
        if why is not None:
            nxt += 1
        left = None
        if self.q.atomic and not self.q.dry_run and nxt < len(self.q.texts):
            left = self.check_nothing_unseen(i, step, nxt, run, events, new_state, dice)
            if left is not None and dice.used():
                # Its dice (the other side's standing orders answering) mix in the digest of
                # the orders applied, never of those left, which the opponent must not guess.
                self.upto = nxt
                dice = self.next_dice()
                events, new_state, text, private = self.decide_at(i, run, step, dice)
        self.seal(text, events, dice, private, new_state)
        i += step
        if why is not None:
            self.result.dropped.append((i, self.q.texts[i], why))
            i += 1
        if left is not None:
            self.result.left, self.result.not_applied = left, self.q.texts[i:]
            raise _Stop
        self.stop_where_other_side_decides(i)
        return i

    def note_hidden(self, i: int, run: int) -> None:
        """Keep the orders the opponent will not read (a sealed plan, a move between hidden
        templates, 1.4) out of the mail's digest, which the journal shows to everyone."""
        if run:
            self.hidden.update(range(i, i + run))
        elif not isinstance(self.parsed[i], OrderError) and is_private(self.state,
                                                                       self.parsed[i]):
            self.hidden.add(i)

    def plan_at(self, i: int) -> tuple[int, int, str | None]:
        """(orders in the sealed plan starting at i or 0, orders this step takes, why a
        trailing 'done' is dropped); stops a dry run or an all-or-nothing batch at an order
        whose result rests on the other side's sealed plan (7.0)."""
        q, state, data, parsed = self.q, self.state, self.data, self.parsed
        run = _plan_run(parsed, i) if sealed_for(state, q.side) else 0
        moot = None
        if run > 1 and parsed[i + run - 1].kind == "done" and completes_plan(
                state, data, q.side, parsed[i:i + run - 1]):
            run -= 1
            moot = (f"the orders before it completed the sealed plan it would have closed "
                    f"({plan_label(state)}); it was not needed and was dropped")
        step = max(run, 1)
        last = parsed[i + step - 1]
        if isinstance(last, OrderError) or not closes_plans(state, q.side, last, data,
                                                            parsed[i:i + step - 1]):
            return run, step, moot
        # Its result may rest on the other side's sealed plan (7.0): a dry run checks it and
        # stops there when it does (dryplan.py); an all-or-nothing batch ends after it.
        if q.dry_run:
            return dry_close(self, i, run, step, moot)
        at = i + step + (moot is not None)
        if q.atomic and at < len(q.texts):
            self.end_atomic(at, f"closes {plan_label(state)} and reveals both plans"
                            if others_planned(state, q.side) else
                            f"closes {plan_label(state)}, the only plan asked for", i + step - 1)
        return run, step, moot

    def decide_at(self, i: int, run: int, step: int, dice: Dice) -> tuple[list, State, str, object]:
        """(events, state after, record text, private label) of the order or plan at i."""
        q, state, data = self.q, self.state, self.data
        try:
            if isinstance(self.parsed[i], OrderError) and not run:
                raise self.parsed[i]
            if run:
                events, new_state = decide_plan(
                    state, data, list(zip(q.texts[i:i + run], self.parsed[i:i + run])),
                    q.side, dice)
                return events, new_state, "\n".join(self.kept[i:i + run]), plan_label(state)
            events, new_state = decide(state, data, self.parsed[i], q.side, dice, q.texts[i],
                                       standing=self.decide_sets)
            return events, new_state, self.kept[i], is_private(state, self.parsed[i])
        except SheetError as exc:          # the whole batch, naming the order
            raise order_needs(exc, i, q.texts[i]) from None
        except DiceError:
            raise          # a dice problem rejects the whole batch (an OrderError too)
        except DryStop as why:
            self.stop(f"order {i + 1} ({quoted(q.texts[i])}) is legal; the dry run stops "
                      f"there: {why.args[0]}", why.args[1], i + 1)
        except OrderError as exc:
            self.reject(i, run, exc)

    def reject(self, i: int, run: int, exc: OrderError) -> None:
        """Tell the order at fault; the orders of a plan before it are sealed as a plan."""
        q = self.q
        at = i + getattr(exc, "index", 0)
        if run and at > i and not q.atomic:
            texts_ok = q.texts[i:at]
            dice = self.next_dice()
            label = plan_label(self.state)
            events, self.state = decide_plan(self.state, self.data,
                                             list(zip(texts_ok, self.parsed[i:at])), q.side, dice)
            self.seal("\n".join(self.kept[i:at]), events, dice, label, self.state)  # its own
        self.result.rejected = (at, q.texts[at], refusal(exc, self.parsed[at], self.state,
                                                         self.data, q.side))
        if q.atomic and self.bodies and at == i and not self.result.rolled:
            self.result.refused_at = self.state
        self.result.not_applied = q.texts[at + 1:]
        raise _Stop

    def check_nothing_unseen(self, i: int, step: int, nxt: int, run: int, events: list,
                             new_state: State, dice: Dice) -> tuple[int, str | None] | None:
        """An all-or-nothing batch ends before an order that follows a result its sender
        could not see ahead: dice, cards or the other side's answer. With handoff_ends, an
        order that hands the decision over (or ends the game) without dice or cards is
        applied, and the batch ends after it: (nxt, to whom the decision passed) is
        returned; any other such order has the batch refused whole."""
        need = needs_others(new_state, events, dice, self.q.side)
        if need is not None and not run and any(
                e.type == "StandingApplied" and e.side != self.q.side for e in events):
            need = self.masked_need(i) or need   # told as if none had been given
        if self.q.handoff_ends and (need[0] == "other side" if need is not None
                                    else new_state.phase == "over"):
            return nxt, need and need[2]
        if need is not None:
            self.end_atomic(nxt, need[1], i + step - 1)
        return None

    def masked_need(self, i: int) -> tuple[str, str, str | None] | None:
        """What the order at i needs when the other side's standing orders are left out."""
        probe = DryDice(self.header["game_id"], self.seq + 1)
        try:
            ev, st = decide(self.state, self.data, self.parsed[i], self.q.side, probe,
                            self.q.texts[i], standing=self.own_only)
        except DryStop as stop:
            return stop.args[1], {"dice": "needs dice", "cards": "draws cards"}[stop.args[1]], \
                None
        return needs_others(st, ev, probe, self.q.side)

    def end_atomic(self, at: int, what: str, by: int) -> None:
        # Nothing decided after such an order may be told: a rejection would describe a
        # position reached through dice, cards or a sealed plan never written.
        texts = self.q.texts
        exc = OrderError(
            f"--atomic: order {at + 1} ({quoted(texts[at])}) follows order {by + 1} "
            f"({quoted(texts[by])}), which {what}; an all-or-nothing batch ends at "
            f"such an order: send the rest once you have read its result")
        exc.follows = (by, what)        # for a reply told in the sender's own words (mail)
        self.result.rejected = (at, texts[at], exc)
        self.result.not_applied = texts[at + 1:]
        raise _Stop

    def stop(self, why: str, reason: str, rest: int) -> None:
        """End a dry run: where and why, and the orders not looked at."""
        self.result.stopped, self.result.stop_reason = why, reason
        self.result.not_applied = self.q.texts[rest:]
        raise _Stop

    def stop_where_other_side_decides(self, i: int) -> None:
        state = self.state
        if not self.q.dry_run or state.pending is None or state.phase == "over" or \
                sealed_for(state, self.q.side) or state.pending.side == self.q.side:
            return
        if i >= len(self.q.texts):
            raise _Stop
        self.stop(f"order {i} ({quoted(self.q.texts[i - 1])}) is legal and hands the "
                  f"decision to {self.data.player_words(state.pending.side)}; the dry run "
                  f"stops there",
                  "other side", i)

    def seal(self, text: str, events: list, dice: Dice, private, new_state: State) -> None:
        """One record body for an accepted order or plan; the position moves on to it."""
        self.seq += 1
        new_state.seq = self.seq
        rec = body(self.q.side, text, events, dice, private, self.q.mail,
                   standing.part(self.sets, self.q.side, self.state.turn, dice.standing_salt()),
                   "deadline" if self.q.clock is not None else
                   "referee" if self.q.closing else "hand")
        if self.q.clock is not None and not self.bodies:
            rec["clock"] = dict(self.q.clock)
        self.rolls_before += sheets.in_side_count(rec.get("dice_from"))
        self.bodies.append(rec)
        self.states.append(new_state)
        self.result.applied.append(Applied(text, rec))
        self.result.rolled += len(dice.rolls)
        self.state = new_state
        self.link = None                # revealed by the batch's first record

    def finish(self) -> tuple[int, str, list[dict]]:
        """What to write: nothing for a dry run or a rejected all-or-nothing batch. A
        standing-order change is kept now, under the lock, just before its records."""
        q, result = self.q, self.result
        if result.rejected is None and self.manual is not None:
            self.manual.check_used_up(roll_waits(self.state, self.data, q.side))
        # A rejected all-or-nothing batch leaves the game as it was; so does its report.
        failed = q.atomic and result.rejected is not None
        result.state = self.pos.state if failed else self.state
        if q.dry_run or failed:
            return self.pos.seq, self.pos.hash, []
        if q.standing_change is not None and self.bodies:
            standing.save(self.journal.path, self.sets, q.side, q.mail, self.previous_standing)
        return self.pos.seq, self.pos.hash, self.bodies

    def undo(self) -> None:
        """The journal could not be written: put the standing orders back as they were, or
        take their file away (the next reader is refused, told why), never the change kept."""
        if self.previous_standing is not None and self.bodies:
            try:
                standing.save(self.journal.path, self.previous_standing, self.q.side)
            except (UsageError, OSError):
                standing.forget(self.journal.path)

    # ------------------------------------------------------------ after the lock

    def answer(self, raw: bytes, written: list[dict]) -> Submission:
        """The Submission once the records are written; the new position is kept as a
        snapshot for the next reader."""
        result = self.result
        result.raw = raw
        if self.q.dry_run or not written:
            if not self.q.dry_run:
                result.applied = []           # --atomic: a rejection writes nothing
            return result
        for applied, rec in zip(result.applied, written):
            applied.record = rec
        result.walk = walked_on(self.pos.walk, zip(self.states, written), self.data.sides,
                                self.journal.name)
        snapshot.save_state(self.journal.path, raw, result.bound, written[-1]["seq"],
                            written[-1]["hash"], result.header, state_to_builtins(result.state),
                            kept_walk(result.walk))
        return result


def submit(path: Path | str, side: str, texts: list[str], dice_text: str | None = None,
           expect_seq: int | None = None, games_dir: Path | None = None,
           atomic: bool = False, dry_run: bool = False,
           mail: dict | None = None, others_standing: bool = True,
           standing_change: tuple[list[str], list[str]] | None = None,
           link: str | None = None, sheet: str | None = None,
           clock: dict | None = None, start=None, handoff_ends: bool = False,
           closing: bool = False, count_with: int | None = None) -> Submission:
    """Apply orders in sequence under one lock; stop at the first rejected one.

    Orders before a rejected one stay applied and the rest are not, unless
    atomic: then a rejection applies nothing. Sealed production orders given
    together become one record (7.0). A dry run writes nothing and stops at
    the first order whose result needs a die, the deck or the other side.
    Manual dice problems (missing, extra, out of range) reject the whole
    batch. `mail` (moderator-only: the message an order came in) is kept in
    each record as a secret part. `standing_change` (add, withdraw) changes the
    side's standing orders with the records, under the same lock, or not at all.
    `link` is the next link of the side's dice sheet (checked whether or not the orders
    roll: SheetError when it is not), `sheet` a new sheet's tip registered first. `clock` (a
    missed deadline, timeline.py) goes into the first record: the referee's answer for a side
    that let its deadline pass. `start(raw)` gives the position the caller holds for exactly
    these bytes, a copy the batch may move on (None: it holds other bytes). `handoff_ends`
    (atomic only): orders past a hand-off are left, not refused (Submission.left).
    `closing`: the order is the referee's, closing a decision for the side (game/forced.py).
    `count_with` (a dry run): each die shows this value, and the batch counts the dice.
    Under the lock only the records after this user's snapshot are read.
    """
    if not texts and sheet is None and link is None:
        raise UsageError("no orders given (as arguments, or '-' / a file name for a list)")
    request = Request(side, list(texts), dice_text, expect_seq, games_dir, atomic, dry_run,
                      mail, others_standing, standing_change, link, sheet, clock, start,
                      handoff_ends, closing, count_with)
    batch = Batch(Journal(path, keep_contract), request)
    try:
        raw, written = batch.journal.append_raw(batch.build, undo=batch.undo)
    except (GameDataError, JournalError, UsageError, OrderError):
        batch.result.applied.clear()
        raise
    return batch.answer(raw, written)
