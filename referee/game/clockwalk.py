"""The walk through a journal that deadlines are worked out from (timeline.py says what a
deadline is): each side's hand-offs, and the facts about time so far, read record by record
as the records are replayed.

A journal that holds a record about time is walked as it is replayed (replay.position), and
the state snapshot keeps the walk with the state: a read from a snapshot walks only the
records after it, and `status` shows the deadlines of a long game without reading it a
second time. The records about time can also be read without replaying (clock_facts), as
the game's time zone is (zone_of). What a walk says after its last record is dues.py's.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta

import msgspec

from ..base.clock import (
    duration_text,
    for_players,
    parse_duration,
    parse_stamp,
    past_weekend,
    stamp,
)
from ..base.errors import UNREADABLE, JournalError, UsageError, quoted
from ..base.plurals import a_or_an
from ..engine import sealed_kind, waiting_on
from ..engine.state import State

# The reminders of a game whose settings name none: a day and two hours before each deadline.
REMINDERS = (timedelta(hours=24), timedelta(hours=2))


class Settings(msgspec.Struct):
    """The deadline settings in force: from `new` and every later settings record."""

    deadline: timedelta | None = None
    kinds: dict[str, timedelta] = msgspec.field(default_factory=dict)
    reminders: list[timedelta] = msgspec.field(default_factory=lambda: list(REMINDERS))
    missed: str = "wait"
    extensions: int = 2
    skip_weekends: bool = False
    zone: str | None = None     # the game's time zone (None: UTC), an IANA name

    def duration(self, decision: str) -> timedelta | None:
        """The time a side has to answer a decision of this kind (None: no deadline)."""
        return self.kinds.get(decision, self.deadline)

    def longest(self) -> timedelta | None:
        """The longest deadline in force, whatever the decision (None: no deadline)."""
        spans = [s for s in (self.deadline, *self.kinds.values()) if s is not None]
        return max(spans, default=None)

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
        for name in ("missed", "extensions", "skip_weekends", "zone"):
            if fact.get(name) is not None:
                setattr(self, name, fact[name])


class Due(msgspec.Struct):
    """One side's deadline for the decision it owes now."""

    side: str
    handoff: int                # the record that asked it (or the resume after it)
    decision: str
    due: datetime
    extended: timedelta         # all the time added to it
    # When the deadline last began to run: the hand-off, the resume after it or the last
    # extension of it. A reminder is due only after it: one at it or before it (24h before a
    # 24h deadline, or before a deadline extended after it passed) would be the hand-off or
    # the extension itself, whose mail gives the deadline already.
    since: datetime
    zone: str | None = None     # the game's time zone, the deadline is read in (None: UTC)
    last_extension: timedelta = timedelta(0)        # the time its last extension added

    @property
    def words(self) -> str:
        """The deadline as a player reads it, in the game's time zone."""
        return f"Orders due by {for_players(self.due, self.zone)}"

    def reminders(self, settings: Settings) -> list[timedelta]:
        """The game's reminders this deadline has: those due after it began to run."""
        return [r for r in settings.reminders if self.due - r > self.since]


# What each kind of fact must hold (contracts/records.py ClockFact says what each means).
NEEDS = {"settings": (), "extend": ("side", "handoff", "by"),
         "reminded": ("side", "handoff", "before", "due"),
         "missed": ("side", "handoff", "due", "missed"), "pause": (), "resume": ()}


def fact_problem(fact: dict, sides) -> str | None:
    """What is wrong with a clock part the contract lets through (None if nothing): a member
    its kind needs is missing, a side is no side of the game, a duration is out of range."""
    missing = [k for k in NEEDS[fact["kind"]] if fact.get(k) is None]
    if missing:
        return f"{a_or_an(fact['kind'])} fact without {', '.join(missing)}"
    if fact.get("side") is not None and fact["side"] not in sides:
        return f"it names {fact['side']!r}, no side of the game"
    if fact.get("hold") is not None and fact["kind"] != "extend":
        return f"{a_or_an(fact['kind'])} fact naming a hold (an extension's only)"
    for name in ("deadline", "by", "before"):
        try:
            if fact.get(name) is not None:
                parse_duration(fact[name])
        except UsageError as exc:
            return str(exc)
    if fact.get("zone") is not None:
        from ..base.zones import zone_problem  # start-up: only a game with a time zone

        problem = zone_problem(fact["zone"])
        if problem is not None:
            return f"its zone {quoted(str(fact['zone']))}: {problem}"
    for text in fact.get("reminders") or []:
        try:
            parse_duration(text)
        except UsageError as exc:
            return str(exc)
    return None


# A record's part about time, as its line holds it.
CLOCK_MEMBER = b'"clock":{'


# [(bytes, where their first clock part begins, -1: none)]: the bytes last asked
_LOOKED: list = []


def has_deadlines(raw: bytes) -> bool:
    """Whether a journal holds any record about time (else it has no deadlines). Asked again
    of the same bytes, or of them with records after them (the journal an order leaves),
    only what is new is searched."""
    return _first_clock(raw) >= 0


def _first_clock(raw: bytes) -> int:
    """Where the first clock part of a journal's bytes begins (-1: none), kept for the bytes
    last asked: clock_facts then reads from there, and a long game that got its deadlines
    late is not searched again up to them."""
    kept = _LOOKED[-1] if _LOOKED else None     # read once: a thread may replace it
    if kept is not None and kept[0] is raw:
        return kept[1]
    if type(raw) is not bytes:
        return _clock_in(raw)
    before = kept[0] if kept is not None else b""
    if before and len(raw) > len(before) and raw.startswith(before):
        found = kept[1] if kept[1] >= 0 else \
            _clock_in(raw, len(before) - len(CLOCK_MEMBER) + 1)
    else:
        found = _clock_in(raw)
    _LOOKED[:] = [(raw, found)]
    return found


def _clock_in(raw: bytes, start: int = 0) -> int:
    return raw.find(CLOCK_MEMBER, start)


def clock_of(rec: dict) -> dict | None:
    """A record's clock part, if it has one."""
    fact = rec.get("clock")
    return fact if isinstance(fact, dict) else None


def clock_facts(raw: bytes) -> list[dict]:
    """The records of checked journal bytes that hold a clock part, in order (read without
    replaying: only their lines are parsed)."""
    out, start = [], _first_clock(raw)      # kept for these bytes, when they were asked
    while start >= 0:
        begin = raw.rfind(b"\n", 0, start) + 1
        end = raw.find(b"\n", start)
        rec = json.loads(raw[begin:end])
        if clock_of(rec) is not None:
            out.append(rec)
        start = raw.find(CLOCK_MEMBER, end)
    return out


def zone_of(raw: bytes) -> str | None:
    """The game's time zone after checked journal bytes (None: UTC): the last settings
    record naming one (read without replaying, so without the walk's check of each fact:
    a zone no database knows is read as UTC here, and the walk refuses its record)."""
    if not has_deadlines(raw):
        return None
    zones = [rec["clock"]["zone"] for rec in clock_facts(raw)
             if rec["clock"].get("kind") == "settings" and rec["clock"].get("zone")]
    if not zones:
        return None
    from ..base.zones import zone_problem  # start-up: only a game with a time zone

    return zones[-1] if zone_problem(zones[-1]) is None else None


# A record as the walk keeps it: its seq and the time it was written (`at`).
Moment = tuple[int, str]


class Walk(msgspec.Struct, dict=True):
    """The journal read record by record: the hand-offs and the facts about time so far.

    `keys`: what each side was asked after the last record (None: nothing); `handoff`: the
    record that asked it; `owners`: whose the decision was when each side was last asked;
    `former`: the record since the hand-off where the other side's plan went in, a hand-off
    of its own before a sealed plan ran one deadline for both sides (hand_offs, take);
    `resumed`: the last resume; `used`: the extensions each side asked for; `extended`: the
    time added to a side's hand-off, the record of the last extension of it and the time
    that one added; `floor`: the deadline, extended, of a side's decision he answered with
    his next one, before which a deadline of his next ones never falls (hand_offs); `reminded`,
    `missed`, `answered`: what Timeline says of them. Beside its fields, what hand_offs last
    found asked (`_asked`) and what a record must change for the walk to change (`_still`:
    the decision, turn, phase and sides, and the sides waited on where both answer at once),
    which are no part of the walk."""

    settings: Settings = msgspec.field(default_factory=Settings)
    paused: bool = False
    keys: dict[str, tuple[str, int, str] | None] = msgspec.field(default_factory=dict)
    handoff: dict[str, Moment] = msgspec.field(default_factory=dict)
    owners: dict[str, str | None] = msgspec.field(default_factory=dict)
    former: dict[str, Moment] = msgspec.field(default_factory=dict)
    resumed: Moment | None = None
    used: dict[str, int] = msgspec.field(default_factory=dict)
    extended: dict[tuple[str, int], tuple[timedelta, Moment, timedelta]] = msgspec.field(
        default_factory=dict)
    reminded: set[tuple[str, int, str, str]] = msgspec.field(default_factory=set)
    missed: set[tuple[str, int, str]] = msgspec.field(default_factory=set)
    answered: set[tuple[str, int, str]] = msgspec.field(default_factory=set)
    floor: dict[str, str] = msgspec.field(default_factory=dict)
    _asked = None
    _still = None

    def kept(self) -> dict:
        """The walk as the state snapshot keeps it (plain JSON)."""
        return msgspec.to_builtins(_Kept(
            self.settings, self.paused, self.keys, self.handoff, self.owners, self.former,
            self.resumed, self.used,
            [(side, at, more, last, by) for (side, at), (more, last, by)
             in self.extended.items()],
            sorted(self.reminded), sorted(self.missed), sorted(self.answered), self.floor))

    @classmethod
    def from_kept(cls, kept: object) -> Walk | None:
        """The walk a snapshot kept (None: none, or not one this referee writes)."""
        try:
            k = msgspec.convert(kept, _Kept)
        except (msgspec.ValidationError, TypeError):
            return None
        return cls(k.settings, k.paused, k.keys, k.handoff, k.owners, k.former, k.resumed,
                   k.used, {(side, at): (more, last, by)
                            for side, at, more, last, by in k.extended},
                   set(k.reminded), set(k.missed), set(k.answered), k.floor)

    def step(self, state: State, rec, sides, name: str) -> None:
        """Walk one record just replayed onto state (a JSON object or of its class); sides:
        the game's sides under the data in force. A record without a clock part that leaves
        the decision, the turn, the phase, the sides and the sides waited on as they were
        changes nothing (most records: moves within a player turn, orders sealed into a
        plan). Where one side alone answers the decision, the sides waited on are what the
        decision says; where both answer at once (a sealed plan: 2.0 I, 2.0 V.3, 7.0), a plan
        closed by the side not asked first changes them and leaves the decision as it
        was, so they are asked again."""
        fact = clock_of(rec) if type(rec) is dict else rec.clock
        now = (state.pending, state.turn, state.phase, sides)
        still = self._still
        if fact is None and still is not None and now == still[0]:
            try:
                if still[1] is None or waiting_on(state) == still[1]:
                    return
            except UNREADABLE:      # walked: hand_offs names the record
                pass
        if type(rec) is dict:
            seq, at, actor = rec["seq"], rec.get("at"), rec.get("actor")
        else:
            seq, at, actor = rec.seq, rec.at, rec.actor
            if fact is not None:
                fact = msgspec.to_builtins(fact)
        self.hand_offs(state, seq, at, sides, name, actor)
        p = now[0]
        sealed = p is not None and sealed_kind(p.kind)
        self._still = (now, self._asked[1] if sealed else None)
        if fact is not None:
            self.take(fact, (seq, at), actor, sides, name)

    def hand_offs(self, state: State, seq: int, at, sides, name: str,
                  actor: str | None = None) -> None:
        """A side asked something new by record seq (written at `at`) has its hand-off there:
        it was not waited on before, or what it is asked (the decision's kind, the turn and
        the phase) changed. A decision both sides answer at once (a sealed plan: 2.0 I, 2.0
        V.3, 7.0) is one for both: the other side's plan going in leaves this side's hand-off,
        and so its deadline, where it was (JournalError naming the record when the rules
        cannot say whom it leaves waited on). A side that answers a decision whose deadline
        was extended with his next decision (nobody else waited on between) keeps that time:
        the next deadline is no earlier (carried)."""
        p = state.pending
        if p is None:
            self._asked = None
            for side in sides:
                self.keys[side] = None
                self.floor.pop(side, None)
            return
        asked = (p.kind, state.turn, state.phase)
        try:
            waited = waiting_on(state)
        except UNREADABLE as exc:
            # A decision the rules cannot read (a kind they do not have): the record's fault,
            # named as a replay names it, so that a check beside places it on this record.
            raise JournalError(f"{name}: record {seq} cannot be replayed: the decision it "
                               f"leaves pending cannot be read ({type(exc).__name__}: {exc})",
                               record=seq) from None
        now = (asked, waited, p.side, sides)
        # The same decision asked of the same sides as after the record before (most records:
        # moves within a player turn): each side's key, owner and floor are already what the
        # loop below would make them, which only it and `carried` in it change.
        if self._asked != now:
            self._asked = now
            self.sides_asked(asked, waited, p.side, seq, at, sides, name, actor)

    def sides_asked(self, asked: tuple, waited: list[str], owner: str, seq: int, at,
                    sides, name: str, actor: str | None) -> None:
        """Each side's hand-off, owner and floor once record seq (written at `at`) leaves
        the decision `asked` of owner pending, waiting on the sides `waited`."""
        keys = self.keys
        for side in sides:
            key = asked if side in waited else None
            if key is not None and key != keys.get(side):
                self.carried(side, actor, sides, name)
                self.handoff[side] = (seq, at)
                self.former.pop(side, None)
            elif key is None:
                self.floor.pop(side, None)
            elif key is not None and owner != self.owners.get(side):
                # The other side's plan went in: the rule before one deadline ran for both
                # made this a hand-off, and a fact it wrote names it (take).
                self.former[side] = (seq, at)
            keys[side] = key
            self.owners[side] = owner if key is not None else None

    def carried(self, side: str, actor: str | None, sides, name: str) -> None:
        """Before side's new hand-off: the deadline of the decision he leaves becomes his
        floor when he answered it himself, alone waited on, and it was extended or carried
        (an extension holds until the other side is asked); else he has none."""
        made = self.handoff.get(side)
        extended = made is not None and (side, made[0]) in self.extended
        was = self.keys.get(side)
        if not (extended or side in self.floor) or was is None or actor != side or any(
                self.keys.get(other) is not None for other in sides if other != side):
            self.floor.pop(side, None)
            return
        due = self._due(side, was[0], name)
        if due is None:
            self.floor.pop(side, None)
        else:
            self.floor[side] = stamp(due.due)

    def take(self, fact: dict, moment: Moment, actor: str, sides, name: str) -> None:
        """What a record's clock part changes. One naming the hand-off the rule before one
        deadline ran for both sides of a sealed plan placed at the other side's plan (a
        journal an older referee wrote) keeps that hand-off for its side."""
        problem = fact_problem(fact, sides)
        if problem is not None:
            raise JournalError(f"{name}: record {moment[0]} holds a fact about time the "
                               f"referee does not write: {problem}", record=moment[0])
        kind = fact["kind"]
        side = fact.get("side")
        if side in self.former and self.former[side][0] == fact.get("handoff"):
            # A fact the referee wrote against the hand-off the rule before placed at the
            # other side's plan (an extension granted, a reminder, a deadline missed): the
            # deadline it speaks of stays the side's, as that referee told him.
            self.handoff[side] = self.former.pop(side)
        if kind == "settings":
            self.settings.take(fact)
        elif kind == "extend":
            if actor != "moderator":
                self.used[actor] = self.used.get(actor, 0) + 1
            slot = (fact["side"], fact["handoff"])
            more, by = self.extended.get(slot, (timedelta(0),))[0], parse_duration(fact["by"])
            self.extended[slot] = (more + by, moment, by)
        elif kind == "reminded":
            self.reminded.add((fact["side"], fact["handoff"], fact["before"], fact["due"]))
        elif kind == "missed" and fact.get("missed") == "default":
            self.answered.add((fact["side"], fact["handoff"], fact["due"]))
        elif kind == "missed":
            self.missed.add((fact["side"], fact["handoff"], fact["due"]))
            self.paused = self.paused or fact.get("missed") == "pause"
        else:
            self.paused = kind == "pause"
            self.resumed = moment if kind == "resume" else self.resumed

    def due(self, state: State, side: str, name: str) -> Due | None:
        """A side's deadline for the decision it owes now (None: no deadline for it;
        JournalError naming the record it would run from when it cannot be a date)."""
        return self._due(side, state.pending.kind, name)

    def _due(self, side: str, kind: str, name: str) -> Due | None:
        """due, for a decision of that kind: from the side's hand-off (or the resume after
        it), never before his floor, then his extensions of it."""
        made = self.handoff.get(side)
        span = self.settings.duration(kind)
        if made is None or span is None:
            return None
        start, since = _time_of(made, name), made
        if self.resumed is not None and self.resumed[0] > made[0]:
            start, since = max((start, made), (_time_of(self.resumed, name), self.resumed))
        more, last, by = self.extended.get((side, made[0]), (timedelta(0), None, timedelta(0)))
        floor = parse_stamp(self.floor[side]) if side in self.floor else None
        try:
            due = self._settled(start + span + more)
            if floor is not None and floor > start + span and \
                    not self._told(side, made[0], stamp(due)):
                due = self._settled(floor + more)
        except OverflowError:           # a time the referee never writes (year 9999)
            raise JournalError(f"{name}: record {since[0]} has a time no deadline can run "
                               f"from ({since[1]!r}): {duration_text(span + more)} after it "
                               f"is no date", record=since[0]) from None
        began = start if last is None else max(start, _time_of(last, name))
        return Due(side, made[0], kind, due, more, began, self.settings.zone, by)


    def _settled(self, due: datetime) -> datetime:
        """A deadline moved past a weekend when the game skips them."""
        return past_weekend(due, self.settings.zone) if self.settings.skip_weekends else due

    def _told(self, side: str, handoff: int, due: str) -> bool:
        """Whether the journal told that deadline of side's hand-off already (a reminder of
        it, or it missed): a referee before the floor was kept wrote it so, and it stands."""
        return any(k[:2] == (side, handoff) and k[-1] == due for k in self.reminded) or \
            any(k == (side, handoff, due) for k in self.missed | self.answered)


def walked_on(walk: Walk | None, steps, sides, name: str) -> Walk | None:
    """A copy of a walk taken on over (state after it, record) steps: an order's records,
    once written (None: no walk, as when the position's journal held no record about time,
    or one that cannot be kept: a read walks the journal again)."""
    walk = Walk.from_kept(walk.kept()) if walk is not None else None   # walk stays as it was
    if walk is not None:
        for state, rec in steps:
            walk.step(state, rec, sides, name)
    return walk


class _Kept(msgspec.Struct):
    """Walk as a snapshot keeps it: its sets sorted, its extensions a list."""

    settings: Settings
    paused: bool
    keys: dict[str, tuple[str, int, str] | None]
    handoff: dict[str, Moment]
    owners: dict[str, str | None]
    former: dict[str, Moment]
    resumed: Moment | None
    used: dict[str, int]
    extended: list[tuple[str, int, timedelta, Moment, timedelta]]
    reminded: list[tuple[str, int, str, str]]
    missed: list[tuple[str, int, str]]
    answered: list[tuple[str, int, str]]
    floor: dict[str, str]       # none in a snapshot an older referee kept: walked again


def _time_of(moment: Moment, name: str) -> datetime:
    when = parse_stamp(moment[1])
    if when is None:
        raise JournalError(f"{name}: record {moment[0]} has no time the referee writes "
                           f"({moment[1]!r}), so no deadline can run from it",
                           record=moment[0])
    return when
