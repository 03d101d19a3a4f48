"""A game on disk: create it, open and replay it, submit orders to it.

This layer joins the journal, the dice, the snapshots and the engine; the
command line only parses arguments and renders what these functions return.
Every answer comes from the journal itself, or from a snapshot this user's
referee signed for exactly the journal's bytes (snapshot.py).
"""

from __future__ import annotations

import hashlib
import os
import secrets as _secrets
from collections.abc import Iterator
from pathlib import Path

import msgspec

from .. import __version__
from ..data import compiled, datastore
from ..store import home, snapshot
from . import standing
from ..store import dice as dicemod
from ..store.dice import Dice, ManualDice
from ..engine import (
    closes_plans,
    completes_plan,
    decide,
    decide_plan,
    is_private,
    plan_label,
    sealed_for,
)
from ..engine.core import Ctx
from ..engine.events import RulesUpgraded, SecretRevealed, dump, evolve
from ..engine.flow import setup_record
from ..engine.reading import parse_order
from ..engine.setup import initial_state
from ..engine.state import State, state_from_builtins, state_to_builtins
from ..engine.versions import EVENT_UPCASTERS, RULES_VERSION, rules_of_header, upcast_events
from ..base.errors import DiceError, GameDataError, JournalError, OrderError, UsageError, quoted
from ..data.gamedata import GameData, Scenario, default_games_dir, load_game, load_scenario_file
from ..store.journal import Journal, now, scan, stale, upcast
from ..data.paths import GAME_NAME, source_digest
from ..store.players import parse_players, roster_body
from ..base.readers import check_reader
from .records import header_of, record_of

REVEAL = "reveal secret"
UPGRADE = "upgrade rules"
_DATA_CACHE: dict[tuple[Path, str], GameData] = {}


def game_data(game: str = "ttlm", games_dir: Path | None = None) -> GameData:
    """The data of a game: its compiled copy when that fits the files, else read from YAML.

    Loaded once per process for each content of the files (the content
    digest, not the modification time, says whether they changed).
    """
    root = Path(games_dir or default_games_dir()) / game
    if not os.path.isdir(root):
        raise UsageError(f"{root}: not a game data directory")
    source = source_digest(root)
    if source is None:                   # nothing can be kept for data that cannot be digested
        return load_game(root)
    key = (root.resolve(), source)
    if key not in _DATA_CACHE:
        data = compiled.load(root, source)
        if data is None:
            data = load_game(root)
            data.source = source
            compiled.save_user(data, source)
        _DATA_CACHE[key] = data
    return _DATA_CACHE[key]


def parse_options(items: list[str], data: GameData) -> dict[str, bool]:
    """Optional rules from KEY=VALUE strings, on top of the game's defaults."""
    opts = data.option_defaults()
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip().replace("-", "_")
        if key not in opts:
            raise UsageError(f"--option {item!r}: unknown option; the options are "
                             f"{', '.join(sorted(opts))}")
        v = value.strip().casefold() if sep else "true"
        if v not in ("true", "false", "on", "off", "yes", "no", "1", "0"):
            raise UsageError(f"--option {item!r}: the value must be true or false")
        opts[key] = v in ("true", "on", "yes", "1")
    return opts


PRIVATE = "an order between army templates, hidden (1.4)"
SEALED_PLAN = "a sealed production plan (7.0)"


def body(actor: str, text: str, events: list, dice: Dice, private: bool | str = False,
         mail: dict | None = None, standing: dict | None = None) -> dict:
    """A record body: who, the order text, its events and every die it rolled.

    A private order shows a placeholder (PRIVATE, or the one given: a sealed
    plan, 7.0); its text is a secret part only the ordering side sees. `mail`
    (the message the order came in) is a secret part for the moderator;
    `standing` (the actor's standing orders) a secret part for the actor.
    """
    rec = {"at": now(), "actor": actor, "order": text, "events": [dump(e) for e in events]}
    if private:
        rec["order"] = private if isinstance(private, str) else PRIVATE
        rec["private_order"] = {"to": actor, "salt": dice.order_salt(), "data": {"text": text}}
    if dice.rolls:
        rec["dice"] = list(dice.rolls)
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
                 raw: bytes | None = None, rules: int = RULES_VERSION):
        self.journal = journal
        self.data = data
        self.header = header
        self.state = state
        self.raw = raw
        self.rules = rules          # the rules version its next record would be decided under
        self.bound = data.source    # what its snapshots and views are bound to (position)

    @property
    def records(self) -> list[dict]:
        """Every record of the journal these bytes hold (checked again)."""
        return list(scan(self.raw if self.raw is not None else self.journal.raw(),
                         self.journal.name))

    @property
    def scenario(self) -> Scenario:
        """The scenario the game started from (kept whole in the header)."""
        return _scenario_of(self.header)

    @property
    def game_id(self) -> str:
        """The game id from the header."""
        return self.header["game_id"]


# ---------------------------------------------------------------- the dice secret

def _pointer(game_id: str) -> Path:
    # Beside the key, not in the cache: clearing a cache must not lose a game's secret.
    return home.key_path().parent / "secrets" / (
        hashlib.sha256(game_id.encode()).hexdigest()[:40] + ".where")


def remember_secret(game_id: str, commitment: str, where: Path) -> None:
    """Note, in this user's folder, where a game's secret is kept (new --secret-file)."""
    home.write_signed(_pointer(game_id), {"game_id": game_id, "commitment": commitment,
                                          "path": str(where.resolve())})


def secret_candidates(path: Path, header: dict) -> list[Path]:
    """Where the secret of a journal may be: the place noted at `new`, then JOURNAL.secret."""
    out = []
    note = home.read_signed(_pointer(header["game_id"]))
    if note and note.get("commitment") == header["dice"]["commitment"] and \
            isinstance(note.get("path"), str):
        out.append(Path(note["path"]))
    out.append(dicemod.secret_path(path))
    return out


def load_secret(path: Path, header: dict) -> bytes | None:
    """The game's secret, checked against the commitment in the header (None if not found)."""
    wrong = None
    for spath in secret_candidates(path, header):
        if not os.path.lexists(spath):
            continue
        secret = dicemod.read_secret(spath)
        if dicemod.commitment(secret) == header["dice"]["commitment"]:
            return secret
        wrong = spath
    if wrong is not None:
        raise JournalError(f"{wrong}: this secret does not match the commitment in the "
                           f"journal header", record=0)
    return None


# ---------------------------------------------------------------- creating a game

def game_names(games_dir: Path | None = None) -> list[str]:
    """The games of a games directory: its folders holding a game.yaml."""
    root = Path(games_dir or default_games_dir())
    try:
        return sorted(p.name for p in root.iterdir()
                      if GAME_NAME.match(p.name) and (p / "game.yaml").is_file())
    except OSError:
        return []


def check_game_name(game: str, games_dir: Path | None = None) -> str:
    """The game named by --game, or a usage error naming the games there are."""
    names = game_names(games_dir)
    if game not in names:
        raise UsageError(f"--game {quoted(game)}: no such game; the games are "
                         f"{', '.join(names) or 'none'}")
    return game


def create_game(path: Path | str, scenario: str, dice_mode: str = "committed",
                options: list[str] | None = None, game_id: str | None = None,
                secret_file: Path | None = None, games_dir: Path | None = None,
                players: list[str] | None = None, game: str = "ttlm") -> Game:
    """Create a journal for a new game: the secret first (0600, on disk), then the journal.

    The secret goes beside the journal (JOURNAL.secret), or to secret_file:
    an existing secret there is used, else a fresh one is made there; this
    user's referee notes where it is, so the journal's folder can be shared.
    """
    path = Path(path)
    if dice_mode not in ("committed", "manual"):
        raise UsageError(f"--dice {dice_mode!r}: choose committed or manual")
    if os.path.lexists(path):
        raise UsageError(f"{path}: already exists; choose another file name")
    data = game_data(check_game_name(game, games_dir), games_dir)
    if scenario in data.scenarios:
        sc = data.scenarios[scenario]
    elif os.path.isfile(scenario):
        sc, _ = load_scenario_file(scenario, data)
    else:
        raise UsageError(f"--scenario {scenario!r}: not a built-in scenario "
                         f"({', '.join(data.scenarios)}) nor a scenario file")
    opts = parse_options(options or [], data)
    addresses = parse_players(players or [], data.sides)
    game_id = game_id or f"{data.info.id}-{sc.id}-{_secrets.token_hex(4)}"
    fresh = secret_file is None or not os.path.lexists(secret_file)
    secret = dicemod.new_secret() if fresh else dicemod.read_secret(secret_file)
    spath = Path(secret_file) if secret_file is not None else dicemod.secret_path(path)
    header = {
        "kind": "header", "game_id": game_id, "game": data.info.id,
        "game_name": data.info.name, "data_digest": data.digest,
        "engine_version": __version__, "rules_version": RULES_VERSION, "scenario": sc.id,
        "scenario_data": msgspec.to_builtins(sc),
        "options": opts,
        "dice": {"mode": dice_mode, "commitment": dicemod.commitment(secret)},
        "created_at": now(),
    }
    state = initial_state(data, sc, game_id, opts)
    dice = Dice(game_id, 1, secret)
    ctx = Ctx(state.clone(), data, dice)
    setup_record(ctx, sc)
    first = body("moderator", "set up", ctx.events, dice)
    if fresh:
        dicemod.write_secret(spath, secret)       # on disk before the journal exists
    try:
        records = Journal(path).create(header, first)
    except BaseException:
        if fresh:
            spath.unlink(missing_ok=True)
        raise
    if secret_file is not None:
        remember_secret(game_id, header["dice"]["commitment"], spath)
    datastore.keep(data, data.info.id)       # so the game opens after the data files change
    ctx.state.seq = 1
    if addresses:
        roster = roster_body(secret, game_id, addresses, None, (), Dice(game_id, 2, secret))
        Journal(path).append_raw(lambda raw: (1, records[1]["hash"], [roster]))
        ctx.state.seq = 2
    return Game(Journal(path), data, records[0], ctx.state)


# ---------------------------------------------------------------- reading a game

def _scenario_of(header: dict) -> Scenario:
    try:
        return msgspec.convert(header.get("scenario_data"), Scenario)
    except msgspec.ValidationError as exc:
        raise JournalError(f"record 0: the scenario in the header is malformed ({exc})",
                           record=0) from None


def _data_for(header: dict, name: str, games_dir: Path | None) -> GameData:
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
    return data_by_digest(game, header["data_digest"], games_dir, name, 0)


def data_by_digest(game: str, digest: str, games_dir: Path | None, name: str,
                   record: int) -> GameData:
    """The game data of this digest: the data files' own when they hold it (the usual case),
    else a version kept by digest (datastore.py; JournalError naming the record if none)."""
    data = game_data(game, games_dir)
    if digest == data.digest:
        return data
    return datastore.resolve(game, digest, data.root, name, record)


def _start(header: dict, data: GameData, name: str) -> State:
    """The position record 0 describes: its scenario and options, checked against the data."""
    header_of(header, name)
    unknown = sorted(set(header["options"]) - set(data.option_defaults()))
    if unknown:
        raise JournalError(f"{name}: record 0 sets options this game does not have: "
                           f"{', '.join(unknown)}", record=0)
    sc = _scenario_of(header)
    if data.scenarios.get(sc.id) != sc:       # a what-if set-up: check it as a scenario file
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


def apply_record(state: State, rec: dict, data: GameData, name: str,
                 rules: int = RULES_VERSION) -> RulesUpgraded | None:
    """Replay one checked record onto state (evolve never checks; the shape is checked here):
    a record made under older rules has its events brought forward first (versions.py).
    Returns the record's RulesUpgraded event, if it has one."""
    if rules < RULES_VERSION and EVENT_UPCASTERS and isinstance(rec.get("events"), list):
        rec = {**rec, "events": upcast_events(rec["events"], rules)}
    typed = record_of(rec, name)
    check_actor(typed.actor, rec.get("seq"), data, name)
    upgrade = None
    try:
        for ev in typed.events:
            evolve(state, ev, data, rules)
            if ev.type == "RulesUpgraded":
                upgrade = ev
    except (AttributeError, TypeError, KeyError, ValueError, IndexError) as exc:
        raise JournalError(f"{name}: record {rec['seq']} cannot be replayed ({type(exc).__name__}"
                           f": {exc}); a redacted export cannot be replayed, only verified",
                           record=rec["seq"]) from None
    state.seq = rec["seq"]
    return upgrade


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

    def apply(self, state: State, rec: dict) -> None:
        """Replay one record, then move to the rules and data it upgrades to, if any."""
        upgrade = apply_record(state, rec, self.data, self.name, self.rules)
        if upgrade is not None:
            self.switch(upgrade, rec["seq"])

    def switch(self, upgrade: RulesUpgraded, seq: int) -> None:
        """Move to the rules and data an upgrade record names (JournalError if unknown)."""
        if not self.rules <= upgrade.rules <= RULES_VERSION:
            raise JournalError(f"{self.name}: record {seq} upgrades from rules {self.rules} to "
                               f"rules {upgrade.rules}; this referee knows rules 1 to "
                               f"{RULES_VERSION}", record=seq)
        self.data = data_by_digest(self.header["game"], upgrade.data_digest, self.games_dir,
                                   self.name, seq)
        self.rules = upgrade.rules


def _upcast(records: Iterator[dict], version: int) -> Iterator[dict]:
    for rec in records:
        yield upcast(rec, version)


def replay(records: list[dict], data: GameData, upto: int | None = None,
           name: str = "journal", games_dir: Path | None = None) -> State:
    """The state after record `upto` (default: the last), by replaying every event."""
    state = _start(records[0], data, name)
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


def position(journal: Journal, raw: bytes, games_dir: Path | None,
             upto: int | None = None) -> Position:
    """The state after the last record of raw (or after record upto): from a signed snapshot
    of a prefix plus the records after it when one fits, else by checking and replaying the
    journal from its start."""
    records = scan(raw, journal.name)
    header = next(records)
    data = _data_for(header, journal.name, games_dir)
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
    if snap is not None and snap.header == header:
        try:
            state = state_from_builtins(snap.state)
        except msgspec.ValidationError:
            snap = None
    else:
        snap = None
    if snap is not None:
        seq, last = snap.seq, snap.hash
        records = scan(memoryview(raw)[snap.size:].tobytes(), journal.name, seq + 1, last)
    else:
        state = _start(header, data, journal.name)
        seq, last = 0, header["hash"]
    read = 0
    for rec in _upcast(records, header["schema_version"]):
        if upto is not None and rec["seq"] > upto:
            break
        era.apply(state, rec)
        seq, last = rec["seq"], rec["hash"]
        read += 1
    return Position(header, era.data, state, seq, last, snap is not None, read, era.rules,
                    bound)


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
    journal = Journal(path)
    raw = journal.raw()
    pos = position(journal, raw, games_dir, upto)
    if upto is not None:
        if not 0 <= upto <= pos.seq:
            raise UsageError(f"--at {upto}: the journal has records 0 to {pos.seq}")
    elif pos.read:                 # records were replayed: keep the state they lead to
        snapshot.save_state(journal.path, raw, pos.bound, pos.seq, pos.hash, pos.header,
                            state_to_builtins(pos.state))
    game = Game(journal, pos.data, pos.header, pos.state, raw, pos.rules)
    game.bound = pos.bound
    return game


# ---------------------------------------------------------------- submitting orders

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


# ---------------------------------------------------------------- versions

def check_current(pos: Position | Game, path: Path, games_dir: Path | None) -> None:
    """Refuse orders to a game played under older rules or other game data until the
    moderator upgrades it (UsageError: nothing is written)."""
    if pos.rules == RULES_VERSION and not datastore.is_stored(pos.data):
        return
    now_data = game_data(pos.header["game"], games_dir)
    raise UsageError(
        f"{path.name}: this game is played under rules {pos.rules} and game data "
        f"{pos.data.digest[:12]}; this referee decides under rules {RULES_VERSION} with game "
        f"data {now_data.digest[:12]}; it takes no orders until the moderator moves it on "
        f"with `referee upgrade {path}` (nothing was written)")


def upgrade(path: Path | str, games_dir: Path | None = None) -> dict:
    """Append the moderator's record that moves a game on to this referee's rules and the
    current game data, after checking its position fits that data (versions.py)."""
    from ..engine import legal_orders
    from ..engine.invariants import problems

    journal = Journal(path)

    def build(raw: bytes) -> tuple[int, str, list[dict]]:
        pos = position(journal, raw, games_dir)
        if pos.state.revealed:
            raise UsageError("the dice secret has been revealed; the game is closed")
        new = game_data(pos.header["game"], games_dir)
        if pos.rules == RULES_VERSION and new.digest == pos.data.digest:
            raise UsageError(f"{journal.name}: already under rules {RULES_VERSION} and the "
                             f"current game data ({new.digest[:12]}); nothing to upgrade")
        state = pos.state.clone()
        try:
            broken = problems(state, new)
            if not broken and state.pending is not None and state.phase != "over":
                for side in new.sides:
                    legal_orders(state, new, side)
        except (KeyError, ValueError, TypeError, AttributeError, IndexError) as exc:
            broken = [f"{type(exc).__name__}: {exc}"]
        if broken:
            raise UsageError(f"{journal.name}: the game after record {pos.seq} does not fit "
                             f"the game data {new.digest[:12]}, so it cannot be upgraded: "
                             f"{broken[0]}")
        ev = RulesUpgraded(rules=RULES_VERSION, data_digest=new.digest, from_rules=pos.rules,
                           from_data_digest=pos.data.digest)
        datastore.keep(new, pos.header["game"])
        return pos.seq, pos.hash, [body("moderator", UPGRADE, [ev],
                                        Dice(pos.header["game_id"], 0, None))]

    return journal.append_raw(build)[1][0]


def reveal(path: Path | str, force: bool = False, games_dir: Path | None = None) -> dict:
    """Append the dice secret to the journal so anyone can verify every die (dice.py)."""
    journal = Journal(path)

    def build(raw: bytes) -> tuple[int, str, list[dict]]:
        pos = position(journal, raw, games_dir)
        if pos.state.revealed:
            raise UsageError("the secret is already revealed in this journal")
        if pos.state.phase != "over" and not force:
            raise UsageError("the game is not over: revealing the secret now makes every "
                             "future die predictable; use --force to reveal anyway and close "
                             "the game")
        secret = load_secret(journal.path, pos.header)
        if secret is None:
            raise UsageError(f"{dicemod.secret_path(journal.path)}: secret file not found")
        ev = SecretRevealed(secret=secret.hex())
        return pos.seq, pos.hash, [body("moderator", REVEAL, [ev],
                                        Dice(pos.header["game_id"], 0, None))]

    return journal.append_raw(build)[1][0]


from .verify import Verification, verify  # noqa: E402,F401  (verify lives beside, re-exported)
