"""What the moderator reads when an IMAP server's answer is none imaplib can read: the
server's words decoded (never Python's repr of them, "unexpected response: b'220 ...'"),
and, when its very greeting was no IMAP (another service on the route's port: an SMTP
server's '220 ...'), what to check: the route's port, as the SMTP side says it
(smtpsaid.py).

The line keeps the shape of every session's failure, "imap HOST:PORT: what the server did;
no mail was read", the check after a colon (mailboxdown.py puts it where a pass says what
to do); the server's rest (breaker.py) keeps what the server did.
"""

from __future__ import annotations

import ast
import re

from ..base.errors import quoted
from ..store.mailroute import Server
from .smtpsaid import port_check

NONE_READ = "no mail was read"
NOT_IMAP = "an answer that is not IMAP: "
# The most of the server's words quoted: the line, cut at 200 (delivery.reason_of), keeps
# the quote's end.
WORDS_MOST = 120

# imaplib's words for a line that is no IMAP response, the line as Python's bytes repr.
_UNEXPECTED = re.compile(r"unexpected response: (b'(?:[^'\\]|\\.)*'|b\"(?:[^\"\\]|\\.)*\")")


def imap_words(text: str) -> str:
    """A failure's words, the answer imaplib could not read as IMAP given as the server's
    own, decoded and quoted ("an answer that is not IMAP: '220 localhost ...'")."""
    return _UNEXPECTED.sub(lambda m: NOT_IMAP + quoted(_decoded(m.group(1)), WORDS_MOST),
                           text)


def _decoded(literal: str) -> str:
    """The text of a bytes repr (a literal, never run), its spaces as one; as it came when
    it is no bytes literal."""
    try:
        said = ast.literal_eval(literal)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return literal
    return " ".join(said.decode("utf-8", "replace").split()) if isinstance(said, bytes) \
        else literal


def session_failure(server: Server, reason: str, greeted: bool) -> str:
    """The line for an IMAP session that failed (reason: what delivery.reason_of makes of
    its exception); greeted: whether the server's greeting was read. A greeting that is no
    IMAP is another service on the route's port: which port to check is said after."""
    where = f"imap {server.host}:{server.port}"
    if greeted or not reason.startswith(NOT_IMAP):
        return f"{where}: {reason}; {NONE_READ}"
    return (f"{where}: what answers on port {server.port} is not an IMAP server (it said "
            f"{reason.removeprefix(NOT_IMAP)}); {NONE_READ}: " + port_check(
                server, "--in imap://USER@HOST:PORT/FOLDER",
                "IMAP listens on 143 (STARTTLS, imap://) or 993 (TLS, imaps://)"))


def check_of(why: str) -> tuple[str, str | None]:
    """A session's failure less its check (session_failure), and the check (None: none)."""
    said, _, check = why.partition(f"; {NONE_READ}: ")
    return (f"{said}; {NONE_READ}", check) if check else (why, None)
