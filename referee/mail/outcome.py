"""What happened to one message (applied, refused, held...), and the reply owed to it as the
mail ledger keeps it until it is written."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..game.timeline import NoOrdersTaken, taking_orders


@dataclass
class Outcome:
    """What happened to one message."""

    where: str
    message_id: str
    sender: str
    status: str     # applied | rejected | skipped | stale | held | known | answered
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
    # For the reply: what was not applied, or what his standing orders are now.
    notes: list[str] = field(default_factory=list)
    held: dict | None = None         # orders held for the moderator's dice (waiting.py)
    # For the reply: 'paused', 'closed' or 'over' when the game takes no orders as it is
    # written (halt_of): it says what follows by it, never by the reason's words.
    halted: str = ""
    # A copy of a mail of his applied before (copies.py): the record it was applied as; the
    # reply opens with what happened, not with a refusal.
    copied: int | None = None
    # For a line refused after legal ones that rolled no die: the orders open at it, as
    # mail text (mail/ordersopen.py orders_open_at); '' otherwise.
    open_at: str = ""
    # The sides whose order key a message matched to no player carries from an address not
    # theirs (keyelsewhere.py): the moderator is told.
    keyed: list[str] = field(default_factory=list)
    # A mail asking for a record explained (queries.py): that record's number.
    explained: int | None = None
    # Why it was not applied, as a stable name (contracts/codes.py MailCode), named where
    # its reason is made; None: its status says it (mailcodes.py), or it was applied.
    code: str | None = None


def owed_reply(name: str, address: str, side: str, out: Outcome) -> dict:
    """A reply owed (written once, as NAME.eml), saying what out says."""
    return {"name": name, "to": address, "side": side, "message_id": out.message_id,
            "status": out.status, "reason": out.reason, "line": out.line, "text": out.text,
            "why": out.why, "before": out.before, "notes": out.notes,
            **({"copied": out.copied} if out.copied is not None else {}),
            **({"open_at": out.open_at} if out.open_at else {}),
            **({"explained": out.explained} if out.explained is not None else {})}


def outcome_of(entry: dict, table=None) -> Outcome:
    """The outcome an owed reply answers, as far as its text needs it; its `halted` is the
    halt of the game (table, when given) as the reply is written (halt_of), as the report
    that follows it shows the game: whatever refused the mail (a copy of one applied, a
    problem of the mail, a line), never read from the reason's words."""
    halted = halt_of(table) if table is not None else ""
    return Outcome("", entry["message_id"], entry["to"], entry["status"], entry["reason"],
                   entry["side"] or None, line=entry["line"], text=entry["text"],
                   why=entry["why"], before=entry["before"], notes=entry.get("notes") or [],
                   halted=halted, copied=_record(entry.get("copied")),
                   open_at=_text(entry.get("open_at")),
                   explained=_record(entry.get("explained")))


def _record(seq) -> int | None:
    """A record's number the ledger kept (None: none, or not a number)."""
    return seq if isinstance(seq, int) and not isinstance(seq, bool) else None


def _text(value) -> str:
    """A text the ledger kept ('': none, or not a text)."""
    return value if isinstance(value, str) else ""


def halt_of(table) -> str:
    """Why the game of table (a Table) takes no orders now, as Outcome.halted says it:
    'closed' (revealed), 'over', 'paused', or '' when it takes them."""
    try:
        taking_orders(table.game().state, table.raw)
    except NoOrdersTaken as exc:
        return exc.halted
    return ""


def latest_mail_words(this_one: bool, seq: int = 0) -> str:
    """To a player whose reply answered an older mail (a stale reply, handling.stale): which
    mail is his latest, so that he finds it among the mails of one subject (subjects.py) and
    replies to that one: this_one, the reply he reads now carries his report, so it is that
    mail; else his report of record seq, sent with it (its title names its records)."""
    if this_one:
        return "This mail is now your latest: your report is below. Reply to this one."
    return f"Your latest mail is your report of record #{seq}, sent with this one: reply to " \
        f"that one."
