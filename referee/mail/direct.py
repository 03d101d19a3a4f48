"""Mail read directly for a game whose kind takes it so (GameKind.mail "direct", the
skirmish's): each player's mail (his address and his order key) carries his orders, taken
by the kind (all or none until a die is rolled); each sender gets a reply with what was
recorded or the refusal (and, his key given, his report and key), and every player the
kind's report when the game moved past the last one he had. The replies are written once
every mail of the pass is taken, so that the report a reply carries is the board as the
pass left it, and its reader gets no report after it: one mail a pass, or one a mail he
sent (the last carrying the report). A reply to an older mail of
the referee's is refused as stale once what its sender is asked (the kind's decision) has
changed since, as a campaign's is. Nothing here knows a game: the kind answers."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

from ..base.addresses import address_key
from ..base.errors import OrderError, OrderSyntaxError, clipped
from ..base.gameids import other_game
from ..base.readers import MODERATOR
from ..render.reports import receipt_text
from ..store.journal import signed_only
from ..store.mailroute import referee_address
from ..table import Table
from . import message as mailtext
from .afterend import ended_reason
from .answered import answered_record, stale_reply
from .copies import refuse_copy, this_is
from .directquery import HEADS, WORDS, answer_head, asked
from .disputenotes import keep_note, note_of, open_notes
from .elsewhere import found_or_kept, written_anywhere
from .eml import plain_mail
from .ended import end_told
from .faulted import FAILED, TOLD_HIM, failed_on, set_aside_reason
from .keyed import keyed_side
from .keyelsewhere import direct_key_told
from .ledger import (
    copy_handled,
    fault,
    handled_before,
    load_ledger,
    mail_name,
    may_answer,
    note_handled,
    save_ledger,
)
from .ledger import game_lock as mail_lock
from .mailboxes import Mailboxes, Message, too_large_refusal
from .mailcodes import key_code, order_code, refuse, unmatched_code
from .msgids import record_of
from .named import write_once, written_id
from .noclock import no_deadlines
from .notmatched import KEY_HELP, NOT_YOURS, not_matched
from .observers import sent_mark, still_held
from .prose import read_orders
from .refusal import (
    FULL_MOST,
    NOT_RECORDED,
    RECORDED,
    nothing_recorded,
    prose,
    recorded_in_part,
    sentence,
    why_refused,
)
from .repeated import repeated_as
from .robots import AUTOMATIC, Roster, aside, automatic, set_aside
from .senders import OWN_MAIL, own_mail, typed_journal, unmatched
from .subjects import table_subject
from .threads import thread_of

NO_KEY = "the order key is missing or wrong"
NO_ORDERS = "no orders found in the message"
# Under a line refused for no order's word at its start: a note that names a figure reads
# as an order (a mangled word, prose.py), and one line says how a note is written.
NOTE_HINT = "To write a note, start its line with #: such a line is not read."
# Said in the answer to a mail of a player's that is not his last of the pass.
REPORT_LATER = "Your report and your order key follow in the answer to your later mail."
REPORT_ALONE_LATER = "Your report follows in the answer to your later mail."     # no key now


@dataclass
class Handled:
    where: str
    message_id: str
    sender: str
    # applied, refused, ignored, done (handled before), unreadable, skipped (the referee's
    # own), failed (set aside: faulted.py)
    status: str = ""
    side: str | None = None
    reason: str | None = None
    records: list[int] = field(default_factory=list)
    new: bool = True
    notes: list[str] = field(default_factory=list)     # the prose passed over, named
    text: str = ""                 # the order line refused, as the mail gave it
    why: str = ""                  # why it was refused, without quoting it again
    left: list[tuple[int, str]] = field(default_factory=list)  # after it: not taken
    keyed: bool = False            # it carried its side's order key: surely the player's
    robot: str = ""                # what makes it a machine's mail (robots.automatic)
    copied: int | None = None      # a copy of the mail applied as that record (copies.py)
    unmatched: str = ""            # a stranger's: the check it failed (senders.unmatched)
    said: list[str] = field(default_factory=list)   # its '#' lines: a note (disputenotes.py)
    explained: int | None = None   # the record its `explain N` asked for (directquery.py)
    code: str | None = None        # why not applied, a stable name (mailcodes.py)


def _side_of(m: Message, players: dict[str, str]) -> str | None:
    """The side whose registered address m comes from, matched as a campaign matches it
    (the sender as mailboxes.py reads it, by base/addresses.py's address_key: straße@ and
    strasse@, or kaiser@ and Kaiser@ with a Kelvin sign (U+212A) for K, are two, and a mail
    from one is no mail from the other)."""
    if not m.sender:
        return None
    return next((s for s, a in players.items() if address_key(a) == m.sender), None)


def _taken(table: Table, m: Message, players: dict, keys: dict, ledger: dict) -> Handled:
    """m handled (and recovered), or set aside as failed when an error no rule foresaw is
    its own (faulted.py: the journal untouched), as a campaign's message is."""
    out, done = Handled(m.where, m.message_id, m.sender), []
    exc = failed_on(table, m, lambda: done.append(_recovered(table, m, ledger, keys, _handle(
        table, m, players, keys, table.kind.mailed(table), out))))
    return done[0] if exc is None else Handled(m.where, m.message_id, m.sender, FAILED,
                                               out.side, set_aside_reason(out.side, exc),
                                               keyed=out.keyed)


def _handle(table: Table, m: Message, players: dict, keys: dict,
            seen: dict[str, tuple[set[str], dict[str, int]]], out: Handled) -> Handled:
    """One mail (out, as it goes): ignored (no player's), skipped (another game's), refused
    (no key, orders refused, a copy), answered (`explain N`: directquery.py), applied, or
    done (before)."""
    side = _side_of(m, players)
    if m.unreadable:            # gone or changed since the mailbox was read: read it again
        out.status, out.reason = "unreadable", m.problem
        return out
    if own_mail(m, list(players.values())):     # its report to the moderator, read back
        out.status, out.reason, out.code = "skipped", OWN_MAIL, "referee_mail"
        return out
    other = other_game(m.subject, table.records[0]["game_id"])
    if other is not None:       # another game's, in a mailbox they share: never answered
        out.status, out.reason, out.code = "skipped", f"for another game ({other})", "other_game"
        return out
    robot = automatic(m)
    if robot is not None:       # an automatic reply or a bounce: never read, never answered
        out.status, out.reason, out.robot = AUTOMATIC, aside(robot), robot
        return out
    if m.problem or not m.sender or not m.message_id:
        out.status, out.code = "ignored", "cannot_read" if m.problem else "no_sender"
        out.reason = m.problem or "no usable sender address or Message-ID: nothing to answer"
        return out
    if side is None:        # a stranger's: answered as a campaign answers it (notmatched.py)
        out.unmatched = unmatched(m, {s: {"address": a} for s, a in players.items()},
                                  table.records)
        out.status, out.code = "refused", unmatched_code(out.unmatched)
        out.reason = f"not from a registered player with his order key: {out.unmatched}"
        return out
    out.side = side
    try:
        body = mailtext.plain_body(m.msg)
    except (mailtext.MailError, RecursionError, LookupError, ValueError) as exc:
        return refuse(out, "refused", "cannot_read", f"the message cannot be read ({exc})")
    keyed = keyed_side(m.sender, m.raw, body, players, keys)
    if (ended := ended_reason(table, keyed or side)) is not None:     # key or no key
        out.side, out.keyed = keyed or side, keyed is not None
        out.status, out.reason, out.code = "refused", ended, "game_over"
        return out
    if keyed is None:
        return refuse(out, "refused", key_code(body), NO_KEY)
    side = out.side = keyed
    key = keys[side]
    out.keyed = True
    ids, contents = seen.get(side, (set(), {}))
    if m.message_id in ids:
        out.status, out.new = "done", False
        return out
    copied = next((contents[c] for c in m.contents() if c in contents), None)
    if copied is not None:
        refuse_copy(out, copied, m.date, status="refused")
        return out
    read, out.notes = read_orders(body, key, table.kind.verbs(), HEADS, WORDS)
    if asked(table, read, out):         # a question: answered, nothing recorded
        return out
    read, extend = no_deadlines(table, read, out.notes)     # no deadline to extend
    lines = [text for _, text in read]
    if not lines:               # a "thanks" above the report it quotes: nothing to record
        return refuse(out, "refused", *(extend or ("no_orders", NO_ORDERS)))
    if (late := _late(table, m, side, lines)) is not None:
        out.status, out.reason, out.code = "refused", late, "stale"
        return out
    try:
        taken = table.kind.take_mail(table, side, lines, m.message_id, m.content_sha256)
    except OrderError as exc:
        out.status, out.reason, out.code = "refused", str(exc), order_code(exc)
        text = getattr(exc, "text", None)
        if isinstance(text, str) and text in lines:     # a line refused, not the dice
            out.text, out.why = clipped(text), why_refused(exc, read, lines)
            if isinstance(exc, OrderSyntaxError) and exc.position == 0:    # no order's word
                out.notes.append(NOTE_HINT)
        return out
    out.status, out.records = "applied", [r["seq"] for r in taken.records]
    out.said = note_of(body)
    if taken.refused is not None:       # after dice were rolled: the lines before it stand
        _stopped(out, read, *taken.refused)
    return out


def _stopped(out: Handled, read: list[tuple[int, str]], at: int, exc: OrderError) -> None:
    """out told that its mail's line `at` was refused after the lines before it rolled
    their dice: those stand, it and the lines after it were not taken."""
    lines = [text for _, text in read]
    out.text, out.why = clipped(lines[at]), why_refused(exc, read, lines)
    out.left, out.reason = read[at + 1:], f"line {read[at][0]} refused: {exc}"


def _late(table: Table, m: Message, side: str, lines: list[str]) -> str | None:
    """Why m is not taken: a stale reply, or one repeating a mail of side's recorded since
    the mail both answer (repeated.py); the record it answers read once for both."""
    answered = answered_record(m.msg, m.sender, m.subject, table.records[0]["game_id"])
    return _stale(table, answered, side) or repeated_as(table.records, answered, side, lines)


def _stale(table: Table, answered, side: str) -> str | None:
    """Why a reply to an older mail of the referee's to side is stale (None: it is not, or
    it names none): answered, the record that mail was written at, is read from its
    Message-ID, which the reply names in In-Reply-To or References (answered.py: believed
    only when made for the sender's address), and the rule and its words are a campaign's
    (answered.stale_reply), with what side is asked as the kind says (its decision)."""
    return stale_reply(answered, table.records, table.records[-1]["seq"],
                       lambda seq: table.kind.decision(table, seq, side) !=
                       table.kind.decision(table, None, side),
                       lambda seq: table.kind.step_at(table, seq))


def _recovered(table: Table, m: Message, ledger: dict, keys: dict, out: Handled
               ) -> Handled:
    """A mail the journal holds whose answer the ledger does not know of (a run stopped
    between the two): answered now, with the records it made. Another copy of a message
    the ledger knows (its Message-ID; or, folded, its Message-ID and body) is passed over,
    whatever a relay did to its text (line ends, a footer, a tag in its subject)."""
    if out.status != "done" or out.side is None or m.message_id in ledger["ids"] or \
            copy_handled(ledger, m.message_id, m.body_sha256):
        return out
    out.records = [r["seq"] for r in table.records[1:]
                   if r.get("mail") == m.message_id and r.get("actor") == out.side]
    out.status, out.new = "applied", True
    # Its orders may have stopped at a line refused once dice were rolled: told again, as
    # the answer of the stopped run would have told it, not as if every line were taken.
    try:
        body = mailtext.plain_body(m.msg)
        read, _ = read_orders(body, keys[out.side], table.kind.verbs())
    except (mailtext.MailError, RecursionError, LookupError, ValueError):
        return out
    out.said = note_of(body)
    stop = table.kind.stopped_mail(table, out.side, [t for _, t in read], out.records)
    if stop is not None:
        _stopped(out, read, *stop)
    return out


def direct_inbox(table: Table, sources: list[Path], outbox: Path | None
                 ) -> tuple[list[Handled], list[Path]]:
    """Apply every new mail of the registered players, in date order, each once; then answer
    each once, and send every player whose last mail's answer did not carry it the report
    (into outbox: a run stopped half way answers on the next run what it had not), only for
    a journal this referee signed."""
    with signed_only():
        head = table.records[0]
        with mail_lock(head["game_id"], head["hash"]):
            ledger = load_ledger(head["game_id"], head["hash"])
            save_ledger(ledger)          # it can be kept, else nothing is applied
            return _direct_locked(table, sources, outbox, ledger)


def _direct_locked(table: Table, sources: list[Path], outbox: Path | None, ledger: dict
                   ) -> tuple[list[Handled], list[Path]]:
    players = table.kind.players(table)
    keys = table.kind.order_keys(table)
    done: list[Handled] = []
    written: list[Path] = []
    if outbox is not None:
        outbox.mkdir(parents=True, exist_ok=True)
    boxes = Mailboxes(sources)       # one message in memory at a time
    for m in boxes.survey():
        if m.oversize:
            done.append(_too_large(m, players, ledger, answering=outbox is not None))
            continue
        if m.sha256 and handled_before(ledger, m.sha256):
            done.append(Handled(m.where, m.message_id, m.sender, "done", new=False))
            continue
        h = _taken(table, boxes.load(m), players, keys, ledger)
        if h.unmatched:         # a side's key from another address: the moderator told once
            written += direct_key_told(table, h, m, players, keys, ledger, outbox)
        if h.robot:                 # a bounce of a player's mail tells the moderator
            h.reason = set_aside(table, m, h.robot, ledger, outbox, _roster(table, players))
        boxes.release(m)
        done.append(h)
        if h.status == "applied":       # a note beside a dispute, saved with its mark below
            keep_note(ledger, table, h.records, h.said)
        fault("direct applied")
        # Its answer is owed, kept in the ledger saved with the mail's mark below, and
        # written once the pass took every mail (_answers_due): a run stopped before writes
        # it on the next run, and the mail is never read as new again.
        due = outbox is not None and h.new and (
            _answered(ledger, h, players[h.side]) if h.side else
            bool(h.unmatched) and _stranger_answered(ledger, h))
        if due:
            ledger["answers_due"].append({**asdict(h), "digest": m.sha256})
        noted = m.sha256 and (h.side and h.status != "ignored" or h.status in (
            AUTOMATIC, "skipped", FAILED) or bool(h.unmatched))
        if noted:
            # Only a keyed mail speaks for its Message-ID: a keyless one under the same ID
            # would make a copy of the player's mail look new, and be answered again.
            note_handled(ledger, m.sha256, m.message_id if h.keyed else "", m.body_sha256,
                         h.status)
        if due or noted:
            save_ledger(ledger)
    if outbox is not None:
        written += _owed(table, outbox, players, ledger)
        written += _answers_due(table, outbox, players, keys, ledger)
        written += _reports(table, outbox, players, keys, ledger)
        save_ledger(ledger)
    return done, written


def _answers_due(table: Table, outbox: Path, players: dict, keys: dict, ledger: dict
                 ) -> list[Path]:
    """The answers owed to the mails the pass took (and to those of a run stopped before it
    wrote them), in the order they came: each side's last keyed one carrying his report as
    the journal stands now, after every mail of the pass, which leaves out the tests his
    answers listed; his earlier ones say that it follows. Each is written once by its name
    (a run stopped half way finds those it wrote), then the ledger forgets them."""
    owed = [h for h in map(_owed_answer, ledger["answers_due"]) if h is not None]
    out = [_stranger_answer(table, outbox, h, digest, players, ledger)
           for h, digest in owed if h.side is None and h.unmatched]
    due = [h for h in owed if h[0].side in players]
    last = {h.side: i for i, (h, _) in enumerate(due) if h.keyed}
    listed: dict[str, set[int]] = {}
    for h, _ in due:
        listed.setdefault(h.side, set()).update(h.records)
    for i, (h, digest) in enumerate(due):
        report = tuple(sorted(listed[h.side])) if last.get(h.side) == i else None
        out += _answer(table, outbox, h, players[h.side], digest, keys, ledger, report)
        fault("direct answered")
    ledger["answers_due"] = []
    return out


def _owed_answer(entry) -> tuple[Handled, str] | None:
    """An answer owed as the ledger keeps it (Handled's fields and the mail's digest): the
    mail as handled, and its digest; None for an entry this version cannot read."""
    if not isinstance(entry, dict) or not isinstance(entry.get("digest"), str):
        return None
    try:
        h = Handled(**{f.name: entry[f.name] for f in fields(Handled) if f.name in entry})
        h.left = [(int(n), str(text)) for n, text in h.left]
    except (TypeError, ValueError):
        return None
    return h, entry["digest"]


def _stranger_answered(ledger: dict, h: Handled) -> bool:
    """Whether a stranger's mail is answered: as a campaign answers one, once a day at most
    to its address and UNMATCHED_PER_DAY a day in all (ledger.may_answer: no backscatter);
    the reason says when it is not."""
    if may_answer(ledger, h.sender):
        return True
    h.reason += "; no reply: one a day at most to an address that is no player's"
    return False


def _stranger_answer(table: Table, outbox: Path, h: Handled, digest: str, players: dict,
                     ledger: dict) -> Path:
    """The answer to a stranger's mail, a campaign's (notmatched.py): which check it failed
    and that nothing was done, at the address it came from, naming no game (no tag, no
    thread, no record in its Message-ID)."""
    said = not_matched(table, {s: {"address": a} for s, a in players.items()}, ledger,
                       {"to": h.sender, "why": h.unmatched})
    return _write(table, outbox / f"{mail_name('direct stranger', digest)}.eml",
                  said["to"], said["subject"], said["body"], h.message_id, ledger,
                  game=False)[0]


def _roster(table: Table, players: dict[str, str]) -> Roster:
    """The game's players (and its moderator, under his name) as a bounce is read for them,
    the referee's own address, and what the moderator can do when a player's address
    refuses mail (the kind says: a kind without a roster to change keeps its addresses)."""
    fixed = "" if "roster" in table.kind.features else table.kind.name
    return Roster({s: {"address": a} for s, a in players.items()}, [],
                  referee_address(table.records), fixed,
                  lambda side: table.kind.by_hand(typed_journal(table.path), side))


def _too_large(m: Message, players: dict, ledger: dict, answering: bool) -> Handled:
    """A mail over the size limit, known by its header alone: a player's is refused and
    answered once, as tick answers it (the same reply under the same name: whichever reads
    it first answers), at his registered address within its daily quota, since no key can
    be read in it; a stranger's is ignored."""
    out = Handled(m.where, m.message_id, m.sender, code="too_large")
    out.side = _side_of(m, players)
    if out.side is None:
        out.status, out.reason = "ignored", m.problem
        return out
    if any(handled_before(ledger, d) for d in (m.sha256, *m.older_sha256)):
        out.status, out.new = "done", False
        return out
    robot = automatic(m)                # judged by its header block: never answered
    out.status, out.reason = ("refused", too_large_refusal(m.oversize)) if robot is None \
        else (AUTOMATIC, aside(robot))
    address = players[out.side]
    if answering and robot is None and may_answer(ledger, address, registered=True):
        ledger["owed"].append({"name": mail_name("too large", m.sha256, out.side),
                               "to": address, "side": out.side, "message_id": m.message_id,
                               "status": "rejected", "reason": out.reason})
    note_handled(ledger, m.sha256, "", "", "rejected" if robot is None else AUTOMATIC)
    save_ledger(ledger)
    return out


def _owed(table: Table, outbox: Path, players: dict, ledger: dict) -> list[Path]:
    """The answers a pass owes without having read the mail (tick: one too large to read),
    to the address the side registered (written once, under the name each was owed as). A
    pass owes one too large to read to the address alone (toolarge.py: no key was read):
    its side is the one registered there; the answer says only why, either way."""
    out = []
    for entry in ledger["owed"]:
        side = entry.get("side") or next((s for s, a in players.items() if address_key(a) ==
                                          address_key(str(entry.get("to", "")))), None)
        if side in players and isinstance(entry.get("name"), str):
            out += _write(table, outbox / f"{entry['name']}.eml", players[side],
                          table_subject(table, side),
                          prose(sentence(f"{NOT_RECORDED}: {entry['reason']}")),
                          entry.get("message_id"), ledger)
    ledger["owed"] = []
    return out


def _answered(ledger: dict, h: Handled, address: str) -> bool:
    """A mail without its side's key (or one that cannot be read for it) may be anyone's
    with a forged From: its refusals to that address are bounded by the day's quota (no
    backscatter); a keyed mail is answered."""
    return h.keyed or may_answer(ledger, address, registered=True)


def _answer(table: Table, outbox: Path, h: Handled, address: str, digest: str, keys: dict,
            ledger: dict, listed: tuple[int, ...] | None) -> list[Path]:
    """The answer to one mail: what it recorded, or why nothing was (written once); to a
    mail that carried its side's key (surely the player's), his last of the pass (listed:
    the records his answers list), then his report as the journal stands and his own order
    key, as a campaign's answer carries them: he reads the result and what he is asked now
    without waiting for another mail, and is sent no separate report of the same record
    (ledger "sent"); to an earlier one, that they follow."""
    # What became of the mail first (all its subject says is the game, the reader and the
    # turn: subjects.py), then the prose passed over, then the tests recorded.
    rest = ""
    if h.explained is not None:
        head = answer_head(table, h, listed is not None)
    elif h.status == "applied":
        head = recorded_in_part(h.records, h.text, h.why, h.left) + "\n" if h.text else \
            prose(f"{RECORDED}: " + ", ".join(f"#{n}" for n in h.records))
        rest = "\n".join(table.kind.recorded_lines(table, h.records))
    elif h.status == FAILED:        # no word of the error (faulted.py)
        head = prose(sentence(f"{NOT_RECORDED}: {TOLD_HIM}"))
    elif h.text:
        head = nothing_recorded(h.text, h.why)
    elif h.copied is not None:
        head = prose(this_is(h.reason))
    elif h.reason == NO_KEY:        # where his key is, and what to send: as a campaign's
        head = "\n\n".join(prose(x) for x in (f"{NOT_RECORDED}: {NO_KEY}.", KEY_HELP,
                                                NOT_YOURS)) + "\n"
    else:
        head = prose(sentence(f"{NOT_RECORDED}: {h.reason}"))
    body = head + "\n" + "".join(f"{prose(note)}\n" for note in h.notes) + rest
    name = mail_name("direct answer", digest or h.message_id)
    if h.keyed and h.side is not None and listed is None:
        later = REPORT_LATER if table.kind.key_serves(table, h.side) else REPORT_ALONE_LATER
        body = body.rstrip("\n") + "\n\n" + prose(later)
    elif h.keyed and h.side is not None:
        body = body.rstrip("\n") + "\n\n" + \
            _report_body(table, h.side, keys, ledger, listed)[1]
        _answered_to(table, outbox / f"{name}.eml", h, ledger, address)
    return _write(table, outbox / f"{name}.eml", address,
                  table_subject(table, h.side), body, h.message_id, ledger)


def _answered_to(table: Table, path: Path, h: Handled, ledger: dict, address: str) -> None:
    """The ledger's mark of the report an answer carries (observers.sent_mark): the journal
    now, but for an answer a run stopped before its ledger was saved wrote already (path in
    the outbox or its sent/), which stands: its report went as far as the record its
    Message-ID names (the journal's last then), else no further than the mail's own
    records, and a record since (the moderator's order) is left to the next report, never
    marked as sent."""
    there = written_anywhere(ledger, path, address, table.records[0]["game_id"],
                             table.records)
    if there is None:
        ledger["sent"][h.side] = sent_mark(table.records[-1])
        return
    told = record_of(written_id(there), address, table.records[0]["game_id"])
    upto = told.seq if told is not None and told.seq < len(table.records) and \
        told.is_of(table.records[told.seq]) else max(h.records, default=0)
    if (still_held(ledger["sent"].get(h.side), table.records) or 0) < upto < \
            len(table.records):
        ledger["sent"][h.side] = sent_mark(table.records[upto])


def _reports(table: Table, outbox: Path, players: dict, keys: dict, ledger: dict
             ) -> list[Path]:
    """Each player's report, when the journal has moved since the last one he was sent (the
    first: after `new`), with his own order key, which his reply quotes. The moderator's
    first one (his key, for his rulings), then one only when a dispute asks him anew."""
    last = table.records[-1]["seq"]
    out = []
    for side, address in players.items():
        since = still_held(ledger["sent"].get(side), table.records)
        if side == MODERATOR and since is not None and \
                (since == last or not _disputed_since(table, since)):
            out += _end_told(table, outbox, address, ledger, since == last)
            continue
        if since == last:
            continue
        subject, body = _report_body(table, side, keys, ledger)
        name = mail_name("direct report", side, str(last))
        out += _write(table, outbox / f"{name}.eml", address, subject, body, None, ledger)
        ledger["sent"][side] = sent_mark(table.records[-1])
    return out


def _end_told(table: Table, outbox: Path, address: str, ledger: dict, reported: bool
              ) -> list[Path]:
    """The moderator told once that the game is over, in the kind's words (how it ended, the
    commands left to him), named by the record that ended it: a game set back before it and
    ended again is told again; none while a dispute asks him (its mail says the end hangs on
    his ruling), nor when this pass's answer to his mail carried his report (reported),
    which says it: one mail a pass."""
    return end_told(table, lambda name, text, book: _write(
        table, outbox / name, address, table_subject(table, MODERATOR), text, None, book),
        ledger, reported)


def _disputed_since(table: Table, since: int) -> bool:
    """Whether a dispute the moderator is to settle was raised after record since (the kind's
    decision for him: the disputes open)."""
    now = set(table.kind.decision(table, None, MODERATOR))
    return bool(now - set(table.kind.decision(table, since, MODERATOR)))


def _report_body(table: Table, side: str, keys: dict, ledger: dict,
                 listed: tuple[int, ...] = ()) -> tuple[str, str]:
    """A player's report (subject, text): the subject the mail layer's (subjects.py), the
    text the kind's: the tests since the last report he was sent but those listed above it
    (an answer's records), at most FULL_MOST of them in full as a campaign's report mail
    (the earlier in brief), the forces whole; with his own order key (his side's only),
    which his reply quotes; then, as every report mail of a campaign's ends, the game's key
    and the receipt of the journal's last record, for his own records (player.md:
    Receipts)."""
    since = still_held(ledger["sent"].get(side), table.records)
    report = table.kind.mail_report(table, side, since, listed, full_most=FULL_MOST,
                                    notes=open_notes(ledger, table))
    subject = table_subject(table, side)
    key = f"Order key: {keys[side]}\n" \
        if side in keys and table.kind.key_serves(table, side) else ""
    return subject, f"{report}\n{key}" + receipt_text(table.records[0], table.records[-1]) \
        + "\n"


def _write(table: Table, path: Path, to: str, subject: str, body: str,
           in_reply_to: str | None, ledger: dict, game: bool = True) -> list[Path]:
    """One mail into the outbox, whole or not at all, under the name that makes it that mail
    (a run that stopped before its ledger was saved finds it there, or in the outbox's sent/
    once it went out, or in another outbox the ledger keeps, and writes no other); game:
    in the game's thread, its Message-ID naming the journal's last record (a stranger's
    answer names no game)."""
    game_id = table.records[0]["game_id"] if game else None
    records = table.records if game else None       # a report after a set-back is new
    if (there := found_or_kept(ledger, path.parent, path.stem, to, game_id, records)):
        return [there]
    msg = plain_mail(referee_address(table.records), to, subject, body,
                     in_reply_to, thread_of(game_id, to) if game_id else None, path.stem,
                     record=(game_id, table.records[-1]) if game_id else None)
    return [write_once(path.parent, path.stem, mailtext.mail_bytes(msg), to, game_id,
                       records=records)]
