"""The one reply to a player's message that was not applied: what failed and why, what was
applied of it (nothing: a message is applied all or none), then his report with what he is
asked now and the orders open to him. The reply to a message that was applied is his
report, after what of the message was not applied (notes: prose not read as orders, lines
after a hand-off, a 'done' not needed).
"""

from __future__ import annotations

import re
import textwrap

from ..base.addresses import address_key
from ..base.errors import OrderError, OrderSyntaxError, clipped, quoted
from ..base.flowing import FLOWED
from ..base.glyphs import visible
from ..base.plurals import counted
from ..game import standing
from ..render import reports
from ..render.documents import reader_words, side_name
from ..render.formats import render
from ..render.record_text import prose
from ..render.sections import Block, Document, Orders, Section, Span, para
from ..render.unbroken import bound, unbound
from ..store.players import roster
from ..store.sheets import SHEET_RULE
from .afterend import key_line
from .copies import this_is
from .pauselead import pause_lead

# A report mail tells at most FULL_MOST records in full, the last ones; those before them
# (thousands after `autoplay` or a long absence) are told in brief, a turn a line.
FULL_MOST = 50

# The lines of prose a reply names at most: the rest are counted.
MOST_NAMED = 10
NAMED_LENGTH = 60

# A mail's lines are at most WIDTH columns; a word of the sender's longer than LONGEST_WORD
# (a quote of a line with no space in it) is cut, with '…', so that it fits one.
WIDTH = 72
LONGEST_WORD = 60
_WORD = re.compile(r"\S+")
# What may close a quoted word, kept after the cut.
_CLOSING = "'\".,;:!?)"

HELD = ("your orders need dice, and this game's dice are rolled by hand: the moderator "
        "holds your message and applies it with the dice he rolls")


def named(lines: list[tuple[int, str]]) -> str:
    """Lines of a mail as a reply names them: "line 1 'Sorry…', line 9 'Hans'", each clipped
    and quoted, MOST_NAMED of them at most and the rest counted."""
    said = ", ".join(f"line {n} {quoted(t, NAMED_LENGTH)}" for n, t in lines[:MOST_NAMED])
    more = len(lines) - MOST_NAMED
    return said + (f", and {more} more line{'s' * (more > 1)}" if more > 0 else "")


def not_read(prose: list[tuple[int, str]]) -> list[str]:
    """The note naming a mail's lines that were not read as orders (message.prose_apart),
    numbered as the orders are (prose.read_orders; 0: above the orders): none when there
    are none."""
    if not prose:
        return []
    above = [t for n, t in prose if n == 0]
    below = [(n, t) for n, t in prose if n]
    said = [f"above your orders {named_texts(above)}"] * bool(above) + [named(below)] * \
        bool(below)
    return [f"Not read as orders (neither applied nor refused): {', '.join(said)}."]


def named_texts(texts: list[str]) -> str:
    """Lines quoted without a number: "'Sorry…', 'Hi'", MOST_NAMED at most."""
    more = len(texts) - MOST_NAMED
    return ", ".join(quoted(t, NAMED_LENGTH) for t in texts[:MOST_NAMED]) + (
        f", and {more} more line{'s' * (more > 1)}" if more > 0 else "")


def under_signature(lines: list[tuple[int, str]]) -> list[str]:
    """The note naming lines below the signature delimiter ('-- ') that read as orders: the
    referee reads nothing there (none when there are none)."""
    return [f"Below your signature ('-- '), not read: {named(lines)}; an order there counts "
            f"only when sent above it."] if lines else []


def quoted_out(lines: list[tuple[int, str]]) -> list[str]:
    """The note naming a mail's quoted lines ('> pass') that read as orders without their
    '>', when it has no order read (none when there are none)."""
    return [f"Quoted with '>', so not read: {named(lines)}; send your orders without "
            f"the '>'."] if lines else []


def left_over(lines: list[tuple[int, str]], at: int, to: str | None) -> str:
    """What a mail's order lines from index at on were not applied for: the decision had
    passed to the other side (to, named as a person reads it), or the game was over, after
    the line before them."""
    n, text = lines[at - 1]
    after = (f"the decision had passed to {reader_words(to)}" if to is not None
             else "the game was over") + \
        f" after line {n} ({quoted(text, NAMED_LENGTH)})"
    return (f"not applied: {named(lines[at:])}: {after}; send them again when you are asked"
            if to is not None else f"not applied: {named(lines[at:])}: {after}")


def applied_note(applied: list[tuple[int, str]]) -> str:
    """The orders of a mail that were applied, each with the record it made (seq, text),
    MOST_NAMED at most: told above what of it was not, so that the reply's first line does
    not read as a refusal of the whole mail."""
    shown = [f"{_record_quoted(text)} (#{seq})" for seq, text in applied[:MOST_NAMED]]
    more = len(applied) - MOST_NAMED
    return "Applied from your mail: " + ", ".join(shown) + (f" and {more} more"
                                                             if more > 0 else "")


# The most orders of one record (a sealed plan's, one a line) a note quotes.
ORDERS_QUOTED = 3


def _record_quoted(text: str) -> str:
    """A record's order as its sender wrote it: a sealed plan's orders (one a line) each
    quoted, joined with '; ', ORDERS_QUOTED at most (then how many more)."""
    lines = text.split("\n")
    shown = "; ".join(quoted(line, NAMED_LENGTH) for line in lines[:ORDERS_QUOTED])
    more = len(lines) - ORDERS_QUOTED
    return shown + (f" and {counted(more, 'more order')}" if more > 0 else "")


def _notes(out) -> list:
    return [para(clip_words(note)) for note in getattr(out, "notes", None) or []]


def clip_words(text: str, longest: int = LONGEST_WORD) -> str:
    """text with each word longer than longest cut to fit it, marked '…' (the quote or stop
    that closed it kept): what a sender wrote without a space still fits a mail's line."""
    def cut(m: re.Match) -> str:
        word = m.group()
        if len(word) <= longest:
            return word
        tail = word[len(word.rstrip(_CLOSING)):][-3:]
        return word[:longest - 1 - len(tail)] + "…" + tail
    return _WORD.sub(cut, text)


def quoted_line(text: str, width: int = WIDTH) -> list[str]:
    """A refused line as its reply quotes it (an Orders block, indented two columns), every
    character that hides shown as its escape, as the mail shows it (base/glyphs.py): whole
    when it fits width, else wrapped at its spaces (but inside a group unbroken.py keeps
    whole), each part within width, a word too long for one cut (clip_words)."""
    room = width - 2 - FLOWED.get()     # a mail stuffs a line begun by a space: a column
    text = visible(text)        # measured as the mail shows it: a control as its escape
    if len(text) <= room:
        return [text]
    return [unbound(part) for part in textwrap.wrap(
        bound(clip_words(clipped(text), room - 2), room - 2), room, subsequent_indent="  ",
        break_long_words=False, break_on_hyphens=False)] or [""]



def refusal_document(out, report: bool = True) -> Document:
    """The part of the reply that says why a message was not applied (out: outcome.Outcome);
    report: the player's report follows it in the same mail. What the sender wrote is cut
    to fit the mail's lines (clip_words, quoted_line). What follows is told by the game's
    halt as the reply is written (out.halted), as the report below shows the game, never
    by the reason's words: they may quote the sender's."""
    below = _below(out, report)
    if getattr(out, "copied", None) is not None:      # applied once already: no refusal
        return Document("", [Section("", [para(this_is(out.reason)), *_notes(out),
                                          *([para(below.strip())] if report else [])])])
    if out.line is None:
        held = out.status == "held"
        # The next paragraph says nothing was applied: the reason need not say it too.
        why = HELD if held else clip_words(out.reason).removesuffix("; nothing was applied")
        blocks = [para(Span("Your message was not applied" + " yet" * held + ": ", "bold"),
                       sentence(why)), *_notes(out)]
        if not held:
            blocks.append(para(Span("Applied: ", "bold"), "nothing." + below))
        return Document("", [Section("", blocks)])
    before = ("nothing." if not out.before else
              "nothing, not even the lines before it: the orders of one message are applied "
              "all or none. " + send_again(out.why))
    blocks = [
        para(Span("Your message was not applied: ", "bold"), f"{_failed(out)} failed."),
        *line_refused(out.text, out.why),
        para(Span("Applied: ", "bold"), before),
        *_notes(out),
        *([para(below.strip())] if report else []),
    ]
    return Document("", [Section("", blocks)])


def _failed(out) -> str:
    """Which line failed, counted among the lines read as orders ('line 2 of your orders'),
    as the mail's handling numbers them (prose.as_counted; a standing order's line counts,
    as the player sees it): the mail's own numbering counts the quoted mail below a reply
    too, a number no phone shows."""
    return f"line {out.line} of your orders"


# The first words of why a line after one that rolls dice or draws a card is refused
# (why_refused), and where the refusal of a line for its missing link cites the dice sheets
# (store/sheets.py sheet_why).
AFTER_UNKNOWN = "it comes after line "
SHEET_CITED = f"({SHEET_RULE})"


def send_again(why: str) -> str:
    """What to send again after a line refused with lines before it, by why it was: the
    line itself wrong (mend it), a line that comes after a die or a card drawn (drop it and
    those after it, for a later mail), or a line whose dice need the sheet's link (the same
    lines, with it)."""
    if why.startswith(AFTER_UNKNOWN):
        return ("Send them again without this line and those after it; send those once you "
                "have read the result.")
    if why.endswith(SHEET_CITED):
        return "Send them again as they are, with a line 'Link: LINK' giving the link due."
    return "Send them again with this line corrected."


def _below(out, report: bool) -> str:
    """What the reply says follows its refusal, by the game's halt as it is written (a
    space first; '' with no report)."""
    halted = getattr(out, "halted", "")
    return (" What you will be asked once the game resumes is below."
            if halted == "paused" else         # orders, or more time ('extend: ...')
            " The game as it was closed is below; nothing more is asked of you."
            if halted == "closed" else
            " The game as it ended is below; nothing more is asked of you."
            if halted == "over" else
            " Below: what you are asked now, then your report.") * report


def line_refused(text: str, why: str) -> list[Block]:
    """The line of a mail that was refused, quoted on a line of its own (quoted_line), and
    why: as every reply that refuses a line gives them, a campaign's or a skirmish's."""
    return [para("The line:"), Orders(quoted_line(text)),
            para(Span("Why: ", "bold"), sentence(clip_words(why)))]


# The first words of the answer to a mail of a game that takes its orders all or none by
# itself (mail/direct.py, the skirmish's): they say it is about the reader's own mail.
RECORDED = "Your mail was recorded"
NOT_RECORDED = "Nothing of your mail was recorded"


def nothing_recorded(text: str, why: str) -> str:
    """The answer to a mail of a game that takes its orders all or none by itself (mail/
    direct.py, the skirmish's) when one of its lines was refused, as mail text."""
    blocks = [para(f"{NOT_RECORDED}: a line of it was refused before any die was rolled, "
                   f"and until then the orders of one mail are taken all or none."),
              *line_refused(text, why)]
    return render(Document("", [Section("", blocks)]), "text", WIDTH).strip("\n")


def recorded_in_part(records: list[int], text: str, why: str,
                     left: list[tuple[int, str]]) -> str:
    """The answer to such a mail when a line was refused after the lines before it had
    rolled dice (table/skirmish/life.py submit_many): those stand; it and the lines after
    it were not taken."""
    done = ", ".join(f"#{n}" for n in records)
    blocks = [para(f"{RECORDED} up to a line that was refused: {done}. The lines before it "
                   f"had rolled their dice, so they stand; it and the lines after it were "
                   f"not taken. Read the results below, then send what you still order."),
              *line_refused(text, why)]
    if left:
        blocks.append(para(f"Not taken: {named(left)}."))
    return render(Document("", [Section("", blocks)]), "text", WIDTH).strip("\n")


def sentence(text: str) -> str:
    """Text ended as a sentence: with a full stop, unless it ends with one, or asks."""
    text = text.rstrip(".")
    return text if text.endswith(("?", "!")) else text + "."


def refusal_text(out, width: int = 72, report: bool = True) -> str:
    """refusal_document as mail text, wrapped at width (an order line alone may be longer);
    for a line refused after legal ones that rolled no die, the orders that were open at it
    (out.open_at, mail/ordersopen.py) follow the refusal, above what follows it."""
    listed = getattr(out, "open_at", "")
    if not listed or out.line is None or getattr(out, "copied", None) is not None:
        return render(refusal_document(out, report), "text", width).strip("\n")
    below = _below(out, report).strip()
    return render(refusal_document(out, False), "text", width).strip("\n") + "\n\n" + \
        listed + ("\n\n" + render(Document("", [Section("", [para(below)])]), "text",
                                   width).strip("\n") if below else "")


def why_refused(exc: OrderError, lines: list[tuple[int, str]], texts: list[str]) -> str:
    """Why an order line was refused, in the sender's terms (his line numbers, no option of
    the command line), ending with '(rule R)' where a rule forbids it."""
    follows = getattr(exc, "follows", None)
    if follows is not None:
        by, what = follows
        return (f"{AFTER_UNKNOWN}{by + 1} of your orders ({quoted(texts[by])}), which "
                f"{what}: "
                f"the orders of one mail end at such an order, whose result is not known "
                f"when the mail is written; send the orders after it once you have read "
                f"the result")
    unread = getattr(exc, "unread", None)   # a remark is told as one, not as an answer
    if unread is not None and _remark_hint(unread):
        exc = unread
    return clip_words(unquoted(exc, "it cannot be read")) + _remark_hint(exc)


def unquoted(exc: OrderError, unread: str) -> str:
    """What an order's rejection says without quoting the order again (its reply or note
    quotes the line already): an illegal order's reason and rule; for one that cannot be
    read, `unread` and where and why not."""
    said, text = str(exc), quoted(getattr(exc, "text", ""))
    for head, instead in ((f"order {text} rejected: ", ""),
                          (f"cannot read order {text}", unread), (f"order {text}: ", "")):
        if said.startswith(head):
            return instead + said[len(head):]
    return said


def _remark_hint(exc: OrderError) -> str:
    """For a line read as an order up to words it has no place for, plain words (no unit
    or card id among them), that ends as a sentence does ('Done with the battle.', not
    'move ge-1 lige.' nor 'pass ge-1 liege.'): that is why it was read as an order, and how
    a remark is not."""
    if not isinstance(exc, OrderSyntaxError) or not exc.position or \
            not exc.reason.startswith("unexpected ") or \
            not exc.text.rstrip().endswith((".", "!")):
        return ""
    rest = exc.reason.removeprefix("unexpected ").split()
    if len(rest) < 2 or any(c.isdigit() or c in "-_:" for word in rest for c in word):
        return ""
    word = exc.text.split(maxsplit=1)[0]      # there is one: the order was read up to it
    return (f" (a line that begins with an order's word, {quoted(word)}, is read as an "
            f"order; begin a remark with another word)")


# The sections of a report that only repeat the last one when nothing has happened since.
UNCHANGED = ("Victory points", "Board")


def report_body(table, side: str, since: int, key: str, due: str | None = None,
                notes: list[str] = (), map_note: str = "", held: bool = False,
                refused: bool = False) -> str:
    """A player's report as mail text (table: the game's Table): what of his messages was
    not applied (notes), what is asked of him now (lead_lines), the report, his deadline
    when he owes orders (`due`, reminders.py), where his last map is when this mail has none
    (`map_note`, pictures.py), his order key, the receipt last (its one line, or two for a
    long game id). The views the report shows are not kept: the journal moves on with the
    next message. held: his mailed orders wait for the moderator's dice (holds.py), so his
    decision is told without the orders open to him, and `due` says why. refused: the mail
    is the reply to a message not applied, whose head tells why (a pause among them), so a
    pause or resume since his last mail does not open it (pauselead.py)."""
    joined = newcomer(table.records, side, since)
    if joined is not None:          # a new reader: the story from its start, and why
        since, notes = 0, [_newcomer_note(table, side, joined, held), *notes]
    doc, meta = table.report(side, since, keep_views=False, held=held, full_most=FULL_MOST,
                             phone=True)
    if joined is None and since >= table.records[-1]["seq"]:
        # Nothing happened since his last report (a mail refused): the board and the score
        # he has; what is asked of him now is all the report tells.
        doc.sections[:] = [s for s in doc.sections if s.title not in UNCHANGED]
    # Under a refusal, whose head says the game is paused (none of his orders is taken),
    # the pause is not told again.
    paused = "" if refused else pause_lead(table, side, since, due, doc)
    told = _time_told(due, notes)
    lead = lead_lines(doc, None if told else due)
    if lead and doc.sections[0].title in reports.NOW_TITLES:    # laid out for a phone: the
        del doc.sections[0].blocks[0]       # lead says what is asked, just above the title
        due = due if told or not due else _after_first_sentence(due)
    text = reports.render_report(doc, meta, "text", mail=True)
    report, receipt = split_receipt(text)
    head = render(Document("", [Section("", [para(n) for n in notes])]), "text", 72).strip(
        "\n") + "\n\n" if notes else ""
    # What of his mail was not applied, then what is asked of him now and by when, above the
    # report's title: a mail's first lines say what it answers and wants of him (its subject
    # names only the game, the reader and the season: subjects.py, and every report of a
    # season has the same title).
    title, _, rest = report.rstrip().partition("\n\n")
    return head + paused + lead + title + "\n\n" + rest + \
        (f"\n\n{due}" if due else "") + (f"\n\n{prose(map_note)}" if map_note else "") + \
        f"\n\n{key_line(table, side, key)}{receipt}\n"


def split_receipt(text: str) -> tuple[str, str]:
    """A report as text (render_report) and the receipt that ends it (game/receipts.py),
    apart: what is put between them (the deadline, where the last map is, the order key)
    goes above the receipt, which stays the mail's last lines."""
    report, _, receipt = text.rstrip("\n").rpartition("\n\n")
    return report, receipt


def standing_now(table, side: str) -> str:
    """Side's standing orders in force now, as his reply names them (his own: only his
    report may carry them, never the opponent's)."""
    sets = standing.load(table.path, table.records[0]["hash"], table.raw)
    mine = standing.current(sets, side, table.game().state.turn)
    return ", ".join(e["text"] for e in mine) or "none"


def _newcomer_note(table, side: str, joined: int, held: bool) -> str:
    """What the first mail to a side's new address says first: that he plays the side now,
    from its start, and what the one before left standing for it (its standing orders, the
    orders mailed before that wait for the moderator's dice)."""
    standing_orders = standing_now(table, side)
    return (f"You now play the {side_name(side)} side: the moderator registered this address "
            f"for it at record #{joined}, in place of the one before. This report tells the "
            f"game from its start." +
            ("" if standing_orders == "none" else
             f" The side's standing orders in force: {standing_orders}.") +
            (" The orders the report calls yours, held for the moderator's dice, were mailed "
             "from the address before; they stand as the side's." if held else ""))


def newcomer(records: list[dict], side: str, since: int) -> int | None:
    """The record that registered the side's address in place of the one its last mail went
    to (since: the record that mail ended at), whose reader may have seen nothing of the
    game; None when the address is the one mailed before (its letters' case aside)."""
    before = roster(records[:since + 1]).get(side, {}).get("address") if since > 0 else None
    now = roster(records).get(side, {}).get("address")
    if before is None or now is None or address_key(now) == address_key(before):
        return None             # the same mailbox, even if set away and back meanwhile
    joined, was = None, address_key(before)
    for rec in records[since + 1:]:             # the last change of address, to this one
        address = roster([rec]).get(side, {}).get("address")
        if address is not None and address_key(address) != was:
            joined, was = rec["seq"], address_key(address)
    return joined


def lead_lines(doc: Document, due: str | None = None) -> str:
    """A report mail's first lines, a blank line after them (render/reports.report_lead): what
    is asked of its reader now, then the first sentence of his deadline line when he owes
    orders (reminders.deadline_lines: when they are due, or that they are held or late)."""
    lead = reports.report_lead(doc)
    if not lead:
        return ""
    when = _first_sentence(due) if due else ""
    return lead + (f"\n{prose(when)}" if when else "") + "\n\n"


def _time_told(due: str | None, notes: list[str]) -> bool:
    """Whether the notes heading the mail already give the time its deadline line gives (an
    extension granted: 'your orders are now due by ...'), so the lead does not again."""
    time = _first_sentence(due).rstrip(".").partition(" due by ")[2] if due else ""
    return bool(time) and any(time in " ".join(n.split()) for n in notes)


def _after_first_sentence(text: str) -> str:
    """A deadline line without the first sentence the lead gives (its lines joined): what
    else it says (an extension's words), or nothing."""
    words = " ".join(text.split())
    return prose(words[len(_first_sentence(text)):].strip())


def _first_sentence(text: str) -> str:
    """A deadline line's first sentence, its lines joined (its times have no full stop)."""
    words = " ".join(text.split())
    end = words.find(". ")
    return words if end < 0 else words[:end + 1]


