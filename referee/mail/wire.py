"""The referee's connections to mail servers, with what a server may send bounded.

The standard library's IMAP and SMTP clients keep whatever a server sends: every untagged
line, a literal of any size it announces, a reply of any number of lines; and their
timeout is for one read, so a server that sends a byte now and then holds them for ever.
The moderator's server may misbehave or be taken over: such a server made a pass take
gigabytes, or never end. Here a session

- ends SESSION_SECONDS after it began: its socket is shut from a timer, and the read under
  way says so;
- reads no literal over LITERAL_MOST bytes (a message the size limit lets through, with
  room for its header), and in all no more than its allowance: IMAP_START for the greeting,
  login and search, raised by what a pass may read (`allow`); SMTP_REPLIES for every
  reply of an SMTP session.

Past a bound the session fails as a lost connection does (IMAP4.abort, or OSError under
smtplib), which the callers already report as a transport failure: the mail stays unread,
or owed, for the next pass.
"""

from __future__ import annotations

import imaplib
import smtplib
import socket
import threading

from .mailboxes import MAX_MESSAGE

SESSION_SECONDS = 600.0
LITERAL_MOST = MAX_MESSAGE + (1 << 16)
IMAP_START = 8 << 20
SMTP_REPLIES = 1 << 20


class Allowance:
    """The bytes a session may still read, and the timer that cuts it off at its end."""

    def __init__(self, most: int):
        self.most, self.spent, self.cut = most, 0, False
        self.timer: threading.Timer | None = None

    def start(self, conn) -> None:
        """Start the session's clock (once): at its end, conn's socket is shut both ways
        (the plain socket's shutdown: a TLS socket's own is not for another thread)."""
        if self.timer is not None:
            return

        def cut() -> None:
            self.cut = True
            sock = getattr(conn, "sock", None)
            try:
                if sock is not None:
                    socket.socket.shutdown(sock, socket.SHUT_RDWR)
            except OSError:
                pass

        self.timer = threading.Timer(SESSION_SECONDS, cut)
        self.timer.daemon = True
        self.timer.start()

    def stop(self) -> None:
        if self.timer is not None:
            self.timer.cancel()

    def spend(self, size: int) -> str | None:
        """Count size bytes read; what is wrong when the session is past a bound."""
        self.spent += size
        if self.cut:
            return f"the session went on past {SESSION_SECONDS:g} s"
        if self.spent > self.most:
            return f"the server sent more than {self.most} bytes"
        return None


class _GuardedImap:
    """An IMAP client (mixed into imaplib's) whose reads are bounded by an Allowance."""

    def __init__(self, *args, **kwargs):
        self.allowance = Allowance(IMAP_START)
        super().__init__(*args, **kwargs)

    def open(self, *args, **kwargs):
        super().open(*args, **kwargs)
        self.allowance.start(self)

    def allow(self, more: int) -> None:
        """Let the session read `more` bytes beyond what it has read."""
        self.allowance.most = self.allowance.spent + more + IMAP_START

    def read(self, size):
        if size > LITERAL_MOST:
            raise self.abort(f"the server announced {size} bytes, over the limit of "
                             f"{LITERAL_MOST}")
        return self._checked(super().read(size))

    def readline(self):
        return self._checked(super().readline())

    def _checked(self, data: bytes) -> bytes:
        wrong = self.allowance.spend(len(data))
        if wrong is not None:
            raise self.abort(wrong)
        return data

    def shutdown(self):
        self.allowance.stop()
        super().shutdown()


class Imap(_GuardedImap, imaplib.IMAP4):
    """imaplib.IMAP4, bounded."""


class ImapSsl(_GuardedImap, imaplib.IMAP4_SSL):
    """imaplib.IMAP4_SSL, bounded."""


class _Replies:
    """An SMTP session's reply stream, as smtplib reads it (readline, close), bounded."""

    def __init__(self, stream, allowance: Allowance):
        self.stream, self.allowance = stream, allowance

    def readline(self, limit: int = -1) -> bytes:
        line = self.stream.readline(limit)
        wrong = self.allowance.spend(len(line))
        if wrong is not None:
            raise OSError(wrong)            # smtplib: the connection is lost
        return line

    def close(self) -> None:
        self.stream.close()


class _GuardedSmtp:
    """An SMTP client (mixed into smtplib's) whose replies are bounded by an Allowance."""

    def __init__(self, *args, **kwargs):
        self.allowance = Allowance(SMTP_REPLIES)
        super().__init__(*args, **kwargs)

    def getreply(self):
        if self.file is None and self.sock is not None:
            self.allowance.start(self)
            self.file = _Replies(self.sock.makefile("rb"), self.allowance)
        return super().getreply()

    def close(self):
        self.allowance.stop()
        super().close()


class Smtp(_GuardedSmtp, smtplib.SMTP):
    """smtplib.SMTP, bounded."""


class SmtpSsl(_GuardedSmtp, smtplib.SMTP_SSL):
    """smtplib.SMTP_SSL, bounded."""
