"""A mail of the referee's read as RFC 3676 (format=flowed, delsp=no) says: written, its
lines as the referee wrote them (space-stuffing and the soft breaks' spaces taken away);
unflowed, its paragraphs each on one line, as a mail program that reflows reads them."""

from __future__ import annotations

import email
import email.policy
import re
from pathlib import Path

_QUOTE = re.compile(r"^(>+) ?")


def _parts(text: str) -> list[tuple[int, str, bool]]:
    """Each line: its quote depth, its text unstuffed, whether it ends in a soft break."""
    out = []
    for line in text.replace("\r\n", "\n").split("\n"):
        m = _QUOTE.match(line)
        depth = len(m.group(1)) if m else 0
        body = line[m.end():] if m else line
        if not m and body.startswith(" "):
            body = body[1:]
        out.append((depth, body, body.endswith(" ") and body != "-- "))
    return out


def written(text: str) -> str:
    """The lines as the referee wrote them: stuffing undone, no soft break's space."""
    return "\n".join(">" * d + (" " if d and b else "") + (b[:-1] if soft else b)
                     for d, b, soft in _parts(text))


def unflowed(text: str) -> str:
    """The text as RFC 3676 reads it: soft-broken lines joined, stuffing undone."""
    out: list[str] = []
    held: tuple[int, str] | None = None
    for depth, body, soft in _parts(text):
        if held is not None and held[0] == depth:
            body = held[1] + body
        elif held is not None:
            out.append(">" * held[0] + (" " if held[0] else "") + held[1])
        held = (depth, body) if soft else None
        if not soft:
            out.append(">" * depth + (" " if depth and body else "") + body)
    if held is not None:
        out.append(">" * held[0] + (" " if held[0] else "") + held[1])
    return "\n".join(out)


def mail_text(path: Path) -> str:
    """A mail file's text part, as written."""
    msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    return written(msg.get_body(("plain",)).get_content())
