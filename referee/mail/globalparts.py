"""The parts of an internationalised delivery report (RFC 6533), read as their ASCII
counterparts are (RFC 3464): message/global-delivery-status as message/delivery-status,
message/global-headers as text/rfc822-headers, message/global as message/rfc822. A server
writes them when the mail it returns was an internationalised one (RFC 6532: UTF-8 in its
headers, to an address such as straße@example.org).

Their text is UTF-8 and may be sent base64 or quoted-printable (RFC 6533 §6), which the
email package does not undo for a message/* part: each is read here from its bytes, the
first MOST_BYTES of them, as robots.py reads the rest of a bounce (bounded). An ASCII status
part's blocks are read here from its text too (statusparts.py: the package keeps it whole)."""

from __future__ import annotations

import binascii
import quopri
import re
from email.message import Message as EmailMessage
from email.parser import HeaderParser

from . import message as mailtext

MOST_BYTES = 1 << 16            # of a global part's text read
MOST_BLOCKS = 256               # blocks of a report's delivery status parts read, in all
ASCII_OF = {"message/global-delivery-status": "message/delivery-status",
            "message/global-headers": "text/rfc822-headers",
            "message/global": "message/rfc822"}
_BLANK_LINE = re.compile(r"\n[ \t]*\n")
# A character a utf-8 address type writes escaped (RFC 6533 §3: \x{HEX}).
_ESCAPE = re.compile(r"\\x\{([0-9A-Fa-f]{1,6})\}")


def content_type(part: EmailMessage) -> str:
    """A part's content type, a global one's as its ASCII counterpart's."""
    ctype = part.get_content_type()
    return ASCII_OF.get(ctype, ctype)


def is_global(part: EmailMessage) -> bool:
    return part.get_content_type() in ASCII_OF


def status_blocks(part: EmailMessage, most: int = MOST_BLOCKS) -> list[EmailMessage]:
    """The blocks of a delivery status part (its per-message block first, then one for each
    recipient), the first `most` of them: a report's reader gives its parts MOST_BLOCKS in
    all (each block is parsed here from the part's text, which message.parse_message keeps
    whole, and a report may have hundreds of parts)."""
    blocks = part.get_payload()
    if isinstance(blocks, list) and not is_global(part):    # parsed by the package itself
        return blocks[:most]
    text = _text(part).replace("\r\n", "\n").strip("\n")
    blocks = [block for block in _BLANK_LINE.split(text, most) if block.strip()][:most]
    return [HeaderParser(policy=mailtext.reading_policy()).parsestr(block + "\n")
            for block in blocks]


def header_block(part: EmailMessage) -> str:
    """The header block of a message/global or message/global-headers part, as text."""
    return _BLANK_LINE.split(_text(part).replace("\r\n", "\n"), 1)[0]


def address_of(kind: str, address: str) -> str:
    """An address a recipient field names, its type's escapes undone (utf-8: \\x{HEX})."""
    if kind.strip().casefold() != "utf-8":
        return address
    return _ESCAPE.sub(lambda m: _character(int(m.group(1), 16)), address)


def _character(code: int) -> str:
    return chr(code) if code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else "\ufffd"


def _text(part: EmailMessage) -> str:
    """A status part's or a global part's text: its bytes as sent, its transfer encoding
    undone, read as UTF-8 (the first MOST_BYTES)."""
    payload = part.get_payload()
    if not isinstance(payload, list):       # the package read it as text: undone already
        raw = part.get_payload(decode=True)
        return raw[:MOST_BYTES].decode("utf-8", "replace") if isinstance(raw, bytes) else ""
    raw = _as_sent(payload[0]) if payload else b""
    encoding = mailtext.header_text(part, "Content-Transfer-Encoding").strip().casefold()
    try:
        if encoding == "base64":
            raw = binascii.a2b_base64(raw[:MOST_BYTES * 2])
        elif encoding == "quoted-printable":
            raw = quopri.decodestring(raw[:MOST_BYTES * 3])
    except (binascii.Error, ValueError):
        return ""
    return raw[:MOST_BYTES].decode("utf-8", "replace")


def _as_sent(inner: EmailMessage) -> bytes:
    """The bytes of the message the package made of a message/* part's content, put back
    together: its header block (what the package took for one) and its body."""
    if not isinstance(inner, EmailMessage):
        return b""
    head = "".join(f"{k}: {v}\n" for k, v in inner.raw_items() if isinstance(v, str))
    body = None if inner.is_multipart() else inner.get_payload(decode=True)
    return head.encode("utf-8", "surrogateescape") + b"\n" + \
        (body if isinstance(body, bytes) else b"")
