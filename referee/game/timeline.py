"""Deadlines, worked out from the journal alone: when each side waited on must answer.

Every hand-off (a side asked for a decision) has a deadline: the time of the
record that made it, or of the resume after it, plus the game's duration for
that kind of decision, plus the extensions granted for it, moved to Monday
when it would fall on a weekend and the game skips them. The settings, the
extensions, the reminders sent, the deadlines missed and the pauses are
records of their own (a `clock` part, contracts/records.py): replaying and
verifying a journal never read the clock.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import msgspec

from ..base.clock import (
    duration_text,
    for_players,
    left_label,
    parse_duration,
    parse_stamp,
)
from ..base.clock import now as clock_now
from ..base.errors import OrderError, UsageError, one_line, quoted
from ..base.plurals import counted, upper_first
from ..contracts.records import MOST_REMINDERS
from ..data.gamedata import GameData
from ..engine import game_over, game_over_violation
from ..engine.core import DECISIONS
from ..engine.state import State
from ..store.journal import Journal, now
from .clockwalk import REMINDERS, Due, Settings, clock_of
from .decisionwords import decision_words
from .dues import Timeline, timeline_of
from .extendfromnow import FROM_NOW, from_now_span
from .pausedby import pause_of, pause_words
from .records import keep_contract
from .replay import outdated, outdated_words, position

SETTINGS = "set deadlines"
EXTEND = "extend"
REMINDED = "reminder sent"
MISSED = "deadline missed"
PAUSE = "pause the game"
RESUME = "resume the game"
POLICIES = ("default", "wait", "pause")
# Why it is (pausedby.pause_words): the side and deadline missed, or the moderator's pause.
PAUSED = "the game is paused: {why}; no orders are taken until the moderator resumes it"
# A game whose dice secret `reveal --force` revealed before its end: closed for good (no
# record may follow the reveal), neither paused nor over.
CLOSED = ("the dice secret has been revealed, so the game is closed: no orders are taken "
          "and no deadline runs (every die would be predictable)")
# A journal holding its header alone (cut back, or a torn `new` repaired): no set-up record,
# so no decision is asked; nothing ended the game either (3.0), so it is not over.
NO_SETUP = ("the journal holds the game's header alone, without the set-up record `referee "
            "new` writes with it: no decision is asked and no orders are taken (the game is "
            "not over: nothing ended it)")
# How the moderator resumes it, for his own commands' errors (a player runs no command).
RESUME_WITH = " (`referee deadline {journal} --resume`)"


class NoOrdersTaken(OrderError):
    """An order, or a request for more time, refused because the game takes none now:
    `halted` says why: 'paused' (PAUSED), 'closed' (CLOSED), 'over' (GameOver) or 'outdated'
    (the moderator's deadline commands on a game under older rules, replay.outdated). A reply to a
    player tells him what follows from it (mail/outcome.py's halt_of), never from the
    words, which may quote his own."""

    def __init__(self, halted: str, message: str):
        super().__init__(message)
        self.halted = halted


class GameOver(NoOrdersTaken):
    """NoOrdersTaken for a game that has ended, as the engine refuses each of its orders: an
    illegal order citing the rule that ended it (kind and rule of a script's error object)."""

    kind = "illegal_order"

    def __init__(self, state: State):
        ended = game_over_violation(state)
        super().__init__("over", f"{ended.reason} (rule {ended.rule})")
        self.rule = ended.rule


def taking_orders(state: State, raw: bytes, resume_with: Path | str | None = None) -> None:
    """NoOrdersTaken when the game (its state, its journal's bytes raw) takes no orders now:
    closed by its reveal, over (3.0) or paused (resume_with: the journal, to say how the
    moderator resumes it, for his own commands), whatever the orders say, read or not."""
    taking_standing_orders(state)
    refuse_paused(raw, "", resume_with)


def refuse_paused(raw: bytes, what: str, resume_with: Path | str | None) -> None:
    """NoOrdersTaken when the game is paused, saying why (what: the request refused, as its
    words begin, e.g. 'extend: '; resume_with: the journal whose moderator is told the
    command that resumes it, None for a player, who runs no command)."""
    pause = pause_of(raw)
    if pause is not None:
        resume = "" if resume_with is None else \
            RESUME_WITH.format(journal=one_line(str(resume_with)))
        raise NoOrdersTaken("paused", what + PAUSED.format(why=pause_words(pause, raw)) +
                            resume)


def taking_standing_orders(state: State) -> None:
    """NoOrdersTaken when the game takes no standing orders now: closed by its reveal, or
    over (3.0: no decision is left for them to answer). A paused game keeps them for
    when it resumes. A game over says so by the rule that ended it, revealed since or not:
    the reveal closes a game before its end only (`reveal --force`). A journal without its
    set-up record is closed, not over (NO_SETUP)."""
    if unset(state):
        raise NoOrdersTaken("closed", NO_SETUP)
    if game_over(state):
        raise GameOver(state)
    if state.revealed:
        raise NoOrdersTaken("closed", CLOSED)


def unset(state: State) -> bool:
    """Whether the state is a journal's without its set-up record: nothing pending, and
    nothing ended the game (the engine's game_over takes it for over: no decision is left)."""
    return state.pending is None and state.phase != "over"


def answers_missed(rec: dict) -> bool:
    """Whether a record is the referee's answer for a side that missed its deadline (policy
    default): an order of that side, decided like any other, holding the missed deadline."""
    fact = clock_of(rec)
    return fact is not None and fact.get("kind") == "missed" and \
        fact.get("missed") == "default" and fact.get("side") == rec.get("actor")


def clock_words(rec: dict, zone: str | None = None, asked: str | None = None,
                reader: str | None = None, standing: str | None = None,
                opening: bool = True, answer: str | None = None) -> str | None:
    """What a record's clock part says, in words (None: it has none), to reader: the side's
    own player reads 'your', anyone else (the other side, the moderator, the public) 'the
    German player's'. zone: the game's time zone its times are read in (None: UTC); asked:
    the kind of the decision the side owed then (an extension says what it was for);
    standing: the deadline now in force for the hand-off an extension names (a stamp),
    when the caller knows it; opening: the words open a sentence (capitalised); answer:
    the referee's answer for a missed deadline as the reader may read it, the order and why
    it is this one (defaults.answer_words), when the caller worked it out."""
    fact = clock_of(rec)
    if fact is None:
        return None
    kind = fact["kind"]
    side = str(fact.get("side") or "")
    own = reader is not None and reader == side
    due = for_players(parse_stamp(fact["due"]), zone) if fact.get("due") else ""
    if kind == "settings":
        return _settings_words(fact)
    if kind in ("extend", "reminded", "missed"):
        words = {"extend": _extend_words, "reminded": _reminded_words,
                 "missed": _missed_words}[kind](rec, fact, _Person(side, own), due,
                                                 asked, answer if kind == "missed" else
                                                 standing, zone)
        return words if opening else words[0].lower() + words[1:]
    return "the moderator paused the game: no orders are taken, no deadline runs" \
        if kind == "pause" else "the moderator resumed the game: deadlines run again from now"


class _Person(msgspec.Struct):
    """A side's player as a reader reads him: himself ('you') or another."""

    side: str
    own: bool

    def who(self) -> str:
        """Who, in a sentence: 'you', 'the German player'."""
        return "you" if self.own else GameData.player_words(self.side)

    def whose(self) -> str:
        """Whose, after his name: 'your', 'his'."""
        return "your" if self.own else "his"

    def opening(self) -> str:
        """Who, to open a sentence: 'You', 'The German player'."""
        return "You" if self.own else f"The {GameData.side_name(self.side)} player"

    def opening_whose(self) -> str:
        """Whose, to open a sentence: 'Your', 'The German player's'."""
        return "Your" if self.own else f"{self.opening()}'s"


def _extend_words(rec, fact, p: _Person, due, asked, standing, zone) -> str:
    now_due = f": {p.whose()} orders are now due by " \
        f"{for_players(parse_stamp(standing), zone)}" if standing else ""
    return f"{p.opening_whose()} deadline for {_owed_words(asked, p.whose())}, handed to " \
           f"{'you' if p.own else 'him'} at #{fact.get('handoff')}, is " \
           f"{fact.get('by')} later{now_due}"


def _reminded_words(rec, fact, p: _Person, due, asked, standing, zone) -> str:
    """A reminder, with the time before the deadline it was sent (a late one's time left:
    clock.left_label)."""
    try:
        before = left_label(parse_duration(str(fact.get("before"))),
                            parse_stamp(str(fact.get("due"))), parse_stamp(str(rec.get("at"))))
    except UsageError:      # not a duration: as the record has it
        before = str(fact.get("before"))
    return f"{'You were' if p.own else p.opening() + ' was'} reminded " \
           f"{before} before the deadline, {due}"


def _missed_words(rec, fact, p: _Person, due, asked, answer, zone) -> str:
    """answer: the order and why it is this one, when the caller worked it out (its rule
    follows); else the kind of answer it was."""
    what = {"default": _answered(rec, fact, p, answer),
            "wait": "the game waits for them (the moderator is told)",
            "pause": "the game is paused until the moderator resumes it"}
    return f"{p.opening_whose()} orders were due by {due} and none came: " \
           f"{what.get(fact.get('missed'), what['wait'])}"


def answered_words(rec: dict, reader: str | None = None, answer: str | None = None) -> str:
    """What the record of a referee's answer for a silent side says of the answer alone,
    to reader, in a sentence: the words its deadline's ('orders were due by ... and none
    came: ') lead to (answer: as for clock_words)."""
    fact = clock_of(rec) or {}
    side = str(fact.get("side") or "")
    words = _answered(rec, fact, _Person(side, reader is not None and reader == side), answer)
    return upper_first(words)


def _answered(rec, fact, p: _Person, answer) -> str:
    """The referee's answer for p: the order and why (answer, when the caller worked it
    out), else the kind of answer it was, with its rule."""
    from .defaults import NULL_TEXTS  # start-up: the rules' answers, for a missed one

    how = answer if answer else "a sealed answer" if "private_order" in rec else \
        "the answer that does nothing" if rec.get("order") in NULL_TEXTS else \
        "its default answer for the decision"
    return f"the referee answered for {p.who()} with {how} (rule {fact.get('rule')})"


def standing_due(fact: dict | None, dues: list[dict]) -> str | None:
    """The deadline now in force (a stamp) for the hand-off an extension names, from the
    deadlines as deadline_view lists them (None: not an extension, or that hand-off is
    no longer owed)."""
    if not isinstance(fact, dict) or fact.get("kind") != "extend":
        return None
    return next((d["due"] for d in dues if d.get("side") == fact.get("side")
                 and d.get("handoff") == fact.get("handoff")), None)


def _owed_words(kind: str | None, whose: str = "its") -> str:
    """What a side owed, by its decision's kind in words ('card_or_pass': its orders for a
    card to play or a pass (2.0 II.1)); its orders, when the kind is not known (whose:
    'its', 'your', 'his')."""
    return f"{whose} orders for {decision_words(kind)}" if kind else f"{whose} orders"


def _settings_words(fact: dict) -> str:
    parts = []
    if fact.get("deadline"):
        scope = f", for {decision_words(fact['decision'])}" \
            if fact.get("decision") else ""
        parts.append(f"orders due {fact['deadline']} after each hand-off{scope}")
    if fact.get("reminders") is not None:
        parts.append(f"reminders {', '.join(fact['reminders']) or 'none'} before")
    if fact.get("missed"):
        parts.append(f"a missed deadline: {fact['missed']}")
    if fact.get("extensions") is not None:
        parts.append(f"{counted(fact['extensions'], 'extension')} a side")
    if fact.get("skip_weekends"):
        parts.append("no deadline on a weekend")
    if fact.get("zone"):
        parts.append(f"times in {fact['zone']}")
    return "deadlines: " + "; ".join(parts)


def settings_body(fact: dict) -> dict:
    """The moderator's record setting deadlines (at `new` or later)."""
    fact = {"kind": "settings", **{k: v for k, v in fact.items() if v is not None}}
    return {"at": now(), "actor": "moderator", "order": SETTINGS, "events": [], "clock": fact}


def gave_back(raw: bytes, hold: str) -> bool:
    """Whether an extension of the journal (raw) gives back the time of the hold named hold
    (ClockFact `hold`: found as its canonical form writes it, which no order's text, a JSON
    string, can hold unescaped)."""
    return b'"hold":"' + hold.encode() + b'"' in raw


def fact_body(actor: str, order: str, fact: dict) -> dict:
    """A record holding only a fact about time (no events)."""
    return {"at": now(), "actor": actor, "order": order, "events": [], "clock": fact}


def settings_fact(deadline: str | None, reminders: str | None, missed: str | None,
                  extensions: int | None, skip_weekends: bool | None,
                  decision: str | None = None, option: str = "--deadline",
                  zone: str | None = None) -> dict:
    """The settings record's clock part from the options given (UsageError on a bad one);
    option: the one the deadline was given with (`new --deadline`, `deadline --set`); zone:
    the game's time zone, an IANA name (UTC puts the game back on UTC)."""
    fact: dict = {}
    if deadline is not None:
        fact["deadline"] = duration_text(parse_duration(deadline, option))
    if decision is not None:
        if decision not in DECISIONS:
            raise UsageError(f"--kind {decision!r}: not a kind of decision; the kinds are "
                             f"{', '.join(sorted(DECISIONS))}")
        if deadline is None:
            raise UsageError("--kind: give the deadline for this kind of decision (--set)")
        fact["decision"] = decision
    if reminders is not None:
        spans = [parse_duration(r, "--reminders") for r in reminders.split(",") if r.strip()]
        if len(spans) > MOST_REMINDERS:
            raise UsageError(f"--reminders: {len(spans)} reminders; give at most "
                             f"{MOST_REMINDERS} before a deadline")
        fact["reminders"] = [duration_text(s) for s in sorted(spans, reverse=True)]
    if missed is not None:
        if missed not in POLICIES:
            raise UsageError(f"--missed {missed!r}: choose default, wait or pause")
        fact["missed"] = missed
    if extensions is not None:
        if not 0 <= extensions <= 100:
            raise UsageError(f"--extensions {extensions}: give 0 to 100")
        fact["extensions"] = extensions
    if skip_weekends is not None:
        fact["skip_weekends"] = skip_weekends
    if zone is not None:
        from ..base.zones import check_zone  # start-up: only a game with a time zone

        fact["zone"] = check_zone(zone)
    return fact


def new_settings(deadline: str, reminders: str | None, missed: str | None,
                 extensions: int | None, skip_weekends: bool, zone: str | None = None) -> dict:
    """The clock part of the settings record `new --deadline` writes (UsageError on a bad
    option): the reminders given ('' for none, as `deadline --reminders ''` has it), else
    those of REMINDERS shorter than the deadline (a 24h deadline is reminded 2h before
    only)."""
    if reminders is None:
        span = parse_duration(deadline, "--deadline")
        reminders = ",".join(duration_text(r) for r in REMINDERS if r < span)
    fact = settings_fact(deadline, reminders, missed or "wait",
                         2 if extensions is None else extensions, skip_weekends,
                         zone=zone)
    refuse_late_reminders(fact, Settings())
    return fact


def refuse_late_reminders(fact: dict, in_force: Settings) -> None:
    """UsageError for a reminder a settings record gives at or beyond the longest deadline
    the game has once it is applied: it would come at the hand-off or before it, whatever
    the decision. A reminder that only some deadlines are too short for (a kind's own, or
    one set after it) stays: each deadline skips it (Due.reminders)."""
    if not fact.get("reminders"):
        return
    after = msgspec.structs.replace(in_force, kinds=dict(in_force.kinds))
    after.take(fact)
    longest = after.longest()
    late = [r for r in fact["reminders"]
            if longest is not None and parse_duration(r) >= longest]
    if late:
        most = duration_text(longest)
        raise UsageError(f"--reminders {quoted(late[0])}: the game's longest deadline is "
                         f"{most}, so a reminder {late[0]} before it comes at the hand-off "
                         f"or earlier; give reminders shorter than {most}")


# ---------------------------------------------------------------- reading the journal

def paused(raw: bytes) -> bool:
    """Whether the game is paused: the last pause or resume record is a pause."""
    return pause_of(raw) is not None


def timeline(journal: Journal, raw: bytes, games_dir: Path | None = None,
             checked: list[dict] | None = None) -> Timeline:
    """Every owing side's deadline after raw's last record: the journal replayed and walked
    (clockwalk.py) from this user's snapshot when one fits, which keeps the walk (`checked`:
    raw's records, already checked, which are not checked again)."""
    pos = position(journal, raw, games_dir, checked=checked, walk=True)
    return timeline_of(pos.walk, pos.state, pos.data, pos.seq, pos.hash, journal.name)


# ---------------------------------------------------------------- changing them

def set_deadlines(path: Path | str, fact: dict, games_dir: Path | None = None) -> dict:
    """Append the moderator's settings record (new values for the game or a decision kind)."""
    journal = Journal(path, keep_contract)
    if not fact:
        raise UsageError("nothing to change: give --set, --reminders, --missed, --extensions, "
                         "--skip-weekends or --zone")

    def build(raw: bytes) -> tuple[int, str, list[dict]]:
        pos = position(journal, raw, games_dir)        # walked when it has deadlines
        _open_game(pos, path, games_dir)
        refuse_late_reminders(fact, pos.walk.settings if pos.walk is not None else Settings())
        return pos.seq, pos.hash, [settings_body(fact)]

    return journal.append_raw(build)[1][0]


def _open_game(pos, path: Path | str | None = None, games_dir: Path | None = None) -> None:
    """NoOrdersTaken (kind order_rejected, exit 1) when the game's clock no longer runs (pos:
    its replay.Position): over, closed by its reveal, or played under older rules or data
    until the moderator upgrades it (`order` refuses it too; no pass of tick plays it). The
    same refusal for the moderator's settings, his pause and an extension, his or a
    player's by mail: each is refused for what the game is now, not for how the command was
    written (docs/scripting.md's table of kinds). Without path (a pause or resume, which
    runs no deadline) an outdated game is not refused: the moderator may stop its clock."""
    state = pos.state
    if unset(state):
        raise NoOrdersTaken("closed", NO_SETUP)
    if game_over(state):
        raise NoOrdersTaken("over", "the game is over; its deadlines no longer run")
    if state.revealed:
        raise NoOrdersTaken("closed", CLOSED)
    older = None if path is None else outdated(pos, games_dir)
    if older is not None:
        raise NoOrdersTaken("outdated", f"{Path(path).name}: {outdated_words(older, path)} "
                                        f"(nothing was written)")


def pause_or_resume(path: Path | str, pause: bool, games_dir: Path | None = None) -> dict:
    """Append the moderator's record pausing the game, or resuming it."""
    journal = Journal(path, keep_contract)

    def build(raw: bytes) -> tuple[int, str, list[dict]]:
        pos = position(journal, raw, games_dir)
        _open_game(pos)
        if paused(raw) == pause:
            raise UsageError(f"the game is {'already' if pause else 'not'} paused; nothing "
                             f"was written")
        kind = "pause" if pause else "resume"
        return pos.seq, pos.hash, [fact_body("moderator", PAUSE if pause else RESUME,
                                             {"kind": kind})]

    return journal.append_raw(build)[1][0]


def refuse_spent_extension(dues: list[Due], by, span: str, actor: str,
                           journal: Path | str | None = None) -> None:
    """An extension is more time from now on: one whose new deadline has passed already
    (asked, or given, long after the deadline was missed) would be ruled missed at the next
    pass, the side's extension spent for nothing. OrderError naming the deadline, and, to
    the moderator (journal: as his command names it), the command that counts from now."""
    moment = clock_now()
    for d in dues:
        ends = d.due + by
        if ends > moment:
            continue
        more = ("ask the moderator" if actor != "moderator" else
                "give a longer extension" + ("" if journal is None else
                                             f", or {span} from now: `referee extend "
                                             f"{one_line(str(journal))} {d.side} {span} "
                                             f"{FROM_NOW}`"))
        whose = "your" if actor == d.side else f"{GameData.player_words(d.side)}'s"
        raise OrderError(f"extend {span}: {whose} orders were due by "
                         f"{for_players(d.due, d.zone)}; {span} more ends "
                         f"{for_players(ends, d.zone)}, which has passed already (now "
                         f"{for_players(moment, d.zone)}): no time is given; {more}")


def extend(path: Path | str, actor: str, side: str | None, by: str,
           games_dir: Path | None = None, mail: dict | None = None,
           append=None, hold: str | None = None, given: str | None = None,
           from_now: bool = False, journal_named: Path | str | None = None) -> list[dict]:
    """Append the records extending the deadlines of `side` (the moderator: every side owing
    orders when side is None) by `by`. A side asking for itself may do so the number of
    times the game allows (OrderError with the reason otherwise). `mail`: the message a
    side asked in (kept for the moderator, as with orders); none is written when the journal
    holds that message already. `hold`: the hold whose time the moderator's extension gives
    back (ClockFact), none written either when an extension of the journal names it;
    `given`: why (ClockFact). from_now: the moderator's `--from-now`, each deadline set
    `by` after now (extendfromnow.py); journal_named: the journal as his command named it,
    for the command a refusal offers him.
    `append(build)` appends (the caller's Table), by default the journal's own locked
    append."""
    journal = Journal(path, keep_contract)
    length = parse_duration(by, "extend")
    span = duration_text(length)

    def build(raw: bytes) -> tuple[int, str, list[dict]]:
        if (mail is not None and mail["sha256"].encode() in raw) or \
                (hold is not None and gave_back(raw, hold)):
            last = json.loads(raw[raw.rfind(b"\n", 0, len(raw) - 1) + 1:])
            return last["seq"], last["hash"], []
        pos = position(journal, raw, games_dir, walk=True)
        _open_game(pos, path, games_dir)
        tl = timeline_of(pos.walk, pos.state, pos.data, pos.seq, pos.hash, journal.name)
        if side is not None and side not in tl.data.sides:
            raise UsageError(f"extend {side!r}: not a side of this game "
                             f"({', '.join(tl.data.sides)})")
        dues = [d for d in tl.dues if side is None or d.side == side]
        if tl.paused:
            refuse_paused(raw, "extend: ", path if actor == "moderator" else None)
        if not dues:
            who = f"{tl.data.side_name(side)} owes no orders" if side else "no side owes orders"
            raise OrderError(f"extend: {who} with a deadline now (a deadline runs from each "
                             f"hand-off; see `referee status`)")
        if actor != "moderator":
            allowed, taken = tl.settings.extensions, tl.used.get(actor, 0)
            if taken >= allowed:
                raise OrderError(f"extend: {tl.data.side_name(actor)} has used the "
                                 f"{counted(allowed, 'extension')} this game allows; ask the "
                                 f"moderator")
        if from_now:
            spans = {d.side: from_now_span(d, length, span) for d in dues}
        else:
            refuse_spent_extension(dues, length, span, actor, journal_named)
            spans = {d.side: span for d in dues}
        bodies = [fact_body(actor, f"{EXTEND} {spans[d.side]}", {
            "kind": "extend", "side": d.side, "handoff": d.handoff, "by": spans[d.side],
            **({"hold": hold} if hold is not None else {}),
            **({"given": given} if hold is not None and given else {})}) for d in dues]
        if mail is not None:
            bodies[0]["mail"] = {"to": "moderator", "salt": os.urandom(16).hex(),
                                 "data": dict(mail)}
        return tl.seq, tl.hash, bodies

    return (append or journal.append_raw)(build)[1]
