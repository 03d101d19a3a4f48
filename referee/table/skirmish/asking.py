"""What a skirmish's report and mail ask of their reader, after the report: his decision
and the forms of the orders he may send, or whom the game waits on and what he may still
send meanwhile (a dispute; the moderator's settlement)."""

from __future__ import annotations

from collections import Counter

from ...base.readers import MODERATOR, PUBLIC
from ...render.documents import players_words
from ...render.record_text import wrap_lines
from .ending import after_the_end, disputable, end_words
from .formnotes import fire_note, melee_note
from .listed import fallen_firing, forms, open_melees, still_open
from .report import report_text
from .state import open_disputes


def asked_text(asked: list[str], key: str | None = None) -> str:
    """What is asked (asked_now), as a mail gives it after the report: each paragraph
    wrapped at 72 columns (an order's form, indented, with its continuations indented
    more); then the reader's order key line, when given."""
    lines = [line for item in asked
             for line in wrap_lines([item], 72, hang=2 if item.startswith("  ") else 0)]
    return "\n" + "".join(line + "\n" for line in lines) + \
        (f"\nOrder key: {key}\n" if key else "")


def reader_report_text(doc: dict) -> str:
    """A reader's report (kind.reader_report) as text: the report, then what is asked, as
    the reader's mail ends; what the card compels of him said there once (told_once). Its
    first lines say whom the game waits on, as a printed report opens: what is asked comes
    after it, not above."""
    return report_text(told_once(doc, doc["reader"], doc["asked"])) + \
        asked_text(doc["asked"], doc.get("order_key"))


# How a reply keeps its order key: the key printed below (a mail), or the one in the
# reader's mail (a report printed without it).
KEY_BELOW = "keeping the Order key line below"
KEY_OF_MAIL = "keeping the Order key line your mail gives"


def asked_now(kind, table, doc: dict, reader: str, key_below: bool = True
              ) -> list[str]:
    """What a mail asks of its reader, after the report, as a campaign's report asks it,
    paragraph by paragraph: his decision and the orders he may send, or whom the game waits
    on and what he may still send meanwhile (a dispute; the moderator's settlement); the
    public, who sends nothing, is told whom the game waits on. key_below: the reader's order
    key follows (a mail, `skirmish report --as`); else his replies keep the one his mail
    gives."""
    keep = KEY_BELOW if key_below else KEY_OF_MAIL
    if not kind.waiting_on(table):
        game = table.game()
        over = end_words(game.card, game.state)
        if reader == MODERATOR and _open(doc) and not doc.get("revealed"):
            # A dispute of the test that ended it: his ruling may undo the end.
            return [*_meanwhile(doc, reader, keep), over.replace(
                "The game is over:", "The game is over, unless your ruling changes that:", 1)]
        return [over, *after_the_end(table.records, game.state, reader, keep)]
    if reader == PUBLIC:
        return [f"Waiting on {players_words(doc['waiting'])}: {kind.prompt(table)}."]
    mine = kind.legal_orders(table, reader) if reader != MODERATOR else []
    if mine:
        game = table.game()
        # What the card compels is said on the first screen, not only in the report after.
        first = f"Your decision: {kind.prompt(table, reader)}." + \
            compelled(doc.get("owed", {}).get(reader, []))
        return [first,
                f"Reply with one order a line, {keep}, each made as one of these: its first "
                f"word, the figure or section, then the facts of the table it reads that you "
                f"declare, KEY=VALUE (the values the card knows between |):",
                *_with_fallen(game, reader, mine)]
    waiting = f"Waiting on {players_words(doc['waiting'])}: {kind.prompt(table)}."
    meanwhile = _meanwhile(doc, reader, keep)
    if reader != MODERATOR:
        game = table.game()
        # A dispute only while a test of the other side's is open to it (as check takes it).
        if not disputable(table.records, game.state, reader):
            meanwhile = meanwhile[:1]
        meanwhile[1:1] = _still(game, reader, "" if meanwhile[1:] else keep)
    if reader == MODERATOR and _open(doc):
        # A dispute asks him: that is what his mail opens with (its first paragraph, on a
        # phone's first screen), not whom the game waits on; his report says it first too.
        return [*meanwhile, waiting]
    return [waiting, *meanwhile]


def _with_fallen(game, side: str, verbs: list[str]) -> list[str]:
    """The forms of verbs as his order list gives them, and after the fire forms, the
    figures of his killed in this fire step that still fire in it (listed.fallen_firing)."""
    card, state = game.card, game.state
    listed = [f"  {form}" for form in forms(card, state, side, verbs)]
    fallen = fallen_firing(card, state, side)
    fires = [n for n, verb in enumerate(verbs) if verb in ("fire", "unaimed")]
    # Which figures the fire and melee forms are open to (formnotes.py), after each.
    notes = {n: note for n, verb in enumerate(verbs) if card.forms_named and (note := (
        melee_note(open_melees(card, state, side)) if verb == "melee" else
        fire_note(card, state, side) if fires and n == fires[-1] else ""))}
    if fallen and fires:
        notes[fires[-1]] = " ".join(x for x in (notes.get(fires[-1]), fallen) if x)
    for n in sorted(notes, reverse=True):
        listed.insert(n + 1, f"  {notes[n]}")
    return listed


def _still(game, side: str, keep: str) -> list[str]:
    """What a side the game does not wait on may still send (listed.still_open), as one
    paragraph: none when nothing. keep: how his reply keeps its order key, when no dispute
    line after it says so."""
    verbs = still_open(game.card, game.state, side)
    return [f"You may still send, though the game does not wait on you: "
            f"{'; '.join(forms(game.card, game.state, side, verbs))}."
            + (f" Reply {keep}." if keep else "")] if verbs else []


def compelled(due: list[str]) -> str:
    """The tests the card compels before a side's done, as his mail's opening says them:
    every one counted, as his report lists them (a morale test is owed for each figure
    killed, the same test each time: named once, with how many times it is owed)."""
    if not due:
        return ""
    each = [t if n == 1 else f"{t} {'twice' if n == 2 else f'{n} times'}"
            for t, n in Counter(due).items()]
    many = f" {len(due)} tests" if len(due) > 1 else ""
    return f" Before your done, the card compels{many}: {'; '.join(each)}."


def told_once(doc: dict, reader: str, asked: list[str], once: bool = False) -> dict:
    """doc as the text of a report under (or above) what is asked of reader gives it: his
    own "owes" line left out when the first paragraph of what is asked names the tests the
    card compels of him (compelled), so that they are said once, where he looks for what is
    asked of him; the other side's kept. Its JSON keeps owed whole. once (the card's
    said_once, in a mail, whose first lines are what is asked): no "Waiting on" line
    either, when it names him alone and his decision is what is asked (report.py reads
    waits_told)."""
    if once and doc.get("waiting") == [reader] and asked and \
            asked[0].startswith("Your decision:"):
        doc = {**doc, "waits_told": True}
    due = doc.get("owed", {}).get(reader)
    if not due or not asked or compelled(due) not in asked[0]:
        return doc
    return {**doc, "owed": {side: d for side, d in doc["owed"].items() if side != reader}}


def _open(doc: dict) -> list[str]:
    """The disputes the moderator is to settle, as his mail names them."""
    return [f"record {d['record']}'s {d['fact']}" for d in open_disputes(doc["disputes"])]


def _meanwhile(doc: dict, reader: str, keep: str) -> list[str]:
    """What a reader the game does not wait on may still send (Disputes): the moderator
    his rulings, a side a dispute of a fact the other side declared (keep: how his reply
    keeps its order key, asked_now)."""
    settle = "settle record=N fact=KEY value=VALUE, or settle record=N uphold=yes"
    if reader != MODERATOR:
        return ["Nothing is asked of you now. A new mail will ask you when a decision is "
                "yours.", "Meanwhile you may dispute a fact the other side declared, within "
                f"the challenge window: dispute record=N fact=KEY value=VALUE, {keep}."]
    open_ = _open(doc)
    if open_:
        return [f"Disputes for you to settle: {', '.join(open_)}. Reply with {settle}, "
                f"{keep}."]
    return [f"Nothing is asked of you now. A new mail will ask you when a player disputes "
            f"a fact; you answer with {settle}."]
