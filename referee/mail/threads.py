"""Where a mail of the referee's stands in its reader's conversation: the game's thread
Message-ID it refers to first, its From, To and Reply-To, and that it is a machine's."""

from __future__ import annotations

import hashlib
from email.message import EmailMessage


def thread_of(game_id: str, address: str) -> str:
    """The Message-ID every mail of a game to one address refers to first (References), so
    that a reader's mail program shows the game's mails to him as one conversation.
    Casefolded, unlike every comparison of addresses (base/addresses.py's address_key): kept
    so, since another tag would start a new conversation in every running game with an
    address beyond ASCII. Two addresses that casefold alike share a thread Message-ID,
    which names no one and proves nothing (robots.py believes a bounce only by its marks)."""
    tag = hashlib.sha256(address.strip().casefold().encode()).hexdigest()[:16]
    return f"<thread.{game_id}.{tag}@referee.invalid>"


def addressed(msg: EmailMessage, sender: str, to: str, thread: str | None = None,
              in_reply_to: str | None = None) -> None:
    """A referee's mail's From, To and Reply-To (the referee's own address: players answer
    it), and its place in the conversation: In-Reply-To the message it answers (a checked
    Message-ID), References the game's thread first; and that it is automatic."""
    msg["From"] = sender
    msg["To"] = to
    msg["Reply-To"] = sender
    chain = [x for x in (thread, in_reply_to) if x]
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
    if chain:
        msg["References"] = " ".join(chain)
    said_automatic(msg, answers=bool(in_reply_to))


def said_automatic(msg: EmailMessage, answers: bool) -> None:
    """Every mail of the referee's says it is a machine's (RFC 3834): `auto-replied` when
    it answers a message, `auto-generated` otherwise, so that no vacation responder answers
    it; and X-Auto-Response-Suppress: All, which Exchange heeds for its own."""
    msg["Auto-Submitted"] = "auto-replied" if answers else "auto-generated"
    msg["X-Auto-Response-Suppress"] = "All"
