"""What the moderator reads when an SMTP server will not take the referee's session: one
line, the server's own words decoded (never Python's repr of them, `(535, b'...')`), and
what to check: the password for a refused login (where the referee read it, the variable
or the file, never the password itself), the port of the route for a service that is no
SMTP server, the server's state for the rest. As the IMAP side says it (mailboxdown.py).

The first part of the line, up to its first "; ", is what the server did: the server's
rest (breaker.py) keeps those words for the passes it rests.
"""

from __future__ import annotations

import smtplib
import socket
import ssl

from ..base.errors import UsageError, one_line, quoted
from ..base.plurals import joined
from ..store import mailsettings
from ..store.mailroute import Server
from ..store.mailsettings import env_name
from .credentials import password_place

WORDS_MOST = 200
SETTINGS = "docs/moderator.md, Mail settings"
UP = "see that the server is up and takes mail from this machine"


def server_words(exc: smtplib.SMTPResponseException) -> str:
    """An SMTP answer as a line: its code and its words, decoded; an answer that is no SMTP
    reply (smtplib's code -1) quoted as it came."""
    said = exc.smtp_error
    text = said.decode("utf-8", "replace") if isinstance(said, bytes) else str(said)
    text = " ".join(text.split())
    code = exc.smtp_code
    if not isinstance(code, int) or not 100 <= code < 600:
        return f"an answer that is not SMTP: {quoted(text, WORDS_MOST)}"
    return one_line(f"{code} {text[:WORDS_MOST]}".rstrip())


def session_failure(server: Server, exc: BaseException, reason: str) -> str:
    """The line for a session that failed before a mail was given (exc; reason: what
    delivery.reason_of makes of it): what happened, that the mails stay owed, what to check."""
    what, check = _what_and_check(server, exc, reason)
    return f"smtp {server.host}:{server.port}: {what}; every mail stays owed: {check}"


def _what_and_check(server: Server, exc: BaseException, reason: str) -> tuple[str, str]:
    port = server.port
    if isinstance(exc, smtplib.SMTPAuthenticationError):
        return (f"the server refused the login of {one_line(server.user or '')} "
                f"({server_words(exc)})", _check_password(server))
    if isinstance(exc, smtplib.SMTPResponseException):
        if not 100 <= exc.smtp_code < 600:
            return (f"what answers on port {port} is not an SMTP server (it said "
                    f"{server_words(exc).removeprefix('an answer that is not SMTP: ')})",
                    _check_port(server))
        return f"the server answered {server_words(exc)}", UP
    if isinstance(exc, smtplib.SMTPNotSupportedError):
        return (f"the server offers no login ({reason})",
                f"if it takes mail without one, name no user in the route "
                f"(smtp://{server.host}:{port}); else {_check_port(server)}")
    if isinstance(exc, ConnectionRefusedError):
        return "connection refused", f"see that the server is up; else {_check_port(server)}"
    if isinstance(exc, socket.timeout | TimeoutError):
        return reason, f"see that the server is up and that this machine reaches {server.host}"
    if isinstance(exc, ssl.SSLCertVerificationError):
        return reason.split(": when", 1)[0], \
            "when your own authority signed it, name that authority's bundle in SSL_CERT_FILE"
    if isinstance(exc, ssl.SSLError):
        return f"TLS failed ({reason})", _check_port(server)
    if isinstance(exc, smtplib.SMTPServerDisconnected):
        return f"the server closed the connection ({reason})", f"{UP}; else " \
            f"{_check_port(server)}"
    return reason, UP


def _check_port(server: Server) -> str:
    """What to check of an SMTP route's port (port_check)."""
    return port_check(server, "--out smtp://USER@HOST:PORT",
                      "SMTP listens on 587 (STARTTLS, smtp://) or 465 (TLS, smtps://)")


def port_check(server: Server, mend: str, listens: str) -> str:
    """What to check of the route's port: the ports the mail settings allow for its host,
    every one of them (the route's among them: the settings name a host's ports for IMAP
    and SMTP alike, so none is told as the other service's); mend: the `referee mail`
    option that mends it, listens: where its service listens."""
    try:
        allowed = mailsettings.host_settings(server.host)
    except UsageError:
        allowed = None
    ports = sorted(allowed.ports) if allowed is not None else []
    listed = f" (your mail settings allow {joined(list(map(str, ports)))} for {server.host}" \
        f", for IMAP and SMTP alike)" if ports else ""
    return (f"check the port of the game's mail route, {server.port}{listed}: `referee mail "
            f"JOURNAL` shows the route, `referee mail JOURNAL {mend}` mends it; {listens}")


def _check_password(server: Server) -> str:
    """What to check of a refused login: where its password was read (never the password)."""
    try:
        named = mailsettings.named_host(server.host) or server.host
    except UsageError:
        named = server.host
    variable = env_name("smtp", named)
    place = password_place("smtp", server.user, server.host)
    if place == variable:
        return f"check the password {variable} holds ({SETTINGS})"
    if place is None:
        return f"check the password given for {server.user}@{named} ({SETTINGS})"
    return (f"check the password of {named}'s line in {place}: that file holds one password "
            f"a host, so an SMTP password other than the IMAP one goes in {variable} "
            f"({SETTINGS})")
