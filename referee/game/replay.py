"""A game on disk: create it, open and replay it, submit orders to it.

This layer joins the journal, the dice, the snapshots and the engine; the
command line only parses arguments and renders what these functions return.
Every answer comes from the journal itself, or from a snapshot this user's
referee signed for exactly the journal's bytes (snapshot.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import msgspec

from .. import __version__
from ..base.errors import UNREADABLE, JournalError, UsageError, quoted
from ..contracts.events_turn import RulesUpgraded
from ..contracts.records import BatchedRecord, JournalRecord, stamps_in_form
from ..contracts.scenariomodels import Scenario
from ..data import datastore
from ..data.catalog import game_data
from ..data.gamedata import GameData
from ..data.paths import GAME_NAME, default_games_dir
from ..engine.evolve import dump, evolve
from ..engine.setup import initial_state
from ..engine.state import State, state_from_builtins, state_to_builtins
from ..engine.versions import EVENT_UPCASTERS, RULES_VERSION, rules_of_header, upcast_events
from ..store import checking, snapshot
from ..store.beside import Beside
from ..store.chain import header_record, is_redacted_part, placed_parts
from ..store.dice import Dice
from ..store.journal import SCHEMA_VERSION, Journal, now, scan, upcast
from .clockwalk import Walk, has_deadlines
from .records import header_of, keep_contract, parts_checked, record_of

REVEAL = "reveal secret"
UPGRADE = "upgrade rules"


PRIVATE = "an order between army templates, hidden (1.4)"
SEALED_PLAN = "a sealed production plan (7.0)"


def body(actor: str, text: str, events: list, dice: Dice, private: bool | str = False,
         mail: dict | None = None, standing: dict | None = None,
         how: str = "hand", at: str | None = None) -> dict:
    """A record body: who, the order text, its events and every die it rolled.

    A private order shows a placeholder (PRIVATE, or the one given: a sealed
    plan, 7.0); its text is a secret part only the ordering side sees. `mail`
    (the message the order came in) is a secret part for the moderator;
    `standing` (the actor's standing orders) a secret part for the actor. `link` is the
    link of the actor's dice sheet the record reveals, `dice_from` what its dice and
    draws mix in besides the secret (sheets.py), when it used any. `by` says how a side's
    order came: its mail (whose digest is in the moderator's `mail` part), by hand at the
    referee (`how` "hand"), the referee's default at a missed deadline (`how`
    "deadline"), or the referee's when only that order was open (`how` "referee"). `at`: the
    record's time, the clock's now when none is given (verify and explain, which compare a
    record decided again with the journal's but its time, give an empty one: they read no
    clock).
    """
    rec = {"at": now() if at is None else at, "actor": actor, "order": text,
           "events": [dump(e) for e in events]}
    if actor != "moderator":
        rec["by"] = "mail" if mail is not None else how
    if private:
        rec["order"] = private if isinstance(private, str) else PRIVATE
        rec["private_order"] = {"to": actor, "salt": dice.order_salt(), "data": {"text": text}}
    if dice.rolls:
        rec["dice"] = list(dice.rolls)
    if dice.link is not None:
        rec["link"] = dict(dice.link)
    if dice.source and dice.used():
        rec["dice_from"] = dice.source
    if mail is not None:
        rec["mail"] = {"to": "moderator", "salt": dice.mail_salt(), "data": dict(mail)}
    if standing is not None:
        rec["standing"] = standing
    return rec


def order_text(rec: dict) -> str:
    """The order a record holds, from its private part when it has one."""
    private = rec.get("private_order")
    if isinstance(private, dict) and "data" in private:
        return private["data"]["text"]
    return rec["order"]


class Game:
    """An opened game: its header, data and state, and the journal bytes they come from."""

    def __init__(self, journal: Journal, data: GameData, header: dict, state: State,
                 raw: bytes | None = None, rules: int = RULES_VERSION,
                 records: list[dict] | None = None):
        self.journal = journal
        self.data = data
        self.header = header
        self.state = state
        self.raw = raw
        self.rules = rules          # the rules version its next record would be decided under
        self.bound = data.source    # what its snapshots and views are bound to (position)
        self.walk: Walk | None = None   # the deadlines' walk to its last record (position)
        self.last = ""              # its last record's hash (position)
        self._records = records

    @property
    def records(self) -> list[dict]:
        """Every record of the journal these bytes hold (checked once, then kept)."""
        if self._records is None:
            self._records = list(scan(self.raw if self.raw is not None else
                                      self.journal.raw(), self.journal.name))
        return self._records

    @property
    def scenario(self) -> Scenario:
        """The scenario the game started from (kept whole in the header)."""
        return scenario_of(self.header)

    @property
    def game_id(self) -> str:
        """The game id from the header."""
        return self.header["game_id"]


# ---------------------------------------------------------------- reading a game

def scenario_of(header: dict) -> Scenario:
    try:
        return msgspec.convert(header.get("scenario_data"), Scenario)
    except msgspec.ValidationError as exc:
        raise JournalError(f"record 0: the scenario in the header is malformed ({exc})",
                           record=0) from None


def data_for(header: dict, name: str, games_dir: Path | None) -> GameData:
    """The game data a journal was made with (JournalError if the header is malformed, names
    a game that is not there, or the data changed since)."""
    header_of(header, name)
    game = header["game"]
    root = Path(games_dir or default_games_dir())
    if not GAME_NAME.match(game) or not (root / game / "game.yaml").is_file():
        raise JournalError(f"{name}: record 0 names the game {game!r}, which is not in "
                           f"{root}", record=0)
    rules = rules_of_header(header)
    if not 1 <= rules <= RULES_VERSION:
        raise JournalError(f"{name}: record 0 was made under rules {rules}; this referee knows "
                           f"rules 1 to {RULES_VERSION} (upgrade the referee)", record=0)
    _no_newer_engine(header["engine_version"], name)
    digest = header["data_digest"]
    data = data_by_digest(game, digest, games_dir, name, 0)
    _no_older_than_data(rules, game, digest, name, 0)
    return data


def _no_newer_engine(version: str, name: str) -> None:
    """Record 0 names the referee that wrote it: a release, and none newer than this one."""
    mine = tuple(int(x) for x in __version__.split("."))
    parts = version.split(".")
    if len(parts) != 3 or not all(p.isdigit() and len(p) <= 6 for p in parts):
        raise JournalError(f"{name}: record 0 names the engine version {quoted(version)}, which "
                           f"is not a referee release (like {__version__})", record=0)
    if tuple(int(x) for x in parts) > mine:
        raise JournalError(f"{name}: record 0 was written by referee {version}, newer than this "
                           f"one ({__version__}); upgrade the referee to read it", record=0)


def _no_older_than_data(rules: int, game: str, digest: str, name: str, seq: int) -> None:
    """A record names no rules older than those its game data was filed under: a rules
    version removed from record 0, or lowered in an upgrade, and the chain hashed again,
    would otherwise pass the records off as older rules, replayed but never decided again."""
    filed = datastore.filed_rules(game, digest)
    if rules < filed:
        where = "record 0" if seq == 0 else f"record {seq} (an upgrade)"
        raise JournalError(f"{name}: {where} names rules {rules}, but its game data "
                           f"({digest[:12]}) was filed under rules {filed}: no game made with "
                           f"it is older; the record was edited (its rules version removed or "
                           f"lowered)", record=seq)


def data_by_digest(game: str, digest: str, games_dir: Path | None, name: str,
                   record: int) -> GameData:
    """The game data of this digest: the data files' own when they hold it (the usual case),
    else a version kept by digest (datastore.py; JournalError naming the record if none)."""
    data = game_data(game, games_dir)
    if digest == data.digest:
        return data
    return datastore.resolve(game, digest, data.root, name, record)


def start_state(header: dict, data: GameData, name: str) -> State:
    """The position record 0 describes: its scenario and options, checked against the data."""
    header_of(header, name)
    unknown = sorted(set(header["options"]) - set(data.option_defaults()))
    if unknown:
        raise JournalError(f"{name}: record 0 sets options this game does not have: "
                           f"{', '.join(unknown)}", record=0)
    sc = scenario_of(header)
    if data.scenarios.get(sc.id) != sc:       # a what-if set-up: check it as a scenario file
        # start-up: the YAML loader and its checks load only for a what-if set-up
        from ..data.dataload import check_scenario_quiet

        problems = check_scenario_quiet(data, sc, f"{name}: record 0")
        if problems:
            raise JournalError(problems[0], record=0)
    try:
        return initial_state(data, sc, header["game_id"], header["options"])
    except (KeyError, ValueError, TypeError, AttributeError) as exc:
        raise JournalError(f"{name}: record 0 sets up a position that cannot be played "
                           f"({type(exc).__name__}: {exc})", record=0) from None


def check_actor(actor: str, n: object, data: GameData, name: str) -> None:
    """A record's actor is a side of the game or the moderator (JournalError naming it)."""
    if actor != "moderator" and actor not in data.sides:
        raise JournalError(f"{name}: record {n} is malformed: its actor {actor!r} is "
                           f"neither a side of the game ({', '.join(data.sides)}) nor the "
                           f"moderator", record=n)


def apply_record(state: State, rec: dict | JournalRecord, data: GameData, name: str,
                 rules: int = RULES_VERSION) -> RulesUpgraded | None:
    """Replay one checked record onto state (evolve never checks; the shape is checked here):
    a record made under older rules has its events brought forward first (versions.py).
    A record already of its class (read by typed_records) is replayed as it is.
    Returns the record's RulesUpgraded event, if it has one."""
    if type(rec) is dict:
        if rules < RULES_VERSION and EVENT_UPCASTERS and isinstance(rec.get("events"), list):
            rec = {**rec, "events": upcast_events(rec["events"], rules)}
        rec = record_of(rec, name)
    if rec.actor not in data.sides:             # the moderator's, or none of the game's
        check_actor(rec.actor, rec.seq, data, name)
    upgrade = None
    try:
        for ev in rec.events:
            evolve(state, ev, data, rules)
            if ev.type == "RulesUpgraded":
                upgrade = ev
    except UNREADABLE as exc:
        raise _unplayable(rec, exc, name) from None
    state.seq = rec.seq
    return upgrade


def _unplayable(rec: JournalRecord, exc: Exception, name: str) -> JournalError:
    """Why a record's events cannot be replayed: a secret part it holds as a digest (a
    redacted export, said as such, with what reads one), or what the events lack."""
    body = _unset(msgspec.to_builtins(rec) if type(rec) is not dict else rec)
    hidden = [p["to"] for p in placed_parts(body) if is_redacted_part(p)]
    if hidden:
        return JournalError(f"{name}: record {rec.seq} holds a secret part of {hidden[0]!r} "
                            f"as a digest: this is a redacted export, which cannot be "
                            f"replayed; `referee log`, `dice` and `verify --export READER` "
                            f"read it", record=rec.seq, redacted=str(hidden[0]))
    return JournalError(f"{name}: record {rec.seq} cannot be replayed ({type(exc).__name__}: "
                        f"{exc})", record=rec.seq)


def _unset(obj):
    """obj without the keys its class leaves null (a typed record's part redacted is {to,
    digest} again, as written)."""
    if isinstance(obj, dict):
        return {k: _unset(v) for k, v in obj.items() if v is not None}
    return [_unset(v) for v in obj] if isinstance(obj, list) else obj


def seq_and_hash(rec: dict | JournalRecord) -> tuple[int, str]:
    """A record's number and hash, whether a JSON object or of its class."""
    return (rec["seq"], rec["hash"]) if type(rec) is dict else (rec.seq, rec.hash)


class Era:
    """The rules version and game data records are replayed under: those of record 0 until an
    `upgrade` record names newer ones."""

    def __init__(self, header: dict, data: GameData, games_dir: Path | None, name: str,
                 rules: int | None = None):
        self.header = header
        self.data = data
        self.games_dir = games_dir
        self.name = name
        self.rules = rules_of_header(header) if rules is None else rules

    def apply(self, state: State, rec: dict | JournalRecord) -> None:
        """Replay one record, then move to the rules and data it upgrades to, if any."""
        upgrade = apply_record(state, rec, self.data, self.name, self.rules)
        if upgrade is not None:
            self.switch(upgrade, state.seq)

    def switch(self, upgrade: RulesUpgraded, seq: int) -> None:
        """Move to the rules and data an upgrade record names (JournalError if unknown)."""
        if not self.rules <= upgrade.rules <= RULES_VERSION:
            raise JournalError(f"{self.name}: record {seq} upgrades from rules {self.rules} to "
                               f"rules {upgrade.rules}; this referee knows rules 1 to "
                               f"{RULES_VERSION}", record=seq)
        self.data = data_by_digest(self.header["game"], upgrade.data_digest, self.games_dir,
                                   self.name, seq)
        _no_older_than_data(upgrade.rules, self.header["game"], upgrade.data_digest, self.name,
                            seq)
        self.rules = upgrade.rules


def _upcast(records: Iterator[dict], version: int) -> Iterator[dict]:
    for rec in records:
        yield upcast(rec, version)


def replay(records: list[dict], data: GameData, upto: int | None = None,
           name: str = "journal", games_dir: Path | None = None) -> State:
    """The state after record `upto` (default: the last), by replaying every event."""
    state = start_state(records[0], data, name)
    era = Era(records[0], data, games_dir, name)
    for rec in records[1:]:
        if upto is not None and rec["seq"] > upto:
            break
        era.apply(state, rec)
    return state


class Position(msgspec.Struct):
    """Where a journal stands: its header, data and state after its last record."""

    header: dict
    data: GameData
    state: State
    seq: int
    hash: str
    from_snapshot: bool
    read: int                   # records read and replayed to get here
    rules: int = RULES_VERSION  # the rules version the next record is decided under
    bound: str = ""             # what its snapshots are bound to: the data files' content
    walk: Walk | None = None    # the deadlines' walk to here (clockwalk.py), when walked


def position(journal: Journal, raw: bytes, games_dir: Path | None,
             upto: int | None = None, checked: list[dict] | None = None,
             check: Beside | None = None, walk: bool | None = None) -> Position:
    """The state after the last record of raw (or after record upto): from a signed snapshot
    of a prefix plus the records after it when one fits, else by checking and replaying the
    journal from its start. `checked`: raw's records, already checked (the Table's), which
    are then not checked again. `check`: raw's check begun beside already (cold_check), for
    a replay from the start; its caller closes it. `walk`: whether the records are walked
    for the deadlines too (clockwalk.py; None: when the journal holds a record about time,
    and never up to a record): from the walk the snapshot kept, or from the start."""
    walking = upto is None and (walk or walk is None and has_deadlines(raw))
    records = iter(checked) if checked is not None else None
    header = next(records) if records is not None else header_record(raw, journal.name)
    data = data_for(header, journal.name, games_dir)
    era = Era(header, data, games_dir, journal.name)
    # Bound to the data files as they are: with them, the journal's bytes decide every answer
    # (older data versions come by digest, each always the same).
    bound = game_data(header["game"], games_dir).source if datastore.is_stored(data) else \
        data.source
    snap = snapshot.load_state(journal.path, raw, bound) if upto is None else None
    upgraded = raw.rfind(b'"type":"RulesUpgraded"') if snap is not None else -1
    if upgraded >= 0 and not (upgraded < snap.size and _era_at(era, raw, upgraded)):
        # The rules and data in force after record snap.seq are those of the last upgrade
        # record before it (inside the bytes the snapshot is bound to, so replayed once
        # already); a snapshot older than that record is not used.
        snap = None
    walker = Walk.from_kept(snap.walk) if walking and snap is not None else None
    if snap is not None and snap.header == header and (walker is not None or not walking):
        try:
            state = state_from_builtins(snap.state)
        except msgspec.ValidationError:
            snap = None
    else:           # a snapshot kept before its game had deadlines: walked from the start
        snap = None
    if snap is not None:
        seq, last = snap.seq, snap.hash
        records = iter(checked[seq + 1:]) if checked is not None else \
            scan(raw, journal.name, seq + 1, last, start=snap.size)
    else:
        state = start_state(header, data, journal.name)
        seq, last = 0, header["hash"]
        walker = Walk() if walking else None
        if records is None:
            records = scan(raw, journal.name, 1, last, start=raw.find(b"\n") + 1)
    beside = None
    try:
        if snap is None and checked is None and upto is None:            # a long journal, cold
            check = check or checking.start(raw, journal.name, parts_checked)
            if check is not None:
                beside = checking.ReadBeside(raw, journal.name, header, check,
                                             _typed(header, era))
                records = beside.records
        if header["schema_version"] < SCHEMA_VERSION:
            records = _upcast(records, header["schema_version"])
        read, seq, last = _replayed(era, state, records, upto, seq, last, walker)
        if beside is not None:
            beside.settle()
    except Exception as exc:
        if beside is not None:   # a fault the check found before this one comes first
            at = getattr(exc, "record", None)
            beside.settle(state.seq + 1 if at is None else at)
        raise
    finally:
        if beside is not None:
            beside.close()
    return Position(header, era.data, state, seq, last, snap is not None, read, era.rules,
                    bound, walker)


def _typed(header: dict, era: Era) -> checking.Typed | None:
    """How a cold read takes its records straight into their class: when none of them needs
    bringing forward (versions.py), for each is then replayed as it was written."""
    if header["schema_version"] < SCHEMA_VERSION or (era.rules < RULES_VERSION and
                                                     EVENT_UPCASTERS):
        return None
    name = era.name
    return checking.Typed(BatchedRecord, lambda rec: record_of(rec, name), _timed)


def _timed(batch: list) -> bool:
    """Whether each record of the batch has its time in the form Stamp says."""
    return stamps_in_form([rec.at for rec in batch])


def _replayed(era: Era, state: State, records: Iterator, upto: int | None, seq: int,
              last: str, walker: Walk | None = None) -> tuple[int, int, str]:
    """Replay records onto state (up to record upto), from record seq whose hash is last,
    walking each for the deadlines when walker is given: how many, and the seq and hash of
    the last one replayed."""
    read, done = 0, None
    for rec in records:
        if upto is not None and seq_and_hash(rec)[0] > upto:
            break
        era.apply(state, rec)
        if walker is not None:
            walker.step(state, rec, era.data.sides, era.name)
        done = rec
        read += 1
    if done is not None:        # the number and hash of the last one, read once
        seq, last = seq_and_hash(done)
    return read, seq, last


def _era_at(era: Era, raw: bytes, at: int) -> bool:
    """Move era to the upgrade record whose line holds raw[at] (False if it cannot be read:
    then the journal is replayed from its start, which checks that record fully)."""
    import json

    start = raw.rfind(b"\n", 0, at) + 1
    try:
        rec = json.loads(raw[start:raw.index(b"\n", at)])
        typed = record_of(rec, era.name)
        upgrade = next(e for e in typed.events if e.type == "RulesUpgraded")
    except (ValueError, RecursionError, StopIteration, JournalError, TypeError):
        return False
    era.switch(upgrade, rec["seq"])
    return True


def open_game(path: Path | str, upto: int | None = None,
              games_dir: Path | None = None) -> Game:
    """Read, check and replay a journal (from this user's snapshot when one fits).

    With upto, the game as it stood after that record (UsageError when the
    journal has no such record).
    """
    journal = Journal(path, keep_contract)
    raw = journal.raw()
    pos = position(journal, raw, games_dir, upto)
    if upto is not None:
        if not 0 <= upto <= pos.seq:
            raise UsageError(f"--at {upto}: the journal has records 0 to {pos.seq}")
    elif pos.read:                 # records were replayed: keep the state they lead to
        snapshot.save_state(journal.path, raw, pos.bound, pos.seq, pos.hash, pos.header,
                            state_to_builtins(pos.state), kept_walk(pos.walk))
    game = Game(journal, pos.data, pos.header, pos.state, raw, pos.rules)
    game.bound, game.walk, game.last = pos.bound, pos.walk, pos.hash
    return game


def kept_walk(walk: Walk | None) -> dict | None:
    """The walk as a state snapshot keeps it (None: the records were not walked)."""
    return walk.kept() if walk is not None else None


# ---------------------------------------------------------------- versions

def check_current(pos: Position | Game, path: Path, games_dir: Path | None) -> None:
    """Refuse orders to a game played under older rules or other game data until the
    moderator upgrades it (UsageError: nothing is written)."""
    older = outdated(pos, games_dir)
    if older is not None:
        raise UsageError(f"{path.name}: {outdated_words(older, path)} (nothing was written)")


def outdated(pos: Position | Game, games_dir: Path | None) -> dict | None:
    """The rules and game data a game is played under (`rules`, `data_digest`) and those
    this referee decides under (`current_rules`, `current_data_digest`) while they differ,
    so that it takes no orders until the moderator upgrades it; None when they do not."""
    if pos.rules == RULES_VERSION and not datastore.is_stored(pos.data):
        return None
    now_data = game_data(pos.header["game"], games_dir)
    return {"rules": pos.rules, "data_digest": pos.data.digest,
            "current_rules": RULES_VERSION, "current_data_digest": now_data.digest}


def outdated_words(older: dict, path: Path) -> str:
    """Why a game outdated (older) takes no orders, and the command that moves it on."""
    return (f"this game is played under rules {older['rules']} and game data "
            f"{older['data_digest'][:12]}; this referee decides under rules "
            f"{older['current_rules']} with game data {older['current_data_digest'][:12]}; it "
            f"takes no orders until the moderator moves it on with `referee upgrade {path}`")
