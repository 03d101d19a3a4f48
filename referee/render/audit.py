"""The audit tools told: one record explained (`explain`) and the dice counted (`dice`), as
JSON-ready documents and as text.

game/audit.py works out what a record did and which dice were rolled, as one reader
may see them; the events it hands on are told here by the lines `log` prints
(text.describe), so an explanation says nothing `log` would not say to the same
reader.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..base.errors import UNREADABLE
from ..base.plurals import counted
from ..base.readers import MODERATOR
from ..contracts.outputs import Explanation
from ..game.audit import FACES, count_dice, explain_facts, unexplainable
from ..store.sheets import SHEET
from .came import came
from .crisis_told import crisis_told
from .documents import players_words, reader_words, side_name
from .incontext import in_context
from .phrases import PHASE, phase_name
from .record_text import describe
from .sections import Document, Items, Orders, Section, Table, para, plain

# Imported for annotations only.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..data.gamedata import GameData


# ---------------------------------------------------------------- explain

def _line(ev: dict, data: GameData, reader: str) -> str:
    """An event as the reader may see it (the line `log` prints), or its type."""
    return describe(ev, data, reader) or ev.get("type", "?")


def _hit_line(hit: dict[str, Any], data: GameData, reader: str) -> str:
    """One hit the record scored, a batch of hits it had to pay, or a hit it paid."""
    if "fired" in hit:
        return _line(hit["fired"], data, reader)
    what = _line(hit["bill"], data, reader)
    if "pays_for" in hit:
        return f"pays for record {hit['pays_for']} ({what}): {_line(hit['paid'], data, reader)}"
    paid = [f"record {s}: {_line(ev, data, reader)}" for s, ev in hit["paid"]]
    tail = f"; {hit['left']} not paid (yet)" if hit["left"] else ""
    return f"{what}: " + ("; ".join(paid) if paid else "nothing paid") + tail


def explain(journal: Path, raw: bytes, seq_text: str, reader: str = "public",
            games_dir: Path | None = None) -> dict[str, Any]:
    """One record as reader may see it: its order, the decision it answered (with its rule)
    and the checks it passed, each die with its purpose (and, once the secret is revealed,
    its derivation), each hit and how it was paid, and what it changed, each as `log` tells
    it (UsageError for a SEQ the journal does not hold). raw: the journal's bytes (the
    Table's). The document is built as its class once it is told, so that what `explain
    --format json` prints is what the `explanation` schema says."""
    doc, data, before = explain_facts(journal, seq_text, reader, games_dir, raw)
    _mark_came(doc, reader)
    try:
        # Its events as `log` and the report tell them, with what the game before it holds.
        told = in_context(doc["changes"], before, data)
        same = {id(ev): t for ev, t in zip(doc["changes"], told, strict=True)}
        doc["changes"] = told
        doc["hits"] = [{**h, "fired": same.get(id(h["fired"]), h["fired"])} if "fired" in h
                       else h for h in doc["hits"]]
        doc["hits"] = [_hit_line(h, data, reader) for h in doc["hits"]]
        doc["changes"] = [one_line(line) for ev in crisis_told(doc["changes"])
                          if (line := describe(ev, data, reader))]
    except UNREADABLE as exc:
        raise unexplainable(journal, doc["seq"], exc) from None
    return Explanation.plain(**doc)


def one_line(line: str) -> str:
    """An event's words as one item: the orders a revealed plan lists one a line (the log's
    layout) told after its heading, separated by semicolons."""
    head, *rest = line.split("\n")
    return head if not rest else f"{head} {'; '.join(r.strip() for r in rest)}"


def _mark_came(doc: dict[str, Any], reader: str) -> None:
    """The mark of how the order came, as the reader's report gives it (came.py), with the
    rule of the decision it answered."""
    order = doc.get("order")
    if order is None or "by" not in order:
        return
    words = came({"by": order["by"], "actor": doc["actor"]}, reader,
                 (doc.get("decision") or {}).get("rule", ""))
    if words:
        order["came"] = words


def _order_section(doc: dict[str, Any]) -> Section:
    o = doc["order"]
    sealed = " (sealed: what it says is hidden from you)" if o["sealed"] else ""
    return Section("The order as submitted", [para(f"{side_name(doc['actor'])}{sealed}:"),
                                              Orders(o["text"].split("\n")),
                                              *([para(o["came"])] if o.get("came") else [])])


def _decision_section(doc: dict[str, Any]) -> Section:
    d = doc.get("decision")
    if d is not None:
        who = players_words(d["waiting_on"])
        head = f"{d['kind'].replace('_', ' ')} ({d['rule']}), waiting on {who}"
        if not d.get("own_prompt"):
            return Section("The decision it answered", [para(f"{head}: {d['prompt']}")])
        return Section("The decision it answered", [
            para(f"{head}; as its side was asked it, his plan so far counted (what the last "
                 f"order answered): {d['own_prompt']}"),
            para(f"As everybody is shown it, the plan being sealed: {d['prompt']}")])
    sheet = (doc.get("order") or {}).get("text") == SHEET
    what = "the set-up, made by the referee" if doc["seq"] == 1 else \
        "a record of the moderator" if doc["actor"] == MODERATOR else \
        "a dice sheet registered" if sheet else "the game is over"
    return Section("The decision it answered", [para(f"none: {what}")])


def _die_text(r: dict[str, Any], mode: str) -> str:
    """One die: its value and purpose, and how it came from the dice secret (dice.py)."""
    text = f"die {r['die']}: {r['value']} — {r['purpose'] or 'purpose not known here'}"
    if mode == "manual":
        return text + "; rolled by the players (manual dice), checked to be 1 to 6"
    if not r.get("hmac_input"):
        return text
    text += f"; HMAC-SHA256(secret, \"{r['hmac_input']}\")"
    dv = r.get("derived")
    if dv:
        via = "" if dv["message"] == r["hmac_input"] else f" (extended as \"{dv['message']}\")"
        text += (f"{via} = {dv['digest'][:16]}…: byte {dv['byte_at']} is {dv['byte']} (below "
                 f"252), {dv['byte']} mod 6 + 1 = {dv['value']}"
                 + ("" if dv["matches"] else " — NOT the recorded die"))
    return text


def _shuffle_text(s: dict[str, Any], revealed: bool) -> str:
    """A shuffle of the deck (1.3) as a reader checks it: where its draws lie in the stream."""
    last = s["first"] + s["draws"] - 1
    check = "`referee verify` recomputes its order with the revealed secret" if revealed else \
        "`referee verify` recomputes its order once the dice secret is revealed"
    return (f"the deck shuffled, {s['cards']} cards (1.3): draws {s['first']} to {last} of the "
            f"stream, from HMAC-SHA256(secret, \"{s['hmac_input']}\") on, each a whole number "
            f"below the cards not yet placed (Fisher-Yates); {check}")


def _dice_section(dice: dict[str, Any]) -> Section:
    shuffles = dice.get("shuffles") or []
    if not dice["rolls"] and not shuffles:
        return Section("Dice", [para("none rolled")])
    items = [[plain(_die_text(r, dice["mode"]))] for r in dice["rolls"]]
    if dice["rolls"] and not dice["revealed"] and dice["mode"] == "committed":
        items.append([plain("how each die came from its HMAC input is shown once the dice "
                            "secret is revealed (`referee reveal`, after the game)")])
    items += [[plain(_shuffle_text(s, dice["revealed"]))] for s in shuffles]
    return Section("Dice", [Items(items)])


def explain_document(doc: dict[str, Any]) -> Document:
    """The explanation as a document (sections.py) for the text renderer."""
    title = f"Record {doc['seq']} explained: game {doc['game_id']}, for "
    title += reader_words(doc["reader"])
    sections = []
    if doc.get("order") is not None:
        sections.append(_order_section(doc))
    if doc.get("order") is not None or doc.get("decision") is not None:
        sections.append(_decision_section(doc))
    sections.append(Section("Checks", [Items([[plain(c)] for c in doc["checks"]])]))
    if doc.get("dice") is not None:
        sections.append(_dice_section(doc["dice"]))
    if doc["hits"]:
        sections.append(Section("Hits and how they were paid",
                                [Items([[plain(h)] for h in doc["hits"]])]))
    if doc["seq"]:
        sections.append(Section("What it changed", [
            Items([[plain(c)] for c in doc["changes"]]) if doc["changes"] else
            para("nothing the reader sees")]))
    return Document(title, sections)


# ---------------------------------------------------------------- dice

def dice_counts(journal: Path, raw: bytes, reader: str = "public",
                games_dir: Path | None = None) -> dict[str, Any]:
    """Each side's dice so far by face and purpose, the expected counts and a chi-square
    (dice are public once rolled: the same for every reader); a fire phase's dice are counted
    under the phase's name in the log (5.2.1; the surprise order, 9.7, in a Surprise Attack!
    battle)."""
    return count_dice(journal, reader, games_dir, _purpose, raw)


def _purpose(ev: dict) -> str:
    """A fire event's dice's purpose: its phase as the log names it, else its id."""
    return phase_name(ev) if ev["phase"] in PHASE else ev["phase"]


def _side_dice(name: str, t: dict[str, Any]) -> Section:
    """One side's dice (or both sides'): per purpose and face, the expected counts, the
    chi-square."""
    if not t["dice"]:
        return Section(f"{name}: no dice rolled")
    rows = [[p, *map(str, f), str(sum(f))] for p, f in sorted(t["by_purpose"].items())]
    rows.append(["all", *map(str, t["faces"]), str(t["dice"])])
    rows.append(["expected", *([f"{t['expected']:.1f}"] * 6), str(t["dice"])])
    c = t["chi_square"]
    rough = " (few dice: under 5 expected per face, the figure is rough)" if c["rough"] else ""
    return Section(f"{name}: {counted(t['dice'], 'die', 'dice')}", [
        Table(["purpose", *map(str, FACES), "dice"], rows),
        para(f"chi-square {c['statistic']:.2f} with {c['df']} degrees of freedom: "
             f"p = {c['p_value']:.3f}, the chance a fair die strays at least this far"
             f"{rough}")])


def dice_document(doc: dict[str, Any]) -> Document:
    """The dice count as a document for the text renderer."""
    title = (f"Dice so far: game {doc['game_id']}, records 1 to {doc['seq']}, for "
             f"{doc['reader']}" + (" (manual dice, rolled by the players)"
                                   if doc["mode"] == "manual" else ""))
    sections = [_side_dice(side_name(s), t) for s, t in doc["sides"].items()]
    sections.append(_side_dice("Both sides", doc["all"]))
    if doc["unattributed"]:
        sections.append(Section(f"{counted(doc['unattributed'], 'die', 'dice')} not tied to a "
                                f"dice event"))
    return Document(title, sections)
