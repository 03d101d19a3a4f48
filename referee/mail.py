"""The mailbox: players' orders in (mbox, Maildir, .eml), each reader's report out (.eml).

The referee never sends mail. `inbox` reads what the moderator's mail
program saved, takes a message for a side only from the side's registered
address *and* with its order key, applies one message's orders all or
nothing (in Date order across the mailbox), keeps the message's Message-ID
and raw digest in the record for the moderator only, and writes every reply
into an outbox folder as `.eml` files (0600) for the user's own mail program.

Messages handled but not applied (rejected, skipped, stale, held) are kept
in a ledger signed like the snapshots, so running `inbox` again on the same
mailbox changes nothing; applied ones are known from the journal itself.
"""

from __future__ import annotations

import email.utils
import hashlib
import mailbox
import re
import secrets as _secrets
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.policy import default as default_policy
from pathlib import Path

from . import game as g
from . import home, mailtext, reports
from .dice import Dice
from .errors import OrderError, StorageError, UsageError
from .players import compact, order_key, parse_players, roster, roster_body
from .readers import MODERATOR

SUBJECT_TAG = re.compile(r"\[referee ([A-Za-z0-9._-]{1,200}) #(\d{1,9})\]")
MAX_MESSAGE = 1 << 20


# ---------------------------------------------------------------- players

def players(journal: Path, set_: list[str], new_keys: list[str], keys: bool,
            games_dir: Path | None = None) -> list[dict]:
    """The roster (after applying --set / --new-key as a new record), keys when asked."""
    game = g.open_game(journal, games_dir=games_dir)
    secret = g.load_secret(game.journal.path, game.header)
    current = roster(game.records)
    if set_ or new_keys:
        if secret is None:
            raise UsageError("the dice secret is needed to register players (order keys are "
                             "derived from it)")
        changes = parse_players(set_, game.data.sides)
        for side in new_keys:
            if side not in game.data.sides:
                raise UsageError(f"--new-key {side!r}: choose one of {', '.join(game.data.sides)}")
            if side not in current and side not in changes:
                raise UsageError(f"--new-key {side}: {side} has no registered address")

        def build(raw: bytes):
            pos = g.position(game.journal, raw, games_dir)
            dice = Dice(game.game_id, pos.seq + 1, secret)
            return pos.seq, pos.hash, [roster_body(secret, game.game_id, changes, current,
                                                   tuple(new_keys), dice)]

        _, written = game.journal.append_raw(build)
        current = roster(written)
    out = []
    for side, p in sorted(current.items()):
        entry = {"side": side, "address": p["address"]}
        if keys and side != MODERATOR:
            if secret is None:
                raise UsageError("the dice secret is needed to print the order keys")
            entry["key"] = order_key(secret, game.game_id, side, p.get("key_no", 0))
        out.append(entry)
    return out


# ---------------------------------------------------------------- reading a mailbox

@dataclass
class Message:
    """One message as read from the mailbox."""

    raw: bytes
    where: str
    msg: EmailMessage | None = None
    problem: str | None = None
    sha256: str = ""
    message_id: str = ""
    sender: str = ""
    subject: str = ""
    date: float = 0.0
    order: int = 0


def read_source(sources: list[Path]) -> list[Message]:
    """Every message of an mbox file, a Maildir or .eml files (StorageError when unreadable)."""
    out: list[Message] = []
    for src in sources:
        try:
            if src.is_dir():
                if not (src / "cur").is_dir() and not (src / "new").is_dir():
                    raise StorageError(f"{src}: a folder that is not a Maildir (no cur/ or new/)")
                box = mailbox.Maildir(str(src), factory=None, create=False)
                for k in sorted(box.keys()):
                    out.append(Message(box.get_bytes(k), f"{src}:{k}"))
            elif src.is_file():
                head = src.read_bytes()[:5]
                if head == b"From ":
                    box = mailbox.mbox(str(src), create=False)
                    for i, k in enumerate(box.keys()):
                        out.append(Message(box.get_bytes(k, from_=False), f"{src}#{i + 1}"))
                else:
                    out.append(Message(home.read_named(src, "a message", MAX_MESSAGE), str(src)))
            else:
                raise StorageError(f"{src}: no such mailbox or message file")
        except (OSError, mailbox.Error) as exc:
            raise StorageError(f"{src}: the mailbox cannot be read ({exc})") from None
    for i, m in enumerate(out):
        m.order = i
        m.sha256 = hashlib.sha256(m.raw).hexdigest()
        try:
            m.msg = mailtext.parse_message(m.raw, MAX_MESSAGE)
            m.message_id = str(m.msg.get("Message-ID", "") or "").strip()
            m.sender = email.utils.parseaddr(str(m.msg.get("From", "") or ""))[1].casefold()
            m.subject = str(m.msg.get("Subject", "") or "")
            when = m.msg.get("Date")
            m.date = email.utils.parsedate_to_datetime(str(when)).timestamp() if when else 0.0
        except (mailtext.MailError, ValueError, TypeError, IndexError) as exc:
            m.problem = str(exc)
    out.sort(key=lambda m: (m.date, m.order))
    return out


# ---------------------------------------------------------------- the ledger

def _ledger_path(game_id: str, journal: Path) -> Path:
    where = hashlib.sha256(str(journal.resolve()).encode()).hexdigest()[:16]
    tag = hashlib.sha256(game_id.encode()).hexdigest()[:16]
    return home.data_dir("ledgers") / f"{where}-{tag}.ledger"


def load_ledger(game_id: str, journal: Path) -> dict:
    """Messages handled but not applied, and mails sent: signed; anything else is empty."""
    data = home.read_signed(_ledger_path(game_id, journal))
    if not isinstance(data, dict) or data.get("game_id") != game_id:
        return {"game_id": game_id, "handled": {}, "ids": {}, "sent": {}}
    for part in ("handled", "ids", "sent"):
        if not isinstance(data.get(part), dict):
            data[part] = {}
    return data


def save_ledger(journal: Path, ledger: dict) -> None:
    """Keep the ledger (signed by this user's key)."""
    home.write_signed(_ledger_path(ledger["game_id"], journal), ledger)


# ---------------------------------------------------------------- inbox

@dataclass
class Outcome:
    """What happened to one message."""

    where: str
    message_id: str
    sender: str
    status: str                      # applied | rejected | skipped | stale | held | known
    reason: str = ""
    side: str | None = None
    records: list[int] = field(default_factory=list)


def _applied_messages(records) -> dict[str, str]:
    """sha256 -> message id of every message the journal already holds (moderator parts)."""
    out = {}
    for rec in records:
        part = rec.get("mail")
        if isinstance(part, dict) and isinstance(part.get("data"), dict):
            out[part["data"]["sha256"]] = part["data"]["message_id"]
    return out


def _decision_of(journal: Path, seq: int | None, reader: str, games_dir) -> tuple:
    """What reader was asked to decide after record seq (for stale replies)."""
    from .views import status_view

    game = g.open_game(journal, upto=seq, games_dir=games_dir)
    v = status_view(game.state, game.data, reader, game.game_id)
    return (v["waiting_on_all"], v["decision"], v["prompt"])


def inbox(journal: Path, sources: list[Path], outbox: Path | None,
          games_dir: Path | None = None) -> tuple[list[Outcome], list[Path]]:
    """Apply every new message's orders (all or nothing each) and write the replies."""
    messages = read_source(sources)
    game = g.open_game(journal, games_dir=games_dir)
    game_id = game.game_id
    secret = g.load_secret(game.journal.path, game.header)
    if secret is None:
        raise UsageError("the dice secret is needed to read players' mail (order keys)")
    records = game.records
    people = roster(records)
    if not any(s in people for s in game.data.sides):
        raise UsageError(f"{journal}: no players registered (new --player SIDE=ADDRESS)")
    keys = {s: order_key(secret, game_id, s, p.get("key_no", 0)) for s, p in people.items()
            if s != MODERATOR}
    applied = _applied_messages(records)
    applied_ids = set(applied.values())
    ledger = load_ledger(game_id, journal)
    manual = game.header["dice"]["mode"] == "manual"
    outcomes: list[Outcome] = []
    seen: set[str] = set()
    known_before = set(applied) | set(ledger["handled"])
    replies: list[tuple[str, str, Outcome, Message]] = []     # (address, side, outcome, msg)
    for m in messages:
        out = Outcome(m.where, m.message_id, m.sender, "known")
        if m.sha256 in known_before:
            out.reason = "already handled"
            outcomes.append(out)
            continue
        if m.sha256 in seen:
            out.status, out.reason = "skipped", "a second copy of a message in this mailbox"
            outcomes.append(out)
            continue
        seen.add(m.sha256)
        if m.message_id and m.message_id in applied_ids:
            out.status, out.reason = "skipped", "a second copy of a message already applied"
        elif m.message_id and m.message_id in ledger["ids"]:
            out.status, out.reason = "skipped", "a second copy of a message already handled"
        elif m.problem:
            out.status, out.reason = "rejected", f"the message cannot be read: {m.problem}"
        else:
            tag = SUBJECT_TAG.search(m.subject)
            side = next((s for s, p in people.items() if s != MODERATOR and
                         p["address"].casefold() == m.sender), None)
            if tag and tag.group(1) != game_id:
                out.status, out.reason = "skipped", f"for another game ({tag.group(1)})"
            elif side is None or compact(keys[side]) not in compact(m.raw.decode(
                    "utf-8", "replace") + _body_or_empty(m)):
                out.status = "rejected"
                out.reason = "not from a registered player with his order key"
                replies.append((m.sender, "", out, m))
            else:
                out.side = side
                _handle(journal, m, side, keys[side], tag, ledger, out, manual, games_dir,
                        secret, game_id)
                replies.append((people[side]["address"], side, out, m))
        if out.status == "applied":
            applied_ids.add(m.message_id)
            applied[m.sha256] = m.message_id
        else:
            ledger["handled"][m.sha256] = out.status
            if m.message_id:
                ledger["ids"][m.message_id] = out.status
        outcomes.append(out)
    written = write_outbox(journal, outbox, replies, people, keys, ledger, games_dir) \
        if outbox is not None else []
    save_ledger(journal, ledger)
    return outcomes, written


def _body_or_empty(m: Message) -> str:
    try:
        return mailtext.plain_body(m.msg)
    except mailtext.MailError:
        return ""


def _handle(journal: Path, m: Message, side: str, key: str, tag, ledger: dict, out: Outcome,
            manual: bool, games_dir, secret: bytes, game_id: str) -> None:
    """Check one message from a registered player with his key, then apply it or not."""
    try:
        body = mailtext.plain_body(m.msg)
    except mailtext.MailError as exc:
        out.status, out.reason = "rejected", str(exc)
        return
    lines = mailtext.order_lines(body, key)
    if not lines:
        out.status, out.reason = "rejected", "no orders found in the message"
        return
    texts = [t for _, t in lines]
    answered = int(tag.group(2)) if tag else None
    sent = ledger["sent"].get(side)
    if answered is not None and sent is not None and answered < sent:
        then = _decision_of(journal, answered, side, games_dir)
        now = _decision_of(journal, None, side, games_dir)
        if then != now:
            out.status = "stale"
            out.reason = (f"it answers the mail of record {answered}, but record {sent} was "
                          f"sent since and your decision has changed; reply to the latest mail")
            return
    if manual:
        probe = g.submit(journal, side, texts, dry_run=True, games_dir=games_dir)
        if probe.stopped and "dice" in probe.stopped:
            out.status = "held"
            out.reason = ("the orders need dice in a manual-dice game: held for the moderator "
                          "(`referee order --dice`)")
            return
    try:
        result = g.submit(journal, side, texts, games_dir=games_dir, atomic=True,
                          mail={"message_id": m.message_id or "(none)", "sha256": m.sha256})
    except OrderError as exc:
        out.status, out.reason = "rejected", str(exc)
        return
    if result.rejected is not None:
        i, text, exc = result.rejected
        out.status = "rejected"
        out.reason = f"line {lines[i][0]} ({text!r}): {exc}; nothing was applied"
        return
    out.status = "applied"
    out.records = [a.record["seq"] for a in result.applied]


# ---------------------------------------------------------------- outbox

def write_outbox(journal: Path, folder: Path, replies, people: dict, keys: dict, ledger: dict,
                 games_dir) -> list[Path]:
    """One .eml per recipient: each player's report (with his key and a receipt), and a
    short reply to each message that was not applied."""
    home.ensure_dir(folder)
    game = g.open_game(journal, games_dir=games_dir)
    last = game.records[-1]
    sender = people.get(MODERATOR, {}).get("address", "referee@localhost")
    written: list[Path] = []
    by_side = {side: [o for a, s, o, m in replies if s == side] for side in keys}
    for address, side, out, m in replies:
        if out.status == "applied":
            continue
        if not side:           # a stranger or a message without the key: no game content
            body = ("This message could not be matched to a player of this game (the sender's "
                    "address and the order key must both match). Nothing was done.\n")
            written.append(_write(folder, sender, address, "referee: message not accepted",
                                  body, m.message_id))
            continue
        body = f"Your message was not applied: {out.reason}\n\nOrder key: {keys[side]}\n"
        written.append(_write(folder, sender, address,
                              f"[referee {game.game_id} #{last['seq']}] not applied", body,
                              m.message_id))
    for side, key in keys.items():
        if side not in people:
            continue
        if ledger["sent"].get(side) == last["seq"] and not by_side.get(side):
            continue                    # nothing new for him
        doc, meta = reports.build(journal, side, None, games_dir)
        text = reports.render_report(doc, meta, "text")
        body_lines = text.rstrip("\n").split("\n")
        receipt = body_lines.pop()                  # the receipt stays the last line
        body = "\n".join(body_lines).rstrip() + f"\n\nOrder key: {key}\n{receipt}\n"
        reply_to = next((m.message_id for a, s, o, m in reversed(replies)
                         if s == side and o.status == "applied"), None)
        written.append(_write(folder, sender, people[side]["address"],
                              f"[referee {game.game_id} #{last['seq']}] {side} report, "
                              f"{game.data.label(game.state.turn)}", body, reply_to))
        ledger["sent"][side] = last["seq"]
    return written


def _write(folder: Path, sender: str, to: str, subject: str, body: str,
           in_reply_to: str | None) -> Path:
    """One mail as an .eml file, created 0600, never over another."""
    msg = EmailMessage(policy=default_policy)
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = email.utils.formatdate(localtime=False)
    msg["Message-ID"] = email.utils.make_msgid(domain="referee.invalid")
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
        msg["References"] = in_reply_to
    msg.set_content(body, cte="quoted-printable")       # readable as saved, safe to send
    name = f"{_secrets.token_hex(6)}.eml"
    path = folder / name
    home.write_new(path, bytes(msg))
    return path
