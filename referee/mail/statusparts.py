"""A delivery report's status part (message/delivery-status, RFC 3464) as the referee reads
it: its text, kept whole by the email package as any leaf's is, its blocks read from it up
to a bound (globalparts.status_blocks). Left to the package, each block of such a part is
parsed into a message of its own, however many there are: a bounce is mail anyone can send,
and one of 30,000 blocks under the size limit took the package a fifth of a second to read,
at every pass that reads it (once to know its game, once to handle it).

The parser is handed Reading as the factory of the message and its parts: while it parses,
a status part tells it its type is text/plain (a leaf, its lines kept as its payload); once
parsed, every part is a plain EmailMessage again and tells its own type (as_read). Even as
a leaf, the package reads a part line by line: a status part of the message's own
multipart is first cut to the KEPT bytes of it the referee may read (cut), so the package
reads no further into it than the referee does."""

from __future__ import annotations

import re
from email.message import EmailMessage

from .headers import header_block

STATUS = "message/delivery-status"
# Of a status part's text as sent: what globalparts reads of it (its first MOST_BYTES, once
# a transfer encoding is undone: base64 takes 4 bytes for 3, quoted-printable 3 for 1).
KEPT = 3 << 16
HEAD_MOST = 1 << 16             # of a message read for its own header block
_PART_HEAD_END = re.compile(rb"\n\r?\n")


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


def cut(raw: bytes, policy) -> bytes:
    """raw with each message/delivery-status part of its own multipart cut to its first
    KEPT bytes (at a line's end), read with policy (a fresh one: the package's reading of
    the same headers, whose boundary is the parser's). Only lines inside such a part are
    left out, never a delimiter: the parts are the ones the parser finds in raw. raw as it
    is when nothing can be cut, or when a line ends at a lone CR (the parser's lines and
    these would not be the same)."""
    if len(raw) <= KEPT or raw.count(b"\r") != raw.count(b"\r\n"):
        return raw
    try:
        head = header_block(raw[:HEAD_MOST], policy)
        boundary = head.get_boundary() if head.get_content_maintype() == "multipart" else None
        delimiter = re.compile(rb"^--" + re.escape(boundary.encode("ascii", "surrogateescape"))
                               + rb"(--)?[ \t]*\r?$", re.MULTILINE) if boundary else None
    except Exception:  # noqa: BLE001 - a header the package cannot read: the parse says so
        return raw
    if delimiter is None:
        return raw
    out, kept = [], 0
    marks = list(delimiter.finditer(raw))
    for this, after in zip(marks, marks[1:]):
        if this.group(1):               # the close delimiter: the epilogue is not a part
            break
        gone = _status_text_past(raw, this.end() + 1, after.start(), policy)
        if gone is not None:
            out += [raw[kept:gone[0]]]
            kept = gone[1]
    return b"".join([*out, raw[kept:]]) if out else raw


def _status_text_past(raw: bytes, start: int, end: int, policy) -> tuple[int, int] | None:
    """Where a part of raw from start to end (a delimiter's line next) holds text past the
    KEPT bytes of it that are read, when it is a status part: (from, to); else None."""
    head_end = _PART_HEAD_END.search(raw, start, min(end, start + HEAD_MOST))
    if head_end is None or end - head_end.end() <= KEPT:
        return None
    try:
        part = header_block(raw[start:head_end.end()], policy)
        if part.get_content_type() != STATUS:
            return None
    except Exception:  # noqa: BLE001 - a header the package cannot read: left whole
        return None
    cut_at = raw.rfind(b"\n", head_end.end(), head_end.end() + KEPT) + 1
    return (cut_at, end) if 0 < cut_at < end else None
