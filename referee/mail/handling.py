"""One message from a registered player with his key: read, checked and applied all or
nothing, or refused with why (stale, held for dice, a line that fails)."""

from __future__ import annotations

from ..base.errors import OrderError, clipped, quoted
from ..base.plurals import upper_first
from ..engine.order_text import format_order
from ..game.batch import AlreadyApplied
from ..game.forced import closer, rule_of
from ..game.suggest import amend
from ..game.timeline import NoOrdersTaken, taking_orders
from ..store.sheets import SHEET, in_mail_terms, sheet_why, sheets_in, steps_down
from ..table import Table
from . import message as mailtext
from .afterend import ended_reason
from .answered import stale_reply
from .appliedas import applied_again
from .attached import attachment_note
from .closedby import closed_for
from .holds import decision_of
from .lapsedanswer import lapsed_answer
from .mailboxes import Message
from .mailcodes import order_code, refuse
from .msgids import Answered
from .ordersopen import orders_open_at
from .prose import as_counted, read_orders
from .queries import EXPLAIN_LINE, asks, explain_by_mail
from .refusal import (
    NAMED_LENGTH,
    applied_note,
    left_over,
    sentence,
    standing_now,
    unquoted,
    why_refused,
)
from .reminders import EXTEND_LINE, extend_by_mail
from .standing_lines import STANDING_LINE, keep_standing_only, standing_change
from .standinganswer import answered_note, given_at, own_answer
from .waiting import held_orders

# The lines of a mail that are the mail's own, not orders of the game: read wherever they
# stand, and never taken for prose (nor a slip of their first word: 'standng:', 'extnd').
MAIL_HEADS = (STANDING_LINE, EXTEND_LINE, EXPLAIN_LINE, mailtext.SHEET_LINE)
MAIL_WORDS = ("standing", "extend", "explain")
# The most decisions closed for the sides after one mail (each is a step of play: the game
# moves on long before this).
MOST_CLOSED = 32
# The further lines a reply names as unreadable, beside the one that stopped the mail.
MOST_UNREADABLE = 5


def handle(table: Table, m: Message, side: str, key: str, answered: Answered | None, out,
           manual: bool) -> None:
    """Check one message from a registered player with his key, then apply it or not (its
    result in out, an outcome.Outcome); answered: the record the mail it replies to ended
    at (answered.py), or None."""
    read = _read(table, m, key, out)
    if read is not None and asks(read[0]):      # a question (queries.py), unless it ended
        _taking_none(table, side, False, out) or explain_by_mail(table, *read, out)
    elif read is not None:
        _handle(table, m, side, answered, out, manual, read)
    if read is not None and read[1] is not None and out.status in ("rejected", "stale"):
        out.notes += link_shown(table, side, read[1])
    out.notes += attachment_note(m.msg)     # whatever else its answer says


def link_shown(table: Table, side: str, link: str) -> list[str]:
    """What a player whose mail was not applied must know of the link it gave, when that
    is a later link of his sheet (store/sheets.py): nothing recorded it, but the moderator,
    who holds the secret, has read it, so his next mail carries the link after it (his
    report still names the one due, which the referee takes too, and then the moderator
    could know its dice before that mail comes)."""
    pos = sheets_in(table.raw).get(side)
    ahead = steps_down(link.strip().lower(), pos.value) if pos is not None else None
    if ahead is None:
        return []
    shown = pos.no + ahead
    return [f"Your dice sheet: this mail showed link {shown} (line {shown + 1} of the sheet "
            f"file) to the moderator, though nothing used it: give link {shown + 1} (line "
            f"{shown + 2}) with your next orders that roll dice, not link {shown} again, "
            f"so that nobody knows their dice before you send them. Your reports still "
            f"name link {pos.due()} as due, the first one not yet used: a later one is "
            f"taken, so skip to link {shown + 1} all the same."]


def _handle(table: Table, m: Message, side: str, answered: Answered | None, out,
            manual: bool, read: tuple) -> None:
    """handle, once the message is read: its order lines, link and tip."""
    lines, link, tip = read
    if any(EXTEND_LINE.match(t) for _, t in lines):         # more time asked (reminders.py)
        out.status, out.reason, out.records, out.notes = extend_by_mail(
            table, side, lines, {"message_id": m.message_id or "(none)", "sha256": m.sha256,
                                   "body_sha256": m.body_sha256,
                                   "content_sha256": m.content_sha256})
        out.code = "extend_refused" if out.status == "rejected" else None
        return
    standing_lines = [(n, t) for n, t in lines if STANDING_LINE.match(t)]
    lines = [(n, t) for n, t in lines if not STANDING_LINE.match(t)]
    if not lines and not standing_lines and tip is None:
        return refuse(out, "rejected", "no_orders", "no orders found in the message")
    makes_records = bool(lines) or tip is not None or link is not None
    texts = [t for _, t in lines]
    if _taking_none(table, side, makes_records, out):
        return
    late = stale(table, answered, side)
    if late is not None:
        # The same lines his later mail applied: told so, not that his decision changed.
        out.status = out.code = "stale"
        out.reason = applied_again(table.records, answered, side, texts,
                                   lambda seq: table.kind.step_at(table, seq)) or late
        out.notes[:0] = [said] if (said := closed_for(table, answered, side)) else []
        out.notes += [gone] if (gone := lapsed_answer(table, side, lines)) else []
        return
    if manual and texts and _held(table, m, side, texts, out):
        return
    change = None
    if standing_lines:
        try:
            if not makes_records:
                mine = keep_standing_only(table, side, standing_lines, m.sha256)
            else:
                change = standing_change(table, side, standing_lines)
        except OrderError as exc:
            return refuse(out, "rejected", order_code(exc), f"{exc}; nothing was applied")
        if not makes_records:
            now = ", ".join(e["text"] for e in mine) or "none"
            out.status, out.reason = "applied", f"standing orders now: {now}"
            out.notes.append(f"Your standing orders are now: {now}.")
            return
    try:
        # In a manual-dice game the reply says whether the orders were held for dice; the
        # other side's standing orders would change that, so they wait for his own record.
        # The standing lines are kept with the records, under the journal's lock, or not at
        # all (all or nothing).
        result = table.submit(side, texts, atomic=True,
                              mail={"message_id": m.message_id or "(none)", "sha256": m.sha256,
                                "body_sha256": m.body_sha256,
                                    "content_sha256": m.content_sha256},
                              others_standing=not manual, handoff_ends=True,
                              standing_change=change, link=link, sheet=tip)
    except AlreadyApplied:
        out.status, out.reason = "known", "already in the journal (another inbox run)"
        return
    except OrderError as exc:
        refuse(out, "rejected", order_code(exc), in_mail_terms(str(exc)))
        if getattr(exc, "order", None) is not None:     # a line's dice or plan, no link
            _line_refused(out, lines, exc.order, sheet_why(exc.bare))
        return
    if result.rejected is not None:
        i, text, exc = result.rejected
        out.status, out.code = "rejected", order_code(exc)
        out.line, out.text, out.before = lines[i][0], clipped(text), i
        out.why = why_refused(exc, lines, texts)
        out.reason = (f"line {lines[i][0]} ({quoted(text, NAMED_LENGTH)}): {out.why}; nothing "
                      f"was applied")
        out.notes += _unreadable_after(table, side, lines, i)
        if result.refused_at is not None:   # the orders before it legal, no die rolled
            out.open_at = orders_open_at(result.refused_at, table.game().data, side, i,
                                         text)
        return
    _applied(out, result, lines, standing_lines, table)
    if change is not None and result.applied:       # kept with the records (game/batch.py)
        out.notes.append(f"Your standing orders are now: {standing_now(table, side)}.")
    close_forced(table, out)


def _line_refused(out, lines: list[tuple[int, str]], i: int, why: str) -> None:
    """out names the mail's line i (of its order lines) as the one refused, and why."""
    out.line, out.text, out.before, out.why = lines[i][0], clipped(lines[i][1]), i, why
    out.reason = f"line {lines[i][0]} ({quoted(lines[i][1], NAMED_LENGTH)}): {why}; nothing " \
                 f"was applied"


def _taking_none(table: Table, side: str, makes_records: bool, out) -> bool:
    """Whether the game takes none of what the message asks (out says so): no orders once it
    is closed, over or paused, and no standing orders once it is closed or over (a paused
    game keeps them for when it resumes). Told before any line is read, and before whether
    the message answers an older mail: in such a game there is no later mail to answer.
    A game that ended says at which record and how, as the answer to a mail without his
    key does (afterend.py), not only that it is over."""
    try:
        taking_orders(table.game().state, table.raw)
    except NoOrdersTaken as exc:
        if makes_records or exc.halted != "paused":
            ended = ended_reason(table, side) if exc.halted == "over" else None
            out.status, out.reason = "rejected", \
                f"{ended} (rule {exc.rule})" if ended else str(exc)
            out.code = order_code(exc)
            return True
    return False


def _held(table: Table, m: Message, side: str, texts: list[str], out) -> bool:
    """Whether a manual-dice game's mailed orders need dice, tried in a dry run: then they
    are held for the moderator's (out says so). A game that takes no orders now (paused,
    closed, over) holds none: its refusal follows, in the player's words."""
    try:
        probe = table.submit(side, texts, dry_run=True)
    except NoOrdersTaken:
        return False
    if probe.stop_reason != "dice":
        return False
    out.status = "held"
    out.reason = ("the orders need dice in a manual-dice game: held for the moderator "
                  "(`referee order --dice`)")
    out.held = held_orders(table, side, texts, m.date, m.sha256)
    return True


def _unreadable_after(table: Table, side: str, lines: list[tuple[int, str]],
                      refused: int) -> list[str]:
    """The lines after the one refused that cannot be read as orders at all, each named
    (MOST_UNREADABLE at most), so that one reply lists every misspelling to mend: whether the
    others are legal waits on the orders before them, but a line that reads as no order
    reads as none whatever comes before it. Each says 'did you mean' as the line refused
    does, from what side may see."""
    out: list[str] = []
    game = table.game()
    # Numbered among his orders, as the line refused is (prose.as_counted).
    for n, text in lines[refused + 1:]:
        try:
            table.kind.parse(table, text)
        except OrderError as exc:
            said = unquoted(amend(exc, None, game.state, game.data, side), "")
            out.append(sentence(f"Line {n} ({quoted(text, NAMED_LENGTH)}) cannot be read "
                                f"either{said if said.startswith((' ', ':')) else ': ' + said}"))
            if len(out) == MOST_UNREADABLE:
                break
    return out


def close_forced(table: Table, out) -> None:
    """Close for the side now waited on each decision whose only order open closes it
    (game/forced.py), one record each, MOST_CLOSED at most; the records go into out. Not in
    a game of dice rolled by hand, nor for a side with a dice sheet: the dice his answer may
    roll are his to give, and a closing that failed for the other side's standing orders
    would tell him they exist."""
    for _ in range(MOST_CLOSED):
        game = table.game()
        st = game.state
        side = st.pending.side if st.pending is not None and st.phase != "over" else None
        order = closer(st, game.data, side)
        if order is None or game.header["dice"]["mode"] == "manual" or \
                side in sheets_in(table.raw):
            return
        text = format_order(order)
        try:
            result = table.submit(side, [text], atomic=True, closing=True)
        except OrderError:
            return
        if result.rejected is not None or not result.applied:
            return
        out.records += [a.record["seq"] for a in result.applied]
        said = f"closed for {side}: {text} ({rule_of(st)}), the only order open"
        out.reason = f"{out.reason}; {said}" if out.reason else said


# Orders given beside the decision asked, which leave it as it was: a dice sheet registered,
# an armistice proposed, withdrawn or refused (3.2; accepted, it ends the game, which the
# lead says).
ASIDE = frozenset({SHEET, "propose armistice", "withdraw armistice", "refuse armistice"})


def _applied(out, result, lines: list[tuple[int, str]],
             standing_lines: list[tuple[int, str]] = (), table: Table | None = None) -> None:
    """out for a message applied: its records, and what of it was not (told the moderator
    and, in the report that answers it, the player): a 'done' not needed, the orders after
    a hand-off (made by his own standing order, which the note names: standinganswer.py)."""
    out.status = "applied"
    out.records = [a.record["seq"] for a in result.applied]
    said = [f"line {lines[i][0]} ({quoted(t)}): {why}" for i, t, why in result.dropped]
    if result.left is not None:
        said.append(_left_note(out, result, lines, standing_lines, table))
    out.reason = "; ".join(said)
    out.notes = [upper_first(s) + "." for s in said] + out.notes
    applied = [(a.record["seq"], a.text) for a in result.applied]
    aside = all(" ".join(str(a.record.get("order", "")).lower().split()) in ASIDE
                for a in result.applied)
    if applied and (out.notes or aside):
        # Above what of it was not applied or read; or first, when it answered nothing he
        # was asked: the report below asks him the same again, so its lead cannot say it.
        out.notes.insert(0, applied_note(applied) + ".")


def _left_note(out, result, lines: list[tuple[int, str]],
               standing_lines: list[tuple[int, str]], table: Table | None) -> str:
    """Why a mail's lines after a hand-off were not applied: his own standing order that
    answered the decision they came to, when one did (standinganswer.py), else the
    hand-off after the line before them."""
    at, to = result.left
    answer = own_answer(result.applied[-1].record, out.side) \
        if to is not None and result.applied and out.side else None
    if answer is None:
        return left_over(lines, at, to)
    line = None
    if standing_lines and table is not None:
        game = table.game()
        line = given_at(answer[1], standing_lines, game.data, game.state.turn)
    return answered_note(lines, at, to, answer, line)


def _read(table: Table, m: Message, key: str, out) -> tuple | None:
    """The order lines of a message, and the link and tip of a dice sheet it gives
    (sheet_lines); its prose in out's notes. None when it cannot be read (out says why)."""
    try:
        body = mailtext.plain_body(m.msg)
    except (mailtext.MailError, RecursionError, LookupError, ValueError) as exc:
        refuse(out, "rejected", "cannot_read", f"the message cannot be read: {exc}")
        return None
    verbs = table.kind.verbs()
    read, out.notes = read_orders(body, key, verbs, MAIL_HEADS, MAIL_WORDS)
    lines, link, tip, problem = mailtext.sheet_lines(as_counted(read))
    if problem is not None:
        refuse(out, "rejected", "dice", f"{problem}; nothing was applied")
        return None
    return lines, link, tip


def stale(table: Table, answered: Answered | None, side: str) -> str | None:
    """Why a reply to an older mail (the one that ended at record answered; None: not
    known) is stale, or None (answered.stale_reply): once the writer's decision has
    changed since, or the record it names is another since the moderator set the journal
    back and play went on."""
    return stale_reply(answered, table.records, table.game().state.seq,
                       lambda seq: decision_of(table, seq, side) !=
                       decision_of(table, None, side),
                       lambda seq: table.kind.step_at(table, seq))
