"""What a reader is owed for the records since his last mail, and the short mail of news.

A record of the moderator's that leaves the board as it was (a deadline extended, the game
paused or resumed, deadlines set) is news to a reader, not a new board: he is sent a few
lines, saying what it changed, what he is asked now and by when, how to answer, his key
and the receipt; no board, no picture. The side a record concerns gets his report as
before: the side whose deadline was extended, the side whose address or key changed (the
newcomer's welcome). A roster or mail route record that concerns another is nothing to a
reader (his orders, his deadline and where he writes are as they were): it waits for his
next mail, as a reminder does (told_apart). A short mail ends where the
journal does, and says what each record since his last mail said, so the next report
starts after it and neither loses nor repeats a record. So does another side's record that
moves nothing a reader sees (unseen): his dice sheet registered, an armistice refused.
"""

from __future__ import annotations

from ..engine import waiting_on
from ..game.timeline import EXTEND, paused
from ..render.formats import render
from ..render.reports import NOW_TITLES, receipt_text
from ..render.sections import Document, Section
from ..store.mailroute import ROUTE
from ..store.players import REGISTER, roster
from ..store.sheets import SHEET
from .afterend import key_line
from .pauselead import pause_lead
from .pictures import last_map_line
from .refusal import FULL_MOST, lead_lines, prose

# Facts about time that the deadline pass tells in mails of their own, to whom they concern
# (reminders.py): a reminder to the side owing orders, a deadline missed to the moderator
# when the game waits on him. A report is not owed for them alone; the next one lists them.
TOLD_APART = ("reminded", "missed")


def told_apart(records: list[dict]) -> bool:
    """Whether records (those after a reader's last mail) owe him no report: none at all,
    or only facts about time told apart (none moves the game: no events). Record 1 of
    every game sets it up, so a reader never mailed is always owed one."""
    return all(not r.get("events") and isinstance(r.get("clock"), dict) and
               r["clock"].get("kind") in TOLD_APART for r in records)


REPORT, NEWS = "report", "news"

# The kinds of a clock record that move no piece and no decision: news for every reader but
# the side an extension is for.
NEWS_CLOCKS = ("extend", "pause", "resume", "settings")

# The events of a side's record that leave the board, the hands and every decision as they
# were for the other readers: an armistice refused, the war going on (3.2).
UNSEEN_EVENTS = frozenset({"ArmisticeRefused"})


def unseen(rec: dict, reader: str) -> bool:
    """Whether rec, another side's, moves nothing reader sees: the dice sheet he registered
    (no event: only its tip, which the next record's links are checked by), or an armistice
    he refused. His own record is his report's (the sheet's link due, his answer given)."""
    sheet = rec.get("sheet")
    owner = sheet.get("side") if isinstance(sheet, dict) else rec.get("actor")
    if owner in (None, reader) or rec.get("clock"):
        return False
    events = rec.get("events") or []
    if not events:
        return rec.get("order") == SHEET
    return all(isinstance(e, dict) and e.get("type") in UNSEEN_EVENTS for e in events)


def owed(records: list[dict], since: int, reader: str) -> str | None:
    """What reader (a side, or the public for observers) is owed for the records after
    since, his last mail's: REPORT, NEWS (a short mail), or None (nothing a mail owes)."""
    if since == 0:
        return REPORT                   # never mailed, or a journal set back past his last
    mine = roster(records[:since + 1]).get(reader)
    found = None
    for rec in records[since + 1:]:
        if told_apart([rec]):
            continue                    # told apart, listed in his next mail
        if rec.get("order") in (REGISTER, ROUTE) and not rec.get("events"):
            now = roster([rec]).get(reader, mine) if rec.get("order") == REGISTER else mine
            if now != mine:
                return REPORT           # his address or key changed: the newcomer's welcome
            continue
        if unseen(rec, reader):
            found = NEWS
            continue
        clock = rec.get("clock")
        kind = clock.get("kind") if isinstance(clock, dict) else None
        if rec.get("events") or kind not in NEWS_CLOCKS or \
                (kind == EXTEND and clock.get("side") == reader):
            return REPORT
        found = NEWS
    return found


def news_body(table, reader: str, since: int, key: str | None = None, due: str | None = None,
              held: bool = False, ledger: dict | None = None) -> str:
    """The short mail of news to reader (a side with his key, or the public): what he is
    asked now and by when, what each record since his last mail said, the orders open to
    him when he is asked (a report written while the game was paused listed none), where
    his last map is, how to answer, his key and the receipt."""
    doc, _ = table.report(reader, since, keep_views=False, held=held, full_most=FULL_MOST)
    told = render(Document("", [Section(f"Since your last mail (record {since})",
                                        doc.sections[0].blocks)]), "text", 72).strip("\n")
    asked = key is not None and not held and not paused(table.raw) and \
        reader in waiting_on(table.game().state)
    where = last_map_line((ledger or {}).get("maps", {}).get(reader)) if key else ""
    said = ["To answer, reply to this mail with your orders and the order key below."
            if asked else "",
            where or ("The board is as your last report showed it." if key else
                      "The board is as the last report showed it.")]
    records = table.records
    return pause_lead(table, reader, since, due) + lead_lines(doc) + \
        (f"{due}\n\n" if due else "") + told + "\n\n" + \
        (_orders_open(doc) if asked else "") + prose(" ".join(p for p in said if p)) + \
        "\n\n" + (key_line(table, reader, key) if key else "") + \
        receipt_text(records[0], records[-1]) + "\n"


def _orders_open(doc: Document) -> str:
    """The report's sections from its decision on (the orders open, and the costs of a plan
    where it has them), the decision's first line left to the mail's lead."""
    at = next((i for i, s in enumerate(doc.sections) if s.title in NOW_TITLES), None)
    if at is None:
        return ""
    now = doc.sections[at]
    sections = [Section(now.title, now.blocks[1:]), *doc.sections[at + 1:]]
    return render(Document("", sections), "text", 72).strip("\n") + "\n\n"
