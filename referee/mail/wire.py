"""The referee's connections to mail servers, with what a server may send bounded.

The standard library's IMAP and SMTP clients keep whatever a server sends: every untagged
line, a literal of any size it announces, a reply of any number of lines; and their
timeout is for one read, so a server that sends a byte now and then holds them for ever.
The moderator's server may misbehave or be taken over: such a server made a pass take
gigabytes, never end, or stop at one message. Here

- each command's answer (and the greeting) comes within COMMAND_SECONDS, however the
  server trickles: every read waits at most what is left of that time;
- a session waits on its server SESSION_SECONDS in all, however many commands it sends
  (a server that answers each just in time held a pass for hours, and the other games of
  the folder behind it); the referee's own work between two commands is not counted;
- a session reads no more than its allowance: IMAP_START for the greeting, login and
  search, raised by what a pass may read (`allow`); SMTP_REPLIES for every reply of an
  SMTP session; an IMAP line no more than LINE_MOST;
- of a literal over LITERAL_MOST bytes (more than the size limit lets through, with room
  for a header) only that much is kept, the rest read and dropped: the message is then
  one too large, as it is when the server says its size.

Past a bound the session fails as a lost connection does (IMAP4.abort, or OSError under
smtplib), which the callers report as a transport failure: the mail stays unread, or owed,
for the next pass. No thread is started: a pass may fork (mail/sharing.py).
"""

from __future__ import annotations

import imaplib
import math
import smtplib
import time

from .mailboxes import MAX_MESSAGE

COMMAND_SECONDS = 300.0
SESSION_SECONDS = 600.0
LITERAL_MOST = MAX_MESSAGE + (1 << 16)
IMAP_START = 8 << 20
SMTP_REPLIES = 1 << 20
CHUNK = 1 << 16
# The longest line an IMAP server may send, which the allowance bounds anyway: the answer
# to UID SEARCH is one line, 1.3 MB for a folder of 200,000 unseen messages (a stranger's
# flood), where the standard library's 1,000,000 bytes made every pass fail.
LINE_MOST = IMAP_START


class Bounded(Exception):
    """A bound of the session met (said in its message)."""


class Allowance:
    """The bytes a session may still read, and when the answer awaited must have come."""

    def __init__(self, most: int):
        self.most, self.spent, self.until = most, 0, math.inf
        self.waited = 0.0           # seconds the session has waited on the server's reads

    def restart(self) -> None:
        """A command sent (or a connection made): its answer is awaited from now."""
        self.until = time.monotonic() + COMMAND_SECONDS

    def left(self) -> float:
        """How long the next read may wait: what is left of the answer's time and of the
        session's."""
        return min(self.until - time.monotonic(), SESSION_SECONDS - self.waited)

    def wait_on(self, sock, longest: float | None) -> None:
        """Let the next read on sock wait no longer than what is left (nor than longest,
        the connection's own timeout)."""
        left = self.left()
        if left <= 0:
            raise self.late()
        if sock is not None:
            sock.settimeout(min(left, longest) if longest else left)

    def late(self) -> Bounded:
        if self.waited >= SESSION_SECONDS:
            return Bounded(f"the server took more than {SESSION_SECONDS:g} s in all to "
                           f"answer this session")
        return Bounded(f"the server took more than {COMMAND_SECONDS:g} s to answer")

    def read(self, read, *args) -> bytes:
        """read(*args), a read that waited as wait_on let it, its wait counted: one that
        timed out at the end of the answer's or the session's time says so."""
        started = time.monotonic()
        try:
            data = read(*args)
        except TimeoutError:
            self.waited += time.monotonic() - started
            if self.left() <= 0:
                raise self.late() from None
            raise
        self.waited += time.monotonic() - started
        return data

    def spend(self, size: int) -> None:
        self.spent += size
        if self.spent > self.most:
            raise Bounded(f"the server sent more than {self.most} bytes")


def read_line(stream, sock, allowance: Allowance, longest, limit: int) -> bytes:
    """A line of stream (a buffered reader of sock), at most limit bytes, one read of the
    socket at a time, each within the time left."""
    out = bytearray()
    while len(out) < limit:
        allowance.wait_on(sock, longest)
        ahead = allowance.read(stream.peek, 1)[:limit - len(out)]   # one read of the socket
        if not ahead:
            break
        end = ahead.find(b"\n")
        out += stream.read(len(ahead) if end < 0 else end + 1)
        if end >= 0:
            break
    allowance.spend(len(out))
    return bytes(out)


def read_bytes(stream, sock, allowance: Allowance, longest, size: int) -> bytes:
    """size bytes of stream (fewer at its end), of which the first LITERAL_MOST are kept."""
    kept, got = bytearray(), 0
    while got < size:
        allowance.wait_on(sock, longest)
        chunk = allowance.read(stream.read1, min(size - got, CHUNK))
        if not chunk:
            break
        got += len(chunk)
        allowance.spend(len(chunk))
        if len(kept) < LITERAL_MOST:
            kept += chunk[:LITERAL_MOST - len(kept)]
    return bytes(kept)


class _GuardedImap:
    """An IMAP client (mixed into imaplib's) whose reads are bounded by an Allowance."""

    def __init__(self, *args, **kwargs):
        self.allowance = Allowance(IMAP_START)
        super().__init__(*args, **kwargs)

    def open(self, *args, **kwargs):
        self.allowance.restart()
        super().open(*args, **kwargs)
        self.longest = self.sock.gettimeout()       # the connection's own, for one read

    def allow(self, more: int) -> None:
        """Let the session read `more` bytes beyond what it has read."""
        self.allowance.most = self.allowance.spent + more + IMAP_START

    def send(self, data):
        self.allowance.restart()
        super().send(data)

    def read(self, size):
        return self._bounded(read_bytes, size)

    def readline(self):
        line = self._bounded(read_line, LINE_MOST + 1)
        if len(line) > LINE_MOST:
            raise self.error(f"got more than {LINE_MOST} bytes")
        return line

    def _bounded(self, reader, size: int) -> bytes:
        try:
            return reader(self.file, self.sock, self.allowance, self.longest, size)
        except Bounded as exc:
            raise self.abort(str(exc)) from None


class Imap(_GuardedImap, imaplib.IMAP4):
    """imaplib.IMAP4, bounded."""


class ImapSsl(_GuardedImap, imaplib.IMAP4_SSL):
    """imaplib.IMAP4_SSL, bounded."""


class _Replies:
    """An SMTP session's reply stream, as smtplib reads it (readline, close), bounded."""

    def __init__(self, conn, longest):
        self.conn, self.longest = conn, longest
        self.stream = conn.sock.makefile("rb")

    def readline(self, limit: int = -1) -> bytes:
        try:
            return read_line(self.stream, self.conn.sock, self.conn.allowance, self.longest,
                             limit if limit > 0 else SMTP_REPLIES + 1)
        except Bounded as exc:
            raise OSError(str(exc)) from None     # smtplib: the connection is lost

    def close(self) -> None:
        self.stream.close()


class _GuardedSmtp:
    """An SMTP client (mixed into smtplib's) whose replies are bounded by an Allowance."""

    def __init__(self, *args, **kwargs):
        self.allowance = Allowance(SMTP_REPLIES)
        super().__init__(*args, **kwargs)

    def getreply(self):
        if self.file is None and self.sock is not None:
            self.allowance.restart()            # the greeting, or the first reply under TLS
            self.file = _Replies(self, self.sock.gettimeout())
        return super().getreply()

    def send(self, s):
        self.allowance.restart()
        super().send(s)


class Smtp(_GuardedSmtp, smtplib.SMTP):
    """smtplib.SMTP, bounded."""


class SmtpSsl(_GuardedSmtp, smtplib.SMTP_SSL):
    """smtplib.SMTP_SSL, bounded."""
