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

The Table (table/) hands the builder everything it reads: the game now and
as it stood at the record the report starts after, the journal's records,
the views kept for its bytes and the reader's standing orders; it keeps where
each reader's last report ended. Nothing here opens a file.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

from ..base.errors import JournalError
from ..base.plurals import upper_first
from ..base.readers import PUBLIC
from ..base.warned import carried
from ..contracts.results import ReportView
from ..engine.combat import barred_in_hand
from ..engine.victory import level_of, vp_breakdown
from ..game import signedreceipt
from ..game.ahead import Ahead, ahead, next_for
from ..game.battlethread import Battles
from ..game.clockwalk import zone_of
from ..game.forced import rule_of
from ..game.planparts import heading_order, marked
from ..game.receipts import key_line, receipt_key, receipt_line
from ..game.replay import Era, Game, order_text
from ..store.journal import redact
from ..store.rosternews import RosterNews
from ..store.sheets import sheets_in
from .areanames import named_parts
from .armisticenews import tell_armistice
from .asread import as_read
from .battleheld import battle_outcome, fort_note
from .board import board_section
from .came import came_note
from .coming import ahead_blocks, awaited_blocks
from .costs import carried_out_section, production_section
from .dice_once import DiceOnce
from .documents import (
    deadline_note,
    dice_note,
    options_note,
    owed_blocks,
    players_words,
    reader_words,
    result_words,
    side_colours,
    side_name,
    vp_section,
)
from .entrenchnote import with_note
from .formats import render
from .gameresult import report_vp, winner_sentence
from .givenback import given_note
from .grouped import grouped_blocks
from .incontext import in_context
from .linkdue import link_due
from .phone import reordered, vp_brief, vp_change
from .phone import wanted as phone_wanted
from .record_text import bare, describe
from .sections import Document, Items, Para, Section, Span, as_json, para
from .standingtip import standing_tip
from .told_once import revealed_sides, told_once

# ---------------------------------------------------------------- the report

# The longest order a record's heading sets as an order (a mail's line); a longer one is words.
ORDER_MOST = 72


def _record_heading(rec: dict, before, reader: str, data=None) -> list[Span]:
    """'#12 German: move ge-1 liege' — with the decision a bare answer answered. The orders of
    a batch are each one span, so that a line wraps between them, never inside one."""
    given = given_note(rec)
    who = "Referee" if given is not None else side_name(rec["actor"])
    # The order as the reader may see it: a sealed or hidden order stays its placeholder,
    # which says what the record holds and is set as words, not as an order to type.
    seen = redact(rec, reader)
    private = seen.get("private_order")
    # A plan the record reveals is told once, revealed: the heading names it as every
    # reader sees it (told_once.py).
    hidden = isinstance(private, dict) and ("data" not in private or rec.get("actor") in
                                            revealed_sides(seen.get("events", [])))
    text = heading_order(rec["order"] if hidden else order_text(seen), rec)
    style = "plain" if hidden else "order"
    text = text if hidden else as_read(text, data)
    note = ""
    if before.pending is not None and bare(text):
        note = f" ({before.pending.kind.replace('_', ' ')})"
    note += came_note(rec, reader, rule_of(before)) + (given or "")
    # An order longer than a mail's line is told as words, wrapped as the event lines under
    # it are: a past order is read, not copied, and never runs past the line.
    # An area id that does not read as its name has the name beside it (areanames.py).
    orders = [[Span(part, style if typed and len(line) <= ORDER_MOST else "plain")
               for part, typed in ([(line, True)] if hidden else named_parts(line, data))]
              for line in text.split("\n")]
    joined = [span for n, o in enumerate(orders) for span in ([Span("; ")] if n else []) + o]
    return [Span(f"#{rec['seq']} {who}: "), *joined, Span(note)]


def shown(make, seq: int, journal: Path, *args):
    """make(*args), with a record that names what the game data does not have reported as
    the journal's fault (JournalError with the record), never as a crash."""
    try:
        return make(*args)
    except (KeyError, ValueError, TypeError, AttributeError, IndexError) as exc:
        raise JournalError(f"{Path(journal).name}: record {seq} cannot be shown: it names "
                           f"something the game data does not have ({exc})",
                           record=seq) from None


def _held(state, area: str, data) -> tuple[str, str]:
    """A battle area's name and who holds it once its battle is over (4.1, 5.4)."""
    return data.areas[area].name if area in data.areas else area, \
        state.area_state(area, data)


def build(whole: Game, start: Game, records: list[dict], reader: str, views: dict,
          mine: dict, games_dir: Path | None = None, full_most: int | None = None,
          phone: bool = False) -> tuple[Document, dict]:
    """The report for reader: every record after the one `start` stands at, replayed from
    there on a copy (the Table's). `views` holds what `show`, the board and `status` show
    the reader now (kept for the journal's bytes), `mine` the reader's standing orders.
    full_most: the most records told in full (None: every one); the last of them are, and
    those before them are told in brief, a turn a line (a mail after many records played
    at once: `autoplay`, a long absence). phone: a mail's report, laid out for a phone while
    sealed plans are asked or revealed (phone.py)."""
    journal = whole.journal.path
    header, last, game_id = records[0], records[-1], whole.game_id
    data, state = start.data, start.state.clone()
    since = state.seq
    brief = _Brief(since, last["seq"] - full_most if full_most is not None else since)
    vp_before = sum(v for _, v in vp_breakdown(state, data))
    happened: list = []
    revealed: list[dict] = []           # production plans revealed, as the reader sees them
    era = Era(header, data, games_dir, journal.name, start.rules)
    zone = zone_of(whole.raw)           # the time zone its times are told in
    roster = RosterNews()               # what each roster record changed, in words
    # The deadlines now: an extension told names the time it set, while it stands.
    dues = (views["status"].get("deadlines") or {}).get("due") or []
    for rec in records[:since + 1]:
        roster.read(rec)
    told = None                         # the last record told in full
    # Said once for records alike; in a player's mail (phone), as he asks by mail.
    dice = DiceOnce(header["dice"]["mode"] == "manual", phone and reader in data.sides)
    for rec in records[since + 1:]:
        before = state.clone()
        data = era.data
        era.apply(state, rec)
        seen = redact(rec, reader)
        revealed += [ev for ev in seen["events"] if ev["type"] == "ProductionRevealed"]
        news = roster.read(rec, data.side_name)
        if brief.takes(rec, before, seen, state, data):
            continue
        happened += _happened(rec, before, seen, state, data, reader, journal,
                              (zone, _dues_told(whole, records, rec, dues, games_dir),
                               _same_run(told, rec)), news, dice)
        told = rec
    happened += dice.close()            # the dice of several records, once at the foot
    data = era.data
    breakdown = vp_breakdown(state, data)
    total = sum(v for _, v in breakdown)
    level = level_of(total, data)
    change = total - vp_before
    sview, board, stat = views["show"], views["board"], views["status"]
    mailed, phone = phone, phone and phone_wanted(state, revealed)
    stat = {**stat, "_phone": True} if phone else stat
    # From the start, the optional rules in play first: they explain what follows.
    sections = [Section(
        f"Since record {since}" if since else "From the start of the game",
        ([] if since else options_note(sview)) + brief.blocks(reader, shlex.quote(journal.name))
        + happened or [para("Nothing has happened since your last report.")])]
    # What his production plan cost, once these records revealed it: a part of what
    # happened, not of what he is asked now (7.0).
    done = shown(carried_out_section, last["seq"], journal, state, data, reader, revealed)
    sections += [done] if done is not None else []
    now = _now_sections(journal, mine, state, data, reader, stat, mailed,
                        sheets_in(whole.raw).get(reader))
    tell_armistice(now[0], state, data, reader, stat, level.name, records[since + 1:])
    sections = _laid_out(sections, now, (sview, board), since, change, phone)
    receipt = receipt_line(game_id, last["seq"], last["hash"])
    span = (f"record {last['seq']}" if since + 1 == last["seq"] else
            f"records {since + 1}–{last['seq']}" if since < last["seq"] else
            f"nothing new after record {since}")
    doc = Document(f"{data.info.name} — report for {reader_words(reader)}: game {game_id}, {span}, "
                   f"{data.label(state.turn)}", sections, receipt, side_colours(data))
    meta: dict[str, Any] = {
        "game_id": game_id, "reader": reader, "seq": last["seq"], "turn": state.turn,
        "label": data.label(state.turn), "phase": state.phase,
        "since": since, "upto": last["seq"],
        "receipt": {"seq": last["seq"], "hash": last["hash"],
                    "fingerprint": receipt_key(header, last)},
        "vp": report_vp(total, change, level, stat.get("result")),
        **_asked_now(stat), "board": board, "dice": header["dice"]["mode"],
    }
    return doc, meta


def _asked_now(stat: dict) -> dict:
    """What the report's JSON says of the decision now, as the reader's status-view says it:
    whom it waits on, what is asked, his legal orders, whether the game takes no orders though
    not over (closed, paused, outdated), the deadlines (a game with any), whether the game is
    over and its result, an armistice proposed (while one waits)."""
    keys = ("waiting_on", "waiting_on_all", "decision", "prompt", "legal", "closed", "paused",
            "outdated", "deadlines", "game_over", "result", "armistice", "armistice_heard",
            "armistice_to")
    return {k: stat[k] for k in keys if k in stat}


def _laid_out(happened: list[Section], now: list[Section], views: tuple[dict, dict],
              since: int, change: int, phone: bool) -> list[Section]:
    """The report's sections: what happened, the VP, the board, the decision now; for a
    phone, the decision first, then what happened, the VP in brief and the board
    (phone.py)."""
    sview, board = views
    if phone:
        return reordered([*happened, vp_brief(sview["vp"], since, change),
                          board_section(board, points_apart=len(now) > 1)], now)
    vp_doc = vp_section(sview["vp"], sview.get("result"))
    said = vp_change(since, change)
    if said:
        vp_doc.blocks.insert(1, para(said))
    return [*happened, vp_doc, board_section(board), *now]


def _happened(rec: dict, before, seen: dict, state, data, reader: str,
              journal: Path, clock: tuple[str | None, list[dict], bool], news: list[str],
              dice: DiceOnce) -> list:
    """One record as the reader may see it: its heading, then each event's line, who holds
    each battle area once its battle is over, the dice sheets' lines and what it says of
    the game's time, to him (clock: the game's time zone, its deadlines now and whether
    the record goes on a run of the referee's answers the record before it told, whose
    missed deadline it then does not tell again; dice: its dice lines, those alike said
    once)."""
    lines = []
    # A fire phase of a Surprise Attack! battle, begun here or before, in the surprise order (9.7).
    # An entrenchment's note first: an event that says more than its plan's order is told.
    events = [shown(with_note, rec["seq"], journal, ev, state, data, reader)
              for ev in marked(seen["events"])]
    # What each event did that the game before it holds: fire's reasons, Bad Weather's.
    events = shown(in_context, rec["seq"], journal, events, before, data)
    for ev in Battles.at(before).marked(told_once(events, reader, rec.get("actor"))):
        line = shown(describe, rec["seq"], journal, ev, data, reader)
        if line and ev["type"] == "AreaControlChanged":
            line += shown(fort_note, rec["seq"], journal, ev, state, data)
        if line:
            # A revealed plan (one order a line) in one sentence: its orders are told, not
            # offered to be typed.
            # A plan told over the events that carried it out heads them (told_once).
            head, *orders = line.split("\n")
            lines.append([Span(" ".join([head, "; ".join(o.strip() for o in orders)]).strip(),
                               "bold" if "untold" in ev else "plain")])
        if ev["type"] == "BattleEnded":     # who holds it, unless told where it changed
            outcome = shown(battle_outcome, rec["seq"], journal, before, state, ev["area"],
                            data, seen["events"])
            lines += [[Span(outcome, "bold")]] if outcome else []
    dice.add(lines, seen, data)
    if "clock" in seen and clock[2]:   # an answer more of the run: its answer alone
        from ..game.timeline import answered_words  # start-up: a missed deadline's answer
        lines.append([Span(shown(answered_words, rec["seq"], journal, seen, reader,
                                 _answer(seen, before, data)))])
    elif "clock" in seen:           # a deadline moved, missed or set: as `log` says it
        from ..game.timeline import clock_words, standing_due  # start-up: a clock record
        zone, dues, _ = clock
        asked = before.pending.kind if before is not None and before.pending else None
        lines.append([Span(shown(clock_words, rec["seq"], journal, seen, zone, asked, reader,
                                 standing_due(seen["clock"], dues), True,
                                 _answer(seen, before, data)))])
    lines += [[Span(line)] for line in news]       # what a roster record changed
    return [Para(_record_heading(rec, before, reader, data), heading=True)] + \
        ([Items(lines)] if lines else [])


def _dues_told(whole, records: list[dict], rec: dict, dues: list[dict], games_dir):
    """The deadlines a record is told with: those now, or for an extension that a later
    clock record moved on, those it set (game/extended.py)."""
    if "clock" not in rec:
        return dues
    from ..game.extended import due_set  # start-up: only a record about time

    return due_set(whole.journal, whole.raw, records, rec, dues, games_dir)


def _same_run(told: dict | None, rec: dict) -> bool:
    """Whether rec, a referee's answer for a silent side, goes on the run of answers the
    record just before it (told in full in the same report) began or went on: the same
    side's, to the same hand-off and missed deadline."""
    from ..game.timeline import answers_missed  # start-up: only a missed deadline's answer

    if told is None or told["seq"] != rec["seq"] - 1 or not answers_missed(rec) or \
            not answers_missed(told):
        return False
    return all(told["clock"].get(k) == rec["clock"].get(k) for k in ("side", "handoff", "due"))


def _answer(seen: dict, before, data) -> str | None:
    """The referee's answer for a silent side as the reader may read it, the order and why
    it is this one (the words of its mail of old); None for any other record."""
    from ..game.defaults import answer_in  # start-up: only a missed deadline's answer
    from ..game.timeline import answers_missed  # start-up: likewise

    return answer_in(seen, before, data) if before is not None and answers_missed(seen) \
        else None


class _Brief:
    """The records of a report told in brief (those after `since` up to `upto`), a turn a line:
    which records, how many, each battle with who held its area once it was over and how
    the game ended, as the reader may see them (the redacted records); the rest of them is
    in `log`."""

    def __init__(self, since: int, upto: int):
        self.since, self.upto = since, upto
        self.turns: dict[str, list] = {}        # label: [first, last, count, facts]

    def takes(self, rec: dict, before, seen: dict, state, data) -> bool:
        """Whether rec is told in brief; if so, what it adds to its turn's line."""
        if rec["seq"] > self.upto:
            return False
        turn = self.turns.setdefault(data.label(before.turn), [rec["seq"], 0, 0, []])
        turn[1:3] = [rec["seq"], turn[2] + 1]
        for ev in seen["events"]:
            if ev["type"] == "BattleEnded":
                name, held = _held(state, ev["area"], data)
                turn[3].append(f"battle of {name} "
                               f"({'Disputed' if held == 'disputed' else side_name(held)})")
            elif ev["type"] == "GameEnded":
                why, level = result_words(ev)
                turn[3].append(f"game over: {why}" + (f", {level}" if level else ""))
        return True

    def blocks(self, reader: str, journal: str) -> list:
        """What the report says of the records told in brief, before those told in full."""
        if not self.turns:
            return []
        first = self.since + 1
        lines = []
        for label, (a, b, n, facts) in self.turns.items():
            span = f"record {a}" if a == b else f"records {a}–{b}"
            lines.append([Span("; ".join([f"{label}: {span} ({n})", *facts]) + ".")])
        return [para(f"Records {first}–{self.upto} ({self.upto - self.since}) in brief, a "
                     f"turn a line: its records, then each battle with who held its area "
                     f"once it was over (Disputed: both sides stayed). Every record is in "
                     f"the journal {journal}, which the moderator shows with ",
                     Span(f"referee log JOURNAL --as {reader} --since {first}", "order"),
                     "; the records after these follow in full."), Items(lines)]


def _now_sections(journal: Path, mine: dict, state, data, reader: str,
                  stat: dict, mailed: bool = False, sheet=None) -> list[Section]:
    """The decision now with what follows it, then his Build Points while he plans his
    production or once his plan is in (7.0); only that the game is closed once its secret
    is revealed before its end (`reveal --force`: no order is taken after it), and how each
    reader checks it then, as after its end. mailed: a mail's report, which tells him of a
    standing order that would answer the step asked (standingtip.py); sheet: the reader's
    dice sheet, whose link due ends it (linkdue.py)."""
    closed = stat.get("closed")
    if (closed and closed["why"] == "no_setup") or stat.get("outdated"):   # until he acts
        return [Section("Now", [para(upper_first(stat["prompt"]) + "."),
                                *([para(PAUSED_NOW)] if stat.get("paused") else [])])]
    if closed:
        return [Section("Now", [para(CLOSED_NOW), *_after_the_end(
            reader, True, data, shlex.quote(journal.name))])]
    costs = shown(production_section, state.seq, journal, state, data, reader,
                  list(stat["legal"]))
    coming, got = _coming(journal, mine, state, data, reader, stat, example=costs is None)
    now = _decision_section(stat, reader, data, coming)
    if stat["game_over"]:
        now.blocks += _after_the_end(reader, bool(state.revealed), data, shlex.quote(journal.name))
    if reader in data.sides and not stat["game_over"]:    # his hand is secret: his own only
        now.blocks[1:1] = [para(line) for line in _hand_lines(state, data, reader) +
                           (standing_tip(state, data, reader, mine) if mailed else [])]
    if not stat["game_over"] and state.turn == state.last_turn:
        now.blocks.insert(1, para(f"{data.label(state.turn)} is the last turn: the game ends "
                                  f"with it, at the level of victory its VP give then (2.0 VI, "
                                  f"3.1)."))
    if not stat["game_over"]:
        now.blocks += link_due(sheet, got)
    return [now] if costs is None else [now, costs]


def _hand_lines(state, data, reader: str) -> list[str]:
    """Asked for combat cards (2.0 II.3b): those of his hand the date does not allow now
    (9.3-9.5). Which of the cards allowed now his hand holds, his own prompt says first."""
    barred = barred_in_hand(state, data, reader)
    return ["In your hand, not allowed now: " + "; ".join(barred) + "."] if barred else []


def _after_the_end(reader: str, revealed: bool, data, journal: str) -> list[Para]:
    """What comes once the game is over: the moderator publishes the dice secret (`reveal`),
    and each reader checks the game as moderator.md and player.md say: a side with his own
    export, the public with the public one, `verify --export` recomputing every die."""
    def code(text: str) -> Span:
        return Span(text, "order")

    if reader == "moderator":
        first = ("The dice secret is published. ",) if revealed else (
            "Publish the dice secret: ", code(f"referee reveal {journal}"), ". ")
        return [para(Span("What now: ", "bold"), *first,
                     "Give each player his side's export, ",
                     code(f"referee log {journal} --as SIDE --format json"),
                     ", which he checks with ", code("referee verify FILE --export SIDE"), ".")]
    who = reader if reader in data.sides else "public"
    secret = ("the moderator has published the dice secret, so every die can be checked. "
              if revealed else "the moderator publishes the dice secret (",
              *(() if revealed else (code("referee reveal"),
                                     "), so that every die can be checked. ")))
    dice = "and every die" if revealed else "and, once the secret is published, every die"
    if who == "public":
        return [para(Span("What now: ", "bold"), *secret, "Ask the moderator for the public "
                     "export, the game's log as the public may see it (",
                     code("log --as public --format json"), "), and check it with ",
                     code("referee verify public.jsonl --export public"),
                     f": its chain, its signatures {dice}.")]
    return [para(Span("What now: ", "bold"), *secret, "Ask him for your side's export, the "
                 f"game's log as the {side_name(who)} player may see it (",
                 code(f"log --as {who} --format json"), "), and check it with ",
                 code(f"referee verify {who}.jsonl --export {who}"),
                 ": its chain and signatures, your receipts (--receipt, each as a mail ends "
                 f"with it) {dice}. Your receipts are what proves a rewrite: --key with the "
                 "game's fingerprint alone proves only that the key signed this copy, and "
                 "whoever holds the key can sign a rewritten one.")]


def _coming(journal: Path, mine: dict, state, data, reader: str, stat: dict,
            example: bool = True) -> tuple[list, Ahead | None]:
    """What follows the decision now for a side (game/ahead.py): his later decisions and how
    to answer them in one mail (with an example unless another section shows one), or when
    he is asked next; nothing for other readers. With it, what follows his decision, when
    he is asked one (for the link due, linkdue.py)."""
    if reader not in data.sides or stat["game_over"] or stat.get("paused"):
        return [], None
    waiting = stat.get("waiting_on_all") or [stat["waiting_on"]]
    if reader not in waiting:
        later = shown(next_for, state.seq, journal, state, data, reader)
        return awaited_blocks(later, data, reader, [w for w in waiting if w],
                              offered=state.armistice not in (None, reader)), None
    # his own standing orders (mine): a decision they answer is not asked
    got = shown(ahead, state.seq, journal, state, data, reader, list(stat["legal"]), mine)
    return (ahead_blocks(got, data, reader, example) if got is not None else []), got


PAUSED_NOW = "The game is paused: no orders are taken until the moderator resumes it."
CLOSED_NOW = ("The moderator has closed the game before its end by revealing the dice "
              "secret: no orders are taken any more, and every die can now be checked.")


def _decision_section(stat: dict, reader: str, data, coming: list | None = None) -> Section:
    """What the reader must decide now, what follows it (coming), and the orders open to him
    (2.0), grouped without pointing to a command he cannot run from a mail."""
    if stat["game_over"]:
        why, level = result_words(stat.get("result") or {})
        won = para(winner_sentence(stat.get("result") or {}))
        if level is None:
            return Section("The game is over", [para(Span(f"{upper_first(why)}.", "bold")),
                                                won])
        return Section("The game is over", [para(f"{upper_first(why)}: ",
                                                 Span(level, "bold")), won])
    blocks: list = []
    paused = stat.get("paused")
    if paused:          # no orders are taken: none offered, the decision it resumes at told
        waiting = paused["waiting_on_all"]
        asked = para(Span("Your decision once the game resumes: ", "bold"), paused["prompt"]) \
            if reader in waiting else para(Span("Paused; once it resumes, waiting on ", "bold"),
                                           players_words(waiting), f": {paused['prompt']}")
        return Section("Now", [asked, para(PAUSED_NOW)])
    waiting = stat.get("waiting_on_all") or [stat["waiting_on"]]
    if reader in waiting:
        blocks += [para(Span("Your decision: ", "bold"), stat["prompt"]), *owed_blocks(stat)]
        if stat.get("_held"):       # his orders are given, and wait for the moderator's dice
            return Section("Now", blocks + dice_note(stat))
        blocks += coming or []
        blocks += orders_open_blocks(stat["legal"], stat.get("_aids"), bool(stat.get("_phone")))
    else:
        blocks.append(para(Span("Waiting on ", "bold"), players_words(waiting),
                           f": {stat['prompt']}"))
        # By when, as `status` tells it to anyone: the side waiting reads the others' time.
        blocks += deadline_note(stat, None if reader == PUBLIC else reader)
        blocks += coming or []
        if stat["legal"]:
            blocks.append(para("Orders you may give at any time:"))
            blocks += grouped_blocks(list(stat["legal"]), stat.get("_aids"), whole=False)
    return Section("Now", blocks + dice_note(stat))


def orders_open_blocks(legal, aids, bounded: bool = False) -> list:
    """The orders open to the side asked, as a mail asks for them: grouped, none pointing to
    a command he cannot run from a mail (the report's and a reminder's); bounded: the areas
    long lines share named once (a mail read on a phone)."""
    return [para("Reply with one order per line, made from these:"),
            *grouped_blocks(list(legal), aids, whole=False, bounded=bounded)]


def render_report(doc: Document, meta: dict, fmt: str, width: int = 72,
                  dialect: str = "common", mail: bool = False) -> str:
    """The report in one format (text, markdown, bbcode in a dialect, chat or json); a
    mail's (text) with the game key's signature of its receipt, when the report has it."""
    if fmt == "json":
        plain = carried(ReportView.plain(**meta, document=as_json(doc)))
        return json.dumps(plain, indent=2, ensure_ascii=False)
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
    else:
        tail = _text_tail(doc.receipt, signed, width,
                          meta.get("receipt", {}).get("signed") if mail else None)
    return f"{text}\n\n{tail}"


# The sections that say what is asked now, or that nothing is any more (_now_sections).
NOW_TITLES = ("Now", "The game is over")


def report_lead(doc: Document, width: int = 72) -> str:
    """A report's first lines as a mail gives them, above its title: what is asked of the
    reader now, in the words its last section opens with ('Your decision: …', 'Waiting on
    the German player: …', 'Your decision once the game resumes: …', how the game ended or
    that it is closed). A phone's list of mails shows these, not the title every report of
    a season shares."""
    now = next((s for s in doc.sections if s.title in NOW_TITLES), None)
    first = next((b for b in now.blocks if isinstance(b, Para)), None) if now else None
    if first is None:
        return ""
    return render(Document("", [Section("", [first])]), "text", width).strip("\n")


def receipt_text(header: dict, last: dict, width: int = 72) -> str:
    """The last lines of a text report or mail whose journal ends at record `last`: the key
    that signed it, its signature of the receipt (when this referee holds that key), then
    the receipt."""
    return _text_tail(receipt_line(header["game_id"], last["seq"], last["hash"]),
                      key_line(receipt_key(header, last)), width,
                      signedreceipt.signed(header, last))


def _text_tail(receipt: str, signed: str | None, width: int, blob: str | None = None) -> str:
    """The receipt as text, its key line and its signature's lines above it; a long game id
    puts SEQ:HASH on a line of its own, indented."""
    game, _, seq_hash = receipt.removeprefix("Receipt: ").rpartition(" ")
    tail = f"Receipt: {game}\n  {seq_hash}" if len(receipt) > width else receipt
    return "\n".join([*([signed] if signed else []), *signedreceipt.lines(blob), tail])
