"""A skirmish by mail (mail/direct.py asks them through its kind): what a reply is judged
stale by, the mails its journal holds, the lines a sender is answered with, and a player's
report after a pass, each line read on a phone."""

from __future__ import annotations

from pathlib import Path

from ...base.readers import MODERATOR
from ...render.documents import reader_words
from ...render.record_text import wrap_lines
from . import decider as sk
from .asking import asked_now, asked_text, told_once
from .brief import bounded
from .ending import undone_words
from .held import checked_records, closed
from .made import made_line
from .quotednotes import under_asked
from .report import report_document, report_text, shown_order, test_head, test_lines
from .reported import waited
from .ruled import ruling_lines, settled_by


def decision(table, seq: int | None, reader: str) -> tuple:
    """What reader was asked after record seq (None: now), by which a reply to a mail of
    that record is judged stale (mail/direct.py): a side, the turn, the phase and its
    fire step, and whether he was still to say done (the other side's tests and done in
    it change nothing: both sides play a phase, and fire a step, at once); the
    moderator, the disputes open, also once a side has no figure left (a ruling on the
    test that ended the game may undo its end); nobody anything once the game is closed
    by its secret, or a side over."""
    state = table.game(upto=seq).state
    if state.revealed is not None:
        return ()
    if reader == MODERATOR:
        return tuple(d["seq"] for d in sk.open_disputes(state.disputes))
    if closed(state):
        return ()
    return state.turn, state.phase, state.fire_step, reader in sk.waiting(state)


def mails_held(table) -> dict[str, tuple[set[str], dict[str, int]]]:
    """The mails the journal holds, by the side that sent each: their Message-IDs, and
    the first record made by each mail's Date, Subject and text (its digest)."""
    out: dict[str, tuple[set[str], dict[str, int]]] = {}
    for r in checked_records(table)[1:]:
        if r.get("mail"):
            ids, contents = out.setdefault(r["actor"], (set(), {}))
            ids.add(r["mail"])
            if r.get("mail_content"):
                contents.setdefault(r["mail_content"], r["seq"])
    return out


def recorded_lines(table, seqs: list[int]) -> list[str]:
    """The lines a sender is answered with for the records his mail made: each test; a
    ruling, what it did (ruled.py)."""
    game, records = table.game(), checked_records(table)
    by_seq = {t["record"]: t for t in game.state.tests}
    lines, tests = [], []
    for n in seqs:
        if n in by_seq:
            tests.append(by_seq[n])
            lines += test_lines(by_seq[n])
        elif isinstance(records[n].get("settle"), dict):
            said, test = ruling_lines(records, game, n)
            lines += said
            tests += [test] if test else []
        else:
            lines.append(made_line(table, records[n]))
    return mail_lines(lines, tests)


def mail_report(kind, table, reader: str, since: int | None = None,
                listed: tuple[int, ...] = (), full_most: int | None = None,
                notes: dict[int, list[str]] | None = None) -> str:
    """A player's report after a mail pass (reader: his side, or the moderator), its
    subject the mail layer's (mail/subjects.py); it opens with the first paragraph of
    what he is asked now, and ends with the rest of it (how to answer), that paragraph
    said once. since: the record of the last report
    he was sent, when the journal still holds it; then only the tests since are listed
    (new_since), the forces whole. listed: the records of the tests the mail gives
    above the report (an answer's; a ruling's, the test it decided again), left out.
    full_most: the most tests told in full,
    the last ones, those before them in brief, a turn a line (brief.py). notes: the
    players' notes with their disputes open (the mail layer's), the moderator's under
    the disputes he is to settle, a player's under the disputes of his report."""
    game = table.game()
    doc = report_document(game.header, game.card, game.state, waiting=waited(game))
    listed = (*listed, *settled_by(checked_records(table), listed))
    tests = doc["tests"] if since is None else \
        new_since(doc["tests"], checked_records(table), since)
    if since is not None:       # a dispute settled is told with its test, not again
        told = {t["record"] for t in tests} | set(listed)
        doc["disputes"] = [d for d in doc["disputes"]
                           if sk.is_open(d) or d["record"] in told]
    brief, tests = bounded([t for t in tests if t["record"] not in listed], full_most,
                           Path(table.path).name)
    doc = {**doc, "tests": tests}
    heading = _since_heading(doc, since, bool(listed))
    asked = asked_now(kind, table, doc, reader)
    # Its first lines say what is asked of him now, as a phone's list of mails shows
    # them and as a campaign's report mail opens (mail/refusal.py lead_lines); then
    # what the mail is; after the report, the rest of what is asked (the orders' forms),
    # not its first paragraph again.
    # A ruling since his last report that undid the game's end is said first (an
    # answer's own ruling says it above: ruled.py).
    undone = [] if since is None else \
        undone_words(checked_records(table), game.state, since, set(listed))
    text = "\n".join([*(x for u in undone for x in [*wrap_lines([u], 72, hang=0), ""]),
                      *wrap_lines(asked[:1], 72, hang=0), "", *under_asked(doc, reader, notes),
                      f"Report for {reader_words(reader)}", *mail_lines(report_text(
                          told_once(doc, reader, asked, game.card.said_once), heading, brief,
                          None if reader == MODERATOR else notes
                      ).splitlines(), doc["tests"])])
    return text + ("\n" + asked_text(asked[1:]) if asked[1:] else "")


def new_since(tests: list[dict], records: list[dict], since: int) -> list[dict]:
    """The tests a player's report since record `since` lists: those made after it, and
    the older ones a dispute or a ruling after it concerns (a settled test's result
    changed since his last report)."""
    touched = {r["settle"]["record"] for r in records[since + 1:]
               if isinstance(r.get("settle"), dict)}
    touched |= {r["dispute"]["record"] for r in records[since + 1:]
                if isinstance(r.get("dispute"), dict)}
    return [t for t in tests if t["record"] > since or t["record"] in touched]


def _since_heading(doc: dict, since: int | None, other: bool) -> str | None:
    """The heading of a mailed report's tests: those since the reader's last report
    (record since), and other than the ones his answer listed above it; None: the
    report's own heading (every test). "none" only when no line follows it: the reveal
    since is the record it lists."""
    if since is None and not other:
        return None
    words = ("Other tests" if other else "Tests") + \
        ("" if since is None else f" since your last report (#{since})")
    shown = (doc.get("revealed") or {}).get("record", -1) > (since or 0)
    return f"{words}:" + ("" if doc["tests"] or shown else " none")


def mail_lines(lines: list[str], tests: list[dict]) -> list[str]:
    """Lines for a mail, read on a phone: each wrapped at 72 columns but a test's order,
    which stays whole on its line as the player typed it (_order_lines)."""
    firsts = {test_lines(t)[0]: t for t in tests}
    return [x for line in lines for x in (
        _order_lines(line, firsts[line]) if line in firsts else wrap_lines([line]))]


def _order_lines(line: str, test: dict) -> list[str]:
    """A test's first line (test_lines) for a mail: whole when it fits 72 columns; else who
    gave the order, then the order alone on its line, whole, indented two columns as a mail
    lists the orders to copy back (72 columns for an order of 70), then what the test added
    to it (the facts left to the card, a ruling), wrapped."""
    if len(line) <= 72:
        return [line]
    head = test_head(test)
    order = shown_order(test)
    added = line[len(head) + 1 + len(order):].strip()
    return [head, f"  {order}", *(wrap_lines([f"    {added}"], hang=0) if added else [])]
