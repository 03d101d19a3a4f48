"""The audit tools for a disputed turn: one record explained (`explain`), the dice counted
(`dice`).

Both read the journal as it is (every record checked on the way) and show one
reader what he may see: a record is redacted for him (journal.redact) and its
events are told by the same lines `log` prints (render/text.describe), so a
sealed order or a hidden army template stays hidden exactly as it does there.

`explain` decides the record again from the position before it (verify.redecide),
with dice that hand out the recorded rolls and note what each was rolled for:
so the purpose of every die and its place in the committed stream are those
the referee used, not a guess from the events.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from ..base.errors import JournalError, OrderError, UsageError, quoted
from ..base.readers import MODERATOR, check_name, check_reader
from ..store.dice import ReplayDice, die_steps

FACES = (1, 2, 3, 4, 5, 6)


# ---------------------------------------------------------------- reading the journal

def _read(journal: Path, games_dir: Path | None) -> tuple[list[dict], bytes, Any]:
    """Every record (checked, upcast), the journal's bytes and the data of record 0."""
    from ..store.journal import Journal, parse
    from .records import header_of, record_of
    from .replay import check_actor, data_for

    source = Journal(journal)
    raw = source.raw()
    records = parse(raw, source.name)
    header_of(records[0], source.name)
    data = data_for(records[0], source.name, games_dir)
    for rec in records[1:]:         # the shape the referee writes, before anything is read
        check_actor(record_of(rec, source.name).actor, rec.get("seq"), data, source.name)
    return records, raw, data


def record_number(text: str, last: int) -> int:
    """SEQ as given on the command line: a record the journal holds (UsageError otherwise)."""
    body = text[1:] if text.startswith("-") else text
    if not (body.isascii() and body.isdigit()) or len(body) > 12:
        raise UsageError(f"SEQ {quoted(text, 20)}: not a record number; the journal has "
                         f"records 0 to {last}")
    seq = int(text)
    if not 0 <= seq <= last:
        raise UsageError(f"SEQ {seq}: the journal has records 0 to {last}")
    return seq


# ---------------------------------------------------------------- explain

class _Traced(ReplayDice):
    """The record's own dice handed out again, each noted with its purpose and its index in
    the committed stream (shuffle draws share that index, dice.py)."""

    def __init__(self, game_id: str, record: dict):
        super().__init__(game_id, record)
        self.trace: list[tuple[int, str, int]] = []     # (stream index, purpose, value)
        self.at = 0

    def _roll(self, count: int, purpose: str) -> list[int]:
        out = super()._roll(count, purpose)
        self.trace += [(self.at + k, purpose, v) for k, v in enumerate(out)]
        self.at += count
        return out

    def shuffle(self, cards: list[str]) -> tuple[list[str], int]:
        order, draws = super().shuffle(cards)
        self.at += draws
        return order, draws


def _bills(records: list[dict]) -> list[dict]:
    """Every batch of hits a side had to pay (5.3; the EFT box's losses, 2.0 V.4) and the
    events that paid it, in journal order: {seq, at, side, hits, paid: [(seq, at)], left}."""
    bills: list[dict] = []
    open_: dict[str, dict] = {}
    for rec in records[1:]:
        for k, ev in enumerate(rec.get("events", [])):
            t, side = ev.get("type"), ev.get("side")
            if t in ("HitsToPay", "EftLossesDue"):
                side = side or "german"             # the EFT box holds German units only
                due = ev.get("hits", 0) + ev.get("siege_hits", 0) if t == "HitsToPay" \
                    else ev.get("losses", 0)
                bill = {"seq": rec["seq"], "at": k, "side": side, "hits": due, "paid": [],
                        "left": due}
                bills.append(bill)
                open_[side] = bill
                continue
            if t in ("LossTaken", "HitsLost", "EftUnitLost"):
                side = side or "german"
                bill = open_.get(side)
                if bill is None:
                    continue
                paid = 1 if t == "EftUnitLost" else \
                    ev.get("hits", 0) + (ev.get("siege_hits", 0) if t == "LossTaken" else 0)
                bill["paid"].append((rec["seq"], k))
                bill["left"] = max(0, bill["left"] - paid)
                if bill["left"] == 0:
                    del open_[side]
            elif t in ("BattleEnded", "ProductionEnded"):
                open_.clear()
    return bills


def _line(rec: dict, k: int, data, reader: str) -> str:
    """Event k of a record as the reader may see it (the line `log` prints)."""
    from ..render.text import describe
    from ..store.journal import redact

    ev = redact({"events": [rec["events"][k]]}, reader)["events"][0]
    return describe(ev, data, reader) or ev.get("type", "?")


def explain(journal: Path, seq_text: str, reader: str = "public",
            games_dir: Path | None = None) -> dict[str, Any]:
    """One record as reader may see it: its order, the decision it answered (with its rule)
    and the checks it passed, each die with its purpose (and, once the secret is revealed,
    its derivation), each hit and how it was paid, and what it changed (UsageError for a SEQ
    the journal does not hold)."""
    check_name(reader)
    records, raw, data = _read(journal, games_dir)
    check_reader(reader, data.sides)
    seq = record_number(seq_text, records[-1]["seq"])
    try:
        return _explain(journal, records, raw, data, seq, reader, games_dir)
    except _UNREADABLE as exc:
        raise JournalError(f"{Path(journal).name}: record {seq} cannot be explained: it names "
                           f"something the game data does not have ({type(exc).__name__}: "
                           f"{exc})", record=seq) from None


_UNREADABLE = (KeyError, ValueError, TypeError, AttributeError, IndexError)


def _explain(journal: Path, records: list[dict], raw: bytes, data, seq: int, reader: str,
             games_dir: Path | None) -> dict[str, Any]:
    from ..store.journal import redact
    from ..store.players import REGISTER
    from .replay import REVEAL, UPGRADE, Era, start_state

    header = records[0]
    rec = records[seq]
    shown = redact(rec, reader)
    out: dict[str, Any] = {"schema_version": 1, "game_id": header["game_id"], "seq": seq,
                           "reader": reader}
    if seq == 0:
        out.update(actor="moderator", order=None, decision=None, checks=[
            f"record 0 is the header: game {header['game_id']}, scenario "
            f"{header['scenario']}, dice {header['dice']['mode']} (commitment "
            f"{header['dice']['commitment'][:16]}...); it answers no decision and rolls no "
            f"die"], dice=None, hits=[], changes=[])
        return out
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
    out["order"] = {"text": text, "sealed": sealed}
    moderators = rec["order"] in (REGISTER, REVEAL, UPGRADE) or seq == 1
    out["decision"] = None if moderators else _decision(state, data, rec)
    trace, checks = _checks(state, data, rec, seq, header, reader, sealed, era.rules)
    out["checks"] = checks
    from .verification import _revealed_secret

    out["dice"] = _dice(rec, header, trace, _revealed_secret(raw, header["dice"]["commitment"]))
    out["hits"] = _hits(records, seq, data, reader)
    out["changes"] = [line for ev in shown.get("events", [])
                      if (line := _describe(ev, data, reader))]
    return out


def _describe(ev: dict, data, reader: str) -> str | None:
    from ..render.text import describe

    return describe(ev, data, reader)


def _decision(state, data, rec: dict) -> dict[str, Any] | None:
    """The decision pending before the record: its kind, whose, its rule and its prompt (what
    `status` shows everybody); an armistice or a crisis card answers none of them."""
    from ..engine import pending_prompt, waiting_on
    from ..engine.core import DECISIONS

    p = state.pending
    if p is None or state.phase == "over":
        return None
    spec = DECISIONS[p.kind]
    return {"kind": p.kind, "side": p.side, "waiting_on": waiting_on(state), "rule": spec.rule,
            "prompt": pending_prompt(state, data)}


def _checks(state, data, rec: dict, seq: int, header: dict, reader: str, sealed: bool,
            rules: int) -> tuple[list[tuple[int, str, int]] | None, list[str]]:
    """(the traced dice, or None when the record cannot be decided again here; the checks it
    passed, told honestly: what legal_orders and the decision's check say of it, and whether
    deciding it again gives the recorded events)."""
    from ..engine import check, legal_orders, plan_labels
    from ..engine.core import DECISIONS
    from ..engine.orders import format_order
    from ..engine.reading import parse_order
    from ..engine.versions import RULES_VERSION
    from ..store.players import REGISTER
    from .records import record_of
    from .replay import REVEAL, SEALED_PLAN, UPGRADE, body, order_text, scenario_of
    from .verification import redecide

    if rec["order"] == REGISTER:
        return None, ["a roster record of the moderator: it answers no decision and rolls no "
                      "die (`verify` checks its form)"]
    if rec["order"] == REVEAL:
        return None, ["the moderator reveals the dice secret: it answers no decision; `verify` "
                      "checks it against the commitment in record 0"]
    if rec["order"] == UPGRADE:
        return None, ["the moderator moves the game on to newer rules or data: it answers no "
                      "decision"]
    lines: list[str] = []
    owner = reader in (MODERATOR, rec["actor"])
    plan = rec["order"] == SEALED_PLAN or rec["order"] in plan_labels()
    if seq == 1:
        lines.append("the set-up of the scenario (record 0), made by the referee: it answers "
                     "no decision")
    elif sealed:
        lines.append(f"sealed from {reader} ({rec['order']}): what it says, and so the "
                     f"check it passed, are for the {rec['actor']} player only; the line "
                     f"below says whether deciding it again gives the recorded events")
    elif plan:
        spec = DECISIONS[state.pending.kind] if state.pending else None
        n = len(order_text(rec).split("\n"))
        lines.append(f"a sealed plan of {n} order(s), each checked in turn against the plan "
                     f"so far by the check of the decision"
                     + (f" ({spec.rule})" if spec else ""))
    else:
        try:
            order = parse_order(order_text(rec), data)
        except OrderError as exc:
            order = None
            lines.append(f"the order cannot be read again: {exc}")
        if order is not None:
            v = check(state, data, order, rec["actor"])
            rule = DECISIONS[state.pending.kind].rule if state.pending else "2.0"
            if order.kind == "armistice":
                lines.append("an armistice order may be given at any decision (3.2, 3.3); it "
                             "does not answer the one pending")
                rule = "3.2"
            elif order.kind == "play" and order.card in data.crisis_keys:
                lines.append("a Military Crisis! card is played at any decision of its "
                             "owner's player turn (9.8, 9.9); it does not answer the one "
                             "pending")
                rule = "9.8"
            if v is None:
                lines.append(f"the check of the decision ({rule}) passes on it again now")
            else:
                lines.append(f"the check of the decision says it breaks {v.rule}: {v.reason}")
            if owner:
                legal = {format_order(o) for o in legal_orders(state, data, rec["actor"])}
                among = "this one among them" if format_order(order) in legal else \
                    "this one NOT among them"
                lines.append(f"legal at that decision: {len(legal)} order(s) for the "
                             f"{rec['actor']} player, {among}")
    if rules < RULES_VERSION:
        lines.append(f"made under rules {rules}: not decided again under rules "
                     f"{RULES_VERSION} (its events are replayed as recorded, as `verify` does)")
        return None, lines
    typed = record_of(rec, "journal")
    dice = _Traced(header["game_id"], rec)
    try:
        events, _, text, private = redecide(state, data, rec, typed,
                                            scenario_of(header), dice, in_place=False)
    except (OrderError, UsageError, KeyError, ValueError, TypeError, AttributeError,
            IndexError) as exc:
        lines.append(f"deciding it again here fails ({type(exc).__name__}); `referee verify` "
                     f"names the fault")
        return None, lines
    written = body(rec["actor"] if seq > 1 else "moderator", text, events, dice, private)
    if written["events"] == rec["events"] and list(dice.rolls) == rec.get("dice", []):
        lines.append(f"decided again from the position after record {seq - 1}: exactly the "
                     f"recorded events and dice")
        return dice.trace, lines
    lines.append("decided again from the position before it, it gives a different result; "
                 "`referee verify` names the difference")
    return None, lines


def _dice(rec: dict, header: dict, trace, secret: bytes | None) -> dict[str, Any] | None:
    """Each die of the record: its value, purpose, place in the committed stream and, once the
    secret is revealed, its derivation (dice.py)."""
    rolled = rec.get("dice") or []
    mode = header["dice"]["mode"]
    game_id = header["game_id"]
    out: dict[str, Any] = {"mode": mode, "revealed": secret is not None, "rolls": []}
    for k, value in enumerate(rolled):
        index, purpose = (trace[k][0], trace[k][1]) if trace and k < len(trace) else (None, None)
        roll: dict[str, Any] = {"die": k + 1, "value": value, "purpose": purpose}
        if mode == "committed" and index is not None:
            roll["hmac_input"] = f"{game_id}/{rec['seq']}/{index}"
            if secret is not None:
                k, digest, at, byte, got = die_steps(secret, game_id, rec["seq"], index)
                message = roll["hmac_input"] + (f"/{k}" if k else "")
                roll["derived"] = {"message": message, "digest": digest.hex(), "byte_at": at,
                                   "byte": byte, "value": got, "matches": got == value}
        out["rolls"].append(roll)
    return out


def _hits(records: list[dict], seq: int, data, reader: str) -> list[str]:
    """Each hit the record scored and how it was paid, and each hit it paid."""
    rec = records[seq]
    lines: list[str] = []
    for k, ev in enumerate(rec.get("events", [])):
        if ev.get("type") == "FireResolved":
            lines.append(_line(rec, k, data, reader))
    for bill in _bills(records):
        paid_here = [(s, k) for s, k in bill["paid"] if s == seq]
        if bill["seq"] == seq:
            what = _line(rec, bill["at"], data, reader)
            paid = [f"record {s}: {_line(records[s], k, data, reader)}" for s, k in bill["paid"]]
            tail = f"; {bill['left']} not paid (yet)" if bill["left"] else ""
            lines.append(f"{what}: " + ("; ".join(paid) if paid else "nothing paid") + tail)
        elif paid_here:
            what = _line(records[bill["seq"]], bill["at"], data, reader)
            for _, k in paid_here:
                lines.append(f"pays for record {bill['seq']} ({what}): "
                             f"{_line(rec, k, data, reader)}")
    return lines


def explain_document(doc: dict[str, Any]):
    """The explanation as a document (render/sections.py) for the text renderer."""
    from ..render.documents import side_name
    from ..render.sections import Document, Items, Orders, Section, para, plain

    title = f"Record {doc['seq']} explained: game {doc['game_id']}, for {doc['reader']}"
    sections = []
    if doc.get("order") is not None:
        o = doc["order"]
        lines = o["text"].split("\n")
        blocks = [para(f"{side_name(doc['actor'])}" +
                       (" (sealed: what it says is hidden from you)" if o["sealed"] else "")
                       + ":"), Orders(lines)]
        sections.append(Section("The order as submitted", blocks))
    d = doc.get("decision")
    if d is not None:
        who = " and ".join(side_name(s) for s in d["waiting_on"])
        sections.append(Section("The decision it answered", [para(
            f"{d['kind'].replace('_', ' ')} ({d['rule']}), waiting on {who}: {d['prompt']}")]))
    elif doc.get("order") is not None:
        what = "the set-up, made by the referee" if doc["seq"] == 1 else \
            "a record of the moderator" if doc["actor"] == MODERATOR else "the game is over"
        sections.append(Section("The decision it answered", [para(f"none: {what}")]))
    sections.append(Section("Checks", [Items([[plain(c)] for c in doc["checks"]])]))
    dice = doc.get("dice")
    if dice and dice["rolls"]:
        items = []
        for r in dice["rolls"]:
            text = f"die {r['die']}: {r['value']} — {r['purpose'] or 'purpose not known here'}"
            if dice["mode"] == "manual":
                text += "; rolled by the players (manual dice), checked to be 1 to 6"
            elif r.get("hmac_input"):
                text += f"; HMAC-SHA256(secret, \"{r['hmac_input']}\")"
                dv = r.get("derived")
                if dv:
                    via = "" if dv["message"] == r["hmac_input"] else \
                        f" (extended as \"{dv['message']}\")"
                    text += (f"{via} = {dv['digest'][:16]}…: byte {dv['byte_at']} is "
                             f"{dv['byte']} (below 252), {dv['byte']} mod 6 + 1 = "
                             f"{dv['value']}" + ("" if dv["matches"] else
                                                 " — NOT the recorded die"))
            items.append([plain(text)])
        if not dice["revealed"] and dice["mode"] == "committed":
            items.append([plain("how each die came from its HMAC input is shown once the dice "
                                "secret is revealed (`referee reveal`, after the game)")])
        sections.append(Section("Dice", [Items(items)]))
    elif dice is not None:
        sections.append(Section("Dice", [para("none rolled")]))
    if doc["hits"]:
        sections.append(Section("Hits and how they were paid",
                                [Items([[plain(h)] for h in doc["hits"]])]))
    if doc["seq"]:
        sections.append(Section("What it changed", [
            Items([[plain(c)] for c in doc["changes"]]) if doc["changes"] else
            para("nothing the reader sees")]))
    return Document(title, sections)


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


def _rolled(ev: dict) -> list[tuple[str, str, list[int]]]:
    """(side, purpose, values) of every die a dice event rolled (5.2 fire, 8.3.4 re-rolls,
    2.0 V.4 the EFT box)."""
    from ..render.phrases import PHASE

    if ev.get("type") == "FireResolved":
        values = [v for g in ev.get("groups", []) for v in [*g["dice"], *g.get("rerolled", [])]]
        return [(ev["side"], PHASE.get(ev["phase"], ev["phase"]), values)]
    if ev.get("type") == "EftLossesDue":
        return [("german", "EFT box losses (2.0 V.4)", list(ev.get("dice", [])))]
    return []


def dice_counts(journal: Path, reader: str = "public",
                games_dir: Path | None = None) -> dict[str, Any]:
    """Each side's dice so far by face and purpose, the expected counts and a chi-square
    (dice are public once rolled: the same for every reader)."""
    check_name(reader)
    records, _, data = _read(journal, games_dir)
    check_reader(reader, data.sides)
    sides = {s: _tally() for s in data.sides}
    both = _tally()
    other = 0
    for rec in records[1:]:
        counted: list[int] = []
        for ev in rec.get("events", []):
            for side, purpose, values in _rolled(ev):
                odd = next((v for v in values if type(v) is not int or not 1 <= v <= 6), None)
                if odd is not None:         # a resealed journal: name it, count nothing
                    raise JournalError(f"{Path(journal).name}: record {rec['seq']} holds a "
                                       f"die of {quoted(str(odd), 12)}, not 1 to 6 (5.2.2); "
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
    return {"schema_version": 1, "game_id": records[0]["game_id"], "seq": records[-1]["seq"],
            "reader": reader, "mode": records[0]["dice"]["mode"], "sides": sides, "all": both,
            "unattributed": other}


def dice_document(doc: dict[str, Any]):
    """The dice count as a document for the text renderer."""
    from ..render.documents import side_name
    from ..render.sections import Document, Section, Table, para

    title = (f"Dice so far: game {doc['game_id']}, records 1 to {doc['seq']}, for "
             f"{doc['reader']}")
    sections = []
    for name, t in [*((side_name(s), t) for s, t in doc["sides"].items()),
                    ("Both sides", doc["all"])]:
        if not t["dice"]:
            sections.append(Section(f"{name}: no dice rolled"))
            continue
        rows = [[p, *map(str, f), str(sum(f))] for p, f in sorted(t["by_purpose"].items())]
        rows.append(["all", *map(str, t["faces"]), str(t["dice"])])
        rows.append(["expected", *([f"{t['expected']:.1f}"] * 6), str(t["dice"])])
        c = t["chi_square"]
        rough = " (few dice: under 5 expected per face, the figure is rough)" if c["rough"] \
            else ""
        sections.append(Section(f"{name}: {t['dice']} dice", [
            Table(["purpose", *map(str, FACES), "dice"], rows),
            para(f"chi-square {c['statistic']:.2f} with {c['df']} degrees of freedom: "
                 f"p = {c['p_value']:.3f}, the chance a fair die strays at least this far"
                 f"{rough}")]))
    if doc["unattributed"]:
        sections.append(Section(f"{doc['unattributed']} die(s) not tied to a dice event"))
    return Document(title, sections)
