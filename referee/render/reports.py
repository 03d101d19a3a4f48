"""Turn reports: what happened since a reader last looked, as that reader may see it.

A report replays the journal to the record it starts after, then walks the
later records one by one, each redacted for the reader (journal.redact):
the orders, every die with the unit that rolled it, how each hit was paid,
who holds a battle area once the battle is over, control changes, VP and
its change, the board as he may see it (board.py), then the reader's own
decision with the orders open to him, and
a receipt (the game, the last record's number and the start of its hash:
game/receipts.py) that lets him prove later that the journal was not
rewound.

Where each reader's last report ended is kept in this user's data folder,
signed like the snapshots: a lost or planted bookmark is a miss, and a miss
only repeats news (the report starts from the beginning), never hides any.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from ..base.errors import JournalError, UsageError
from ..base.readers import check_reader
from ..contracts.views import ReportView
from ..engine.victory import level_of, vp_breakdown
from ..game import (
    Era,
    ahead,
    key_line,
    next_for,
    open_game,
    order_text,
    receipt_key,
    receipt_line,
)
from ..game.board import board_view
from ..game.standing import load as standing_orders
from ..game.views import readable_status_view, state_view
from ..store import home, snapshot
from ..store.journal import redact, scan
from ..store.sheets import sheets_in
from .board import board_section
from .coming import ahead_blocks, awaited_blocks
from .costs import production_section
from .documents import dice_note, side_colours, side_name, vp_section
from .formats import render
from .grouped import grouped_blocks
from .record_text import describe, sheet_lines
from .sections import Document, Items, Para, Section, Span, as_json, para

# ---------------------------------------------------------------- bookmarks

def _bookmark_path(header_hash: str, game_id: str, reader: str) -> Path:
    """Keyed by the game's record 0, so a moved game folder keeps its bookmarks."""
    tag = hashlib.sha256(f"{game_id}/{header_hash}/{reader}".encode()).hexdigest()[:32]
    return home.data_dir("bookmarks") / f"{tag}.mark"


def last_reported(game_id: str, reader: str, hashes: dict[int, str]) -> int:
    """The record the reader's last report ended at, if this user's referee wrote the
    bookmark and the journal still holds that record as it was; else 0."""
    mark = home.read_signed(_bookmark_path(hashes[0], game_id, reader))
    if not isinstance(mark, dict) or mark.get("game_id") != game_id or \
            mark.get("reader") != reader:
        return 0
    seq = mark.get("seq")
    if not isinstance(seq, int) or hashes.get(seq) != mark.get("hash"):
        return 0
    return seq


def remember_reported(header_hash: str, game_id: str, reader: str, seq: int,
                      hash_: str) -> None:
    """Note where the reader's report ended (signed; used only as a starting point)."""
    home.write_signed(_bookmark_path(header_hash, game_id, reader),
                      {"game_id": game_id, "reader": reader, "seq": seq, "hash": hash_})


# ---------------------------------------------------------------- the report

def _record_heading(rec: dict, before, reader: str) -> list[Span]:
    """'#12 German: move ge-1 liege' — with the decision a bare answer answered."""
    who = side_name(rec["actor"])
    # The order as the reader may see it: a sealed or hidden order stays its placeholder.
    text = order_text(redact(rec, reader))
    note = ""
    if before.pending is not None and text in ("done", "pass", "keep"):
        note = f" ({before.pending.kind.replace('_', ' ')})"
    note += _came(rec, reader)
    return [Span(f"#{rec['seq']} {who}: "), Span(text.replace("\n", "; "), "order"),
            Span(note)]


def _came(rec: dict, reader: str) -> str:
    """What the heading of a side's order says, in that side's report and the moderator's,
    when the side did not give it by mail: entered by hand at the referee (`order --as`),
    or the referee's default at a missed deadline."""
    how = rec.get("by")
    if how not in ("hand", "deadline") or reader not in (rec["actor"], "moderator"):
        return ""
    if how == "deadline":
        return " — ⚑ the referee's default: the deadline passed"
    return " — ⚑ entered by hand at the referee"


def _view(journal: Path, whole, key: str, make, *args):
    """The view `show` or `status` keeps for these journal bytes (signed), else made now and
    kept: a report in four formats lists the reader's orders once."""
    view = snapshot.load_view(Path(journal), whole.raw, whole.bound, key)
    if view is None:
        view = _shown(make, whole.state.seq, journal, *args)
        snapshot.save_view(Path(journal), whole.raw, whole.bound, key, view)
    return view


def _shown(make, seq: int, journal: Path, *args):
    """make(*args), with a record that names what the game data does not have reported as
    the journal's fault (JournalError with the record), never as a crash."""
    try:
        return make(*args)
    except (KeyError, ValueError, TypeError, AttributeError, IndexError) as exc:
        raise JournalError(f"{Path(journal).name}: record {seq} cannot be shown: it names "
                           f"something the game data does not have ({exc})",
                           record=seq) from None


def _battle_outcome(state, area: str, data) -> str:
    """Who holds a battle area once its battle is over (4.1, 5.4)."""
    control = state.area_state(area, data)
    name = data.areas[area].name if area in data.areas else area
    if control == "disputed":
        return f"{name} stays Disputed: both sides still have units there (5.1.1)"
    held = f"{name} is now held by the {side_name(control)} side"
    weak = [f for f in state.forts.values() if f.area == area and f.strength == 1
            and data.nation_side[f.nation] != control]
    if weak:
        held += " (an enemy fort of strength 1 remains there; alone it holds no area, 8.4)"
    return held


def build(journal: Path, reader: str, since: int | None = None, games_dir: Path | None = None,
          remember: bool = True) -> tuple[Document, dict]:
    """The report for reader: every record after `since` (default: after his last report)."""
    whole = open_game(journal, games_dir=games_dir)     # every record checked and replayed
    records = list(scan(whole.raw, Path(journal).name))
    header = records[0]
    hashes = {r["seq"]: r["hash"] for r in records}
    last = records[-1]
    game_id = whole.game_id
    start = last_reported(game_id, reader, hashes) if since is None else since
    if not 0 <= start <= last["seq"]:
        raise UsageError(f"--since {start}: the journal has records 0 to {last['seq']}")
    game = open_game(journal, upto=start, games_dir=games_dir)
    data, state = game.data, game.state
    check_reader(reader, data.sides)
    vp_before = sum(v for _, v in vp_breakdown(state, data))
    happened: list = []
    revealed: list[dict] = []           # production plans revealed, as the reader sees them
    era = Era(header, data, games_dir, Path(journal).name, game.rules)
    for rec in records[start + 1:]:
        before = state.clone()
        data = era.data
        era.apply(state, rec)
        shown = redact(rec, reader)
        revealed += [ev for ev in shown["events"] if ev["type"] == "ProductionRevealed"]
        lines = []
        for ev in shown["events"]:
            line = _shown(describe, rec["seq"], journal, ev, data, reader)
            if line:
                head, *orders = line.split("\n")     # a revealed plan: one order a line
                lines.append([Span(head)])
                lines += [[Span(o.strip(), "order")] for o in orders]
            if ev["type"] == "BattleEnded":
                outcome = _shown(_battle_outcome, rec["seq"], journal, state, ev["area"], data)
                lines.append([Span(outcome, "bold")])
        lines += [[Span(t.strip())] for t in sheet_lines(shown, data)]
        happened.append(Para(_record_heading(rec, before, reader)))
        if lines:
            happened.append(Items(lines))
    data = era.data
    breakdown = vp_breakdown(state, data)
    total = sum(v for _, v in breakdown)
    level = level_of(total, data)
    change = total - vp_before
    mode = header["dice"]["mode"]
    sview = _view(journal, whole, f"show:{reader}", state_view, state, data, reader, game_id,
                  None, mode)
    board = _view(journal, whole, f"board:{reader}", board_view, state, data, reader, sview)
    stat = _view(journal, whole, f"status:{reader}", readable_status_view, state, data, reader,
                 game_id, mode)
    sections = [Section(
        f"Since record {start}" if start else "From the start of the game",
        happened or [para("Nothing has happened since your last report.")])]
    vp = sview["vp"]
    vp_doc = vp_section(vp)
    vp_doc.blocks.insert(1, para(f"Change since record {start}: {change:+d}."))
    sections.append(vp_doc)
    sections.append(board_section(board))
    now = _now_sections(journal, whole, state, data, reader, stat, revealed)
    now[0].blocks += _link_due(whole.raw, reader)
    sections += now
    receipt = receipt_line(game_id, last["seq"], last["hash"])
    who = side_name(reader) if reader in data.sides else reader
    span = (f"records {start + 1}–{last['seq']}" if start < last["seq"] else
            f"nothing new after record {start}")
    doc = Document(f"{data.info.name} — report for {who}: game {game_id}, {span}, "
                   f"{data.label(state.turn)}", sections, receipt, side_colours(data))
    meta: dict[str, Any] = {
        "game_id": game_id, "reader": reader,
        "since": start, "upto": last["seq"],
        "receipt": {"seq": last["seq"], "hash": last["hash"],
                    "fingerprint": receipt_key(header, last)},
        "vp": {"total": total, "change": change, "level": level.id,
               "level_name": level.name},
        "waiting_on": stat["waiting_on"], "decision": stat["decision"],
        "legal": stat["legal"], "board": board, "dice": mode,
    }
    if remember and since is None:      # an asked-for range is a look back, not the news
        remember_reported(header["hash"], game_id, reader, last["seq"], last["hash"])
    return doc, meta


def _now_sections(journal: Path, whole, state, data, reader: str, stat: dict,
                  revealed: list[dict]) -> list[Section]:
    """The decision now with what follows it, then his Build Points while he plans his
    production or once his plan is in (7.0)."""
    costs = _shown(production_section, state.seq, journal, state, data, reader,
                   list(stat["legal"]), revealed)
    now = _decision_section(stat, reader, data, _coming(journal, whole, state, data, reader,
                                                        stat, example=costs is None))
    return [now] if costs is None else [now, costs]


def _coming(journal: Path, whole, state, data, reader: str, stat: dict,
            example: bool = True) -> list:
    """What follows the decision now for a side (game/ahead.py): his later decisions and how
    to answer them in one mail (with an example unless another section shows one), or when
    he is asked next; nothing for other readers."""
    if reader not in data.sides or stat["game_over"]:
        return []
    waiting = stat.get("waiting_on_all") or [stat["waiting_on"]]
    if reader not in waiting:
        later = _shown(next_for, state.seq, journal, state, data, reader)
        return awaited_blocks(later, data, reader, [w for w in waiting if w])
    try:                        # his own standing orders: a decision they answer is not asked
        mine = standing_orders(journal, whole.header["hash"])
    except UsageError:
        mine = {}
    got = _shown(ahead, state.seq, journal, state, data, reader, list(stat["legal"]), mine)
    return ahead_blocks(got, data, reader, example) if got is not None else []


def _link_due(raw: bytes, reader: str) -> list[Para]:
    """Which link of the reader's dice sheet his next orders that roll dice carry, if he
    holds one (store/sheets.py)."""
    sheet = sheets_in(raw).get(reader)
    if sheet is None:
        return []
    return [para(f"Your dice sheet: link {sheet.due()} (line {sheet.due() + 1} of the sheet "
                 f"file) is due with your next orders that roll dice or shuffle the deck, in "
                 f"a line 'Link: LINK'.")]


def _decision_section(stat: dict, reader: str, data, coming: list | None = None) -> Section:
    """What the reader must decide now, what follows it (coming), and the orders open to him
    (2.0), grouped without pointing to a command he cannot run from a mail."""
    if stat["game_over"]:
        r = stat.get("result") or {}
        return Section("The game is over", [para(f"{r.get('reason')}: ",
                                                 Span(str(r.get("level_name")), "bold"))])
    waiting = stat.get("waiting_on_all") or [stat["waiting_on"]]
    blocks: list = []
    if reader in waiting:
        blocks.append(para(Span("Your decision: ", "bold"), stat["prompt"]))
        blocks += coming or []
        blocks.append(para("Reply with one order per line, made from these:"))
        blocks += grouped_blocks(list(stat["legal"]), stat.get("_aids"), whole=False)
    else:
        blocks.append(para(Span("Waiting on ", "bold"),
                           " and ".join(side_name(w) for w in waiting), f": {stat['prompt']}"))
        blocks += coming or []
        if stat["legal"]:
            blocks.append(para("Orders you may give at any time:"))
            blocks += grouped_blocks(list(stat["legal"]), stat.get("_aids"), whole=False)
    return Section("Now", blocks + dice_note(stat))


def render_report(doc: Document, meta: dict, fmt: str, width: int = 72,
                  dialect: str = "common") -> str:
    """The report in one format (text, markdown, bbcode in a dialect, chat or json)."""
    if fmt == "json":
        shown = ReportView.plain(**meta, document=as_json(doc))
        return json.dumps(shown, indent=2, ensure_ascii=False)
    if not doc.receipt:
        return render(Document(doc.title, doc.sections, colours=doc.colours), fmt, width,
                      dialect).rstrip("\n")
    game, _, seq_hash = doc.receipt.removeprefix("Receipt: ").rpartition(" ")
    signed = key_line(meta.get("receipt", {}).get("fingerprint"))
    # The receipt's SEQ:HASH marked as code where the format has it, so it is copied whole.
    receipt = Section("", ([para(signed)] if signed else [])
                      + [para(f"Receipt: {game} ", Span(seq_hash, "order"))])
    if fmt == "chat":       # the receipt goes into the last post, or one of its own
        return render(Document(doc.title, [*doc.sections, receipt]), fmt).rstrip("\n")
    text = render(Document(doc.title, doc.sections, colours=doc.colours), fmt, width,
                  dialect).rstrip("\n")
    if fmt in ("markdown", "bbcode"):
        tail = render(Document("", [receipt]), fmt, width, dialect).strip()
    elif len(doc.receipt) > width:      # a long game id: SEQ:HASH goes on, indented
        tail = f"Receipt: {game}\n  {seq_hash}"
    else:
        tail = doc.receipt
    if signed and fmt not in ("markdown", "bbcode"):
        tail = f"{signed}\n{tail}"
    return f"{text}\n\n{tail}"
