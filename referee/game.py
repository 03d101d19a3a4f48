"""A game on disk: create it, open and replay it, submit orders to it, verify it.

This layer joins the journal, the dice and the engine; the CLI only parses
arguments and renders what these functions return.
"""

from __future__ import annotations

import pickle
import secrets as _secrets
from dataclasses import dataclass, field
from pathlib import Path

import msgspec

from . import __version__, cache
from . import dice as dicemod
from .dice import Dice, ManualDice, ReplayDice
from .engine import decide, is_private
from .engine.core import Ctx
from .engine.events import SecretRevealed, dump, evolve, parse_events
from .engine.reading import parse_order
from .engine.setup import initial_state, setup_record
from .engine.state import State
from .errors import DiceError, GameDataError, JournalError, OrderError, UsageError
from .gamedata import GameData, Scenario, default_games_dir, load_game, load_scenario_file
from .journal import Journal, now, parse, parse_tail, upcast_all

ACTORS = ("german", "entente", "moderator")
REVEAL = "reveal secret"
_DATA_CACHE: dict[Path, GameData] = {}


def game_data(game: str = "ttlm", games_dir: Path | None = None) -> GameData:
    """The loaded data of a game (loaded once per process)."""
    root = Path(games_dir or default_games_dir()) / game
    key = root.resolve()
    if key not in _DATA_CACHE:
        _DATA_CACHE[key] = load_game(root)
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


def body(actor: str, text: str, events: list, dice: Dice, private: bool = False) -> dict:
    """A record body: who, the order text, its events and every die it rolled.

    A private order (hidden army templates) shows a placeholder; its text is
    a secret part only the ordering side sees.
    """
    rec = {"at": now(), "actor": actor, "order": text, "events": [dump(e) for e in events]}
    if private:
        rec["order"] = PRIVATE
        rec["private_order"] = {"to": actor, "salt": dice.order_salt(), "data": {"text": text}}
    if dice.rolls:
        rec["dice"] = list(dice.rolls)
    return rec


def order_text(rec: dict) -> str:
    """The order a record holds, from its private part when it has one."""
    private = rec.get("private_order")
    if isinstance(private, dict) and "data" in private:
        return private["data"]["text"]
    return rec["order"]


class Game:
    """An opened game: its header, data and current state; its records read on demand."""

    def __init__(self, journal: Journal, data: GameData, header: dict, state: State,
                 records: list[dict] | None = None):
        self.journal = journal
        self.data = data
        self.header = header
        self.state = state
        self._records = records

    @property
    def records(self) -> list[dict]:
        """Every record of the journal (read and checked when first asked for)."""
        if self._records is None:
            self._records = self.journal.read()
        return self._records

    @property
    def scenario(self) -> Scenario:
        """The scenario the game started from (kept whole in the header)."""
        return _scenario_of(self.header)

    @property
    def game_id(self) -> str:
        """The game id from the header."""
        return self.header["game_id"]


def create_game(path: Path | str, scenario: str, dice_mode: str = "committed",
                options: list[str] | None = None, game_id: str | None = None,
                secret_file: Path | None = None, games_dir: Path | None = None) -> Game:
    """Create a journal for a new game: header, secret sidecar and the set-up record."""
    path = Path(path)
    if dice_mode not in ("committed", "manual"):
        raise UsageError(f"--dice {dice_mode!r}: choose committed or manual")
    if path.exists():
        raise UsageError(f"{path}: already exists; choose another file name")
    data = game_data("ttlm", games_dir)
    if scenario in data.scenarios:
        sc = data.scenarios[scenario]
    elif Path(scenario).is_file():
        sc, _ = load_scenario_file(scenario, data)
    else:
        raise UsageError(f"--scenario {scenario!r}: not a built-in scenario "
                         f"({', '.join(data.scenarios)}) nor a scenario file")
    opts = parse_options(options or [], data)
    game_id = game_id or f"{data.info.id}-{sc.id}-{_secrets.token_hex(4)}"
    secret = dicemod.read_secret(secret_file) if secret_file else dicemod.new_secret()
    spath = dicemod.secret_path(path)
    header = {
        "kind": "header", "game_id": game_id, "game": data.info.id,
        "game_name": data.info.name, "data_digest": data.digest,
        "engine_version": __version__, "scenario": sc.id,
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
    dicemod.write_secret(spath, secret)
    try:
        records = Journal(path).create(header, first)
    except BaseException:
        spath.unlink(missing_ok=True)
        raise
    ctx.state.seq = 1
    return Game(Journal(path), data, records[0], ctx.state, records)


def _scenario_of(header: dict) -> Scenario:
    try:
        return msgspec.convert(header.get("scenario_data"), Scenario)
    except msgspec.ValidationError as exc:
        raise JournalError(f"record 0: the scenario in the header is malformed ({exc})",
                           record=0) from None


def _data_for(header: dict, name: str, games_dir: Path | None) -> GameData:
    data = game_data(header.get("game", "ttlm"), games_dir)
    if header.get("data_digest") != data.digest:
        raise JournalError(
            f"{name}: the game data changed since this game was created (digest "
            f"{header.get('data_digest', '?')[:12]}, now {data.digest[:12]}); replay it with "
            f"the data it was created with (--games DIR)", record=0)
    return data


def replay(records: list[dict], data: GameData, upto: int | None = None,
           name: str = "journal") -> State:
    """The state after record `upto` (default: the last), by replaying every event."""
    header = records[0]
    sc = _scenario_of(header)
    state = initial_state(data, sc, header["game_id"], header["options"])
    return replay_onto(state, records[1:], data, name, upto)


def replay_onto(state: State, records: list[dict], data: GameData, name: str = "journal",
                upto: int | None = None) -> State:
    """Apply the events of records to a state, in order (evolve never checks)."""
    for rec in records:
        if upto is not None and rec["seq"] > upto:
            break
        try:
            for ev in parse_events(rec["events"]):
                evolve(state, ev, data)
        except (AttributeError, TypeError, KeyError, ValueError) as exc:
            raise JournalError(f"{name}: record {rec['seq']} cannot be replayed ({exc}); a "
                               f"redacted export cannot be replayed, only verified",
                               record=rec["seq"]) from None
        state.seq = rec["seq"]
    return state


def open_game(path: Path | str, upto: int | None = None,
              games_dir: Path | None = None) -> Game:
    """Read, check and replay a journal (from the snapshot cache when it still fits)."""
    journal = Journal(path)
    raw = journal.raw()
    if upto is None:
        entry = cache.prefix_entry(journal.path, raw, games_dir)
        if entry is not None:
            tail = [r for r in parse_tail(raw[entry["size"]:], journal.name, entry["seq"] + 1,
                                          entry["hash"])]
            header = entry["header"]
            data = _data_for(header, journal.name, games_dir)
            state = pickle.loads(entry["state"])
            state = replay_onto(state, upcast_all([header, *tail])[1:], data, journal.name)
            if tail:
                cache.save(journal.path, raw, tail[-1], state, {}, games_dir, header)
            return Game(journal, data, header, state)
    records = upcast_all(parse(raw, journal.name))
    data = _data_for(records[0], journal.name, games_dir)
    state = replay(records, data, upto, journal.name)
    if upto is None:
        cache.save(journal.path, raw, records[-1], state, {}, games_dir, records[0])
    return Game(journal, data, records[0], state, records)


def load_secret(path: Path, header: dict) -> bytes | None:
    """The game's secret from its sidecar file, checked against the commitment."""
    spath = dicemod.secret_path(path)
    if not spath.exists():
        return None
    secret = dicemod.read_secret(spath)
    if dicemod.commitment(secret) != header["dice"]["commitment"]:
        raise JournalError(f"{spath}: this secret does not match the commitment in the "
                           f"journal header", record=0)
    return secret


@dataclass
class Applied:
    """One accepted order and the record it produced."""

    text: str
    record: dict


@dataclass
class Submission:
    """What happened to a batch of orders."""

    applied: list[Applied] = field(default_factory=list)
    rejected: tuple[int, str, OrderError] | None = None
    not_applied: list[str] = field(default_factory=list)
    state: State | None = None
    header: dict | None = None


def submit(path: Path | str, side: str, texts: list[str], dice_text: str | None = None,
           expect_seq: int | None = None, games_dir: Path | None = None) -> Submission:
    """Apply orders in sequence under one lock; stop at the first rejected one.

    Orders before a rejected one stay applied; the rest are not applied.
    Manual dice problems (missing, extra, out of range) reject the whole batch.
    """
    if side not in ("german", "entente"):
        raise UsageError(f"--as {side!r}: orders come from german or entente")
    if not texts:
        raise UsageError("no orders given (as arguments, or '-' / a file name for a list)")
    journal = Journal(path)
    result = Submission()

    def build(records: list[dict]) -> list[dict]:
        header = records[0]
        data = _data_for(header, journal.name, games_dir)
        state = cached_state(journal, records, data, games_dir)
        result.header = header
        if any(r.get("order") == REVEAL for r in records[1:]):
            raise OrderError("the dice secret has been revealed; the game is closed to "
                             "further orders (dice would be predictable)")
        secret = load_secret(journal.path, header)
        manual = None
        if header["dice"]["mode"] == "manual":
            manual = ManualDice(dicemod.parse_manual(dice_text or ""))
        elif dice_text is not None:
            raise UsageError("--dice is for games created with --dice manual; this game "
                             "uses committed dice")
        bodies: list[dict] = []
        seq = records[-1]["seq"]
        for i, text in enumerate(texts):
            dice = Dice(header["game_id"], seq + 1, secret, manual)
            try:
                order = parse_order(text, data)
                events, new_state = decide(state, data, order, side, dice, text)
            except DiceError:
                raise          # a dice problem rejects the whole batch (an OrderError too)
            except OrderError as exc:
                result.rejected = (i, text, exc)
                result.not_applied = texts[i + 1:]
                break
            seq += 1
            new_state.seq = seq
            rec = body(side, text, events, dice, is_private(state, order))
            bodies.append(rec)
            result.applied.append(Applied(text, rec))
            state = new_state
        if result.rejected is None and manual is not None:
            manual.check_used_up()
        result.state = state
        return bodies

    try:
        written = journal.append(build, expect_seq=expect_seq)
    except (GameDataError, JournalError, UsageError, OrderError):
        result.applied.clear()
        raise
    for applied, rec in zip(result.applied, written):
        applied.record = rec
    if written:
        cache.save(journal.path, journal.raw(), written[-1], result.state, {}, games_dir,
                   result.header)
    return result


def cached_state(journal: Journal, records: list[dict], data: GameData,
                 games_dir: Path | None) -> State:
    """The state after the last record: from the snapshot cache when it fits, else replayed."""
    entry = cache.load(journal.path)
    if entry is not None and entry.get("data") == cache.data_signature(games_dir):
        seq = entry["seq"]
        if seq < len(records) and records[seq]["hash"] == entry["hash"]:
            state = pickle.loads(entry["state"])
            return replay_onto(state, records[seq + 1:], data, journal.name)
    return replay(records, data, name=journal.name)


def reveal(path: Path | str, force: bool = False, games_dir: Path | None = None) -> dict:
    """Append the dice secret to the journal so anyone can verify every die (dice.py)."""
    journal = Journal(path)

    def build(records: list[dict]) -> list[dict]:
        header = records[0]
        if any(r.get("order") == REVEAL for r in records[1:]):
            raise UsageError("the secret is already revealed in this journal")
        data = _data_for(header, journal.name, games_dir)
        state = replay(records, data, name=journal.name)
        if state.phase != "over" and not force:
            raise UsageError("the game is not over: revealing the secret now makes every "
                             "future die predictable; use --force to reveal anyway and close "
                             "the game")
        secret = load_secret(journal.path, header)
        if secret is None:
            raise UsageError(f"{dicemod.secret_path(journal.path)}: secret file not found")
        ev = SecretRevealed(secret=secret.hex())
        return [body("moderator", REVEAL, [ev], Dice(header["game_id"], 0, None))]

    return journal.append(build)[0]


@dataclass
class Verification:
    """What verify checked."""

    records: int
    lines: list[str]


def _is_redacted(records: list[dict]) -> bool:
    return any(isinstance(ev.get("secret"), dict) and "digest" in ev["secret"]
               for rec in records[1:] for ev in rec.get("events", [])) or any(
        isinstance(rec.get("private_order"), dict) and "digest" in rec["private_order"]
        for rec in records[1:])


def verify(path: Path | str, secret_file: Path | None = None,
           games_dir: Path | None = None) -> Verification:
    """Check the chain, decide every record again and compare; with the secret, every die too.

    JournalError names the first record that fails. Deciding again proves
    each order was legal and had exactly the recorded consequences; with the
    secret (given, or revealed in the journal) it proves every die and every
    shuffle came from the committed stream.
    """
    journal = Journal(path)
    records = journal.read()
    header = records[0]
    lines = [f"chain: {len(records)} records, every hash and link checks"]
    if _is_redacted(records):
        lines.append("this is a redacted export: secret parts are digests, so only the chain "
                     "can be checked")
        return Verification(len(records), lines)
    data = _data_for(header, journal.name, games_dir)
    sc = _scenario_of(header)
    commit = header["dice"]["commitment"]
    secret = None
    if secret_file is not None:
        secret = dicemod.read_secret(secret_file)
        if dicemod.commitment(secret) != commit:
            raise JournalError(f"{secret_file}: this secret does not match the commitment in "
                               f"record 0", record=0)
    for rec in records[1:]:
        if rec.get("order") == REVEAL:
            shown = bytes.fromhex(rec["events"][0]["secret"])
            if dicemod.commitment(shown) != commit:
                raise JournalError(f"{journal.name}: record {rec['seq']} reveals a secret that "
                                   f"does not match the commitment in record 0",
                                   record=rec["seq"])
            secret = secret or shown
    manual = header["dice"]["mode"] == "manual"
    state = initial_state(data, sc, header["game_id"], header["options"])
    replayed = state.clone()
    for rec in records[1:]:
        n = rec["seq"]
        if rec.get("order") == REVEAL:
            continue
        if secret is not None:
            dice = Dice(header["game_id"], n, secret,
                        ManualDice(rec.get("dice", [])) if manual else None)
        else:
            dice = ReplayDice(header["game_id"], rec)
        try:
            if n == 1:
                ctx = Ctx(state.clone(), data, dice)
                setup_record(ctx, sc)
                events, new = ctx.events, ctx.state
            else:
                text = order_text(rec)
                order = parse_order(text, data)
                events, new = decide(state, data, order, rec["actor"], dice, text)
        except (OrderError, UsageError) as exc:
            raise JournalError(f"{journal.name}: record {n}: deciding it again fails: {exc}",
                               record=n) from None
        got = [dump(e) for e in events]
        if got != rec["events"] or list(dice.rolls) != rec.get("dice", []):
            k = next((i for i, (a, b) in enumerate(zip(got, rec["events"])) if a != b),
                     min(len(got), len(rec["events"])))
            what = "its dice" if got == rec["events"] else f"event {k}"
            raise JournalError(f"{journal.name}: record {n} ({rec['order']!r}): deciding it "
                               f"again gives a different result ({what} differs)", record=n)
        for ev in parse_events(rec["events"]):
            evolve(replayed, ev, data)
        new.seq = replayed.seq = n
        state = new
    if replayed != state:
        raise JournalError(f"{journal.name}: replaying the events does not give the state "
                           f"that deciding the orders gives", record=records[-1]["seq"])
    lines.append(f"rulings: all {len(records) - 1} records decided again give exactly the "
                 f"recorded events")
    if secret is not None:
        lines.append("dice: every die and shuffle recomputed from the secret, which matches "
                     "the commitment in record 0")
    else:
        lines.append("dice: not recomputed (give --secret FILE, or reveal the secret when "
                     "the game is over)")
    return Verification(len(records), lines)
