"""Mail in from a mailbox, mail out through a server: the game's mail route at work.

Standard library only: `imaplib` reads an IMAP folder (IMAPS, or STARTTLS when the server
offers it), `mailbox` (through mailboxes.py) an mbox file or a Maildir; `smtplib` sends
(SMTPS, or STARTTLS when offered, with login when the target names a user), or a
sendmail-compatible command named by a route of the moderator's mail settings gets each
mail on its standard input. Certificates are checked against the system's authorities
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
import email.utils
import imaplib
import os
import re
import smtplib
import socket
import ssl
import subprocess
from dataclasses import dataclass, field
from email.parser import BytesHeaderParser
from pathlib import Path

from ..base.errors import StorageError, UsageError
from ..store import home, mailsettings
from ..store.mailroute import (
    Server,
    check_target,
    server_of,
)
from ..store.mailsettings import env_name
from . import message as mailtext
from . import wire
from .credentials import password
from .ledger import fault
from .mailboxes import MAX_MESSAGE

TIMEOUT = 60.0
HEADER_LIMIT = 1 << 16            # what is read of a message over the size limit: its header
# Refusals at MAIL FROM that speak of the session (a login wanted or refused), not the mail:
# the mails stay owed for a mended route.
SESSION_REFUSALS = (530, 534, 535, 538)
# What a server can make the IMAP client raise: a lost or refused connection, or a line it
# cannot take apart (a number of thousands of digits, or too large for a read).
SERVER_FAULTS = (OSError, imaplib.IMAP4.error, ssl.SSLError, ValueError, OverflowError)
UID = re.compile(rb"[1-9][0-9]{0,9}")


class TransportError(StorageError):
    """A mail server or command could not be reached or refused the referee (exit 3; the
    mail stays where it was: unread on the server, owed in the spool)."""

    kind = "transport"
    sent_lines: tuple[str, ...] | list[str] = ()    # the log lines of the mails sent before it


class HeldForNow(TransportError):
    """The server refused every recipient of one mail for now (4xx at RCPT: greylisting, a
    full mailbox): that mail, and the later ones to those recipients, stay owed; the
    session goes on with the others."""

    def __init__(self, message: str, recipients: list[str]):
        super().__init__(message)
        self.recipients = recipients


# ---------------------------------------------------------------- IMAP

def _tls_context() -> ssl.SSLContext:
    return ssl.create_default_context()


def check_allowed(route: str, option: str) -> None:
    """Refuse a route the moderator's mail settings do not allow: a route:NAME they do not
    name, a server on a host they do not name (UsageError naming the option)."""
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
            raise UsageError(f"{option}: port {server.port} of {server.host} is not one of "
                             f"its ports in your mail settings "
                             f"({mailsettings.settings_path()}): add it to its `ports`")


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
                         f"{env_name(kind, server.host)}, or give it in the referee's password "
                         f"file or ~/.netrc")
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

    def __enter__(self) -> ImapFolder:
        s = self.server
        where = f"imap {s.host}:{s.port}"
        need_tls = _host_tls("imap", s)
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
            self.__exit__(None, None, None)
            raise TransportError(f"{where}: {_reason(exc)}; no mail was read") from None
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc) -> None:
        if self.conn is not None:
            try:
                self.conn.logout()
            except SERVER_FAULTS:
                pass
            self.conn = None

    def unseen(self, known: frozenset[str] = frozenset(), most: int = 50,
               most_bytes: int = 32 << 20) -> list[Fetched]:
        """The unseen messages of the folder not in `known` (UIDs read before), read
        without marking them (BODY.PEEK[]), oldest first, at most `most` of them and
        `most_bytes` in all: the rest are counted in `left`, for the next pass. One over
        the size limit is left alone, named in `skipped`."""
        s = self.server
        out: list[Fetched] = []
        used = 0
        try:
            self.conn.allow(most_bytes)
            kind, data = self.conn.uid("SEARCH", None, "UNSEEN")
            said = data[0] if kind == "OK" and data and isinstance(data[0], bytes) else b""
            uids = list(dict.fromkeys(u for u in said.split() if UID.fullmatch(u)))
            self.unseen_uids = [u.decode() for u in uids]
            for uid in uids:
                if uid.decode() in known:
                    continue
                if self.left or len(out) >= most:
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
            raise TransportError(f"imap {s.host}:{s.port}: {_reason(exc)}; the messages not "
                                 f"read stay unread") from None
        return out

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
            raise TransportError(f"imap {s.host}:{s.port}: {_reason(exc)}; the messages "
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


def _reason(exc: BaseException) -> str:
    """What went wrong, in one line (never a password: servers' words and errno texts)."""
    if isinstance(exc, ConnectionRefusedError):
        return "connection refused"
    if isinstance(exc, socket.timeout | TimeoutError):
        return "no answer (timed out)"
    if isinstance(exc, ssl.SSLCertVerificationError):
        return f"its certificate is not trusted ({exc.verify_message})"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    said = exc.args[0] if len(exc.args) == 1 else exc
    text = " ".join((said.decode("utf-8", "replace") if isinstance(said, bytes)
                     else str(said)).split())
    return (text[:200] or type(exc).__name__)


def open_source(source: str):
    """An IMAP folder for an imap:// or imaps:// source (a context manager)."""
    return ImapFolder(server_of(source))


# ---------------------------------------------------------------- sending

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


def send_owed(spool: Path, target: str) -> list[str]:
    """Send each mail owed in spool, oldest first, moving each one accepted into
    spool/sent/; one log line per mail. With `outbox:DIR` the spool is DIR and nothing is
    sent. TransportError when the server or command fails: the mails not sent stay owed
    (its `sent_lines` are those of the mails sent before). One the server refuses for good
    (5xx at MAIL FROM, at DATA, or for every recipient) is moved to spool/refused/ and the
    others go on; the error then names it. One whose every recipient the server refuses
    for now (4xx at RCPT) stays owed, as do the later ones to those recipients, and the
    others go on; the error then names it too."""
    target = check_target(target)
    if target.startswith("outbox:"):
        return []
    owed = spool_files(spool)
    if not owed:
        return []
    lines: list[str] = []
    try:
        sent_dir = home.ensure_dir(spool / "sent")
        if target.startswith("route:"):
            argv = mailsettings.route_command(target.removeprefix("route:"))
            for path in owed:
                raw = _owed_bytes(path)
                if raw is not None:
                    try:
                        _run_sendmail(argv, raw, path)
                    except TransportError as exc:
                        raise _stopped(str(exc), lines, []) from None
                    fault("sent")
                    lines.append(_moved(path, sent_dir, raw))
            return lines
        _by_smtp(server_of(target), owed, sent_dir, lines)
    except OSError as exc:
        raise StorageError(f"{spool}: the spool cannot be used ({_reason(exc)}); the mails "
                           f"not sent stay owed") from None
    return lines


def _by_smtp(server: Server, owed: list[Path], sent_dir: Path, lines: list[str]) -> None:
    """send_owed through one SMTP session, each mail's line added to lines as it goes."""
    # The referee greets the server with its own mail domain (no look-up of this machine's
    # name).
    domain = _ehlo_domain(_envelope(owed[0].read_bytes(), owed[0])[0])
    set_aside: list[str] = []
    held = _Held()
    try:
        with SmtpSession(server, domain) as smtp:
            for i, path in enumerate(owed):
                raw = _owed_bytes(path)
                if raw is None or held.waits(path, raw):
                    continue
                try:
                    refused = _smtp_send(smtp, server, path, raw, len(owed) - i - 1)
                except HeldForNow as exc:
                    held.add(exc)
                    continue
                if refused:
                    set_aside.append(refused)
                    lines.append(f"refused  {refused}")
                    continue
                fault("sent")
                lines.append(_moved(path, sent_dir, raw))
    except TransportError as exc:       # the session ended: what it did is said as well
        raise _stopped(str(exc), lines, set_aside + held.said()) from None
    said = set_aside + held.said()
    if said:
        raise _stopped(f"smtp {server.host}:{server.port}: {'; '.join(said)}", lines, [])


def _stopped(message: str, lines: list[str], said: list[str]) -> TransportError:
    """The TransportError that ends a sending: the message, what else the session met, how
    many mails went before (their lines kept with it, for the log)."""
    sent = sum(line.startswith("sent ") for line in lines)
    exc = TransportError("; ".join([message, *said]) +
                         (f" ({sent} other(s) sent)" if sent else ""))
    exc.sent_lines = list(lines)
    return exc


class _Held:
    """The recipients a session's server refused for now, and the mails that wait for
    them: a later mail to any of them is not tried before the earlier one went (each
    player's mails arrive in the order they were written)."""

    def __init__(self):
        self.recipients: set[str] = set()
        self.first: list[str] = []
        self.later: list[str] = []

    def add(self, exc: HeldForNow) -> None:
        self.recipients.update(r.lower() for r in exc.recipients)
        self.first.append(str(exc))

    def waits(self, path: Path, raw: bytes) -> bool:
        """Whether this mail waits; its recipients then wait too (a mail to one of them
        written after it does not go first)."""
        rcpts = {r.lower() for r in _envelope(raw, path)[1]} if self.recipients else set()
        if self.recipients & rcpts:
            self.recipients |= rcpts
            self.later.append(path.name)
            return True
        return False

    def said(self) -> list[str]:
        if not self.first:
            return []
        stays = "it stays owed" if len(self.first) == 1 else "they stay owed"
        after = f"; {len(self.later)} later mail(s) to them wait too" if self.later else ""
        return [f"{'; '.join(self.first)}; {stays}{after}"]


def _owed_bytes(path: Path) -> bytes | None:
    """A spooled mail's bytes (None: another run sent it meanwhile)."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def _smtp_send(smtp: smtplib.SMTP, server: Server, path: Path, raw: bytes,
               left: int) -> str | None:
    """One mail through an open session: None when it was taken; what was said when the
    server refused it for good (it is then moved to spool/refused/, and the session goes
    on); HeldForNow when the server refused its every recipient for now (it stays owed,
    the session goes on); TransportError when it was not taken for now for another reason
    (it and the rest stay owed)."""
    sender, rcpts = _envelope(raw, path)
    where = f"smtp {server.host}:{server.port}"
    options: list[str] = []
    if not (sender.isascii() and all(r.isascii() for r in rcpts)):
        # An address beyond ASCII (RFC 6531) goes only to a server that takes it.
        if not smtp.has_extn("smtputf8"):
            return _set_aside(path, f"for {', '.join(rcpts)}: the server takes no address "
                                    f"beyond ASCII (no SMTPUTF8)", None)
        options.append("SMTPUTF8")
    try:
        smtp.sendmail(sender, rcpts, re.sub(rb"\r?\n", b"\r\n", raw), mail_options=options)
        return None
    except smtplib.SMTPRecipientsRefused as exc:
        codes = [v[0] for v in exc.recipients.values()]
        if codes and all(isinstance(c, int) and c >= 500 and c not in SESSION_REFUSALS
                         for c in codes):
            return _set_aside(path, f"for {', '.join(exc.recipients)}", codes[0])
        if any(c == 421 for c in codes):           # the server closes the session
            raise TransportError(f"{where}: {path.name} not sent (421: the server closes "
                                 f"the session); it and {left} more stay owed") from None
        raise HeldForNow(f"{path.name} refused for now for {', '.join(exc.recipients)}",
                         list(exc.recipients)) from None
    except (smtplib.SMTPSenderRefused, smtplib.SMTPDataError) as exc:
        if isinstance(exc.smtp_code, int) and exc.smtp_code >= 500 and \
                exc.smtp_code not in SESSION_REFUSALS:
            stage = "at MAIL FROM" if isinstance(exc, smtplib.SMTPSenderRefused) else \
                "at DATA"
            return _set_aside(path, f"{stage} for {', '.join(rcpts)}", exc.smtp_code)
        raise TransportError(f"{where}: {path.name} not sent ({_reason(exc)}); it and "
                             f"{left} more stay owed") from None
    except UnicodeError:            # an address the session cannot say, whatever it offers
        return _set_aside(path, f"for {', '.join(rcpts)}: an address that cannot be said to "
                                f"this server", None)
    except (smtplib.SMTPException, OSError) as exc:
        raise TransportError(f"{where}: {path.name} not sent ({_reason(exc)}); it and "
                             f"{left} more stay owed") from None


def _ehlo_domain(sender: str) -> str | None:
    """The name the referee greets the server with: its own mail domain, in ASCII (IDNA for
    one beyond ASCII), or None (smtplib's default) when it has none that can be said."""
    domain = sender.rpartition("@")[2]
    try:
        return domain.encode("idna").decode("ascii") if domain else None
    except UnicodeError:
        return None


def _set_aside(path: Path, how: str, code: int | None) -> str:
    """Move a mail refused for good into spool/refused/; the line that says so."""
    refused = home.ensure_dir(path.parent / "refused")
    os.replace(path, refused / path.name)
    home.sync_dir(path.parent)
    said = f" ({code})" if code is not None else ""
    return f"{path.name} refused for good {how}{said}; moved to {refused}"


def _moved(path: Path, sent_dir: Path, raw: bytes) -> str:
    """Move a sent mail into sent/ (atomic rename) and say so."""
    os.replace(path, sent_dir / path.name)
    home.sync_dir(path.parent)
    _, rcpts = _envelope(raw, path)
    return f"sent     {path.name} to {', '.join(rcpts)}"


def _envelope(raw: bytes, path: Path) -> tuple[str, list[str]]:
    """The sender and recipients of a mail the referee wrote (From, To and Cc)."""
    head = BytesHeaderParser(policy=mailtext.reading_policy()).parsebytes(raw[:65536])
    try:
        sender = email.utils.parseaddr(str(head.get("From", "")))[1]
        rcpts = [a for _, a in email.utils.getaddresses(
            [str(v) for k in ("To", "Cc") for v in head.get_all(k, [])]) if a]
    except mailtext.MailError as exc:
        raise StorageError(f"{path}: a mail in the spool that cannot be read ({exc})") from None
    if not rcpts:
        raise StorageError(f"{path}: a mail in the spool with no recipient")
    return sender, rcpts


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
            self.__exit__(None, None, None)
            raise TransportError(f"smtp {s.host}:{s.port}: {_reason(exc)}; every mail stays "
                                 f"owed") from None
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self.conn

    def __exit__(self, *exc) -> None:
        if self.conn is not None:
            try:
                self.conn.quit()
            except (smtplib.SMTPException, OSError):
                self.conn.close()
            self.conn = None


def _run_sendmail(argv: list[str], raw: bytes, path: Path) -> None:
    """Give one mail to a sendmail-compatible command on its standard input (no shell)."""
    try:
        done = subprocess.run(argv, input=raw, capture_output=True, timeout=TIMEOUT,
                              check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        raise TransportError(f"sendmail {argv[0]}: cannot be run ({_reason(exc)}); "
                             f"{path.name} stays owed") from None
    if done.returncode != 0:
        said = " ".join(done.stderr.decode("utf-8", "replace").split())[:200]
        raise TransportError(f"sendmail {argv[0]}: exit {done.returncode} for {path.name}"
                             + (f" ({said})" if said else "") + "; it stays owed")
