"""A delivery report's status part (message/delivery-status, RFC 3464) as the referee reads
it: its text, kept whole by the email package as any leaf's is, its blocks read from it up
to a bound (globalparts.status_blocks). Left to the package, each block of such a part is
parsed into a message of its own, however many there are: a bounce is mail anyone can send,
and one of 30,000 blocks under the size limit took the package a fifth of a second to read,
at every pass that reads it (once to know its game, once to handle it).

The parser is handed Reading as the factory of the message and its parts: while it parses,
a status part tells it its type is text/plain (a leaf, its lines kept as its payload); once
parsed, every part is a plain EmailMessage again and tells its own type (as_read)."""

from __future__ import annotations

from email.message import EmailMessage

STATUS = "message/delivery-status"


class Reading(EmailMessage):
    """A part while the parser reads it: a status part reads as a leaf."""

    def get_content_type(self) -> str:
        ctype = super().get_content_type()
        return "text/plain" if ctype == STATUS else ctype


def as_read(msg: EmailMessage) -> EmailMessage:
    """msg, parsed with Reading for its parts, as the rest of the referee reads a message:
    each of its parts an EmailMessage, telling its own content type."""
    for part in msg.walk():
        if type(part) is Reading:
            part.__class__ = EmailMessage
    return msg
