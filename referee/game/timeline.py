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
from datetime import datetime, timedelta
from pathlib import Path

import msgspec

from ..base.clock import duration_text, for_players, parse_duration, parse_stamp, stamp
from ..base.errors import JournalError, OrderError, UsageError
from ..contracts.records import MOST_REMINDERS
from ..contracts.views import Deadlines
from ..data.gamedata import GameData
from ..engine import waiting_on
from ..engine.core import DECISIONS
from ..engine.state import State
from ..store.journal import Journal, now, scan
from .records import keep_contract
from .replay import Era, data_for, position, start_state

SETTINGS = "set deadlines"
EXTEND = "extend"
REMINDED = "reminder sent"
MISSED = "deadline missed"
PAUSE = "pause the game"
RESUME = "resume the game"
POLICIES = ("default", "wait", "pause")
PAUSED = ("the game is paused (a deadline was missed, or the moderator paused it): no orders "
          "are taken until the moderator resumes it (`referee deadline JOURNAL --resume`)")


class Settings(msgspec.Struct):
    """The deadline settings in force: from `new` and every later settings record."""

    deadline: timedelta | None = None
    kinds: dict[str, timedelta] = msgspec.field(default_factory=dict)
    reminders: list[timedelta] = msgspec.field(
        default_factory=lambda: [timedelta(hours=24), timedelta(hours=2)])
    missed: str = "wait"
    extensions: int = 2
    skip_weekends: bool = False

    def duration(self, decision: str) -> timedelta | None:
        """The time a side has to answer a decision of this kind (None: no deadline)."""
        return self.kinds.get(decision, self.deadline)

    def take(self, fact: dict) -> None:
        """Apply a settings record: each member it holds replaces the one before."""
        if fact.get("deadline") is not None:
            span = parse_duration(fact["deadline"])
            if fact.get("decision"):
                self.kinds[fact["decision"]] = span
            else:
                self.deadline = span
        if fact.get("reminders") is not None:
            self.reminders = sorted((parse_duration(r) for r in fact["reminders"]),
                                    reverse=True)
        for name in ("missed", "extensions", "skip_weekends"):
            if fact.get(name) is not None:
                setattr(self, name, fact[name])


class Due(msgspec.Struct):
    """One side's deadline for the decision it owes now."""

    side: str
    handoff: int                # the record that asked it (or the resume after it)
    decision: str
    due: datetime
    extended: timedelta

    @property
    def words(self) -> str:
        """The deadline as a player reads it."""
        return f"Orders due by {for_players(self.due)}"


class Timeline(msgspec.Struct):
    """What the journal says about time: settings, pause, each owing side's deadline, and
    the reminders, extensions and missed deadlines recorded."""

    settings: Settings
    paused: bool
    dues: list[Due]
    seq: int
    hash: str
    used: dict[str, int]                     # extensions each side asked for
    reminded: set[tuple[str, int, str, str]]     # (side, hand-off, before, due)
    # (side, hand-off, due) missed with nobody answering (wait, pause): once for each due
    missed: set[tuple[str, int, str]]
    # (side, hand-off, due) the referee answered for (policy default): again while the side
    # still owes that decision (each hit of a loss, each unit to place is an answer)
    answered: set[tuple[str, int, str]] = msgspec.field(default_factory=set)
    state: State | None = None
    data: GameData | None = None

    def due_for(self, side: str) -> Due | None:
        return next((d for d in self.dues if d.side == side), None)


# What each kind of fact must hold (contracts/records.py ClockFact says what each means).
NEEDS = {"settings": (), "extend": ("side", "handoff", "by"),
         "reminded": ("side", "handoff", "before", "due"),
         "missed": ("side", "handoff", "due", "missed"), "pause": (), "resume": ()}


def fact_problem(fact: dict, sides) -> str | None:
    """What is wrong with a clock part the contract lets through (None if nothing): a member
    its kind needs is missing, a side is no side of the game, a duration is out of range."""
    missing = [k for k in NEEDS[fact["kind"]] if fact.get(k) is None]
    if missing:
        return f"a {fact['kind']} fact without {', '.join(missing)}"
    if fact.get("side") is not None and fact["side"] not in sides:
        return f"it names {fact['side']!r}, no side of the game"
    for name in ("deadline", "by", "before"):
        try:
            if fact.get(name) is not None:
                parse_duration(fact[name])
        except UsageError as exc:
            return str(exc)
    for text in fact.get("reminders") or []:
        try:
            parse_duration(text)
        except UsageError as exc:
            return str(exc)
    return None


def clock_of(rec: dict) -> dict | None:
    """A record's clock part, if it has one."""
    fact = rec.get("clock")
    return fact if isinstance(fact, dict) else None


def answers_missed(rec: dict) -> bool:
    """Whether a record is the referee's answer for a side that missed its deadline (policy
    default): an order of that side, decided like any other, holding the missed deadline."""
    fact = clock_of(rec)
    return fact is not None and fact.get("kind") == "missed" and \
        fact.get("missed") == "default" and fact.get("side") == rec.get("actor")


def clock_words(rec: dict, name=lambda side: side) -> str | None:
    """What a record's clock part says, in words (None: it has none); name(side) gives a
    side's name."""
    fact = clock_of(rec)
    if fact is None:
        return None
    kind, side = fact["kind"], name(fact.get("side") or "")
    due = for_players(parse_stamp(fact["due"])) if fact.get("due") else ""
    if kind == "settings":
        return _settings_words(fact)
    if kind == "extend":
        return f"{side}'s deadline (the decision asked in record {fact.get('handoff')}) is " \
               f"{fact.get('by')} later"
    if kind == "reminded":
        return f"{side} reminded {fact.get('before')} before the deadline, {due}"
    if kind == "missed":
        from .defaults import NULL_TEXTS  # start-up: the rules' answers, for a missed one

        how = "a sealed answer" if "private_order" in rec else \
            "the answer that does nothing" if rec.get("order") in NULL_TEXTS else \
            "its default answer for the decision"
        what = {"default": f"the referee answered for {side} with {how} (rule "
                           f"{fact.get('rule')})",
                "wait": "the game waits for them (the moderator is told)",
                "pause": "the game is paused until the moderator resumes it"}
        return f"{side}'s orders were due by {due} and none came: " \
               f"{what.get(fact.get('missed'), what['wait'])}"
    return "the moderator paused the game: no orders are taken, no deadline runs" \
        if kind == "pause" else "the moderator resumed the game: deadlines run again from now"


def _settings_words(fact: dict) -> str:
    parts = []
    if fact.get("deadline"):
        scope = f" for a {fact['decision']} decision" if fact.get("decision") else ""
        parts.append(f"orders due {fact['deadline']} after each hand-off{scope}")
    if fact.get("reminders") is not None:
        parts.append(f"reminders {', '.join(fact['reminders']) or 'none'} before")
    if fact.get("missed"):
        parts.append(f"a missed deadline: {fact['missed']}")
    if fact.get("extensions") is not None:
        parts.append(f"{fact['extensions']} extension(s) a side")
    if fact.get("skip_weekends"):
        parts.append("no deadline on a weekend")
    return "deadlines: " + "; ".join(parts)


def settings_body(fact: dict) -> dict:
    """The moderator's record setting deadlines (at `new` or later)."""
    fact = {"kind": "settings", **{k: v for k, v in fact.items() if v is not None}}
    return {"at": now(), "actor": "moderator", "order": SETTINGS, "events": [], "clock": fact}


def fact_body(actor: str, order: str, fact: dict) -> dict:
    """A record holding only a fact about time (no events)."""
    return {"at": now(), "actor": actor, "order": order, "events": [], "clock": fact}


def settings_fact(deadline: str | None, reminders: str | None, missed: str | None,
                  extensions: int | None, skip_weekends: bool | None,
                  decision: str | None = None) -> dict:
    """The settings record's clock part from the options given (UsageError on a bad one)."""
    fact: dict = {}
    if deadline is not None:
        fact["deadline"] = duration_text(parse_duration(deadline, "--deadline"))
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
    return fact


# ---------------------------------------------------------------- reading the journal

def clock_facts(raw: bytes) -> list[dict]:
    """The records of checked journal bytes that hold a clock part, in order (read without
    replaying: only their lines are parsed)."""
    out, start = [], raw.find(b'"clock":{')
    while start >= 0:
        begin = raw.rfind(b"\n", 0, start) + 1
        end = raw.find(b"\n", start)
        rec = json.loads(raw[begin:end])
        if clock_of(rec) is not None:
            out.append(rec)
        start = raw.find(b'"clock":{', end)
    return out


def paused(raw: bytes) -> bool:
    """Whether the game is paused: the last pause or resume record is a pause."""
    state = False
    for rec in clock_facts(raw):
        fact = rec["clock"]
        if fact["kind"] in ("pause", "resume"):
            state = fact["kind"] == "pause"
        elif fact["kind"] == "missed" and fact.get("missed") == "pause":
            state = True
    return state


def _key(state: State, side: str, waited: list[str]) -> tuple | None:
    """What a side is asked now (None: nothing): a new key is a new hand-off."""
    if side not in waited or state.pending is None:
        return None
    return (state.pending.kind, state.pending.side, state.turn, state.phase)


class _Walk:
    """The journal read record by record: the hand-offs and the facts about time so far."""

    def __init__(self, name: str, sides):
        self.name, self.sides = name, sides
        self.settings, self.paused = Settings(), False
        self.keys: dict[str, tuple | None] = {}
        self.handoff: dict[str, dict] = {}          # each side's hand-off record
        self.resumed: dict | None = None
        self.used: dict[str, int] = {}
        self.extended: dict[tuple[str, int], timedelta] = {}
        self.reminded: set = set()
        self.missed: set = set()
        self.answered: set = set()

    def hand_offs(self, state: State, rec: dict) -> None:
        """A side asked something new by this record has its hand-off here."""
        waited = waiting_on(state)
        for side in self.sides:
            key = _key(state, side, waited)
            if key is not None and key != self.keys.get(side):
                self.handoff[side] = rec
            self.keys[side] = key

    def take(self, rec: dict) -> None:
        """What a record's clock part changes."""
        fact = clock_of(rec)
        if fact is None:
            return
        problem = fact_problem(fact, self.sides)
        if problem is not None:
            raise JournalError(f"{self.name}: record {rec['seq']} holds a fact about time "
                               f"the referee does not write: {problem}", record=rec["seq"])
        kind = fact["kind"]
        if kind == "settings":
            self.settings.take(fact)
        elif kind == "extend":
            if rec["actor"] != "moderator":
                self.used[rec["actor"]] = self.used.get(rec["actor"], 0) + 1
            slot = (fact["side"], fact["handoff"])
            self.extended[slot] = self.extended.get(slot, timedelta(0)) + \
                parse_duration(fact["by"])
        elif kind == "reminded":
            self.reminded.add((fact["side"], fact["handoff"], fact["before"], fact["due"]))
        elif kind == "missed" and fact.get("missed") == "default":
            self.answered.add((fact["side"], fact["handoff"], fact["due"]))
        elif kind == "missed":
            self.missed.add((fact["side"], fact["handoff"], fact["due"]))
            self.paused = self.paused or fact.get("missed") == "pause"
        else:
            self.paused = kind == "pause"
            self.resumed = rec if kind == "resume" else self.resumed

    def due(self, state: State, side: str) -> Due | None:
        """A side's deadline for the decision it owes now (None: no deadline for it)."""
        made = self.handoff.get(side)
        span = self.settings.duration(state.pending.kind)
        if made is None or span is None:
            return None
        start = self.time_of(made)
        if self.resumed is not None and self.resumed["seq"] > made["seq"]:
            start = max(start, self.time_of(self.resumed))
        more = self.extended.get((side, made["seq"]), timedelta(0))
        due = start + span + more
        if self.settings.skip_weekends and due.weekday() >= 5:
            due += timedelta(days=7 - due.weekday())
        return Due(side, made["seq"], state.pending.kind, due, more)

    def time_of(self, rec: dict) -> datetime:
        moment = parse_stamp(rec.get("at"))
        if moment is None:
            raise JournalError(f"{self.name}: record {rec['seq']} has no time the referee "
                               f"writes ({rec.get('at')!r}), so no deadline can run from it",
                               record=rec["seq"])
        return moment


def timeline(journal: Journal, raw: bytes, games_dir: Path | None = None,
             checked: list[dict] | None = None) -> Timeline:
    """Replay the journal's bytes and work out every owing side's deadline (`checked`: raw's
    records, already checked, which are not checked again)."""
    records = iter(checked) if checked is not None else scan(raw, journal.name)
    header = next(records)
    data = data_for(header, journal.name, games_dir)
    state = start_state(header, data, journal.name)
    era = Era(header, data, games_dir, journal.name)
    walk = _Walk(journal.name, data.sides)
    last = header
    for rec in records:
        era.apply(state, rec)
        walk.sides = era.data.sides
        walk.hand_offs(state, rec)
        walk.take(rec)
        last = rec
    dues = [d for d in (walk.due(state, side) for side in waiting_on(state)) if d is not None]
    return Timeline(walk.settings, walk.paused, dues, last["seq"], last["hash"], walk.used,
                    walk.reminded, walk.missed, walk.answered, state, era.data)


def read_timeline(path: Path | str, games_dir: Path | None = None) -> Timeline:
    """The timeline of a journal as it is now."""
    journal = Journal(path, keep_contract)
    return timeline(journal, journal.raw(), games_dir)


def has_deadlines(raw: bytes) -> bool:
    """Whether a journal holds any record about time (else it has no deadlines)."""
    return b'"clock":{' in raw


def deadline_view(tl: Timeline, **made: list[int]) -> dict:
    """What `status` shows of the deadlines: each owing side's, and whether the game is
    paused (the same for every reader: deadlines are public); `deadline` and `extend` add
    the records they made (`records`)."""
    return Deadlines.plain(
        paused=tl.paused, policy=tl.settings.missed,
        due=[{"side": d.side, "decision": d.decision, "due": stamp(d.due), "words": d.words,
              "handoff": d.handoff,
              "extended": duration_text(d.extended) if d.extended else None}
             for d in tl.dues], **made)


# ---------------------------------------------------------------- changing them

def set_deadlines(path: Path | str, fact: dict, games_dir: Path | None = None) -> dict:
    """Append the moderator's settings record (new values for the game or a decision kind)."""
    journal = Journal(path, keep_contract)
    if not fact:
        raise UsageError("nothing to change: give --set, --reminders, --missed, --extensions "
                         "or --skip-weekends")

    def build(raw: bytes) -> tuple[int, str, list[dict]]:
        pos = position(journal, raw, games_dir)
        _open_game(pos.state)
        return pos.seq, pos.hash, [settings_body(fact)]

    return journal.append_raw(build)[1][0]


def _open_game(state: State) -> None:
    if state.revealed or state.phase == "over":
        raise UsageError("the game is over; its deadlines no longer run")


def pause_or_resume(path: Path | str, pause: bool, games_dir: Path | None = None) -> dict:
    """Append the moderator's record pausing the game, or resuming it."""
    journal = Journal(path, keep_contract)

    def build(raw: bytes) -> tuple[int, str, list[dict]]:
        pos = position(journal, raw, games_dir)
        _open_game(pos.state)
        if paused(raw) == pause:
            raise UsageError(f"the game is {'already' if pause else 'not'} paused; nothing "
                             f"was written")
        kind = "pause" if pause else "resume"
        return pos.seq, pos.hash, [fact_body("moderator", PAUSE if pause else RESUME,
                                             {"kind": kind})]

    return journal.append_raw(build)[1][0]


def extend(path: Path | str, actor: str, side: str | None, by: str,
           games_dir: Path | None = None, mail: dict | None = None,
           append=None) -> list[dict]:
    """Append the records extending the deadlines of `side` (the moderator: every side owing
    orders when side is None) by `by`. A side asking for itself may do so the number of
    times the game allows (OrderError with the reason otherwise). `mail`: the message a
    side asked in (kept for the moderator, as with orders); none is written when the journal
    holds that message already. `append(build)` appends (the caller's Table), by default the
    journal's own locked append."""
    journal = Journal(path, keep_contract)
    span = duration_text(parse_duration(by, "extend"))

    def build(raw: bytes) -> tuple[int, str, list[dict]]:
        if mail is not None and mail["sha256"].encode() in raw:
            last = json.loads(raw[raw.rfind(b"\n", 0, len(raw) - 1) + 1:])
            return last["seq"], last["hash"], []
        tl = timeline(journal, raw, games_dir)
        if side is not None and side not in tl.data.sides:
            raise UsageError(f"extend {side!r}: not a side of this game "
                             f"({', '.join(tl.data.sides)})")
        dues = [d for d in tl.dues if side is None or d.side == side]
        if tl.paused:
            raise OrderError(f"extend: {PAUSED}")
        if not dues:
            who = f"{side} owes" if side else "no side owes"
            raise OrderError(f"extend: {who} no orders with a deadline now (a deadline runs "
                             f"from each hand-off; see `referee status`)")
        if actor != "moderator":
            allowed, taken = tl.settings.extensions, tl.used.get(actor, 0)
            if taken >= allowed:
                raise OrderError(f"extend: {actor} has used the {allowed} extension"
                                 f"{'s' if allowed != 1 else ''} this game allows; ask the "
                                 f"moderator")
        bodies = [fact_body(actor, f"{EXTEND} {span}", {
            "kind": "extend", "side": d.side, "handoff": d.handoff, "by": span}) for d in dues]
        if mail is not None:
            bodies[0]["mail"] = {"to": "moderator", "salt": os.urandom(16).hex(),
                                 "data": dict(mail)}
        return tl.seq, tl.hash, bodies

    return (append or journal.append_raw)(build)[1]
