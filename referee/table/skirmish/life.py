"""A skirmish game's life: create its journal, replay it, take an order (a test, done, a
dispute, a moderator's settlement) and append the test it makes, hash-chained, with its
dice from the committed secret."""

from __future__ import annotations

import json
import os
import secrets as _secrets
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import msgspec

from ... import __version__
from ...base.errors import (
    ContractError,
    DiceError,
    IllegalOrderError,
    JournalError,
    OrderError,
    UsageError,
)
from ...contracts.skirmish import (
    SkirmishCard,
    SkirmishHeader,
    SkirmishRecord,
    SkirmishReveal,
    SkirmishRoute,
    SkirmishScenario,
)
from ...contracts.validation import engine, validator
from ...render.documents import side_name
from ...store import dice as dicemod
from ...store import signing
from ...store.anydice import AnyDice
from ...store.authorship import Authorship
from ...store.journal import Journal, now, parse, scan, stale
from ...store.players import order_key
from ...store.secrets import (
    create_with_secret,
    load_secret,
    not_committed,
    secret_for_new,
    secret_missing,
)
from . import decider as sk
from .dicekeys import (
    KEYED,
    check_dice,
    check_keys,
    check_reveal,
    follow_test,
    keyed_by_side,
    record_source,
)
from .dones import spoke
from .loading import SkirmishData, card_problems, side_list_problems
from .window import closed_fact, own_since

ValidationError = engine().ValidationError     # pydantic-core's, loaded alone

MODERATOR = "moderator"
REVEAL = "reveal secret"


def _model(seq: int, line: bytes) -> type:
    if seq == 0:
        return SkirmishHeader
    try:
        kind = json.loads(line).get("kind")
    except (ValueError, AttributeError, RecursionError):
        kind = None
    return {"reveal": SkirmishReveal, "route": SkirmishRoute}.get(kind, SkirmishRecord)


def _broken(seq: int, line: bytes) -> str | None:
    model = _model(seq, line)
    try:
        validator(model).validate_json(line)
    except ValidationError as exc:
        e = exc.errors(include_url=False)[0]
        return f"{'.'.join(map(str, e['loc'])) or 'top'}: {e['msg']}"
    return None


def keep_contract(seq: int, line: bytes) -> None:
    """Refuse a record this referee built that breaks its contract, before it is written."""
    broken = _broken(seq, line)
    if broken:
        raise ContractError(f"record {seq} as built breaks its contract at {broken}; nothing "
                            f"was written. This is a bug: please report it.")


def check_shapes(raw: bytes, name: str) -> None:
    """Each line of a skirmish journal holds the shape its contract gives (JournalError
    naming the first record that does not, where and how)."""
    for seq, line in enumerate(raw.splitlines()):
        broken = _broken(seq, line)
        if broken:
            raise JournalError(f"{name}: record {seq} breaks the journal's contract at "
                               f"{broken}", record=seq)


def replayed(records: list[dict], name: str) -> tuple[SkirmishCard, sk.SkState]:
    """replay, with a journal whose records keep their contracts but name what its card and
    forces do not have reported as the journal's fault (JournalError), never a crash."""
    try:
        return replay(records)
    except ValidationError as exc:
        e = exc.errors(include_url=False)[0]
        where = ".".join(map(str, e["loc"])) or "top"
        raise JournalError(f"{name}: record 0's card or scenario is malformed at {where}: "
                           f"{e['msg']}", record=0) from None
    except (KeyError, ValueError, TypeError, AttributeError, IndexError) as exc:
        raise JournalError(f"{name}: the game cannot be replayed ({type(exc).__name__}: "
                           f"{exc}); `referee verify` names the record at fault") from None


def audit(raw: bytes, name: str) -> list[dict]:
    """Every record of a skirmish journal checked: its chain, its contract, and each test
    decided again from its facts and its recorded dice, to the same result."""
    from ...game.moderated import check_route  # start-up: verify alone checks routes

    records = parse(raw, name)
    check_shapes(raw, name)
    replayed(records, name)             # its card and forces read as a game folder's are
    for n in range(1, len(records)):
        if records[n]["kind"] == "route":
            check_route(records[n], name)       # as a campaign's: what new and mail write
        _redecide(records, n, name)
    check_reveal(records, name)
    check_keys(records, name)           # what keys each roll (dicekeys.py)
    return records


def verify_skirmish(path: Path | str, secret_file: Path | None = None,
                    pins: list[tuple[str, int | None, str]] = (),
                    raw: bytes | None = None) -> tuple[list[str], Authorship]:
    """verify for a skirmish journal: the chain, every signature (each pin a key that signed
    it), each record's contract, each test decided again from its facts and dice, and with
    the secret every die of a committed game. raw: the journal's bytes as the caller read
    them. Returns what it says, and who signed the journal."""
    journal = Journal(path)
    raw = journal.raw() if raw is None else raw
    signed = scan(raw, journal.name)        # each signature before the record is judged
    authors = Authorship(journal.name, next(signed))
    for rec in signed:
        authors.check(rec)
    records = audit(raw, journal.name)
    for fpr, upto, what in pins:
        authors.pin(fpr, upto, what)
    lines = [f"{journal.name}: {len(records)} records, hash chain intact", *authors.lines(),
             "every record keeps its contract; every test follows from its facts and dice"]
    if keyed_by_side(records[0]):
        lines.append("every roll is keyed by its side's own count of rolls, a mail's by its "
                     "digest too")
    shown = records[-1] if records[-1]["kind"] == "reveal" else None
    if shown is not None:
        lines.append(f"record {shown['seq']} reveals the dice secret; it matches the "
                     f"commitment in the journal header")
    if records[0]["dice"]["mode"] != "committed":
        return lines, authors
    if secret_file is not None:
        secret = dicemod.read_secret(secret_file)
        if dicemod.commitment(secret) != records[0]["dice"]["commitment"]:
            raise not_committed(secret_file)
    elif shown is not None:
        secret = bytes.fromhex(shown["secret"])
    else:
        return lines, authors
    check_dice(records, secret, journal.name)
    return lines + ["every die is the one the committed secret gives"], authors


def _redecide(records: list[dict], n: int, name: str) -> None:
    rec = records[n]
    test = rec.get("test")
    if test is None:
        return
    card, before = replay(records[:n])
    again = sk.SkOrder(test["kind"], test["subject"], test["facts"], rec["order"])
    values = [d["value"] for d in test["dice"]]
    try:
        redo = sk.decide(card, before, again, rec["actor"], AnyDice("", n, None, values))
    except IllegalOrderError as exc:
        raise JournalError(f"{name}: record {n} is refused when decided again: {exc.reason}",
                           record=n) from None
    if redo["test"] != test:
        raise JournalError(f"{name}: record {n} does not follow from its facts and dice",
                           record=n)


@dataclass
class Skirmish:
    """An open skirmish game: its journal, header, card and state after every record."""

    journal: Journal
    header: dict
    card: SkirmishCard
    state: sk.SkState


def scenario_of(data: SkirmishData, scenario: str):
    """A scenario of the game by name, or a group's own from a YAML file (UsageError when it
    is neither; GameDataError with every problem of a file)."""
    if scenario in data.scenarios:
        return data.scenarios[scenario]
    if scenario.endswith((".yaml", ".yml")) and os.path.isfile(scenario):
        from .loading import load_scenario_file  # start-up: YAML only for a file

        return load_scenario_file(scenario, data)
    raise UsageError(f"--scenario {scenario!r}: the {data.info.id} scenarios are "
                     f"{', '.join(data.scenarios)}, or give a scenario file (FILE.yaml)")


def create_skirmish(path: Path | str, data: SkirmishData, scenario: str,
                    dice_mode: str = "committed", game_id: str | None = None,
                    secret_file: Path | None = None,
                    players: dict[str, str] | None = None,
                    signing_key: Path | None = None) -> Skirmish:
    """A new journal: header with the card and the scenario whole, the secret first."""
    path = Path(path)
    if os.path.lexists(path):
        raise UsageError(f"{path}: already exists; choose another file name")
    sc = scenario_of(data, scenario)
    game_id = game_id or f"{data.info.id}-{sc.id}-{_secrets.token_hex(4)}"
    secret, spath, fresh = secret_for_new(path, secret_file)
    header = {"kind": "header", "game_id": game_id, "game": data.info.id,
              "game_kind": "skirmish", "game_name": data.info.name,
              "data_digest": data.digest, "engine_version": __version__,
              "scenario": sc.id, "scenario_data": msgspec.to_builtins(sc),
              "card_data": msgspec.to_builtins(data.card),
              "challenge_window": data.info.challenge_window, "players": players or {},
              "dice": {"mode": dice_mode, "commitment": dicemod.commitment(secret),
                       "keyed": KEYED},
              "created_at": now()}
    key = signing.new_key(signing_key, path)
    records = create_with_secret(Journal(path, keep_contract), header, [], secret, spath, fresh,
                                 secret_file is not None, key)
    return Skirmish(Journal(path, keep_contract), records[0], data.card, sk.initial_state(sc))


def reveal_skirmish(path: Path | str, force: bool = False) -> dict:
    """Append the moderator's record holding the dice secret, so anyone can verify every
    die; it closes the game."""
    journal = Journal(path, keep_contract)

    def build(raw: bytes) -> tuple[int, str, list[dict]]:
        records = audit(raw, journal.name)
        card, state = replay(records)
        if state.revealed is not None:
            raise UsageError("the secret is already revealed in this journal")
        if not state.over() and not force:
            raise UsageError("the game is not over (both sides still have a figure "
                             "fighting): revealing the secret now makes every future die "
                             "predictable; use --force to reveal anyway and close the game")
        secret = load_secret(journal.path, records[0])
        if secret is None:
            raise UsageError(f"{dicemod.secret_path(journal.path)}: secret file not found")
        body = {"kind": "reveal", "at": now(), "actor": MODERATOR, "order": REVEAL,
                "turn": state.turn, "phase": sk.phase_of(card, state).phase,
                "secret": secret.hex()}
        return records[-1]["seq"], records[-1]["hash"], [body]

    return journal.append_raw(build)[1][0]


def order_keys(path: Path | str, header: dict | None = None) -> dict[str, str]:
    """Each registered side's order key (and the moderator's), from the game's secret: what
    a mail must carry ('Order key: ...') to be taken as that side's. header: record 0, as
    the caller read it."""
    header = Journal(path).read()[0] if header is None else header
    secret = load_secret(Path(path), header)
    if secret is None:
        raise secret_missing(Path(path), header, "to make the order keys")
    return {side: order_key(secret, header["game_id"], side, 1)
            for side in header.get("players", {})}


def is_skirmish(header: dict) -> bool:
    return header.get("game_kind") == "skirmish"


def replay(records: list[dict]) -> tuple[SkirmishCard, sk.SkState]:
    """The card and the state after every record (evolve only: nothing is rolled)."""
    _, card, state = deque(states(records), maxlen=1)[0]
    return card, state


def states(records: list[dict]) -> Iterator[tuple[dict, SkirmishCard, sk.SkState]]:
    """One replay, told record by record: (the record, the card, the state after it), from
    record 0's on; the state is changed in place, to be read before the next."""
    header = records[0]
    card = validator(SkirmishCard).validate_python(header["card_data"])
    for problem in card_problems(card, "record 0's card"):   # as a game folder's card is
        raise ValueError(problem)
    scenario = validator(SkirmishScenario).validate_python(header["scenario_data"])
    for key, n, why in side_list_problems(scenario):     # as a scenario file's are
        raise ValueError(f"record 0's scenario: {key}: {why} (at {key}.{n})")
    state = sk.initial_state(scenario)
    yield header, card, state
    for rec in records[1:]:
        sk.evolve(card, state, rec, rec["seq"])
        yield rec, card, state


def open_skirmish(path: Path | str, records: list[dict] | None = None) -> Skirmish:
    """A skirmish game read from its journal, or from its records as the caller checked them
    (UsageError if the journal is another game's)."""
    journal = Journal(path)
    records = journal.read() if records is None else records
    if not is_skirmish(records[0]):
        raise UsageError(f"{journal.name}: not a skirmish game")
    card, state = replayed(records, journal.name)
    return Skirmish(journal, records[0], card, state)


def _dice(header: dict, path: Path, seq: int, given: list[int] | None,
          source: dict | None = None) -> AnyDice:
    if header["dice"]["mode"] == "manual" and given is None:
        given = []                  # an order that rolls then says the dice are missing
    elif header["dice"]["mode"] == "committed" and given is not None:
        raise UsageError("--dice: this game's dice are committed; nobody gives them")
    secret = None if given is not None else load_secret(path, header)
    return AnyDice(header["game_id"], seq, secret, given, source)


def check_side(side: str, sides: tuple[str, ...]) -> None:
    """Orders come from a side of the skirmish or the moderator (UsageError naming them): a
    name that is neither is a wrong option, not an order refused."""
    if side not in sides and side != MODERATOR:
        raise UsageError(f"--as {side}: orders come from a side of this skirmish "
                         f"({', '.join(sides)}) or the moderator, who settles disputes")


def submit(path: Path | str, side: str, text: str, given: list[int] | None = None,
           expect_seq: int | None = None) -> dict:
    """Take one order of side: check it, roll its dice, append its record; the record."""
    return submit_many(path, side, [text], given, expect_seq=expect_seq).records[0]


class Taken(NamedTuple):
    """What a side's orders made: the records appended, and, when a line was refused once
    the dice of a line before it had been rolled, its place among the orders given and why
    (the lines after it were not taken)."""

    records: list[dict]
    refused: tuple[int, OrderError] | None = None


def submit_many(path: Path | str, side: str, texts: list[str],
                given: list[int] | None = None, mail: str | None = None,
                mail_content: str = "", expect_seq: int | None = None) -> Taken:
    """Take a side's orders in turn, each checked on the state the ones before it left,
    each its own record with its own dice, appended under one lock. Every line is read
    before any is decided, and one refused before a die is rolled refuses them all (nothing
    is appended). One refused after a line before it rolled ends them there: those before
    it stand, since a refusal of all would tell what their dice gave and leave the same
    dice for the next try (a die is the secret's for its record), and the refusal is
    Taken.refused. `mail` is the Message-ID they came in, `mail_content` the digest of that
    mail's Date, Subject and text (mailboxes.Message.content_sha256). expect_seq: the record
    the orders were written against, refused as stale once the journal has moved past it
    (StaleViewError, as a campaign's: store/journal.stale)."""
    path = Path(path)
    journal = Journal(path, keep_contract)
    refused: list[tuple[int, OrderError]] = []

    def build(raw: bytes) -> tuple[int, str, list[dict]]:
        refused.clear()
        records = parse(raw, journal.name)
        if not is_skirmish(records[0]):
            raise UsageError(f"{journal.name}: not a skirmish game")
        card, state = replayed(records, journal.name)   # a damaged card: the journal's fault
        check_side(side, tuple(state.sides))
        if expect_seq is not None and expect_seq != records[-1]["seq"]:
            raise stale(records[-1]["seq"], expect_seq)
        if mail:        # a reply the mail route took as fresh: he has seen what is asked now
            spoke(state, side)
        check_open(state)
        orders = [sk.parse_order(text, card) for text in texts]
        last = records[-1]
        left = list(given) if given is not None else None
        bodies: list[dict] = []
        rolled = False                  # whether a line before this one rolled a die
        records = list(records)         # this batch's records go on a copy, one by one
        for i, o in enumerate(orders):
            seq = records[-1]["seq"] + 1
            dice = _dice(records[0], path, seq, left, record_source(records, side, texts, mail))
            try:
                body = {"kind": "skirmish", "at": now(),
                        **body_of(card, state, records, o, side, dice),
                        **_keyed(dice, o),
                        **({"mail": mail} if mail else {}),
                        **({"mail_content": mail_content} if mail and mail_content else {})}
            except OrderError as exc:
                if given is not None or not rolled:
                    raise
                refused.append((i, exc))
                break
            left = left[dice.index:] if left is not None else None
            rolled = rolled or bool(dice.log)
            records.append({**body, "seq": seq, "hash": ""})
            sk.evolve(card, state, body, seq)
            bodies.append(body)
        if left:
            raise DiceError(f"{len(left)} more dice given than the orders rolled")
        return last["seq"], last["hash"], bodies

    written = journal.append_raw(build)[1]
    return Taken(written, refused[0] if refused else None)


def check_open(state: sk.SkState) -> None:
    """Orders are taken until the journal reveals the dice secret (OrderError after)."""
    if state.revealed is not None:
        raise OrderError(f"the dice secret was revealed in record {state.revealed['record']}: "
                         f"the game is closed and takes no more orders (nothing was recorded)")


def _keyed(dice: AnyDice, o) -> dict:
    """A test that rolled, in a game keyed by side: its `dice_from` (dicekeys.py)."""
    return {"dice_from": dice.source} if dice.source and dice.log and \
        o.kind not in ("settle", "dispute") else {}


def body_of(card, state, records, o, side, dice) -> dict:
    """What order o of side makes now: the body of its record (a test, done, a dispute, a
    ruling), its dice rolled from dice; OrderError when it is refused."""
    if o.kind == "dispute":
        return dispute(card, state, records, o, side)
    if o.kind == "settle":
        return settle(card, records, o, side, dice)
    if side == MODERATOR:
        raise IllegalOrderError(o.text, "Disputes", "the moderator settles disputes only")
    return sk.decide(card, state, o, side, dice)


def _disputed(records: list[dict], n: object, text: str) -> dict:
    rec = records[n] if isinstance(n, int) and 0 < n < len(records) else None
    if rec is None or not (rec.get("test") or {}).get("facts"):
        raise IllegalOrderError(text, "Disputes", f"record {n} is no test with declared facts")
    return rec


def dispute(card, state, records, o, side) -> dict:
    """The opponent disputes a declared fact of a test within the challenge window."""
    rec = _disputed(records, o.facts.get("record"), o.text)
    window = records[0]["challenge_window"]
    fact = o.facts.get("fact")
    if side == rec["actor"] or side not in state.sides:
        raise IllegalOrderError(o.text, "Disputes", "only the opponent of the side that "
                                                    "declared a fact may dispute it")
    since = own_since(records, rec["seq"], side)       # his own records (window.py)
    if since >= window:
        raise IllegalOrderError(o.text, "Disputes", f"record {rec['seq']} is past the "
                                f"challenge window: the {side_name(side)} side has made "
                                f"{since} records since it (a fact is disputed within "
                                f"{window} of one's own records after its test)")
    if fact not in rec["test"]["facts"] or "value" not in o.facts:
        raise IllegalOrderError(o.text, "Disputes", f"name a fact record {rec['seq']} "
                                f"declared and the value claimed: fact=KEY value=VALUE")
    closed = closed_fact(state.disputes, rec["seq"], fact)
    if closed:
        raise IllegalOrderError(o.text, "Disputes", closed)
    # A value the fact may take (a figure of the game, a word of the card, a number...).
    _as_declared(rec["test"]["facts"][fact], o.facts["value"], o.text, fact, card,
                 state.figures)
    return {"actor": side, "order": o.text, "turn": state.turn,
            "phase": sk.phase_of(card, state).phase,
            "dispute": {"record": rec["seq"], "fact": fact,
                        "declared": rec["test"]["facts"][fact], "claimed": o.facts["value"]}}


def settle(card, records, o, side, dice) -> dict:
    """The moderator's ruling: the declared fact upheld, or corrected and the test decided
    again on the state before it, with its own dice first."""
    if side != MODERATOR:
        raise IllegalOrderError(o.text, "Disputes", "only the moderator settles a dispute")
    n = o.facts.get("record")
    rec = _disputed(records, n, o.text)
    _, state = replay(records)
    if not sk.open_disputes(state.disputes, n):
        raise IllegalOrderError(o.text, "Disputes", f"record {n} has no open dispute")
    ruling = {"record": n}
    if o.facts.get("uphold"):
        ruling["upheld"] = True
        return {"actor": side, "order": o.text, "turn": state.turn,
                "phase": sk.phase_of(card, state).phase, "settle": ruling}
    fact, value = o.facts.get("fact"), o.facts.get("value")
    disputed = [d["fact"] for d in sk.open_disputes(state.disputes, n)]
    if fact not in disputed or value is None:
        raise IllegalOrderError(o.text, "Disputes", f"a correction names the disputed fact "
                                f"of record {n} and its value: fact="
                                f"{'|'.join(disputed)} value=VALUE, or uphold=yes")
    # On the test as an earlier ruling on another of its facts left it, if one did.
    now = next((t for t in state.tests if t["record"] == n), rec["test"])
    facts = dict((now.get("settled") or rec["test"])["facts"])
    facts[fact] = _as_declared(facts.get(fact), value, o.text, fact, card, state.figures)
    # A fact the correction calls for: a range past 18" a state, a move ruled into contact
    # the figure it contacted (card melee.contact_holds).
    for key in ("state", "at") if card.melee.contact_holds else ("state",):
        facts.update({key: o.facts[key]} if key in o.facts and key not in facts else {})
    _, before = replay(records[:n])
    again = sk.corrected(card, before, rec["test"], facts, o.text)
    old = [d["value"] for d in rec["test"]["dice"]]
    follow_test(dice, rec)      # its fresh dice, if it needs any, are the test's next
    ruling.update({"fact": fact, "value": facts[fact]})
    try:
        redo = sk.decide(card, before, again, rec["actor"], _Reused(old, dice))
        ruling["test"] = redo["test"]
    except IllegalOrderError as exc:
        if exc.reason.startswith("declare "):       # the corrected test asks for a fact
            raise IllegalOrderError(o.text, "Disputes", f"with {fact}={value} the test "
                                    f"needs a fact it did not: {exc.reason} (add it to the "
                                    f"settle, e.g. state=halted)") from None
        ruling["test"] = {**rec["test"], "facts": again.facts, "effects": [],
                          "result": f"void: {exc.reason}", "dice": rec["test"]["dice"]}
    return {"actor": side, "order": o.text, "turn": state.turn,
            "phase": sk.phase_of(card, state).phase, "settle": ruling}


def _as_declared(old: object, value: str | None, text: str, fact: str | None = None,
                 card=None, figures=()) -> object:
    """A claimed or corrected value of a declared fact, as the fact holds it: yes or no, a
    whole number, figures of the game (their ids as the forces spell them), or a word of the
    card (IllegalOrderError naming what it may be)."""
    if value is None:
        raise IllegalOrderError(text, "Disputes", "settle record=N uphold=yes, or fact=KEY "
                                                  "value=VALUE")
    word = value.casefold()
    if isinstance(old, bool):
        if word not in ("yes", "no"):
            raise IllegalOrderError(text, "Disputes", f"{value!r}: this fact takes yes or no")
        return word == "yes"
    if isinstance(old, int):
        if not value.isdigit():
            raise IllegalOrderError(text, "Disputes", f"{value!r} is not a whole number")
        return int(value)
    if isinstance(old, list):
        ids = {f.casefold(): f for f in figures}
        named = [v for v in value.split(",") if v]
        unknown = [v for v in named if v.casefold() not in ids] or ([] if named else [value])
        if unknown:
            raise IllegalOrderError(text, "Disputes", f"{unknown[0]!r} is no figure of the game")
        return [ids[v.casefold()] for v in named]
    allowed = card_words(card, fact)
    if allowed is not None and word not in allowed:
        raise IllegalOrderError(text, "Disputes", f"{value!r}: the card's words for {fact} are "
                                                  f"{', '.join(allowed)}")
    return word


def card_words(card, fact: str | None) -> list[str] | None:
    """The words the card gives a fact (None: it lists none)."""
    if card is None or fact is None:
        return None
    if fact == "mode":
        return list(card.movement.modes)
    return getattr(card.facts, fact, None)


class _Reused:
    """The disputed test's own dice first, then, if the corrected test needs more, fresh
    ones from this record's stream."""

    def __init__(self, values: list[int], fresh: AnyDice):
        self.values, self.fresh = list(values), fresh

    def roll(self, sides: int, count: int, purpose: str) -> list[int]:
        out = []
        for _ in range(count):
            out += [min(self.values.pop(0), sides)] if self.values else \
                self.fresh.roll(sides, 1, purpose)
        return out
