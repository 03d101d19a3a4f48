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
import os
import re
import secrets as _secrets
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.policy import default as default_policy
from pathlib import Path

from .. import game as g
from ..base import clock
from ..base.errors import OrderError, StorageError, UsageError
from ..base.readers import MODERATOR
from ..base.text import visible
from ..engine import pending_prompt, sealed_for, waiting_on
from ..render import reports
from ..store import home
from ..store.dice import Dice
from ..store.players import (
    changed_observers,
    check_observers,
    compact,
    observer_addresses,
    order_key,
    parse_observers,
    parse_players,
    roster,
    roster_body,
)
from . import message as mailtext
from .deadlines import EXTEND_LINE, deadline_lines, extend_by_mail
from .mailboxes import MSGID, Message, read_source
from .observers import OBSERVERS_NEVER_ORDER, observer_mails, resume_from
from .refusal import refusal_text, report_body, why_refused
from .standing_lines import STANDING_LINE, keep_standing_only, standing_change

SUBJECT_TAG = re.compile(r"\[referee ([A-Za-z0-9._-]{1,200}) #(\d{1,9})\]")


# ---------------------------------------------------------------- players

def players(journal: Path, set_: list[str], new_keys: list[str], keys: bool,
            games_dir: Path | None = None, drop_observers: list[str] | None = None
            ) -> tuple[list[dict], list[str]]:
    """The roster and the observers (after applying --set / --new-key / --drop-observer as a
    new record), keys when asked."""
    game = g.open_game(journal, games_dir=games_dir)
    secret = g.load_secret(game.journal.path, game.header)
    current = roster(game.records)
    watchers = observer_addresses(game.records)
    if set_ or new_keys or drop_observers:
        if secret is None:
            raise UsageError("the dice secret is needed to register players (order keys are "
                             "derived from it)")
        changes = parse_players(set_, game.data.sides)
        watchers = changed_observers(watchers, parse_observers(set_), drop_observers or [])
        check_observers(watchers, {**{s: p["address"] for s, p in current.items()}, **changes})
        for side in new_keys:
            if side not in game.data.sides:
                raise UsageError(f"--new-key {side!r}: choose one of {', '.join(game.data.sides)}")
            if side not in current and side not in changes:
                raise UsageError(f"--new-key {side}: {side} has no registered address")

        def build(raw: bytes):
            pos = g.position(game.journal, raw, games_dir)
            dice = Dice(game.game_id, pos.seq + 1, secret)
            return pos.seq, pos.hash, [roster_body(secret, game.game_id, changes, current,
                                                   tuple(new_keys), dice, watchers)]

        _, written = game.journal.append_raw(build)
        current = roster(written)
        watchers = observer_addresses(written)
    out = []
    for side, p in sorted(current.items()):
        entry = {"side": side, "address": p["address"]}
        if keys and side != MODERATOR:
            if secret is None:
                raise UsageError("the dice secret is needed to print the order keys")
            entry["key"] = order_key(secret, game.game_id, side, p.get("key_no") or 0)
        out.append(entry)
    return out, watchers


# ---------------------------------------------------------------- the ledger

def _ledger_path(game_id: str, header_hash: str) -> Path:
    """Keyed by the game and its record 0, so a moved game folder keeps its ledger."""
    tag = hashlib.sha256(f"{game_id}/{header_hash}".encode()).hexdigest()[:32]
    return home.data_dir("ledgers") / f"{tag}.ledger"


def load_ledger(game_id: str, header_hash: str) -> dict:
    """Messages handled but not applied, and mails sent: signed; anything else is empty."""
    data = home.read_signed(_ledger_path(game_id, header_hash))
    if not isinstance(data, dict) or data.get("game_id") != game_id or \
            data.get("header") != header_hash:
        data = {}
    ledger = {"game_id": game_id, "header": header_hash}
    for part in ("handled", "ids", "sent"):
        ledger[part] = data.get(part) if isinstance(data.get(part), dict) else {}
    return ledger


def save_ledger(ledger: dict) -> None:
    """Keep the ledger (signed by this user's key)."""
    home.write_signed(_ledger_path(ledger["game_id"], ledger["header"]), ledger)


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
    new: bool = True                 # False: handled by an earlier run (applied or in the ledger)
    # A rejected order line, for the reply: its line number in the message, its text, why
    # (in the sender's terms, with the rule it breaks if a rule does: IllegalOrderError) and
    # how many order lines came before it.
    line: int | None = None
    text: str = ""
    why: str = ""
    before: int = 0


def _applied_messages(records) -> tuple[set[str], set[tuple[str, str]]]:
    """Raw digests, and (Message-ID, body digest) pairs, of the messages the journal holds."""
    raws, copies = set(), set()
    for rec in records:
        part = rec.get("mail")
        if isinstance(part, dict) and isinstance(part.get("data"), dict):
            raws.add(part["data"]["sha256"])
            copies.add((part["data"]["message_id"], part["data"].get("body_sha256", "")))
    return raws, copies


def _decision_of(journal: Path, seq: int | None, reader: str, games_dir) -> tuple:
    """What reader was asked to decide after record seq (2.0; for stale replies)."""
    game = g.open_game(journal, upto=seq, games_dir=games_dir)
    st = game.state
    decision = st.pending.kind if st.pending is not None and st.phase != "over" else None
    # A sealed decision is one for both sides at once (7.0, 2.0 I, 2.0 V.3): the other side's
    # plan closing does not change what this reader was asked, though the prompt changes.
    sealed = decision is not None and any(sealed_for(st, x) for x in game.data.sides)
    prompt = None if decision is None or sealed else pending_prompt(st, game.data)
    return (reader in waiting_on(st), decision, st.turn, st.phase, prompt)


def check_outbox(folder: Path) -> None:
    """The outbox must be a folder this user can write into (StorageError before any message
    is handled, so no order is applied without its report)."""
    try:
        if (folder.is_symlink() or folder.exists()) and not folder.is_dir():
            raise StorageError(f"--outbox {folder}: not a folder")
        home.ensure_dir(folder)
        effective = os.access in os.supports_effective_ids
        if not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK,
                                                effective_ids=effective):
            raise StorageError(f"--outbox {folder}: this user cannot write into it")
    except OSError as exc:
        raise StorageError(f"--outbox {folder}: cannot be made ({exc.strerror})") from None


def inbox(journal: Path, sources: list[Path], outbox: Path | None,
          games_dir: Path | None = None, with_map: bool = True
          ) -> tuple[list[Outcome], list[Path]]:
    """Apply every new message's orders (all or nothing each) and write the replies (with
    with_map, each player's mail carries the map as he may see it, as PNG)."""
    messages = read_source(sources)
    if outbox is not None:
        check_outbox(outbox)
    game = g.open_game(journal, games_dir=games_dir)
    g.check_current(game, game.journal.path, games_dir)     # no orders before an upgrade
    game_id = game.game_id
    secret = g.load_secret(game.journal.path, game.header)
    if secret is None:
        raise UsageError("the dice secret is needed to read players' mail (order keys)")
    records = game.records
    people = roster(records)
    if not any(s in people for s in game.data.sides):
        raise UsageError(f"{journal}: no players registered (new --player SIDE=ADDRESS)")
    keys = {s: order_key(secret, game_id, s, p.get("key_no") or 0) for s, p in people.items()
            if s != MODERATOR}
    watchers = observer_addresses(records)
    refused: list[tuple[str, Outcome, Message]] = []       # observers' messages
    applied, copies = _applied_messages(records)
    ledger = load_ledger(game_id, game.header["hash"])
    known_before = applied | set(ledger["handled"])
    manual = game.header["dice"]["mode"] == "manual"
    outcomes: list[Outcome] = []
    seen: set[str] = set()
    replies: list[tuple[str, str, Outcome, Message]] = []     # (address, side, outcome, msg)
    for m in messages:
        out = Outcome(m.where, m.message_id, m.sender, "known")
        copy = (m.message_id, m.body_sha256)
        if m.sha256 in known_before:
            out.reason, out.new = "already handled", False
        elif m.sha256 in seen:
            out.status, out.reason = "skipped", "a second copy of a message in this mailbox"
        elif m.message_id and (copy in copies or ledger["ids"].get(m.message_id) ==
                               m.body_sha256):
            out.status, out.reason = "skipped", "a second copy of a message already handled"
        elif _from_observer(m, watchers, game_id):
            out.status, out.reason = "rejected", OBSERVERS_NEVER_ORDER
            refused.append((m.sender, out, m))
        else:
            _classify(journal, m, out, people, keys, ledger, manual, games_dir, game_id,
                      replies)
        seen.add(m.sha256)
        if out.status == "applied":
            copies.add(copy)
        if out.status not in ("applied", "known") or not out.records and \
                out.status == "applied":        # standing lines only: no record holds it
            ledger["handled"][m.sha256] = out.status
            if m.message_id:
                ledger["ids"][m.message_id] = m.body_sha256
        outcomes.append(out)
    save_ledger(ledger)
    written: list[Path] = []
    if outbox is not None:
        try:
            written = write_outbox(journal, outbox, replies, people, keys, ledger, games_dir,
                                   with_map)
            written += observer_mails(journal, outbox, watchers, refused, people, ledger,
                                      games_dir, _write, with_map)
        finally:
            save_ledger(ledger)
    return outcomes, written


def _classify(journal: Path, m: Message, out: Outcome, people: dict, keys: dict, ledger: dict,
              manual: bool, games_dir, game_id: str, replies: list) -> None:
    """Whose message this is, if anybody's, then handle it."""
    tag = SUBJECT_TAG.search(m.subject)
    if tag and tag.group(1) != game_id:
        out.status, out.reason = "skipped", f"for another game ({tag.group(1)})"
        return
    text = compact(m.raw.decode("utf-8", "replace") + _body_or_empty(m))
    # The side is the one whose address sent it and whose key it carries (an address may be
    # shared by both sides; the key tells them apart).
    side = next((s for s, p in people.items() if s != MODERATOR and m.sender and
                 p["address"].casefold() == m.sender and compact(keys[s]) in text), None)
    if side is None:
        out.status = "rejected"
        out.reason = "not from a registered player with his order key"
        if m.problem:
            out.reason += f" ({m.problem})"
        if m.sender:
            replies.append((m.sender, "", out, m))
        else:
            out.reason += "; no reply: the message has no usable sender address"
        return
    out.side = side
    if m.problem:
        out.status, out.reason = "rejected", m.problem
    else:
        _handle(journal, m, side, keys[side], tag, out, manual, games_dir)
    replies.append((people[side]["address"], side, out, m))


def _from_observer(m: Message, watchers: list[str], game_id: str) -> bool:
    """Whether m comes from an observer's address (and names no other game): whatever it
    says, nothing of it is applied."""
    tag = SUBJECT_TAG.search(m.subject)
    return bool(m.sender) and m.sender in {a.casefold() for a in watchers} and \
        not (tag and tag.group(1) != game_id)


def _body_or_empty(m: Message) -> str:
    if m.msg is None:
        return ""
    try:
        return mailtext.plain_body(m.msg)
    except (mailtext.MailError, RecursionError, LookupError, ValueError):
        return ""


def _handle(journal: Path, m: Message, side: str, key: str, tag, out: Outcome,
            manual: bool, games_dir) -> None:
    """Check one message from a registered player with his key, then apply it or not."""
    try:
        body = mailtext.plain_body(m.msg)
    except (mailtext.MailError, RecursionError, LookupError, ValueError) as exc:
        out.status, out.reason = "rejected", f"the message cannot be read: {exc}"
        return
    lines, link, tip, problem = mailtext.sheet_lines(mailtext.order_lines(body, key))
    if problem is not None:
        out.status, out.reason = "rejected", f"{problem}; nothing was applied"
        return
    if any(EXTEND_LINE.match(t) for _, t in lines):         # more time asked (deadlines.py)
        out.status, out.reason, out.records = extend_by_mail(
            journal, side, lines, {"message_id": m.message_id or "(none)", "sha256": m.sha256,
                                   "body_sha256": m.body_sha256}, games_dir)
        return
    standing_lines = [(n, t) for n, t in lines if STANDING_LINE.match(t)]
    lines = [(n, t) for n, t in lines if not STANDING_LINE.match(t)]
    if not lines and not standing_lines and tip is None:
        out.status, out.reason = "rejected", "no orders found in the message"
        return
    makes_records = bool(lines) or tip is not None or link is not None
    texts = [t for _, t in lines]
    stale = _stale(journal, tag, side, games_dir)
    if stale is not None:
        out.status, out.reason = "stale", stale
        return
    if manual and texts:
        probe = g.submit(journal, side, texts, dry_run=True, games_dir=games_dir)
        if probe.stop_reason == "dice":
            out.status = "held"
            out.reason = ("the orders need dice in a manual-dice game: held for the moderator "
                          "(`referee order --dice`)")
            return
    change = None
    if standing_lines:
        try:
            change = standing_change(journal, side, standing_lines, games_dir)
            if not makes_records:
                mine = keep_standing_only(journal, side, change, games_dir)
        except OrderError as exc:
            out.status, out.reason = "rejected", f"{exc}; nothing was applied"
            return
        if not makes_records:
            out.status = "applied"
            out.reason = (f"standing orders now: "
                          f"{', '.join(e['text'] for e in mine) or 'none'}")
            return
    try:
        # In a manual-dice game the reply says whether the orders were held for dice; the
        # other side's standing orders would change that, so they wait for his own record.
        # The standing lines are kept with the records, under the journal's lock, or not at
        # all (all or nothing).
        result = g.submit(journal, side, texts, games_dir=games_dir, atomic=True,
                          mail={"message_id": m.message_id or "(none)", "sha256": m.sha256,
                                "body_sha256": m.body_sha256}, others_standing=not manual,
                          standing_change=change, link=link, sheet=tip)
    except g.AlreadyApplied:
        out.status, out.reason = "known", "already in the journal (another inbox run)"
        return
    except OrderError as exc:
        out.status, out.reason = "rejected", str(exc)
        return
    if result.rejected is not None:
        i, text, exc = result.rejected
        out.status = "rejected"
        out.reason = f"line {lines[i][0]} ({text!r}): {exc}; nothing was applied"
        out.line, out.text, out.before = lines[i][0], text, i
        out.why = why_refused(exc, lines, texts)
        return
    out.status = "applied"
    out.records = [a.record["seq"] for a in result.applied]
    out.reason = "; ".join(f"line {lines[i][0]} ({t!r}): {why}" for i, t, why in result.dropped)


def _stale(journal: Path, tag, side: str, games_dir) -> str | None:
    """Why a reply to an older mail is stale, or None: once the writer's decision has
    changed since (whatever the ledger says: a lost ledger must not revive an old message)."""
    if tag is None:
        return None
    answered = int(tag.group(2))
    last = g.open_game(journal, games_dir=games_dir).state.seq
    if answered > last:
        return (f"it answers record {answered}, which the journal does not hold (it ends at "
                f"record {last}); reply to the latest mail")
    if answered < last and _decision_of(journal, answered, side, games_dir) != \
            _decision_of(journal, None, side, games_dir):
        return (f"it answers the mail of record {answered}, and your decision has changed "
                f"since (the journal is at record {last}); reply to the latest mail")
    return None


# ---------------------------------------------------------------- outbox

def write_outbox(journal: Path, folder: Path, replies, people: dict, keys: dict, ledger: dict,
                 games_dir, with_map: bool = True) -> list[Path]:
    """One .eml per recipient: each player's report (with his key and a receipt), and one
    reply to each message that was not applied, saying why, with that report inside it (no
    second mail for the same news; StorageError if a mail cannot be written: the ledger
    then still says which reports are owed). With with_map, every mail to a side carries
    map.png drawn for that side (1.4: his own templates only), drawn once for each side."""
    game = g.open_game(journal, games_dir=games_dir)
    maps: dict[str, bytes] = {}

    def picture(side: str) -> bytes | None:
        if not with_map:
            return None
        if side not in maps:
            from ..render.svgmap import map_png  # start-up: the map is drawn only for mail

            maps[side] = map_png(game.state, game.data, side, game.game_id)
        return maps[side]

    records = game.records
    last = records[-1]
    due = deadline_lines(journal, games_dir)
    sender = people.get(MODERATOR, {}).get("address", "referee@localhost")
    written: list[Path] = []
    # A side whose message was applied gets his report in reply to it; one whose message was
    # not gets one reply to that message, his report (news and decision) inside it.
    news = {side for _, side, o, _ in replies if side and o.status == "applied"}
    try:
        for address, side, out, m in replies:
            if out.status == "applied":
                continue
            if not side:       # a stranger or a message without the key: no game content
                body = ("This message could not be matched to a player of this game (the "
                        "sender's address and the order key must both match). Nothing was "
                        "done.\n")
                written.append(_write(folder, sender, address, "referee: message not accepted",
                                      body, m.message_id))
                continue
            body = refusal_text(out) + "\n\n" + report_body(
                journal, side, _since(ledger, side, records), keys[side], games_dir,
                due.get(side))
            written.append(_write(folder, sender, address,
                                  f"[referee {game.game_id} #{last['seq']}] not applied", body,
                                  m.message_id, picture(side)))
            if side not in news:
                ledger["sent"][side] = [last["seq"], last["hash"]]
        for side, key in keys.items():
            if side not in people:
                continue
            if ledger["sent"].get(side) == [last["seq"], last["hash"]] and side not in news:
                continue                    # nothing new for him
            since = _since(ledger, side, records)
            doc, meta = reports.build(journal, side, since, games_dir)
            text = reports.render_report(doc, meta, "text")
            report, _, receipt = text.rstrip("\n").rpartition("\n\n")
            # The receipt stays last (its one line, or two for a long game id).
            body = report.rstrip() + (f"\n\n{due[side]}" if side in due else "") + \
                f"\n\nOrder key: {key}\n{receipt}\n"
            reply_to = next((m.message_id for a, s, o, m in reversed(replies)
                             if s == side and o.status == "applied"), None)
            written.append(_write(folder, sender, people[side]["address"],
                                  f"[referee {game.game_id} #{last['seq']}] {side} report, "
                                  f"{game.data.label(game.state.turn)}", body, reply_to,
                                  picture(side)))
            ledger["sent"][side] = [last["seq"], last["hash"]]
    except (OSError, ValueError) as exc:
        raise StorageError(f"--outbox {folder}: a mail could not be written ({exc}); the orders "
                           f"applied are in the journal, and `inbox` run again writes the "
                           f"reports still owed") from None
    return written


def _since(ledger: dict, side: str, records: list[dict]) -> int:
    """The record a player's next mail starts after: the last one he was sent (while the
    journal still holds that record as it was; else the start), whatever reports were
    printed for him meanwhile."""
    return resume_from(ledger["sent"].get(side), records)


def _write(folder: Path, sender: str, to: str, subject: str, body: str,
           in_reply_to: str | None, png: bytes | None = None) -> Path:
    """One mail as an .eml file, created 0600, never over another (with png: map.png
    attached, image/png)."""
    msg = EmailMessage(policy=default_policy)
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = visible(subject)
    msg["Date"] = email.utils.format_datetime(clock.now())
    msg["Message-ID"] = email.utils.make_msgid(domain="referee.invalid")
    if in_reply_to and MSGID.fullmatch(in_reply_to):
        msg["In-Reply-To"] = in_reply_to
        msg["References"] = in_reply_to
    # Nothing in a mail may disguise itself (base/text.py): text from a journal or a mail
    # shows its bidirectional controls and escape sequences as their escapes.
    msg.set_content(visible(body), cte="quoted-printable")       # readable as saved, safe to send
    if png is not None:
        msg.add_attachment(png, maintype="image", subtype="png", filename="map.png")
    for _ in range(8):
        path = folder / f"{_secrets.token_hex(8)}.eml"
        try:
            home.write_new(path, bytes(msg))
            return path
        except FileExistsError:
            continue
    raise OSError(f"no free file name in {folder}")
