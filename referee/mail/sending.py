"""The referee's own mails out: each mail owed in a game's spool goes to the SMTP server
of its mail route (smtplib: SMTPS, or STARTTLS when offered, with login when the target
names a user; delivery.SmtpSession), or on the standard input of a sendmail-compatible
command a route of the moderator's mail settings names. Each mail accepted moves to the
spool's `sent/` folder, so a mail is sent again only if the server's answer was lost; one
refused for good moves to `refused/`; one refused for now stays owed, with the later ones
to its recipients behind it, and the others go on; one taken for some of its recipients
only is sent, and the others are named.
"""

from __future__ import annotations

import email.utils
import os
import re
import smtplib
import subprocess
from pathlib import Path

from ..base.addresses import address_key
from ..base.errors import StorageError
from ..base.plurals import counted
from ..store import home, mailsettings
from ..store.mailroute import Server, check_target, server_of
from . import message as mailtext
from .delivery import (
    SESSION_REFUSALS,
    TIMEOUT,
    SmtpSession,
    TransportError,
    reason_of,
    spool_files,
)
from .headers import header_block
from .ledger import fault


class HeldForNow(TransportError):
    """The server refused every recipient of one mail for now (4xx at RCPT: greylisting, a
    full mailbox): that mail, and the later ones to those recipients, stay owed; the
    session goes on with the others."""

    def __init__(self, message: str, recipients: list[str]):
        super().__init__(message)
        self.recipients = recipients


def send_owed(spool: Path, target: str) -> list[str]:
    """Send each mail owed in spool, oldest first, moving each one accepted into
    spool/sent/; one log line per mail. With `outbox:DIR` the spool is DIR and nothing is
    sent. TransportError when the server or command fails, StorageError when the spool
    fails: the mails not sent stay owed, and the error's `sent_lines` are those of the
    mails sent before. One the server refuses for good (5xx at MAIL FROM, at DATA, or for
    every recipient) is moved to spool/refused/ and the others go on; the error then names
    it. One whose every recipient the server refuses for now (4xx at RCPT) stays owed, as
    do the later ones to those recipients, and the others go on; the error then names it
    too. An error of a session that went to its end (the server answered each mail) has
    `held_for_now`: the addresses the server refused for now (fornow.py); one of a
    session that failed as a whole, or of no session, has none."""
    target = check_target(target)
    if target.startswith("outbox:"):
        return []
    owed = spool_files(spool)
    if not owed:
        return []
    lines: list[str] = []
    try:
        return _sent_all(spool, target, owed, lines)
    except StorageError as exc:         # a TransportError too: what went is said with it
        exc.sent_lines = list(lines)
        raise


def takes_mail(spool: Path, target: str) -> bool:
    """Whether a sending now would reach the route's server: an SMTP session opened and
    closed at once (a sendmail route's command is taken to be there; an outbox sends
    nothing). What the pass does before its mails go that only holds once they go."""
    target = check_target(target)
    if target.startswith("outbox:"):
        return False
    if target.startswith("route:"):
        return True
    owed = spool_files(spool)
    try:
        domain = _ehlo_domain(_envelope(owed[0].read_bytes(), owed[0])[0]) if owed else None
        with SmtpSession(server_of(target), domain):
            return True
    except (TransportError, OSError):
        return False


def _sent_all(spool: Path, target: str, owed: list[Path], lines: list[str]) -> list[str]:
    """send_owed's sending, each mail's line added to lines as it goes."""
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
        raise StorageError(f"{spool}: the spool cannot be used ({reason_of(exc)}); the mails "
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
                took = None
                try:
                    refused = _smtp_send(smtp, server, path, raw, len(owed) - i - 1)
                except HeldForNow as exc:
                    held.add(exc)
                    continue
                except _Partly as exc:        # gone to some: sent, and the rest said
                    refused, took = None, exc.took
                    set_aside.append(str(exc))
                if refused:
                    set_aside.append(refused)
                    lines.append(f"refused  {refused}")
                    continue
                fault("sent")
                lines.append(_moved(path, sent_dir, raw, took))
    except TransportError as exc:       # the session ended: what it did is said as well
        raise _stopped(str(exc), lines, set_aside + held.said()) from None
    said = set_aside + held.said()
    if said:
        error = _stopped(f"smtp {server.host}:{server.port}: {'; '.join(said)}", lines, [])
        error.held_for_now = sorted(held.refused)   # the session reached the server
        raise error


def _stopped(message: str, lines: list[str], said: list[str]) -> TransportError:
    """The TransportError that ends a sending: the message, what else the session met, how
    many mails went before (send_owed keeps their lines with it, for the log)."""
    sent = sum(line.startswith("sent ") for line in lines)
    return TransportError("; ".join([message, *said]) +
                          (f" ({counted(sent, 'other')} sent)" if sent else ""))


class _Held:
    """The recipients a session's server refused for now, and the mails that wait for
    them: a later mail to any of them is not tried before the earlier one went (each
    player's mails arrive in the order they were written)."""

    def __init__(self):
        self.recipients: set[str] = set()
        self.refused: set[str] = set()      # the recipients the server itself refused
        self.first: list[str] = []
        self.later: list[str] = []

    def add(self, exc: HeldForNow) -> None:
        self.recipients.update(address_key(r) for r in exc.recipients)
        self.refused.update(address_key(r) for r in exc.recipients)
        self.first.append(str(exc))

    def waits(self, path: Path, raw: bytes) -> bool:
        """Whether this mail waits; its recipients then wait too (a mail to one of them
        written after it does not go first)."""
        rcpts = {address_key(r) for r in _envelope(raw, path)[1]} if self.recipients else set()
        if self.recipients & rcpts:
            self.recipients |= rcpts
            self.later.append(path.name)
            return True
        return False

    def said(self) -> list[str]:
        if not self.first:
            return []
        stays = "it stays owed" if len(self.first) == 1 else "they stay owed"
        after = f"; {counted(len(self.later), 'later mail')} to them " \
            f"{'waits' if len(self.later) == 1 else 'wait'} too" if self.later else ""
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
    the session goes on); _Partly when it was taken for some recipients only (it is sent;
    the others are named to the moderator); TransportError when it was not taken for now
    for another reason (it and the rest stay owed)."""
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
        some = smtp.sendmail(sender, rcpts, re.sub(rb"\r?\n", b"\r\n", raw),
                             mail_options=options)
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
        raise TransportError(f"{where}: {path.name} not sent ({reason_of(exc)}); it and "
                             f"{left} more stay owed") from None
    except UnicodeError:            # an address the session cannot say, whatever it offers
        return _set_aside(path, f"for {', '.join(rcpts)}: an address that cannot be said to "
                                f"this server", None)
    except (smtplib.SMTPException, OSError) as exc:
        raise TransportError(f"{where}: {path.name} not sent ({reason_of(exc)}); it and "
                             f"{left} more stay owed") from None
    if some:
        took = [r for r in rcpts if r not in some]
        raise _Partly(f"{path.name} went to {', '.join(took)} but was refused for "
                      f"{', '.join(f'{r} ({v[0]})' for r, v in some.items())}; it is not sent "
                      f"again (the others have it): forward it to them from spool/sent/", took)
    return None


class _Partly(Exception):
    """The server took a mail for some of its recipients (`took`) and refused it for the
    others."""

    def __init__(self, said: str, took: list[str]):
        super().__init__(said)
        self.took = took


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


def _moved(path: Path, sent_dir: Path, raw: bytes, took: list[str] | None = None) -> str:
    """Move a sent mail into sent/ (atomic rename) and say so: to its recipients, or to
    those of them that took it."""
    os.replace(path, sent_dir / path.name)
    home.sync_dir(path.parent)
    rcpts = took if took is not None else _envelope(raw, path)[1]
    return f"sent     {path.name} to {', '.join(rcpts)}"


def _envelope(raw: bytes, path: Path) -> tuple[str, list[str]]:
    """The sender and recipients of a mail the referee wrote (From, To and Cc)."""
    head = header_block(raw[:65536])
    try:
        sender = email.utils.parseaddr(str(head.get("From", "")))[1]
        rcpts = [a for _, a in email.utils.getaddresses(
            [str(v) for k in ("To", "Cc") for v in head.get_all(k, [])]) if a]
    except mailtext.MailError as exc:
        raise StorageError(f"{path}: a mail in the spool that cannot be read ({exc})") from None
    if not rcpts:
        raise StorageError(f"{path}: a mail in the spool with no recipient")
    return sender, rcpts


def _run_sendmail(argv: list[str], raw: bytes, path: Path) -> None:
    """Give one mail to a sendmail-compatible command on its standard input (no shell)."""
    try:
        done = subprocess.run(argv, input=raw, capture_output=True, timeout=TIMEOUT,
                              check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        raise TransportError(f"sendmail {argv[0]}: cannot be run ({reason_of(exc)}); "
                             f"{path.name} stays owed") from None
    if done.returncode != 0:
        said = " ".join(done.stderr.decode("utf-8", "replace").split())[:200]
        raise TransportError(f"sendmail {argv[0]}: exit {done.returncode} for {path.name}"
                             + (f" ({said})" if said else "") + "; it stays owed")
