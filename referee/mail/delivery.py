"""Mail in from a mailbox, and the sessions mail goes out through (sending.py sends): the
game's mail route at work.

Standard library only: `imaplib` reads an IMAP folder (IMAPS, or STARTTLS when the server
offers it), `mailbox` (through mailboxes.py) an mbox file or a Maildir; `smtplib` opens the
session sending.py sends through (SMTPS, or STARTTLS when offered, with login when the
target names a user). Certificates are checked against the system's authorities
(`SSL_CERT_FILE` names another bundle).

The referee connects only to a host the moderator's mail settings name (store/
mailsettings.py), and only with TLS unless they say otherwise for that host: a journal
names a host, but cannot make the referee talk to one of someone else's choosing, hand it
a password, or say it in the clear.

Messages are read from IMAP with BODY.PEEK[] (reading marks nothing); only a message a
game took is marked \\Seen afterwards, so one no game claims stays unread for the
moderator. The referee's own mails wait as .eml files in a spool folder until a server
accepts them; each one accepted moves to the spool's `sent/` folder, so a mail is sent
again only if the server's answer was lost.
"""

from __future__ import annotations

import base64
import imaplib
import re
import smtplib
import socket
import ssl
import time
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from ..base.addresses import address_key
from ..base.errors import StorageError, UsageError, quoted
from ..store import mailsettings
from ..store.mailroute import (
    Server,
    server_of,
)
from ..store.mailsettings import env_name
from . import breaker, wire
from .credentials import password, password_file
from .imapsaid import imap_words
from .imapsaid import session_failure as imap_failure
from .mailboxes import MAX_MESSAGE
from .smtpsaid import server_words, session_failure

TIMEOUT = 60.0
HEADER_LIMIT = 1 << 16            # what is read of a message over the size limit: its header
# Refusals at MAIL FROM that speak of the session (a login wanted or refused), not the mail:
# the mails stay owed for a mended route.
SESSION_REFUSALS = (530, 534, 535, 538)
# What a server can make the IMAP client raise: a lost or refused connection, or a line it
# cannot take apart (a number of thousands of digits, or too large for a read).
SERVER_FAULTS = (OSError, imaplib.IMAP4.error, ssl.SSLError, ValueError, OverflowError)
UID = re.compile(rb"[1-9][0-9]{0,9}")
# A flood's backlog: the players' addresses whose messages a pass reads first, and how many
# one SEARCH asks for.
FIRST_ADDRESSES = 200
FIRST_ASKED = 20
PLAIN_ADDRESS = re.compile(r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~@-]{3,254}")
SESSION = re.compile(r"^(?:imap|smtp) \S+: ")        # what a session's error starts with


class TransportError(StorageError):
    """A mail server or command could not be reached or refused the referee (exit 3; the
    mail stays where it was: unread on the server, owed in the spool)."""

    kind = "transport"


# ---------------------------------------------------------------- IMAP

def _tls_context() -> ssl.SSLContext:
    return ssl.create_default_context()


def check_allowed(route: str, option: str, given: str | None = None) -> None:
    """Refuse a route the moderator's mail settings do not allow: a route:NAME they do not
    name, a server on a host they do not name (UsageError naming the option). given: the
    route as the moderator wrote it (a port it left out is said so)."""
    if route.startswith("route:"):
        mailsettings.route_command(route.removeprefix("route:"))
    elif route.startswith(("imap://", "imaps://", "smtp://", "smtps://")):
        server = server_of(route)
        settings = mailsettings.host_settings(server.host)
        if settings is None:
            raise UsageError(f"{option}: {server.host} is not a host of your mail settings "
                             f"({mailsettings.settings_path()}); the referee connects only "
                             f"to the hosts named there: add [hosts.\"{server.host}\"] "
                             f"(docs/moderator.md, Mail settings)")
        if server.port not in settings.ports:
            raise UsageError(_port_refused(given or route, server, list(settings.ports),
                                            option))


def _port_refused(route: str, server: Server, ports: list[int], option: str) -> str:
    """Why a route's port is refused: first the port to check in the route (one it did not
    name is its scheme's standard port), with the ports allowed for its host; then how to
    allow it, when it is the right one."""
    allowed = ", ".join(map(str, ports)) or "none"
    try:
        named = urlsplit(route).port is not None
    except ValueError:
        named = True
    if named:
        said, check = f"port {server.port} is", "check the port in the route"
    else:
        said = (f"{quoted(route)} names no port, so the referee takes {server.scheme}'s "
                f"standard port {server.port}, which is")
        login = f"{server.user}@" if server.user else ""
        check = (f"give the port in the route ({server.scheme}://{login}{server.host}:PORT"
                 f"{'/...' if server.folder else ''})")
    return (f"{option}: {said} not one your mail settings allow for {server.host} "
            f"({allowed}): {check}; if {server.port} is right, add it to the `ports` of "
            f"[hosts.\"{server.host}\"] in {mailsettings.settings_path()} (docs/moderator.md, "
            f"Mail settings)")


def _host_tls(kind: str, server: Server) -> bool:
    """Whether the host must be spoken to over TLS; TransportError when the moderator's mail
    settings do not name it (nothing is sent to it, no password above all)."""
    settings = mailsettings.host_settings(server.host, server.port)
    if settings is None:
        raise TransportError(f"{kind} {server.host}:{server.port}: not a host and port of your "
                             f"mail settings ({mailsettings.settings_path()}); nothing was "
                             f"sent to it (docs/moderator.md, Mail settings)")
    return settings.tls == "required"


def _no_clear_text(kind: str, server: Server) -> TransportError:
    return TransportError(f"{kind} {server.host}:{server.port}: offers no STARTTLS, and your "
                          f"mail settings require TLS for it; nothing was said in the clear")


def _login_password(kind: str, server: Server) -> str:
    secret = password(kind, server.user, server.host)
    if secret is None:
        raise UsageError(f"no password for {server.user}@{server.host}: set "
                         f"{env_name(kind, server.host)}, or add the line 'machine "
                         f"{server.host} login {server.user} password ...' to "
                         f"{password_file()} (mode 0600) or ~/.netrc")
    return secret


@dataclass
class Fetched:
    """One message read from a source: where it is, its bytes, and its IMAP UID (if any);
    for one over the size limit, only its header (`oversize`: its size in bytes)."""

    where: str
    raw: bytes
    uid: bytes | None = None
    oversize: int = 0


@dataclass
class ImapFolder:
    """An open IMAP folder (a context manager): unseen messages in, \\Seen flags out."""

    server: Server
    conn: imaplib.IMAP4 | None = None
    skipped: list[str] = field(default_factory=list)
    uidvalidity: str = ""                       # the folder's UIDVALIDITY, once opened
    unseen_uids: list[str] = field(default_factory=list)      # every unseen one, last pass
    left: int = 0                               # unseen ones left for the next pass
    slow: bool = False          # reading stopped at half the session's time (wire.py)

    def __enter__(self) -> ImapFolder:
        s = self.server
        where = f"imap {s.host}:{s.port}"
        need_tls = _host_tls("imap", s)
        self.key = breaker.key_of("imap", s.host, s.port)
        resting = breaker.resting(self.key)
        if resting is not None:
            raise TransportError(f"{where}: {resting}; no mail was read")
        self.started = time.monotonic()
        try:
            if s.tls:
                self.conn = wire.ImapSsl(s.host, s.port, ssl_context=_tls_context(),
                                         timeout=TIMEOUT)
            else:
                self.conn = wire.Imap(s.host, s.port, timeout=TIMEOUT)
                if "STARTTLS" in self.conn.capabilities:
                    self.conn.starttls(_tls_context())
                elif need_tls:
                    raise _no_clear_text("imap", s)
            secret = _login_password("imap", s)
            self.conn.login(s.user or "", secret)
            kind, data = self.conn.select(_quoted(s.folder))
            if kind != "OK":
                raise TransportError(f"{where}: the folder {s.folder!r} cannot be opened "
                                     f"({_said(data)})")
            validity = self.conn.response("UIDVALIDITY")[1]
            self.uidvalidity = _said(validity) if validity and validity[0] else ""
        except SERVER_FAULTS as exc:
            error = TransportError(imap_failure(s, reason_of(exc), self.conn is not None))
            self._closed(error)
            raise error from None
        except BaseException as exc:
            self._closed(exc)
            raise
        return self

    def __exit__(self, kind, exc, *rest) -> None:
        self._closed(exc)

    def _closed(self, exc: BaseException | None) -> None:
        """The session ended (exc: how it failed, None: it did not): logged out, and the
        server's rest (breaker.py) tripped or mended by how long it kept the session
        waiting; left as it was when the referee's own work failed (_rest_or_mend)."""
        _rest_or_mend(self.key, self.conn, self.started, exc)
        if self.conn is not None:
            try:
                self.conn.logout()
            except SERVER_FAULTS:
                pass
            self.conn = None

    def unseen(self, known: frozenset[str] = frozenset(), most: int = 50,
               most_bytes: int = 32 << 20, players: Collection[str] = ()) -> list[Fetched]:
        """The unseen messages of the folder not in `known` (UIDs read before), read
        without marking them (BODY.PEEK[]), oldest first, at most `most` of them and
        `most_bytes` in all, and none once the session has waited on the server half its
        time (the other half is for marking them read: a slow server's messages are read
        over several passes): the rest are counted in `left`, for the next pass. One over
        the size limit is left alone, named in `skipped`. When more wait than a pass reads,
        the messages from the players' addresses (`players`) come first, in their own
        order: a flood of strangers' mail keeps no player's orders waiting behind it."""
        s = self.server
        out: list[Fetched] = []
        used = 0
        try:
            self.conn.allow(most_bytes)
            uids = self._search("UNSEEN")
            self.unseen_uids = [u.decode() for u in uids]
            if sum(u.decode() not in known for u in uids) > most:
                first = self._from_players(players)
                uids = [u for u in uids if u in first] + [u for u in uids if u not in first]
            for uid in uids:
                if uid.decode() in known:
                    continue
                self.slow = self.slow or \
                    self.conn.allowance.waited > wire.SESSION_SECONDS / 2
                if self.left or len(out) >= most or self.slow:
                    self.left += 1              # oldest first: nothing newer before it
                    continue
                size = self._size(uid)
                where = f"{s.scheme}://{s.host}/{s.folder};UID={uid.decode()}"
                if size is None:
                    self.skipped.append(f"{where}: left unread (its size is not given)")
                    continue
                cost = HEADER_LIMIT if size > MAX_MESSAGE else size
                if used + cost > most_bytes:
                    self.left += 1
                    continue
                used += cost
                if size > MAX_MESSAGE:          # its header only, to answer its sender
                    head = self._header(uid)
                    if head is None:
                        self.skipped.append(f"{where}: left unread ({size} bytes, over the "
                                            f"limit of {MAX_MESSAGE})")
                    else:
                        out.append(Fetched(where, head, uid, oversize=size))
                    continue
                kind, data = self.conn.uid("FETCH", uid, "(BODY.PEEK[])")
                raw = next((part[1] for part in data or [] if isinstance(part, tuple)), None)
                if kind == "OK" and isinstance(raw, bytes):
                    out.append(Fetched(where, raw, uid))
        except SERVER_FAULTS as exc:
            raise TransportError(f"imap {s.host}:{s.port}: {reason_of(exc)}; the messages not "
                                 f"read stay unread") from None
        return out

    def _search(self, criteria: str) -> list[bytes]:
        """The UIDs a UID SEARCH answers, each once, what is no UID passed over."""
        kind, data = self.conn.uid("SEARCH", None, criteria)
        said = data[0] if kind == "OK" and data and isinstance(data[0], bytes) else b""
        return list(dict.fromkeys(u for u in said.split() if UID.fullmatch(u)))

    def _from_players(self, players: Collection[str]) -> set[bytes]:
        """The unseen messages whose From holds one of the players' addresses (at most
        FIRST_ADDRESSES of them, asked FIRST_ASKED at a time; one beyond ASCII, or not one
        plain token, is not asked)."""
        wanted = sorted({address_key(a) for a in players if PLAIN_ADDRESS.fullmatch(a)})
        found: set[bytes] = set()
        wanted = wanted[:FIRST_ADDRESSES]
        for i in range(0, len(wanted), FIRST_ASKED):
            terms = [f'FROM "{a}"' for a in wanted[i:i + FIRST_ASKED]]
            criteria = terms[-1]
            for term in reversed(terms[:-1]):
                criteria = f"OR {term} {criteria}"
            found.update(self._search(f"UNSEEN {criteria}"))
        return found

    def _header(self, uid: bytes) -> bytes | None:
        """A message's header alone (its first 64 KiB at most), read without marking it."""
        kind, data = self.conn.uid("FETCH", uid, f"(BODY.PEEK[HEADER]<0.{HEADER_LIMIT}>)")
        head = next((part[1] for part in data or [] if isinstance(part, tuple)), None)
        return head[:HEADER_LIMIT] if kind == "OK" and isinstance(head, bytes) else None

    def _size(self, uid: bytes) -> int | None:
        kind, data = self.conn.uid("FETCH", uid, "(RFC822.SIZE)")
        parts = [p[0] if isinstance(p, tuple) and p else p for p in data or []]
        text = b" ".join(p for p in parts if isinstance(p, bytes))
        found = re.search(rb"RFC822\.SIZE (\d{1,15})(?!\d)", text) if kind == "OK" else None
        return int(found.group(1)) if found else None

    def mark_seen(self, uids: list[bytes]) -> None:
        """Mark these messages \\Seen (the ones a game took)."""
        if not uids:
            return
        s = self.server
        try:
            kind, data = self.conn.uid("STORE", b",".join(uids), "+FLAGS.SILENT", r"(\Seen)")
        except SERVER_FAULTS as exc:
            raise TransportError(f"imap {s.host}:{s.port}: {reason_of(exc)}; the messages "
                                 f"handled stay unread and are known when read again"
                                 ) from None
        if kind != "OK":
            raise TransportError(f"imap {s.host}:{s.port}: the messages handled could not be "
                                 f"marked read ({_said(data)})")


def _quoted(folder: str) -> str:
    """A folder name as IMAP takes it: modified UTF-7 (RFC 3501 5.1.3), quoted."""
    name = _utf7(folder)
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _utf7(name: str) -> str:
    """Printable ASCII as it is ('&' as '&-'), every other run as &BASE64-of-UTF-16-."""
    out, run = [], []

    def close_run() -> None:
        if run:
            packed = base64.b64encode("".join(run).encode("utf-16-be")).decode()
            out.append("&" + packed.rstrip("=").replace("/", ",") + "-")
            run.clear()

    for ch in name:
        if " " <= ch <= "~":
            close_run()
            out.append("&-" if ch == "&" else ch)
        else:
            run.append(ch)
    close_run()
    return "".join(out)


def _said(data) -> str:
    text = b" ".join(d for d in data or [] if isinstance(d, bytes)).decode("ascii", "replace")
    return " ".join(text.split())[:200] or "no reason given"


def reason_of(exc: BaseException) -> str:
    """What went wrong, in one line (never a password: servers' words and errno texts)."""
    if isinstance(exc, ConnectionRefusedError):
        return "connection refused"
    if isinstance(exc, socket.timeout | TimeoutError):
        return "no answer (timed out)"
    if isinstance(exc, ssl.SSLCertVerificationError):
        return (f"its certificate is not trusted ({exc.verify_message}): when your own "
                f"authority signed it, name that authority's bundle in SSL_CERT_FILE")
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    if isinstance(exc, smtplib.SMTPResponseException):      # its code and words, decoded
        return server_words(exc)
    said = exc.args[0] if len(exc.args) == 1 else exc
    text = " ".join((said.decode("utf-8", "replace") if isinstance(said, bytes)
                     else str(said)).split())
    if isinstance(exc, imaplib.IMAP4.error):    # an answer that is no IMAP, decoded
        text = imap_words(text)
    return (text[:200] or type(exc).__name__)


def _rest_or_mend(key: str, conn, started: float, exc: BaseException | None) -> None:
    """The server's rest after a session (breaker.py): mended when it ended well (exc
    None), tripped by how long it waited when the server failed it (a TransportError: what
    the session's commands raise for a server's fault or refusal), its words kept for the
    passes it rests; left as it was when the referee's own work failed (its home or spool
    full, a lock, a password it lacks)."""
    if exc is None:
        breaker.ended(key, _waited(conn, started), failed=False)
    elif isinstance(exc, TransportError):
        said = SESSION.sub("", str(exc), count=1).split("; ", 1)[0]
        breaker.ended(key, _waited(conn, started), failed=True, why=said)


def _waited(conn, started: float) -> float:
    """How long a session waited on its server: its reads' waits (wire.Allowance), or all
    the time since it began when it never had a connection to read from (the connection,
    its TLS or its greeting failed)."""
    allowance = getattr(conn, "allowance", None)
    return allowance.waited if allowance is not None else time.monotonic() - started


def open_source(source: str):
    """An IMAP folder for an imap:// or imaps:// source (a context manager)."""
    return ImapFolder(server_of(source))


# ---------------------------------------------------------------- the spool and SMTP

def spool_files(spool: Path) -> list[Path]:
    """The mails still owed in a spool folder, oldest first (the order they were written;
    their names are digests), then by name."""
    try:
        found = [(p.lstat().st_mtime_ns, p.name, p) for p in spool.iterdir()
                 if p.suffix == ".eml" and p.is_file() and not p.is_symlink()]
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise StorageError(f"{spool}: the spool cannot be read ({exc.strerror})") from None
    return [p for _, _, p in sorted(found)]


def refused_mails(spool: Path) -> list[Path]:
    """The mails a server refused for good, set aside in spool/refused/ until the moderator
    acts on them (mends the address and moves the mail back, or removes it)."""
    return spool_files(spool / "refused")


class SmtpSession:
    """An SMTP session: TLS from the start (smtps), else STARTTLS when the server offers it;
    login when the target names a user (and `login` is on: not to ask a question)."""

    def __init__(self, server: Server, domain: str | None, login: bool = True):
        self.server = server
        self.domain = domain
        self.login = login
        self.conn: smtplib.SMTP | None = None

    def __enter__(self) -> smtplib.SMTP:
        s = self.server
        need_tls = _host_tls("smtp", s)
        self.key = breaker.key_of("smtp", s.host, s.port)
        resting = breaker.resting(self.key)
        if resting is not None:
            raise TransportError(f"smtp {s.host}:{s.port}: {resting}; every mail stays owed")
        self.started = time.monotonic()
        try:
            if s.tls:
                self.conn = wire.SmtpSsl(s.host, s.port, self.domain, timeout=TIMEOUT,
                                         context=_tls_context())
            else:
                self.conn = wire.Smtp(s.host, s.port, self.domain, timeout=TIMEOUT)
            self.conn.ehlo()
            if not s.tls and self.conn.has_extn("starttls"):
                self.conn.starttls(context=_tls_context())
                self.conn.ehlo()
            elif not s.tls and need_tls:
                raise _no_clear_text("smtp", s)
            if s.user and self.login:
                self.conn.login(s.user, _login_password("smtp", s))
        except (smtplib.SMTPException, OSError) as exc:
            error = TransportError(session_failure(s, exc, reason_of(exc)))
            self._closed(error)
            raise error from None
        except BaseException as exc:
            self._closed(exc)
            raise
        return self.conn

    def __exit__(self, kind, exc, *rest) -> None:
        self._closed(exc)

    def _closed(self, exc: BaseException | None) -> None:
        """The session ended (exc: how it failed, None: it did not): quit, and the server's
        rest tripped, mended or left as it was (_rest_or_mend)."""
        _rest_or_mend(self.key, self.conn, self.started, exc)
        if self.conn is not None:
            try:
                self.conn.quit()
            except (smtplib.SMTPException, OSError):
                self.conn.close()
            self.conn = None
