"""A skirmish game by mail: each player's mail (his address and his order key) carries his
orders — tests, done, a dispute, or the moderator's settlement — taken all or none; each
sender gets a reply with his tests or the refusal, and every player the report."""

from __future__ import annotations

import email.utils
import secrets as _secrets
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.policy import default as default_policy
from pathlib import Path

from ..base.errors import OrderError
from ..base.glyphs import visible
from ..game import skirmish as gs
from ..render.skirmish import report_document, report_text, test_lines
from ..store import home
from ..store.journal import Journal, signed_only
from ..store.players import compact
from . import message as mailtext
from .mailboxes import MSGID, Message, read_source

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


def _side_of(m: Message, players: dict[str, str]) -> str | None:
    sender = m.sender.casefold()
    return next((s for s, a in players.items() if a.casefold() == sender), None)


def _key_given(body: str) -> str | None:
    for line in body.splitlines():
        head, sep, value = line.partition(":")
        if sep and head.strip().casefold() == "order key":
            return value.strip()
    return None


def _handle(journal: Path, m: Message, players: dict, keys: dict, seen: set) -> Handled:
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
    lines = [text for _, text in mailtext.order_lines(body, key, mailtext.skirmish_verbs())]
    try:
        recs = gs.submit_many(journal, side, lines, mail=m.message_id)
    except OrderError as exc:
        out.status, out.reason = "refused", str(exc)
        return out
    out.status, out.records = "applied", [r["seq"] for r in recs]
    return out


def skirmish_inbox(journal: Path, sources: list[Path], outbox: Path | None
                   ) -> tuple[list[Handled], list[Path]]:
    """Apply every new mail of the registered players, in date order; write the replies
    and each player's report into outbox (only for a journal this referee signed)."""
    with signed_only():
        return _skirmish_inbox(journal, sources, outbox)


def _skirmish_inbox(journal: Path, sources: list[Path], outbox: Path | None
                    ) -> tuple[list[Handled], list[Path]]:
    header = Journal(journal).read()[0]
    players = header.get("players", {})
    keys = gs.order_keys(journal)
    seen = {r.get("mail") for r in Journal(journal).read()[1:]}
    done = [_handle(journal, m, players, keys, seen) for m in read_source(sources)]
    written: list[Path] = []
    if outbox is not None and any(h.new and h.side for h in done):
        outbox.mkdir(parents=True, exist_ok=True)
        written = _replies(journal, outbox, done, players)
    return done, written


def _replies(journal: Path, outbox: Path, done: list[Handled], players: dict) -> list[Path]:
    game = gs.open_skirmish(journal)
    by_seq = {t["record"]: t for t in game.state.tests}
    out = []
    for h in done:
        if not (h.new and h.side):
            continue
        if h.status == "applied":
            lines = [x for n in h.records if n in by_seq for x in test_lines(by_seq[n])]
            body = "Recorded: " + ", ".join(f"#{n}" for n in h.records) + "\n" + \
                "\n".join(lines)
        else:
            body = f"Nothing was recorded: {h.reason}"
        out.append(_write(outbox, players[h.side], f"Re: orders ({h.status})", body,
                          h.message_id))
    doc = report_document(game.header, game.card, game.state)
    subject = f"{game.header['game_id']}: turn {doc['turn']}, {doc['phase']} phase"
    out += [_write(outbox, address, subject, report_text(doc), None)
            for address in players.values()]
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
