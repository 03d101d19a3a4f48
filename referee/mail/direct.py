"""Mail read directly for a game whose kind takes it so (GameKind.mail "direct", the
skirmish's): each player's mail (his address and his order key) carries his orders, taken
all or none by the kind; each sender gets a reply with what was recorded or the refusal,
and every player the kind's report. Nothing here knows a game: the kind answers."""

from __future__ import annotations

import email.utils
import secrets as _secrets
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.policy import default as default_policy
from pathlib import Path

from ..base.errors import OrderError
from ..base.glyphs import visible
from ..store import home
from ..store.journal import signed_only
from ..store.players import compact
from ..table import Table
from . import message as mailtext
from .mailboxes import MSGID, Message, read_source
from .prose import read_orders

REFEREE = "referee@referee.invalid"


@dataclass
class Handled:
    where: str
    message_id: str
    sender: str
    status: str = ""               # applied, refused, ignored, done (handled before)
    side: str | None = None
    reason: str | None = None
    records: list[int] = field(default_factory=list)
    new: bool = True
    notes: list[str] = field(default_factory=list)     # the prose passed over, named


def _side_of(m: Message, players: dict[str, str]) -> str | None:
    sender = m.sender.casefold()
    return next((s for s, a in players.items() if a.casefold() == sender), None)


def _key_given(body: str) -> str | None:
    for line in body.splitlines():
        head, sep, value = line.partition(":")
        if sep and head.strip().casefold() == "order key":
            return value.strip()
    return None


def _handle(table: Table, m: Message, players: dict, keys: dict, seen: set) -> Handled:
    out = Handled(m.where, m.message_id, m.sender)
    side = _side_of(m, players)
    if m.problem or side is None or not m.message_id:
        out.status, out.reason = "ignored", m.problem or "not from a registered player"
        return out
    out.side = side
    if m.message_id in seen:
        out.status, out.new = "done", False
        return out
    body = mailtext.plain_body(m.msg)
    key = _key_given(body)
    if key is None or compact(key) != compact(keys[side]):
        out.status, out.reason = "refused", "the order key is missing or wrong"
        return out
    read, out.notes = read_orders(body, key, table.kind.verbs())
    lines = [text for _, text in read]
    try:
        recs = table.kind.take_mail(table, side, lines, m.message_id)
    except OrderError as exc:
        out.status, out.reason = "refused", str(exc)
        return out
    out.status, out.records = "applied", [r["seq"] for r in recs]
    return out


def direct_inbox(table: Table, sources: list[Path], outbox: Path | None
                 ) -> tuple[list[Handled], list[Path]]:
    """Apply every new mail of the registered players, in date order; write the replies
    and each player's report into outbox (only for a journal this referee signed)."""
    with signed_only():
        players = table.kind.players(table)
        keys = table.kind.order_keys(table)
        seen = table.kind.mailed(table)
        done = [_handle(table, m, players, keys, seen) for m in read_source(sources)]
        written: list[Path] = []
        if outbox is not None and any(h.new and h.side for h in done):
            outbox.mkdir(parents=True, exist_ok=True)
            written = _replies(table, outbox, done, players)
        return done, written


def _replies(table: Table, outbox: Path, done: list[Handled], players: dict) -> list[Path]:
    out = []
    for h in done:
        if not (h.new and h.side):
            continue
        if h.status == "applied":
            lines = table.kind.recorded_lines(table, h.records)
            body = "Recorded: " + ", ".join(f"#{n}" for n in h.records) + "\n" + \
                "\n".join(lines)
        else:
            body = f"Nothing was recorded: {h.reason}"
        body = "".join(f"{note}\n" for note in h.notes) + body
        out.append(_write(outbox, players[h.side], f"Re: orders ({h.status})", body,
                          h.message_id))
    subject, report = table.kind.mail_report(table)
    out += [_write(outbox, address, subject, report, None) for address in players.values()]
    return out


def _write(folder: Path, to: str, subject: str, body: str, in_reply_to: str | None) -> Path:
    msg = EmailMessage(policy=default_policy)
    msg["From"] = REFEREE
    msg["To"] = to
    msg["Subject"] = visible(subject)
    msg["Date"] = email.utils.formatdate(localtime=False)
    msg["Message-ID"] = email.utils.make_msgid(domain="referee.invalid")
    if in_reply_to and MSGID.fullmatch(in_reply_to):
        msg["In-Reply-To"] = in_reply_to
    msg.set_content(visible(body), cte="quoted-printable")
    path = folder / f"{_secrets.token_hex(8)}.eml"
    home.write_new(path, mailtext.mail_bytes(msg))
    return path
