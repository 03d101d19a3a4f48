"""What `explain` and `dice` give of a skirmish: one record with its test (its facts, each
die, each modifier and the result, a dispute or ruling, the secret a reveal published), and
each side's dice by size and face."""

from __future__ import annotations

from typing import Any

from ...base.readers import MODERATOR
from ...contracts.skirmish import SkirmishExplained
from ...render.documents import side_name
from ...render.sections import Document, Section, Span, para
from ...store.dice import hmac_base, stream_of
from ...store.sheets import mix_text
from .report import test_lines


def explained(records: list[dict], rec: dict) -> SkirmishExplained:
    """One record of a skirmish, as `explain` gives it."""
    if rec["seq"] == 0:
        return SkirmishExplained.of(game_id=rec["game_id"], seq=0, actor=MODERATOR,
                                    order="new skirmish", turn=1, phase="", test=None)
    test = rec.get("test")
    shown = None if test is None else {**test, "record": rec["seq"], "side": rec["actor"],
                                       "order": rec["order"]}
    shown = None if shown is None else {k: shown[k] for k in (
        "record", "side", "order", "kind", "subject", "facts", "dice", "modifiers", "result",
        "effects", "rule") if k in shown}
    dispute = rec.get("dispute")
    if isinstance(dispute, dict) and "claimed" in dispute:   # typed as the fact declared
        dispute = {**dispute, "claimed": _as_declared(dispute["claimed"],
                                                      dispute.get("declared"))}
    on = {} if shown is None else {
        "disputed_in": _about(records, rec["seq"], "dispute"),
        "ruled_in": _about(records, rec["seq"], "settle")}
    return SkirmishExplained.of(
        game_id=records[0]["game_id"], seq=rec["seq"], actor=rec["actor"],
        order=rec["order"], turn=rec.get("turn", 0), phase=rec.get("phase", ""), test=shown,
        dispute=dispute, settle=rec.get("settle"),
        revealed=rec.get("secret") if rec.get("kind") == "reveal" else None,
        hmac_inputs=_hmac_inputs(records[0], rec),
        **{k: v for k, v in on.items() if v})


def _about(records: list[dict], seq: int, what: str) -> list[int]:
    """The records whose dispute (or ruling: settle) is of test seq."""
    return [r["seq"] for r in records[seq + 1:]
            if isinstance(r.get(what), dict) and r[what].get("record") == seq]


def _as_declared(claimed: Any, declared: Any) -> Any:
    """A fact claimed in a dispute (kept as typed) as the fact declared is given: a number,
    yes or no, figures; as typed when it reads as none of them."""
    if not isinstance(claimed, str):
        return claimed
    if isinstance(declared, bool):
        return {"yes": True, "no": False}.get(claimed, claimed)
    if isinstance(declared, int):
        return int(claimed) if claimed.isascii() and claimed.isdigit() else claimed
    return claimed.split(",") if isinstance(declared, list) else claimed


def _hmac_inputs(header: dict, rec: dict) -> list[str] | None:
    """The HMAC message of each die of the record's own test (None: it rolled none, or its
    dice were given by hand): keyed by its stream and mixing in its mail's digest in a game
    keyed by side (dicekeys.py), else by the record's number."""
    dice = (rec.get("test") or {}).get("dice")
    if not dice or (header.get("dice") or {}).get("mode") != "committed":
        return None
    source = rec.get("dice_from") if isinstance(rec.get("dice_from"), dict) else None
    key, mix = stream_of(rec["seq"], source), mix_text(source)
    return [hmac_base(header["game_id"], key, i, mix) for i in range(len(dice))]


def _key_line(inputs: list[str]) -> str:
    """The HMAC input of die i of the test, in one line that wraps (the mail's digest
    shortened: the JSON gives each input whole)."""
    first, _, mix = inputs[0].partition("/mail=")
    said = f"HMAC input of die i: {first.rsplit('/', 1)[0]}/i"
    if mix:
        said += f"/mail={mix[:8]}…, the SHA-256 of the mail's order lines (whole in JSON)"
    return said + "; how to check a die: player.md, A skirmish"


def _typed(value: Any) -> str:
    """A declared fact as an order types it: yes or no, figures with commas."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return ",".join(map(str, value)) if isinstance(value, list) else str(value)


def explained_document(doc: SkirmishExplained) -> Document:
    who = "moderator" if doc.actor == MODERATOR else side_name(doc.actor)   # as mails say
    lines = [para(f"#{doc.seq} {who}: ", Span(doc.order, "order")),
             para(f"turn {doc.turn}, {doc.phase or 'before play'}")]
    if doc.test is not None:
        t = doc.test
        lines += [para("facts declared: " + (", ".join(f"{k}={_typed(v)}"
                                                      for k, v in t.facts.items()) or "none"))]
        lines += [para(line.strip()) for line in test_lines(
            {"record": t.record, "side": t.side, "order": t.order, "kind": t.kind,
             "subject": t.subject or None, "facts": t.facts, "dice": t.dice,
             "modifiers": t.modifiers, "result": t.result, "rule": t.rule})[1:]]
    if doc.disputed_in or doc.ruled_in:
        lines.append(para(_disputed_words(doc.disputed_in or [], doc.ruled_in or [])))
    if doc.dispute:
        d = doc.dispute
        lines.append(para(f"dispute of #{d.get('record')} by {side_name(doc.actor)}: "
                          f"{d.get('fact')} declared {_typed(d.get('declared'))}, claimed "
                          f"{_typed(d.get('claimed'))}"))
    if doc.settle:
        lines.append(para(_ruling_words(doc.settle)))
    if doc.hmac_inputs:
        lines.append(para(_key_line(doc.hmac_inputs)))
    if doc.revealed:
        lines.append(para(f"the dice secret: {doc.revealed}"))
    return Document(f"Record {doc.seq} of skirmish {doc.game_id}", [Section("", lines)])


def _disputed_words(disputes: list[int], rulings: list[int]) -> str:
    """Where a test's disputes and rulings are, to explain them in turn; the report gives
    the test as the last ruling decided it."""
    said = [f"disputed in {', '.join(f'#{n}' for n in disputes)}"] if disputes else []
    said += [f"ruled on in {', '.join(f'#{n}' for n in rulings)} (the report shows the test "
             f"as ruled)"] if rulings else []
    return "; ".join(said)


def _ruling_words(settle: dict) -> str:
    """What a ruling decided, in words: the facts upheld, or the fact set and the test's
    new result."""
    n = settle.get("record")
    if settle.get("upheld"):
        return f"ruling on #{n}: its facts upheld; its result stands"
    test = settle.get("test") if isinstance(settle.get("test"), dict) else {}
    result = f"; its new result: {test['result']}" if test.get("result") else ""
    return f"ruling on #{n}: {settle.get('fact')} set to {_typed(settle.get('value'))}" + \
        result


def dice_counts(records: list[dict]) -> list[dict]:
    """Each side's dice by size: how many rolled and how often each face came."""
    counts: dict[tuple[str, int], list[int]] = {}
    for rec in records[1:]:
        # A ruling's test rolls the disputed test's dice again: they are counted once, there.
        for d in (rec.get("test") or {}).get("dice", []):
            faces = counts.setdefault((rec["actor"], d["die"]), [0] * d["die"])
            if 1 <= d["value"] <= d["die"]:
                faces[d["value"] - 1] += 1
    return [{"side": side, "die": die, "rolled": sum(faces), "faces": faces}
            for (side, die), faces in sorted(counts.items())]
