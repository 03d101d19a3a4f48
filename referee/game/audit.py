"""The audit tools for a disputed turn: what one record did (`explain`), the dice counted
(`dice`).

Both read the journal as it is (every record checked on the way) and keep to what one
reader may see: a record is redacted for him (journal.redact), and the events handed on
are those redacted events, which render/audit.py tells by the same lines `log` prints, so
a sealed order or a hidden army template stays hidden exactly as it does there.

`explain` decides the record again from the position before it (verify.redecide),
with dice that hand out the recorded rolls and note what each was rolled for:
so the purpose of every die and its place in the committed stream are those
the referee used, not a guess from the events.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..base.errors import UNREADABLE, JournalError, OrderError, UsageError, quoted
from ..base.plurals import counted
from ..base.readers import MODERATOR, check_name, check_reader
from ..contracts.outputs import DiceCounts
from ..engine import check, legal_orders, pending_prompt, pending_rule, plan_labels, waiting_on
from ..engine.core import DECISIONS
from ..engine.order_text import format_order
from ..engine.reading import parse_order
from ..engine.versions import RULES_VERSION
from ..store.chain import export_reader
from ..store.dice import ReplayDice, die_steps, hmac_base, stream_of
from ..store.journal import Journal, parse, redact
from ..store.mailroute import ROUTE
from ..store.players import REGISTER
from ..store.sheets import SHEET, mix_text
from .battlethread import Battles
from .clockwalk import clock_of, zone_of
from .planexplain import decision_with_own, done_check
from .planparts import heading_order, is_part, marked
from .records import header_of, record_of
from .replay import (
    REVEAL,
    SEALED_PLAN,
    UPGRADE,
    Era,
    body,
    check_actor,
    data_for,
    order_text,
    scenario_of,
    start_state,
)
from .reveals import revealed_secret
from .timeline import answers_missed, clock_words
from .verification import redecide

FACES = (1, 2, 3, 4, 5, 6)


# ---------------------------------------------------------------- reading the journal

def _read(journal: Path, games_dir: Path | None, raw: bytes | None = None
          ) -> tuple[list[dict], bytes, Any]:
    """Every record (checked, upcast), the journal's bytes (raw: as the caller read them)
    and the data of record 0."""
    source = Journal(journal)
    raw = source.raw() if raw is None else raw
    records = parse(raw, source.name)
    header_of(records[0], source.name)
    data = data_for(records[0], source.name, games_dir)
    for rec in records[1:]:         # the shape the referee writes, before anything is read
        check_actor(record_of(rec, source.name).actor, rec.get("seq"), data, source.name)
    return records, raw, data


def record_number(text: str, last: int) -> int:
    """SEQ as given on the command line: a record the journal holds (UsageError otherwise)."""
    digits = text[1:] if text.startswith("-") else text
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 12:
        raise UsageError(f"SEQ {quoted(text, 20)}: not a record number; the journal has "
                         f"records 0 to {last}")
    seq = int(text)
    if not 0 <= seq <= last:
        raise UsageError(f"SEQ {seq}: the journal has records 0 to {last}")
    return seq


def check_since(since: int, last: int) -> None:
    """--since as `report` takes it (every record after this one): a record the journal
    holds, 0 to its last (UsageError naming that range: a number past the end is a mistake
    a script must hear of, not an empty answer)."""
    if not 0 <= since <= last:
        raise UsageError(f"--since {since}: the journal has records 0 to {last}")


def check_first(since: int, last: int) -> None:
    """--since as `log` takes it (the first record to print): 0 to one past the last, which
    prints nothing, as `report --since LAST` does (a script asking what came after the
    records it has read); UsageError naming the journal's records for any other."""
    if since != last + 1:
        check_since(since, last)


# ---------------------------------------------------------------- explain

class _Traced(ReplayDice):
    """The record's own dice handed out again, each noted with its purpose and its index in
    the committed stream (shuffle draws share that index, dice.py)."""

    def __init__(self, game_id: str, record: dict):
        super().__init__(game_id, record)
        self.trace: list[tuple[int, str, int]] = []     # (stream index, purpose, value)
        self.shuffles: list[tuple[int, int, int]] = []  # (first stream index, draws, cards)
        self.at = 0

    def _roll(self, count: int, purpose: str) -> list[int]:
        out = super()._roll(count, purpose)
        self.trace += [(self.at + k, purpose, v) for k, v in enumerate(out)]
        self.at += count
        return out

    def shuffle(self, cards: list[str]) -> tuple[list[str], int]:
        order, draws = super().shuffle(cards)
        self.shuffles.append((self.at, draws, len(cards)))
        self.at += draws
        return order, draws


def eft_owner(data) -> str:
    """The side whose units the EFT box holds (map.yaml boxes, 2.0 V.4); a game without the
    box has none there, and its first side stands in."""
    return data.eft_box.owner if data.eft_box else data.sides[0]


def _bills(records: list[dict], data) -> list[dict]:
    """Every batch of hits a side had to pay (5.3; the EFT box's losses, 2.0 V.4) and the
    events that paid it, in journal order: {seq, at, side, hits, paid: [(seq, at)], left}."""
    bills: list[dict] = []
    open_: dict[str, dict] = {}
    box = eft_owner(data)                   # the EFT box's events name no side
    for rec in records[1:]:
        for k, ev in enumerate(rec.get("events", [])):
            t, side = ev.get("type"), ev.get("side") or box
            if t in ("HitsToPay", "EftLossesDue"):
                due = ev.get("hits", 0) + ev.get("siege_hits", 0) if t == "HitsToPay" \
                    else ev.get("losses", 0)
                bill = {"seq": rec["seq"], "at": k, "side": side, "hits": due, "paid": [],
                        "left": due}
                bills.append(bill)
                open_[side] = bill
                continue
            if t in ("LossTaken", "HitsLost", "EftUnitLost"):
                bill = open_.get(side)
                if bill is None:
                    continue
                # HitsLost clears what is left: its unpaid hits, and what an annihilation's
                # removed steps paid (5.3.4)
                paid = 1 if t == "EftUnitLost" else ev.get("hits", 0) + \
                    (ev.get("siege_hits", 0) if t == "LossTaken" else ev.get("paid", 0))
                bill["paid"].append((rec["seq"], k))
                bill["left"] = max(0, bill["left"] - paid)
                if bill["left"] == 0:
                    del open_[side]
            elif t in ("BattleEnded", "ProductionEnded"):
                open_.clear()
    return bills


def _seen(rec: dict, k: int, reader: str) -> dict:
    """Event k of a record as the reader may see it (redacted as `log` has it)."""
    return redact({"events": [rec["events"][k]]}, reader)["events"][0]


def unexplainable(journal: Path, seq: int, exc: Exception) -> JournalError:
    """The fault of a record that names something the game data does not have."""
    return JournalError(f"{Path(journal).name}: record {seq} cannot be explained: it names "
                        f"something the game data does not have ({type(exc).__name__}: "
                        f"{exc})", record=seq)


def explain_facts(journal: Path, seq_text: str, reader: str = "public",
                  games_dir: Path | None = None, raw: bytes | None = None
                  ) -> tuple[dict[str, Any], Any, Any]:
    """One record as reader may see it, with the game data in force there and the game
    before it (None for record 0): its order, the
    decision it answered (with its rule) and the checks it passed, each die with its purpose
    (and, once the secret is revealed, its derivation), the events of each hit and of how it
    was paid (`hits`), and its own events (`changes`), all redacted for reader (UsageError
    for a SEQ the journal does not hold). raw: the journal's bytes as the caller read them.
    These are facts, not the printed document: render/audit.py tells the hits and events as
    sentences and builds the `Explanation` from them."""
    check_name(reader)
    records, raw, data = _read(journal, games_dir, raw)
    check_reader(reader, data.sides)
    seq = record_number(seq_text, records[-1]["seq"])
    try:
        return _explain(journal, records, raw, data, seq, reader, games_dir)
    except UNREADABLE as exc:
        raise unexplainable(journal, seq, exc) from None


def _header_explained(header: dict) -> dict[str, Any]:
    """Record 0: the header answers no decision and rolls no die."""
    return dict(actor="moderator", order=None, decision=None, checks=[
        f"record 0 is the header: game {header['game_id']}, scenario "
        f"{header['scenario']}, dice {header['dice']['mode']} (commitment "
        f"{header['dice']['commitment'][:16]}...); it answers no decision and rolls no "
        f"die"], dice=None, hits=[], changes=[])


def _explain(journal: Path, records: list[dict], raw: bytes, data, seq: int, reader: str,
             games_dir: Path | None) -> tuple[dict[str, Any], Any, Any]:
    header = records[0]
    rec = records[seq]
    shown = redact(rec, reader)
    out: dict[str, Any] = {"game_id": header["game_id"], "seq": seq, "reader": reader}
    if seq == 0:
        out.update(_header_explained(header))
        return out, data, None
    name = Path(journal).name
    state = start_state(header, data, name)
    era = Era(header, data, games_dir, name)
    for before in records[1:seq]:
        era.apply(state, before)
    data = era.data
    private = rec.get("private_order")
    may = isinstance(shown.get("private_order"), dict) and "data" in shown["private_order"]
    sealed = isinstance(private, dict) and not may
    text = shown["private_order"]["data"]["text"] if may else shown["order"]
    out["actor"] = rec["actor"]
    out["at"] = rec.get("at")
    # A part of a plan its side has not ended here reads as a part, as the report tells it.
    out["order"] = {"text": heading_order(text, rec), "sealed": sealed}
    if is_part(rec):
        out["order"]["part"] = True
    if shown.get("by") is not None:
        out["order"]["by"] = shown["by"]
    moderators = rec["order"] in (REGISTER, REVEAL, UPGRADE, SHEET, ROUTE) or seq == 1 or \
        (clock_of(rec) is not None and not answers_missed(rec))
    out["decision"] = None if moderators else \
        decision_with_own(_decision(state, data, rec), state, data, rec, reader)
    traced, checks = _checks(state, data, rec, seq, header, reader, sealed, era.rules,
                             zone_of(raw))
    out["checks"] = checks
    out["dice"] = _dice(rec, header, traced, revealed_secret(raw, header["dice"]["commitment"]))
    # Its fire phases as a Surprise Attack! battle under way or begun in it has them (9.7).
    out["changes"] = Battles.at(state).marked(marked(shown.get("events", [])))
    out["hits"] = _hits(records, seq, data, reader, out["changes"])
    return out, data, state


def _decision(state, data, rec: dict) -> dict[str, Any] | None:
    """The decision pending before the record: its kind, whose, its rule and its prompt (what
    `status` shows everybody); an armistice or a crisis card answers none of them."""
    p = state.pending
    if p is None or state.phase == "over":
        return None
    return {"kind": p.kind, "side": p.side, "waiting_on": waiting_on(state),
            "rule": pending_rule(state, data), "prompt": pending_prompt(state, data)}


# ---------------------------------------------------------------- explain: the checks

def _moderators_checks(rec: dict, zone: str | None = None,
                       reader: str | None = None) -> list[str] | None:
    """What a record of the moderator is checked by; None for any other record (zone: the
    game's time zone, its times are told in; reader: whom they are told to)."""
    if clock_of(rec) is not None and not answers_missed(rec):
        words = clock_words(rec, zone=zone, reader=reader, opening=False)
        return [f"a fact about the game's time: {words}; it answers no "
                f"decision and rolls no die (`verify` checks its form)"]
    if rec["order"] == REGISTER:
        return ["a roster record of the moderator: it answers no decision and rolls no "
                "die (`verify` checks its form)"]
    if rec["order"] == ROUTE:
        return ["the moderator sets where the game's mail comes from and goes to: it answers "
                "no decision and rolls no die (`verify` checks its form)"]
    if rec["order"] == REVEAL:
        return ["the moderator reveals the dice secret: it answers no decision; `verify` "
                "checks it against the commitment in record 0"]
    if rec["order"] == UPGRADE:
        return ["the moderator moves the game on to newer rules or data: it answers no "
                "decision"]
    if rec["order"] == SHEET:
        return [f"a dice sheet registered for {rec['sheet']['side']}: it answers no decision "
                f"and rolls no die; the links its side reveals from now on must lead back to "
                f"its tip by SHA-256 (`verify` checks each)"]
    return None


def _order_checks(state, data, rec: dict, reader: str) -> list[str]:
    """An open order read and checked again as at its decision (its rule, or 3.2 and 9.8 for
    orders given at any decision); for its own side and the moderator, how many orders were
    legal there and whether it is one of them."""
    try:
        order = parse_order(order_text(rec), data)
    except OrderError as exc:
        return [f"the order cannot be read again: {exc}"]
    lines: list[str] = []
    v = check(state, data, order, rec["actor"])
    rule = pending_rule(state, data) if state.pending else "2.0"
    if order.kind == "armistice":
        lines.append("an armistice order may be given at any decision (3.2, 3.3); it "
                     "does not answer the one pending")
        rule = "3.2"
    elif order.kind == "play" and order.card in data.crisis_keys:
        lines.append("a Military Crisis! card is played at any decision of its "
                     "owner's player turn (9.8, 9.9); it does not answer the one "
                     "pending")
        rule = data.card_types[order.card].rule
    if v is None:
        lines.append(f"the check of the decision ({rule}) passes on it again now")
    else:
        lines.append(f"the check of the decision says it breaks {v.rule}: {v.reason}")
    if reader in (MODERATOR, rec["actor"]):
        legal = {format_order(o) for o in legal_orders(state, data, rec["actor"])}
        among = "this one among them" if format_order(order) in legal else \
            "this one NOT among them"
        lines.append(f"legal at that decision: {counted(len(legal), 'order')} for the "
                     f"{rec['actor']} player, {among}")
    return lines


def _what_was_checked(state, data, rec: dict, seq: int, reader: str,
                      sealed: bool) -> list[str]:
    """The checks a record of a player (or the set-up) passed, as far as reader may see them."""
    if seq == 1:
        return ["the set-up of the scenario (record 0), made by the referee: it answers "
                "no decision"]
    if sealed:
        return [f"sealed from {reader} ({heading_order(rec['order'], rec)}): what it says, "
                f"and so the check it passed, are for the {rec['actor']} player only; the "
                f"line below says whether deciding it again gives the recorded events"]
    if rec["order"] == SEALED_PLAN or rec["order"] in plan_labels():
        spec = DECISIONS[state.pending.kind] if state.pending else None
        n = len(order_text(rec).split("\n"))
        return [f"a sealed plan of {counted(n, 'order')}, each checked in turn against the plan "
                f"so far by the check of the decision" + (f" ({spec.rule})" if spec else ""),
                *done_check(state, rec, order_text(rec).split("\n"))]
    return _order_checks(state, data, rec, reader)


def _decided_again(state, data, rec: dict, seq: int,
                   header: dict) -> tuple[_Traced | None, str]:
    """(the traced dice and shuffles, or None; the line saying whether deciding the record
    again from the position before it gives exactly the recorded events and dice)."""
    typed = record_of(rec, "journal")
    dice = _Traced(header["game_id"], rec)
    try:
        events, _, text, private = redecide(state, data, rec, typed,
                                            scenario_of(header), dice, in_place=False)
    except (OrderError, UsageError, KeyError, ValueError, TypeError, AttributeError,
            IndexError) as exc:
        return None, (f"deciding it again here fails ({type(exc).__name__}); `referee verify` "
                      f"names the fault")
    written = body(rec["actor"] if seq > 1 else "moderator", text, events, dice, private,
                   at="")
    if written["events"] == rec["events"] and list(dice.rolls) == rec.get("dice", []):
        return dice, (f"decided again from the position after record {seq - 1}: exactly "
                            f"the recorded events and dice")
    return None, ("decided again from the position before it, it gives a different result; "
                  "`referee verify` names the difference")


def _checks(state, data, rec: dict, seq: int, header: dict, reader: str, sealed: bool,
            rules: int, zone: str | None = None) -> tuple[_Traced | None, list[str]]:
    """(the traced dice and shuffles, or None when the record cannot be decided again here;
    the checks it passed, told honestly: what legal_orders and the decision's check say of
    it, and whether deciding it again gives the recorded events)."""
    moderators = _moderators_checks(rec, zone, reader)
    if moderators is not None:
        return None, moderators
    lines = _what_was_checked(state, data, rec, seq, reader, sealed)
    if answers_missed(rec):
        lines.insert(0, f"{clock_words(rec, zone, reader=reader)}; the game's policy for a "
                        f"missed deadline is default, and `verify` decides this answer again "
                        f"like any order")
    if rules < RULES_VERSION:
        lines.append(f"made under rules {rules}: not decided again under rules "
                     f"{RULES_VERSION} (its events are replayed as recorded, as `verify` does)")
        return None, lines
    traced, line = _decided_again(state, data, rec, seq, header)
    return traced, [*lines, line]


def _dice(rec: dict, header: dict, traced: _Traced | None,
          secret: bytes | None) -> dict[str, Any] | None:
    """Each die of the record: its value, purpose, place in the committed stream and, once the
    secret is revealed, its derivation (dice.py); each shuffle of the deck it drew from the
    stream (1.3), by where its draws lie there."""
    rolled = rec.get("dice") or []
    mode = header["dice"]["mode"]
    game_id = header["game_id"]
    trace = traced.trace if traced is not None else []
    mix, key = mix_text(rec.get("dice_from")), stream_of(rec["seq"], rec.get("dice_from"))
    out: dict[str, Any] = {"mode": mode, "revealed": secret is not None, "rolls": []}
    for k, value in enumerate(rolled):
        index, purpose = (trace[k][0], trace[k][1]) if k < len(trace) else (None, None)
        roll: dict[str, Any] = {"die": k + 1, "value": value, "purpose": purpose}
        if mode == "committed" and index is not None:
            roll["hmac_input"] = hmac_base(game_id, key, index, mix)
            if secret is not None:
                k, digest, at, byte, got = die_steps(secret, game_id, key, index, mix)
                message = roll["hmac_input"] + (f"/{k}" if k else "")
                roll["derived"] = {"message": message, "digest": digest.hex(), "byte_at": at,
                                   "byte": byte, "value": got, "matches": got == value}
        out["rolls"].append(roll)
    shuffles = traced.shuffles if traced is not None else []
    if shuffles:
        out["shuffles"] = [{"cards": cards, "first": at, "draws": draws,
                            "hmac_input": hmac_base(game_id, key, at, mix)}
                           for at, draws, cards in shuffles]
    return out


def _hits(records: list[dict], seq: int, data, reader: str,
          seen: list[dict]) -> list[dict[str, Any]]:
    """Each hit the record scored and how it was paid, and each hit it paid, as the events
    reader may see: {"fired": event}, {"bill": event, "paid": [(seq, event)], "left": n}
    for the hits it had to pay, {"pays_for": seq, "bill": event, "paid": event} for each
    event paying an earlier record's hits. seen: the record's events as the reader sees them
    (each fire phase of a Surprise Attack! battle marked, battlethread.py)."""
    rec = records[seq]
    out: list[dict[str, Any]] = [{"fired": ev} for ev in seen if ev.get("type") == "FireResolved"]
    for bill in _bills(records, data):
        paid_here = [(s, k) for s, k in bill["paid"] if s == seq]
        if bill["seq"] == seq:
            out.append({"bill": _seen(rec, bill["at"], reader),
                        "paid": [(s, _seen(records[s], k, reader)) for s, k in bill["paid"]],
                        "left": bill["left"]})
        elif paid_here:
            due = _seen(records[bill["seq"]], bill["at"], reader)
            out += [{"pays_for": bill["seq"], "bill": due, "paid": _seen(rec, k, reader)}
                    for _, k in paid_here]
    return out


# ---------------------------------------------------------------- dice

def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for X chi-square with df degrees of freedom: the regularized upper gamma
    Q(df/2, x/2), in closed form (half-integer and integer shapes)."""
    if x <= 0:
        return 1.0
    y = x / 2
    if df % 2 == 0:
        term, total = 1.0, 1.0
        for k in range(1, df // 2):
            term *= y / k
            total += term
        return math.exp(-y) * total
    # Q(n + 1/2, y) = erfc(sqrt y) + e^-y * sum_{k=1..n} y^(k - 1/2) / Gamma(k + 1/2)
    total = math.erfc(math.sqrt(y))
    term = math.sqrt(y) / math.gamma(1.5)
    for k in range(1, (df - 1) // 2 + 1):
        if k > 1:
            term *= y / (k - 0.5)
        total += math.exp(-y) * term
    return total


def chi_square(faces: list[int]) -> dict[str, Any] | None:
    """Pearson's chi-square of six face counts against a fair die (n/6 each), 5 d.o.f."""
    n = sum(faces)
    if n == 0:
        return None
    e = n / 6
    stat = sum((o - e) ** 2 / e for o in faces)
    return {"statistic": round(stat, 4), "df": 5, "p_value": round(chi2_sf(stat, 5), 4),
            "rough": e < 5}


def _tally() -> dict[str, Any]:
    return {"dice": 0, "faces": [0] * 6, "by_purpose": {}}


def _add(t: dict, purpose: str, values: list[int]) -> None:
    p = t["by_purpose"].setdefault(purpose, [0] * 6)
    for v in values:
        t["faces"][v - 1] += 1
        p[v - 1] += 1
        t["dice"] += 1


def _rolled(ev: dict, box: str, phases: Callable[[dict], str] | None
            ) -> list[tuple[str, str, list[int]]]:
    """(side, purpose, values) of every die a dice event rolled (5.2 fire, 8.3.4 re-rolls,
    2.0 V.4 the EFT box, whose units are box's side); a fire phase's purpose is its name by
    phases, else its id."""
    if ev.get("type") == "FireResolved":
        values = [v for g in ev.get("groups", []) for v in [*g["dice"], *g.get("rerolled", [])]]
        return [(ev["side"], phases(ev) if phases else ev["phase"], values)]
    if ev.get("type") == "EftLossesDue":
        return [(box, "EFT box losses (2.0 V.4)", list(ev.get("dice", [])))]
    return []


def count_dice(journal: Path, reader: str = "public", games_dir: Path | None = None,
               phases: Callable[[dict], str] | None = None, raw: bytes | None = None
               ) -> dict[str, Any]:
    """Each side's dice so far by face and purpose, the expected counts and a chi-square
    (dice are public once rolled: the same for every reader); phases names a fire event's
    phase (5.2.1; the surprise order, 9.7, in a Surprise Attack! battle, its events marked:
    battlethread.py) as its dice's purpose."""
    check_name(reader)
    records, _, data = _read(journal, games_dir, raw)
    box, battles = eft_owner(data), Battles()
    check_reader(reader, data.sides)
    reader = export_reader(records, reader, Path(journal).name)
    sides = {s: _tally() for s in data.sides}
    both = _tally()
    other = 0
    for rec in records[1:]:
        counted: list[int] = []
        for ev in battles.marked(rec.get("events", [])):
            for side, purpose, values in _rolled(ev, box, phases):
                odd = next((v for v in values if type(v) is not int or not 1 <= v <= 6), None)
                if odd is not None:         # a resealed journal: name it, count nothing
                    raise JournalError(f"{Path(journal).name}: record {rec['seq']} holds a "
                                       f"die of {quoted(str(odd), 12)}, not 1 to 6 (5.2.1); "
                                       f"`referee verify` names the fault", record=rec["seq"])
                _add(sides.setdefault(side, _tally()), purpose, values)
                _add(both, purpose, values)
                counted += values
        # Every die of a record belongs to one of its events; any other is shown, not hidden.
        left = list(rec.get("dice") or [])
        for v in counted:
            if v in left:
                left.remove(v)
        other += len(left)
    for t in [*sides.values(), both]:
        t["expected"] = round(t["dice"] / 6, 4)
        t["chi_square"] = chi_square(t["faces"])
    return DiceCounts.plain(
        game_id=records[0]["game_id"], seq=records[-1]["seq"], reader=reader,
        mode=records[0]["dice"]["mode"], sides=sides, all=both, unattributed=other)
