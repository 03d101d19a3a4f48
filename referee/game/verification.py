"""verify: prove a journal honest, and say exactly what was proved.

A full journal is checked three ways: the hash chain (every record intact
and in order), every ruling (each record decided again from its order must
give exactly the recorded events, and replaying those events must give the
same state), and, with the secret (given, or revealed at the end of the
game), every die and shuffle recomputed from the committed stream.

Players' dice sheets (store/sheets.py) are checked without the secret: a sheet is
registered by its side or the moderator; every link a record reveals is its actor's, a
later link of his sheet than the last one revealed; a record of today's rules that used
the stream mixes in its actor's own material alone, keyed by his count of such records
(older records keep the mix and key they name): a link his own batch revealed when he
holds a sheet, else, since a roster record says so (`mail_entropy`), the digest of the
mail it came in (which only the player can check against his mail).

A journal with any secret part replaced by its digest is a redacted export
and cannot be decided again. It never passes as a full journal: `verify`
fails naming the first such record, unless the user says whose export it is
(`--export SIDE`); then the chain is checked, every redacted part must be
one that SIDE may not see, and the answer says plainly "chain only". With
the secret, an export's dice are recomputed too.

Records are read as a stream, so memory stays flat however long the game.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from ..base.errors import JournalError, OrderError, UsageError
from ..base.readers import check_name, check_reader, may_see
from ..engine import decide, decide_plan, is_private, plan_labels
from ..engine.core import Ctx
from ..engine.evolve import evolve
from ..engine.flow import setup_record
from ..engine.reading import parse_order
from ..engine.standing import applied
from ..engine.versions import RULES_VERSION
from ..store import dice as dicemod
from ..store.authorship import ADOPT, REKEY, Authorship
from ..store.dice import Dice, ManualDice, ReplayDice
from ..store.journal import Journal, is_redacted_part, is_secret_part, placed_parts, scan
from ..store.mailroute import ROUTE
from ..store.players import REGISTER
from ..store.secrets import not_committed
from ..store.sheets import OWN_LINKS_FROM, SHEET, SheetPos, in_side_count
from ..store.signing import shown
from ..store.timesback import TimesBack
from .clockwalk import fact_problem
from .dicecheck import (
    SheetWalk,
    Streams,
    check_dice,
    check_mix,
    check_stream,
    follow_link,
    register_checked,
)
from .dicecheck import fail as _fail
from .dicenamed import differing
from .dicesource import plans_stream, record_source
from .failedchecks import failed_checks
from .forced import closed_wrongly
from .moderated import (
    check_clock,
    check_roster,
    check_route,
    check_signing,
    no_sheet_parts,
)
from .records import audit_contracts, contracted, header_of
from .replay import (
    REVEAL,
    SEALED_PLAN,
    UPGRADE,
    Era,
    apply_record,
    body,
    check_actor,
    data_for,
    order_text,
    scenario_of,
    start_state,
)
from .reveals import after_reveal, check_reveal, claims_reveal, revealed_secret
from .timeline import answers_missed


class Verification(msgspec.Struct):
    """What verify checked, one line per kind of check; `older`: how many records were made
    under older rules and so were replayed, not decided again (never "fully verified")."""

    records: int
    lines: list[str]
    older: int = 0
    keys: list[str] = []                # the fingerprints that signed it, in order
    signed_from: int | None = None      # the first signed record (None: never signed)
    unchecked: list[str] = []           # what an export's check could not look at
    times: str | None = None            # the warning of records dated back (timesback.py)


def _parts(obj: Any, out: list[dict]) -> list[dict]:
    """Every secret part of a record, full or redacted."""
    if isinstance(obj, dict):
        if is_secret_part(obj) or is_redacted_part(obj):
            out.append(obj)
        else:
            for v in obj.values():
                _parts(v, out)
    elif isinstance(obj, list):
        for v in obj:
            _parts(v, out)
    return out


def _check_upgrade(rec: dict, typed, name: str, rules: int, digest: str) -> None:
    """An upgrade record: the moderator's, one RulesUpgraded event moving on from the rules and
    data in force to rules no older, and nothing else."""
    n = rec["seq"]
    events = typed.events
    ok = (rec.get("actor") == "moderator" and len(events) == 1
          and events[0].type == "RulesUpgraded" and not rec.get("dice")
          and not any(k in rec for k in ("private_order", "mail", "players")))
    if ok:
        ev = events[0]
        ok = ev.from_rules == rules and ev.from_data_digest == digest and ev.rules >= rules
    if not ok:
        raise JournalError(f"{name}: record {n} claims to upgrade the rules but is not an "
                           f"upgrade from the rules ({rules}) and data ({digest[:12]}) in force",
                           record=n)


def redecide(state, data, rec: dict, typed, scenario, dice: Dice, in_place: bool = True):
    """Decide one record again from the state before it (2.0: set-up; 7.0, 2.0 I, 2.0 V.3:
    sealed plans; any other order) -> (events, state after, order text, private form).

    Raises what deciding raises (OrderError when the order is not legal there).
    """
    if not in_place:
        state = state.clone()
    if rec["seq"] == 1:
        ctx = Ctx(state, data, dice)
        setup_record(ctx, scenario)
        return ctx.events, ctx.state, "set up", False
    text = order_text(rec)
    if rec["order"] == SEALED_PLAN or rec["order"] in plan_labels():
        orders = [(t, parse_order(t, data)) for t in text.split("\n")]
        events, new = decide_plan(state, data, orders, rec["actor"], dice, in_place=True)
        return events, new, text, rec["order"]
    order = parse_order(text, data)
    private = is_private(state, order)
    # Re-decided with the standing orders the record says it applied: each is checked for
    # legality where it was used (engine/standing.py).
    events, new = decide(state, data, order, rec["actor"], dice, text, in_place=True,
                         standing=applied(typed.events))
    return events, new, text, private


def _ranges(seqs: list[tuple[int, int]]) -> list[str]:
    """'records 1-7 made under rules 1' lines for (seq, rules) pairs in order."""
    out: list[list[int]] = []
    for seq, rules in seqs:
        if out and out[-1][1] == seq - 1 and out[-1][2] == rules:
            out[-1][1] = seq
        else:
            out.append([seq, seq, rules])
    return [f"record{'s' if a != b else ''} {a}{f'-{b}' if a != b else ''} made under rules "
            f"{rules}: not re-decided (this referee decides under rules {RULES_VERSION}); "
            f"their events were replayed as recorded" for a, b, rules in out]


def _by_referee(rec: dict) -> bool:
    """Whether a side's record is the referee's own word for it: a default at a missed
    deadline, or a decision closed for it (a record from a mail never is)."""
    return rec.get("by") in ("deadline", "referee") and "mail" not in rec


def verify(path: Path | str, secret_file: Path | None = None,
           games_dir: Path | None = None, export: str | None = None,
           pins: list[tuple[str, int | None, str]] = (), raw: bytes | None = None
           ) -> Verification:
    """Check the chain and every signature, decide every record again and compare; with the
    secret, every die too.

    JournalError names the first record that fails; a redacted export fails
    unless export names its reader (then the chain, the signatures and the
    redactions are checked, and the dice with the secret). Each pin
    (fingerprint, up to record or None, what pinned it) must be a key that
    signed the journal (up to that record). raw: the journal's bytes as the caller read
    them (what else it checks on them, receipts, is then checked on the same bytes).
    """
    if export is not None:
        check_name(export, "--export")
    journal = Journal(path)
    raw = journal.raw() if raw is None else raw
    name = journal.name
    header = next(scan(raw, name))
    header_of(header, name)
    try:
        return _verify(raw, name, header, secret_file, games_dir, export, pins)
    except JournalError as exc:         # every check said, passed or failed (failedchecks.py)
        exc.checks = failed_checks(raw, name, header, exc, export, pins)
        raise


def _verify(raw: bytes, name: str, header: dict, secret_file: Path | None,
            games_dir: Path | None, export: str | None, pins) -> Verification:
    if export is not None:      # a full journal's records are held to it as each is read
        audit_contracts(raw, name)
    authors, times = Authorship(name, header, beside=raw), TimesBack(header)
    records = _read(_chain_faults(scan(raw, name)), authors, times)
    next(records)
    try:
        found = _proved(records, raw, header, name, secret_file, games_dir, export)
    except JournalError as exc:
        # A record forged without the key is named as such, before what else is wrong; one
        # whose line breaks the chain, as broken (its signature is not read beside). Else
        # who signed the records read so far is told beside what is wrong.
        authors.settle(exc.record - 1 if getattr(exc, "chain", False) else exc.record)
        exc.signed = authors.lines()
        raise
    else:
        authors.settle()
    finally:
        authors.close()
    for fpr, upto, what in pins:
        authors.pin(fpr, upto, what)
    found.lines[1:1] = authors.lines()
    found.keys = [shown(f) for _, f in authors.keys]
    found.signed_from = authors.keys[0][0] if authors.keys else None
    found.times = times.warning()
    return found


def _proved(records, raw: bytes, header: dict, name: str, secret_file: Path | None,
            games_dir: Path | None, export: str | None) -> Verification:
    """The records after the header, checked as an export for `export` or decided again."""
    secret = _secret_of(raw, header, secret_file)
    data = data_for(header, name, games_dir)
    if export is not None:
        check_reader(export, data.sides, option="--export")
        return _verify_export(records, name, header, export, secret, list(data.sides))
    proof = _Proof(name, header, data, games_dir, secret)
    for rec in records:
        proof.check(rec)
    return proof.conclude()


def _chain_faults(records):
    """scan's records; the JournalError it raises, at the first record whose line breaks
    the chain, is marked as the chain's."""
    try:
        yield from records
    except JournalError as exc:
        exc.chain = True
        raise


def _read(records, authors: Authorship, times: TimesBack):
    """The records, each signature checked and its time seen before the record is looked
    at."""
    yield next(records)
    for rec in records:
        authors.check(rec)
        times.see(rec["seq"], rec.get("at"), rec.get("events"))
        yield rec


def _secret_of(raw: bytes, header: dict, secret_file: Path | None) -> bytes | None:
    """The dice secret from the file given (it must match record 0's commitment), else the
    one the journal reveals, else None."""
    commit = header["dice"]["commitment"]
    if secret_file is not None:
        secret = dicemod.read_secret(secret_file)
        if dicemod.commitment(secret) != commit:
            raise not_committed(secret_file)
        return secret
    return revealed_secret(raw, commit)


class _Proof:
    """A journal read record by record: each decided again from the state before it, and the
    events it records replayed beside, so that both must agree at the end."""

    def __init__(self, name: str, header: dict, data, games_dir: Path | None,
                 secret: bytes | None):
        self.name, self.header, self.secret = name, header, secret
        self.manual = header["dice"]["mode"] == "manual"
        self.sc = scenario_of(header)
        self.state = start_state(header, data, name)
        self.replayed = self.state.clone()
        self.count, self.revealed_at = 1, None
        self.era = Era(header, data, games_dir, name)
        self.older: list[tuple[int, int]] = []
        self.sheets: dict[str, SheetPos] = {}
        self.run: tuple[str, int] = ("", 0)     # the actor of the records in a row, and where
        self.links = 0
        self.mail_entropy = False   # a roster record says mail records mix their digest
        self.rolls: dict[str, int] = {}     # each side's records that mixed in material

    def check(self, rec: dict) -> None:
        """One record: its place, its kind, then the ruling it holds."""
        name, n = self.name, rec["seq"]
        self.count += 1
        if self.revealed_at is not None:
            raise after_reveal(name, n, self.revealed_at)
        redacted = [p for p in placed_parts(rec) if is_redacted_part(p)]
        if redacted:
            raise _fail(name, n, f"holds a secret part of {redacted[0]['to']!r} as a digest: "
                                 f"this is a redacted export, which cannot be decided again; "
                                 f"check it with `referee verify --export SIDE`")
        typed = contracted(rec, name)
        data = self.era.data
        check_actor(typed.actor, n, data, name)
        if self.run[0] != typed.actor:
            self.run = (typed.actor, n)
        if rec["order"] == SHEET or rec.get("sheet") is not None:
            self.register_sheet(rec)
            return
        if typed.clock is not None and not answers_missed(rec):
            check_clock(rec, name, data.sides)
            return
        if typed.clock is not None and fact_problem(rec["clock"], data.sides) is not None:
            raise _fail(name, n, f"its missed deadline is not one the referee writes: "
                                 f"{fact_problem(rec['clock'], data.sides)}")
        if rec["order"] in (REGISTER, REVEAL, UPGRADE, ROUTE) or \
                rec.get("players") is not None or rec.get("mail_route") is not None or \
                any(e.type in ("SecretRevealed", "RulesUpgraded") for e in typed.events):
            no_sheet_parts(rec, name)
        if rec["order"] in (ADOPT, REKEY) or rec.get("signing") is not None:
            check_signing(rec, name)
            self.state.seq = self.replayed.seq = n
            return
        if rec["order"] == REGISTER or rec.get("players") is not None:
            check_roster(rec, name, data.sides)
            roster = rec["players"].get("data")
            self.mail_entropy |= isinstance(roster, dict) and roster.get("mail_entropy") is True
        elif rec["order"] == ROUTE or rec.get("mail_route") is not None:
            check_route(rec, name)
        elif claims_reveal(rec):
            check_reveal(rec, name, self.header["dice"]["commitment"])
            self.revealed_at = n
        elif rec["order"] == UPGRADE or any(e.type == "RulesUpgraded" for e in typed.events):
            self.upgrade(rec, typed)
        elif self.era.rules < RULES_VERSION:
            self.replay_older(rec)
        else:
            self.decide_again(rec, typed)

    def register_sheet(self, rec: dict) -> None:
        register_checked(self.sheets, rec, self.name,
                         (self.era.data.sides, self.manual, self.era.rules))
        self.state.seq = self.replayed.seq = rec["seq"]

    def follow_link(self, rec: dict) -> dict | None:
        """The link a record reveals, checked (dicecheck.follow_link); the sheets move on."""
        link = follow_link(self.sheets, rec, self.name)
        self.links += link is not None
        return link

    def source_for(self, rec: dict) -> dict:
        """What the referee mixes into this record's dice (record_source): checked here for
        records of today's rules; one of older rules keeps the mix it names (replay_older)."""
        claimed, mailed, actor = rec.get("dice_from"), "mail" in rec, rec["actor"]
        mail = claimed.get("mail") if isinstance(claimed, dict) and mailed else None
        return record_source(self.sheets, self.state, actor, mail, self.rolls.get(actor, 0),
                             _by_referee(rec), mailed)

    def count_roll(self, rec: dict, older: bool = False) -> None:
        """A `dice_from` naming material moves its actor's count on (as rolls_before)."""
        if older and self.era.rules < OWN_LINKS_FROM and \
                isinstance(source := rec.get("dice_from"), dict) and "stream" in source:
            raise _fail(self.name, rec["seq"], "its dice_from names a stream: rules 7 and "
                                               "before keyed a record's dice by its number")
        if in_side_count(rec.get("dice_from")):
            self.rolls[rec["actor"]] = self.rolls.get(rec["actor"], 0) + 1

    def check_entropy(self, rec: dict, dice: Dice, phase: bool) -> None:
        """A record that used the stream mixed in its actor's own fresh link (a sheet), or
        the digest of the mail it came in (a game made to mix it in); a sheet holder's
        sealed plan given at once with the other side's (phase) reveals a link, rolling or
        not."""
        n, actor = rec["seq"], rec["actor"]
        pos = self.sheets.get(actor)
        fresh = pos is not None and pos.no > 0 and pos.seq >= self.run[1]
        if phase and pos is not None and not fresh and not _by_referee(rec):
            raise _fail(self.name, n, f"its sealed plan, given at once with the other side's, "
                                      f"reveals no link of {actor}'s dice sheet")
        if not dice.used():
            return
        if pos is not None and not fresh and not phase:
            raise _fail(self.name, n, f"it rolls dice or shuffles for {actor}, who holds a dice "
                                      f"sheet, with no link revealed by his own orders (the "
                                      f"last, link {pos.no}, in record {pos.seq})")
        if pos is None and "mail" in rec and self.mail_entropy and not phase and \
                not (dice.source or {}).get("mail"):
            raise _fail(self.name, n, f"it came in {actor}'s mail, but its dice do not mix in "
                                      f"the digest of the mail's order lines")

    def upgrade(self, rec: dict, typed) -> None:
        data, n = self.era.data, rec["seq"]
        _check_upgrade(rec, typed, self.name, self.era.rules, data.digest)
        for target in (self.state, self.replayed):
            evolve(target, typed.events[0], data)
        self.era.switch(typed.events[0], n)
        self.state.seq = self.replayed.seq = n

    def replay_older(self, rec: dict) -> None:
        # Made under older rules: today's decide is no judge of it. Its chain and shape are
        # checked, its dice too with the secret; its events are replayed as recorded.
        data, rules = self.era.data, self.era.rules
        self.follow_link(rec)
        check_mix(self.sheets, rec, self.name, self.era.rules)
        self.count_roll(rec, older=True)
        if self.secret is not None and not self.manual:
            check_dice(rec, self.name, self.header["game_id"], self.secret)
        apply_record(self.replayed, rec, data, self.name, rules)
        apply_record(self.state, rec, data, self.name, rules)
        self.older.append((rec["seq"], rules))

    def dice_for(self, rec: dict) -> Dice:
        link = self.follow_link(rec)
        source = self.source_for(rec)
        if self.secret is None:
            return ReplayDice(self.header["game_id"], rec, link, source)
        return Dice(self.header["game_id"], rec["seq"], self.secret,
                    ManualDice(rec.get("dice", [])) if self.manual else None, source, link)

    def decide_again(self, rec: dict, typed) -> None:
        name, n, data = self.name, rec["seq"], self.era.data
        closed = rec.get("by") == "referee" and closed_wrongly(self.state, data, rec["actor"],
                                                                rec["order"])
        if closed:
            raise _fail(name, n, closed)
        dice = self.dice_for(rec)
        phase = plans_stream(self.state, rec["actor"]) is not None   # before deciding it
        try:
            events, new, text, private = redecide(self.state, data, rec, typed, self.sc, dice)
        except (OrderError, UsageError) as exc:
            raise _fail(name, n, f"deciding it again fails: {exc}") from None
        except (KeyError, ValueError, TypeError, AttributeError, IndexError) as exc:
            raise _fail(name, n, f"deciding it again fails ({type(exc).__name__}: {exc})"
                        ) from None
        _compare(rec, name, _rewritten(rec, text, events, dice, private), dice)
        self.check_entropy(rec, dice, phase)
        self.count_roll(rec)
        try:
            for ev in typed.events:
                evolve(self.replayed, ev, data)
        except (KeyError, ValueError, TypeError, AttributeError, IndexError) as exc:
            raise _fail(name, n, f"its events cannot be replayed ({type(exc).__name__})"
                        ) from None
        new.seq = self.replayed.seq = n
        self.state = new

    def conclude(self) -> Verification:
        count, older = self.count, self.older
        if self.replayed != self.state:
            raise JournalError(f"{self.name}: replaying the events does not give the state "
                               f"that deciding the orders gives", record=count - 1)
        lines = [f"chain: {count} records, every hash and link checks"]
        if older:
            lines.append(f"rulings: {count - 1 - len(older)} records decided again give "
                         f"exactly the recorded events; {len(older)} made under older rules "
                         f"were not decided again")
            lines += _ranges(older)
        else:
            lines.append(f"rulings: all {count - 1} records decided again give exactly the "
                         f"recorded events")
        lines.append(_dice_line(self.secret, self.manual, full=True))
        if self.sheets:
            lines.append(f"dice sheets: {len(self.sheets)} registered ("
                         f"{', '.join(sorted(self.sheets))}); {self.links} links revealed, each "
                         f"the next of its sheet, and every record's dice mix in the links its "
                         f"rules name")
        return Verification(count, lines, len(older))


def _rewritten(rec: dict, text: str, events: list, dice: Dice, private) -> dict:
    """What the referee writes for this record's order (but its time and its links)."""
    n, mail, by = rec["seq"], rec.get("mail"), rec.get("by")
    # A default at a missed deadline, or a decision closed for a side, is the referee's word
    # for it; a record from before orders said how they came says nothing.
    how = by if _by_referee(rec) else "hand"
    written = body(rec["actor"] if n > 1 else "moderator", text, events, dice, private,
                   mail.get("data") if isinstance(mail, dict) else None, how=how, at="")
    del written["at"]
    if by is None:
        written.pop("by", None)
    if answers_missed(rec):
        written["clock"] = rec["clock"]     # the missed deadline it answers (timeline.py)
    part = rec.get("standing")
    if n > 1 and isinstance(part, dict) and part.get("to") == rec["actor"]:
        # The actor's own set: nothing in it is decided again, but with the secret its salt
        # must be the one the referee derives for this record, so that nobody without the
        # secret can put another set into a record and hash the chain again.
        written["standing"] = part if dice.secret is None or isinstance(dice, ReplayDice) \
            else {**part, "salt": dice.standing_salt()}
    return written


def _compare(rec: dict, name: str, written: dict, dice: Dice) -> None:
    """Everything a record holds but its time and its links must be what the referee writes
    for this order: who gave it, its text or its sealed form, dice, events."""
    n = rec["seq"]
    extra = set(rec) - set(written) - {"at", "seq", "prev", "hash", "sig"}
    wrong = sorted(k for k in written if k not in ("events", "dice") and rec.get(k) != written[k])
    if wrong or extra:
        raise _fail(name, n, f"its {', '.join(wrong + sorted(extra))} is not what the "
                             f"referee writes for {rec['order']!r} (1.4, 7.0: sealed orders)")
    got = written["events"]
    if got != rec["events"] or list(dice.rolls) != rec.get("dice", []):
        k = next((i for i, (a, b) in enumerate(zip(got, rec["events"])) if a != b),
                 min(len(got), len(rec["events"])))
        rolls = list(dice.rolls)
        named = differing(rec, rolls) if len(rolls) == len(rec.get("dice", [])) else ""
        what = f"its dice differ: {named}" if named else \
            "its dice differ" if got == rec["events"] else f"event {k} differs"
        raise _fail(name, n, f"({rec['order']!r}): deciding it again gives a different "
                             f"result ({what})")


def _dice_line(secret: bytes | None, manual: bool, full: bool) -> str:
    if manual:
        return ("dice: rolled by the players (manual dice): each one was checked to be 1 to 6 "
                "and used; " + ("card shuffles recomputed from the secret" if secret and full
                                else "shuffles not recomputed"))
    if secret is not None:
        what = "every die and shuffle" if full else "every die"
        return (f"dice: {what} recomputed from the secret, which matches the commitment in "
                f"record 0")
    return ("dice: not recomputed (give --secret FILE, or reveal the secret when the game is "
            "over)")


def _verify_export(records, name: str, header: dict, reader: str, secret: bytes | None,
                   sides: list[str]) -> Verification:
    """Chain, redactions, dice sheets and (with the secret) dice of an export made for
    reader."""
    manual = header["dice"]["mode"] == "manual"
    count, digests, streams, walk = 1, 0, Streams(header), SheetWalk(header, sides)
    revealed_at = None
    for rec in records:
        n = rec["seq"]
        count += 1
        if revealed_at is not None:
            raise after_reveal(name, n, revealed_at)
        if claims_reveal(rec):      # public in every export: held to the commitment
            check_reveal(rec, name, header["dice"]["commitment"])
            revealed_at = n
        check_stream(rec, streams, name)
        walk.follow(rec, name)
        for part in _parts(rec, []):
            to = part["to"]
            if is_redacted_part(part):
                if may_see(reader, to):
                    raise _fail(name, n, f"hides a secret part of {to!r} that an export for "
                                         f"{reader} shows in full")
                digests += 1
            elif not may_see(reader, to):
                raise _fail(name, n, f"shows a secret part of {to!r}: not an export for "
                                     f"{reader}")
        if secret is not None and not manual:
            check_dice(rec, name, header["game_id"], secret)
    lines = [f"chain: {count} records, every hash and link checks",
             f"chain only: a redacted export for {reader} ({digests} secret parts are digests, "
             f"each one {reader} may not see); its rulings cannot be decided again"]
    lines.append(_dice_line(secret, manual, full=False))
    if walk.sheets:
        lines.append(f"dice sheets: {len(walk.sheets)} registered ("
                     f"{', '.join(sorted(walk.sheets))}); {walk.links} links revealed, each "
                     f"a later link of its sheet, and every record's dice mix in the links "
                     f"its rules name")
    return Verification(count, lines, unchecked=_unchecked(secret, manual))


def _unchecked(secret: bytes | None, manual: bool) -> list[str]:
    """What verify cannot check in an export, even with the secret: the rulings and the
    deck's shuffles need the secret parts it holds as digests, and nothing in it tells
    when each order was due or what the mails it came in said."""
    dice = ["dice"] if secret is None and not manual else []
    return ["rulings", *dice, "deck shuffles", "times against deadlines",
            "orders against mails"]
