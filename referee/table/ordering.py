"""The campaign kind's `order` and `log`: a side's batch taken through the Table and told
back (the records it made, then the side's status), and the records as each reader may
read them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from ..base.errors import UNREADABLE, JournalError, OrderError, order_kind, quoted
from ..base.plurals import counted
from ..base.readers import check_reader
from ..base.warned import warn
from ..contracts.results import OrderResult
from ..game.battlethread import Battles
from ..game.clockwalk import has_deadlines
from ..game.dues import deadline_view, timeline_of
from ..game.views import order_aids, status_view
from ..render.documents import reader_words, status_document
from ..render.formats import render
from ..render.record_text import record_lines, wrap_lines
from ..store.journal import redact
from .kinds import unplayable
from .statusshown import as_shown


def take_orders(table, side: str, texts: list[str], fmt: str, **how: Any
                ) -> tuple[Any, tuple[str, Exception] | None]:
    """Submit a side's orders (game/batch.py, through the Table): what to print (text, an
    OrderResult, or None) and the rejection (its line and the error), if any."""
    try:
        result = table.submit(side, texts, **how)
    except UNREADABLE as exc:       # raised deciding, under the lock: nothing was appended
        table.forget()              # the batch read newer bytes than the Table held
        raise unplayable(table.path, table.last_seq(), exc,
                         "cannot be played on") from None
    except OrderError as exc:       # the batch refused whole: a stale view, dice, a closed game
        if fmt != "json" or not texts:
            raise
        return _refused_whole(side, texts, exc, bool(how.get("dry_run"))), \
            (f"referee: {exc}", exc)
    atomic = bool(how.get("atomic"))
    if how.get("dry_run"):
        return _dry_run_report(side, result, fmt), _rejection(result, atomic, dry=True)
    view, aids, shown = _status_after(table, result, side)
    if fmt == "json":
        out = OrderResult.of(
            reader=side, applied=[{"order": a.text, "seq": a.record.get("seq"),
                      "events": redact(a.record, side)["events"]} for a in result.applied],
            rejected=_rejected(result), not_applied=_not_applied(result, texts, atomic),
            dropped=[{"index": i, "order": t, "why": why} for i, t, why in result.dropped],
            status=None if shown is None else as_shown(shown, table, side))
    else:
        battles = Battles.at(result.begun)      # a battle under way goes on in these records
        parts = ["\n".join(wrap_lines(record_lines(told(redact(a.record, side), battles),
                                                    result.data, side)))
                 for a in result.applied]
        parts += [f"order {i + 1} ({quoted(t)}): {why}" for i, t, why in result.dropped]
        if view is not None and result.rejected is None:
            parts.append(render(status_document(view, aids), "text"))
        out = "\n".join([reader_heading(side), *parts]) if parts else None
    return out, _rejection(result, atomic)


def reader_heading(side: str) -> str:
    """The first line of what `order` prints: whom it is for, before any of his secrets (a
    moderator entering a side's orders must not post that side's hand as the result)."""
    return f"For {reader_words(side)} only: his orders and his status, his own cards shown"


def _status_after(table, result, side: str) -> tuple[dict | None, Any, dict | None]:
    """The side's status after the batch (kept for the bytes written), its aids, and the
    view `status` makes of it (with the deadlines, when known; without the aids); None when
    the position cannot be shown: then the orders stand, a warning says why, and the exit
    code says they were applied."""
    state, data = result.state, result.data
    if state is None:
        return None, None, None
    try:
        view = status_view(state, data, side, dice=result.header["dice"]["mode"])
        aids = order_aids(state, data, side)
        shown = view if result.applied else _as_status_made(table, side)
    except UNREADABLE as exc:
        problem = unplayable(table.path, state.seq, exc, "cannot be shown")
        if not result.applied:
            raise problem from None
        warn(str(problem))
        return None, None, None
    if result.applied and result.raw is not None:
        kept = _as_status_shows(table, result, {**view, "_aids": aids})
        if kept is not None:
            table.keep_view(f"status:{side}", kept, result.bound)
            shown = {k: v for k, v in kept.items() if k != "_aids"}
    return view, aids, shown


def _as_status_made(table, side: str) -> dict:
    """The side's status as `status` makes it when the batch wrote nothing: the game as it
    stands, with its deadlines, from the view kept for the journal's bytes when there is
    one."""
    view = table.view(f"status:{side}", table.kind.status_view, table, side)
    return {k: v for k, v in view.items() if k != "_aids"}


def _as_status_shows(table, result, view: dict) -> dict | None:
    """The side's status view as `status` shows it after the batch: with the deadlines when
    the journal holds a record about time (None when they are not known: the batch's
    position was not walked, or an earlier record leaves them unreadable; `status` then
    works them out, or says what is wrong, while the records written stand)."""
    if result.walk is None:
        return None if has_deadlines(result.raw) else view
    last = result.applied[-1].record
    try:
        due = deadline_view(timeline_of(result.walk, result.state, result.data, last["seq"],
                                        last["hash"], table.name))
    except (JournalError, *UNREADABLE):
        return None
    return {**view, "deadlines": due}


def _refused_whole(side: str, texts: list[str], exc: OrderError, dry: bool) -> OrderResult:
    """The order-result of a batch refused before any order was decided: nothing applied,
    the first order rejected for the batch's reason, the others not applied (or, in a dry
    run, not checked); no status (the side reads it again: `referee status`)."""
    rejected = {"index": 0, "order": texts[0], "error": str(exc),
                "rule": getattr(exc, "rule", None), "kind": order_kind(exc)}
    if dry:
        return OrderResult.of(reader=side, dry_run=True, legal=[], stopped=None,
                              not_checked=texts[1:], rejected=rejected)
    return OrderResult.of(reader=side, applied=[], rejected=rejected, not_applied=texts[1:],
                          dropped=[], status=None)


def _not_applied(result, texts: list[str], atomic: bool) -> list[str]:
    """The orders of the batch not applied, besides the one rejected and those dropped: those
    after it, and with --atomic, which then applies none, those before it too."""
    if not atomic or result.rejected is None or result.applied:
        return result.not_applied
    dropped = {i for i, _, _ in result.dropped}
    before = [t for i, t in enumerate(texts[:result.rejected[0]]) if i not in dropped]
    return before + result.not_applied


def _rejected(result) -> dict | None:
    if result.rejected is None:
        return None
    i, text, exc = result.rejected
    return {"index": i, "order": text, "error": str(exc), "rule": getattr(exc, "rule", None),
            "kind": order_kind(exc)}


def _rejection(result, atomic: bool = False, dry: bool = False
               ) -> tuple[str, Exception] | None:
    """One line: what was rejected and why, and what happened to the rest of the batch;
    with the error it comes from."""
    if result.rejected is None:
        return None
    i, text, exc = result.rejected
    rejection = f"referee: {exc}"
    if atomic and i:
        rejection += f"; --atomic: none of the {i + 1 + len(result.not_applied)} orders " \
                     f"was applied"
    elif dry:
        rejection += f"; dry run: order {i + 1} is the first that would be rejected"
    elif result.applied:
        done = "order 1 was" if i == 1 else f"orders 1-{i} were"
        rejection += f"; {done} applied, order {i + 1} ({quoted(text)}) was rejected"
    if result.not_applied and not (atomic or dry):
        rejection += f"; not applied: {', '.join(map(quoted, result.not_applied))}"
    return rejection, exc


def _dry_run_report(side: str, result, fmt: str) -> Any:
    """What a dry run found: which orders are legal and where it stopped; nothing of what
    they would lead to (the other side's answers and the dice stay unseen)."""
    legal = [line for a in result.applied for line in a.text.split("\n")]   # plans: each order
    if fmt == "json":
        return OrderResult.of(reader=side, dry_run=True, legal=legal, stopped=result.stopped,
                              not_checked=result.not_applied, rejected=_rejected(result))
    lines = [f"dry run: {counted(len(legal), 'order')} legal so far; nothing was written"]
    lines += [f"  ok: {t}" for t in legal]
    if result.stopped:
        lines.append(f"stopped: {result.stopped}")
        if result.not_applied:
            lines.append("not checked: " + ", ".join(map(quoted, result.not_applied)))
    return "\n".join(lines)


def log_lines(table, reader: str, since: int, fmt: str, width: int) -> Iterator[str]:
    """The records from `since` as the reader may read them: each as text, or (fmt json)
    as one line of JSON redacted for him, which still verifies. Every record is checked
    first, so a damaged journal prints nothing but the record where it is damaged."""
    from ..game.audit import check_first  # start-up: only log needs it
    from ..game.clockwalk import zone_of  # start-up: only log needs it
    from ..game.forced import decision_rule  # start-up: only log needs it
    from ..game.records import header_of, record_of  # start-up: only log needs it
    from ..game.replay import Era, check_actor, data_for  # start-up: only log needs it
    from ..render.came import came_note  # start-up: only log needs it
    from ..render.incontext import in_context  # start-up: only log needs it
    from ..render.record_text import note_pending  # start-up: only log needs it
    from ..store.journal import scan  # start-up: only log needs it
    from ..store.rosternews import RosterNews  # start-up: only log needs it
    from .played import Played  # start-up: only log needs it

    raw, name, games_dir = table.raw, table.name, table.games_dir
    records = scan(raw, name)
    first = next(records)
    header_of(first, name)
    data = data_for(first, name, games_dir)      # the data it was played with
    era = Era(first, data, games_dir, name)
    upgraded: dict[int, object] = {}            # record -> the game data it moves on to
    last = first["seq"]
    for rec in records:
        typed = record_of(rec, name)
        check_actor(typed.actor, rec.get("seq"), era.data, name)
        last = rec["seq"]
        for ev in typed.events:
            if ev.type == "RulesUpgraded":
                era.switch(ev, rec["seq"])
                upgraded[rec["seq"]] = era.data
    check_reader(reader, data.sides)
    check_first(since, last)
    pending: dict[str, str] = {}
    battles = Battles()                 # a Surprise Attack! battle under way (9.7)
    roster = RosterNews()               # what each roster record changed, in words
    zone = zone_of(raw)                 # the game's time zone, its deadlines are told in
    game = Played(first, data, games_dir, name) if fmt != "json" else None
    for rec in scan(raw, name):         # a stream: memory stays flat
        data = upgraded.get(rec["seq"], data)
        news = roster.read(rec, data.side_name)
        before = game.apply(rec, rec["seq"] >= since) if game is not None else None
        if rec["seq"] < since:
            note_pending(rec, pending)
            battles.marked(rec.get("events", []))
            continue
        shown = redact(rec, reader)
        if fmt == "json":
            yield json.dumps(shown, sort_keys=True, separators=(",", ":"))
            continue
        # What each event did that the game before it holds, as a report tells it.
        shown = {**shown, "events": in_context(shown.get("events", []), before, data)}
        # How the order came, as the reader's report marks it; the referee's closing with
        # the rule of the decision it closed: the one its side was last asked (render/came.py).
        mark = came_note(shown, reader, decision_rule(pending.get(rec.get("actor", ""))))
        try:
            lines = wrap_lines(record_lines(told(shown, battles), data, reader, pending,
                                            first["dice"]["mode"] == "manual", zone, news,
                                            mark), width)
        except UNREADABLE as exc:
            raise JournalError(f"{name}: record {rec['seq']} cannot be shown: it names "
                               f"something the game data does not have ({exc})",
                               record=rec["seq"]) from None
        yield "\n".join(lines)


def told(shown: dict, battles: Battles) -> dict:
    """A record as the reader sees it, its fire phases marked as the battle under way has
    them (a Surprise Attack! battle's, 9.7: game/battlethread.py); the record left as it is."""
    return {**shown, "events": battles.marked(shown.get("events", []))}
