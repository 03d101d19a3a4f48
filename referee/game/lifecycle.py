"""A game's life outside its players' orders: create it, upgrade its rules and data, reveal
its dice secret."""

from __future__ import annotations

import os
import secrets as _secrets
from pathlib import Path

import msgspec

from .. import __version__
from ..base.errors import UsageError
from ..contracts.events_turn import RulesUpgraded, SecretRevealed
from ..data import datastore
from ..data.catalog import check_game_name, game_data, parse_options
from ..engine import legal_orders
from ..engine.core import Ctx
from ..engine.flow import setup_record
from ..engine.invariants import problems
from ..engine.setup import initial_state
from ..engine.versions import RULES_VERSION
from ..store import dice as dicemod
from ..store import signing, written
from ..store.authorship import ADOPT, REKEY
from ..store.dice import Dice
from ..store.journal import Journal, now, scan
from ..store.mailroute import mail_route
from ..store.players import (
    check_observers,
    parse_observers,
    parse_players,
    roster,
    roster_body,
)
from ..store.secrets import create_with_secret, load_secret, secret_for_new
from ..store.sheets import check_tip, parse_tips, sheet_body, sheets_in
from .records import keep_contract
from .replay import REVEAL, UPGRADE, Game, body, position
from .timeline import settings_body


def create_game(path: Path | str, scenario: str, dice_mode: str = "committed",
                options: list[str] | None = None, game_id: str | None = None,
                secret_file: Path | None = None, games_dir: Path | None = None,
                players: list[str] | None = None, game: str = "ttlm",
                sheets: list[str] | None = None, clock: dict | None = None,
                signing_key: Path | None = None) -> Game:
    """Create a journal for a new game: the secret first (0600, on disk), then the journal.

    The secret goes beside the journal (JOURNAL.secret), or to secret_file:
    an existing secret there is used, else a fresh one is made there; this
    user's referee notes where it is, so the journal's folder can be shared.
    `sheets` (SIDE=TIP) registers players' dice sheets, a record each after the set-up;
    `clock` (deadlines.settings_fact) the deadline settings, a record after them.
    Every record is signed by the game's key: a new one, or the one in signing_key
    (made there when that file does not exist); kept in this user's keys folder.
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
        from ..data.dataload import load_scenario_file  # start-up: YAML only for a file

        sc, _ = load_scenario_file(scenario, data)
    else:
        raise UsageError(f"--scenario {scenario!r}: not a built-in scenario "
                         f"({', '.join(data.scenarios)}) nor a scenario file")
    opts = parse_options(options or [], data)
    addresses = parse_players(players or [], data.sides)
    watchers = parse_observers(players or [])
    check_observers(watchers, addresses)
    tips = parse_tips(sheets or [], data.sides)
    if tips and dice_mode == "manual":
        raise UsageError("--sheet: dice sheets mix the players' entropy into committed dice; "
                         "in a --dice manual game the players roll the dice themselves")
    game_id = game_id or f"{data.info.id}-{sc.id}-{_secrets.token_hex(4)}"
    secret, spath, fresh = secret_for_new(path, secret_file)
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
    more = [roster_body(secret, game_id, addresses, None, (), Dice(game_id, 2, secret),
                        watchers)] if addresses or watchers else []
    more += [sheet_body("moderator", side, tip, now()) for side, tip in tips.items()]
    if clock:
        more.append(settings_body(clock))
    key = signing.new_key(signing_key, path)
    # The set-up, players, sheets and deadlines in one write: a game is made whole or not.
    records = create_with_secret(Journal(path, keep_contract), header, [first, *more], secret,
                                 spath, fresh, secret_file is not None, key)
    datastore.keep(data, data.info.id)       # so the game opens after the data files change
    ctx.state.seq = 1 + len(more)
    return Game(Journal(path, keep_contract), data, records[0], ctx.state)


def register_sheets(path: Path | str, items: list[str],
                    games_dir: Path | None = None) -> list[dict]:
    """Append the moderator's records registering players' dice sheets (SIDE=TIP each, a tip
    the player gave him): from then on the side's orders that roll dice carry its links."""
    journal = Journal(path, keep_contract)

    def build(raw: bytes) -> tuple[int, str, list[dict]]:
        pos = position(journal, raw, games_dir)
        if pos.state.revealed:
            raise UsageError("the dice secret has been revealed; the game is closed")
        if pos.header["dice"]["mode"] == "manual":
            raise UsageError("--sheet: dice sheets mix the players' entropy into committed "
                             "dice; in this --dice manual game the players roll the dice")
        known = sheets_in(raw)
        tips = {side: check_tip(tip, known.get(side), f"--sheet {side}")
                for side, tip in parse_tips(items, pos.data.sides).items()}
        return pos.seq, pos.hash, [sheet_body("moderator", side, tip, now())
                                   for side, tip in tips.items()]

    return journal.append_raw(build)[1]


def upgrade(path: Path | str, games_dir: Path | None = None,
            signing_key: Path | None = None, adopt: bool = False) -> dict:
    """Bring a game on to this referee in one write: adopt it when it was begun before
    journals were signed (a record signed by a new key, or the one in signing_key, whose
    hash covers every record before it), and move it on to this referee's rules and game
    data when they are newer. Returns {"adopted": the adoption record or None, "upgraded":
    the upgrade record or None, "rules": the rules and data after it}."""
    journal = Journal(path, keep_contract)
    records = list(scan(journal.raw(), journal.name))
    unsigned = not _is_signed(records)
    if unsigned and not adopt:
        raise UsageError(_what_adopting_vouches_for(journal.name, records))
    if not unsigned and signing_key is not None:
        raise UsageError("--signing-key: only for adopting a game begun before signing; "
                         "`referee rekey --signing-key FILE` hands a signed game to a key")
    if unsigned:                          # refused before a key is made for it
        _check_adoptable(journal.name, records)
    key = signing.new_key(signing_key, journal.path) if unsigned else None
    after: dict = {}

    def build(raw: bytes) -> tuple[int, str, list[dict]]:
        pos = position(journal, raw, games_dir)
        if key is not None:
            _check_adoptable(journal.name, list(scan(raw, journal.name)))
        bodies = [{"at": now(), "actor": "moderator", "order": ADOPT, "events": [],
                   "signing": key.header_field()}] if key is not None else []
        step = _upgrade_body(journal, pos, games_dir)
        if step is None and key is None:
            raise UsageError(f"{journal.name}: signed, and already under rules "
                             f"{RULES_VERSION} and the current game data "
                             f"({pos.data.digest[:12]}); nothing to upgrade")
        after.update(game_id=pos.header["game_id"], rules=RULES_VERSION if step else pos.rules,
                     data_digest=step["events"][0]["data_digest"] if step else pos.data.digest)
        return pos.seq, pos.hash, bodies + ([step] if step else [])

    new = journal.append_raw(build, adopt=key)[1]
    if key is not None:
        written.note_game(after["game_id"], key.fpr)
    return {"adopted": new[0] if key is not None else None,
            "upgraded": new[-1] if new[-1]["order"] == UPGRADE else None,
            "rules": {k: after[k] for k in ("rules", "data_digest")}}


def rekey(path: Path | str, signing_key: Path | None = None,
          games_dir: Path | None = None) -> dict:
    """Hand a game to a new key (a new one, or the one in signing_key): a record signed by
    the key in force naming the new one, which signs every record after it. Returns it."""
    journal = Journal(path, keep_contract)
    journal.check_ours()                  # no key is made for a game that is not ours
    key = signing.new_key(signing_key, journal.path)

    def build(raw: bytes) -> tuple[int, str, list[dict]]:
        pos = position(journal, raw, games_dir)
        if journal.key_in_force(raw) == key.fpr:
            raise UsageError(f"--signing-key: key {signing.shown(key.fpr)} signs the game "
                             f"already")
        return pos.seq, pos.hash, [{"at": now(), "actor": "moderator", "order": REKEY,
                                    "events": [], "signing": key.header_field()}]

    return journal.append_raw(build)[1][0]


def _what_adopting_vouches_for(name: str, records: list[dict]) -> str:
    """The refusal that shows what adopting would sign as the moderator's own: the game, its
    last record, and the mail route and addresses in force (a stripped or planted journal
    shows its stranger's route or address here)."""
    route = mail_route(records)
    people = ", ".join(f"{side} {p.get('address')}" for side, p in sorted(roster(records).items()))
    return (f"{name}: game {records[0]['game_id']}, begun before journals were signed, "
            f"{len(records)} records, the last at {records[-1].get('at')}; mail in: "
            f"{route['source'] or 'not set'}, mail out: {route['target'] or 'not set'}; "
            f"players: {people or 'none'}. Adopting it signs all of this as your game's: if "
            f"it is your game as you left it (`referee verify` checks its rulings), run "
            f"`referee upgrade {name} --adopt`")


def _check_adoptable(name: str, records: list[dict]) -> None:
    """Refuse to adopt what only looks begun before signing: a journal whose signatures were
    removed (this referee signed this game before, or a record says how its order came,
    which only a referee that signs writes)."""
    why = None
    game_id = str(records[0].get("game_id"))
    if written.signs_game(game_id):
        why = f"this referee already signs game {game_id}"
    elif any(rec.get("by") in ("mail", "hand", "deadline", "referee") for rec in records):
        why = "its records say how their orders came, which only a referee that signs writes"
    if why:
        raise UsageError(f"{name}: not adopted: {why}; a journal of it without "
                         f"signatures had them removed. Nothing was written; `referee verify` "
                         f"on your backup shows which is the game")


def _is_signed(records: list[dict]) -> bool:
    """Whether a journal is signed: its header names a key, or a record carries a signature
    (append_raw checks the signature it relies on, and refuses to adopt a journal any
    record of which is signed)."""
    return "signing" in records[0] or any("sig" in rec for rec in records)


def _upgrade_body(journal: Journal, pos, games_dir: Path | None) -> dict | None:
    """The moderator's record that moves a game on to this referee's rules and the current
    game data, after checking its position fits that data (versions.py); None when the
    game is under them already."""
    if pos.state.revealed:
        raise UsageError("the dice secret has been revealed; the game is closed")
    new = game_data(pos.header["game"], games_dir)
    if pos.rules == RULES_VERSION and new.digest == pos.data.digest:
        return None
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
    return body("moderator", UPGRADE, [ev], Dice(pos.header["game_id"], 0, None))


def reveal(path: Path | str, force: bool = False, games_dir: Path | None = None) -> dict:
    """Append the dice secret to the journal so anyone can verify every die (dice.py)."""
    journal = Journal(path, keep_contract)

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
