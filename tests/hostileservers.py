"""Hostile or broken mail servers on 127.0.0.1 (tests/test_hostile_servers.py): just enough
IMAP and SMTP to bring the referee to the point under attack, each step overridable."""

from __future__ import annotations

import socket
import ssl
import threading

HOST = "127.0.0.1"


class Conn:
    def __init__(self, sock: socket.socket, server: LineServer):
        self.sock = sock
        self.server = server
        self.tls = False
        self.reader = sock.makefile("rb")

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def line(self) -> bytes:
        return self.reader.readline(1 << 20)

    def starttls(self) -> None:
        self.reader.close()
        self.sock = self.server.tls_context.wrap_socket(self.sock, server_side=True)
        self.reader = self.sock.makefile("rb")
        self.tls = True


class LineServer:
    """Accepts on a free port of 127.0.0.1; each connection is talk(conn) in a thread."""

    def __init__(self, tls_context: ssl.SSLContext | None = None):
        self.tls_context = tls_context
        self.sock = socket.create_server((HOST, 0))
        self.port = self.sock.getsockname()[1]
        self.transcript: list[bytes] = []         # every line the client sent
        self.connections = 0                      # how many the server accepted
        self.lock = threading.Lock()
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                s, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._one, args=(s,), daemon=True).start()

    def _one(self, s: socket.socket) -> None:
        with self.lock:
            self.connections += 1
        conn = Conn(s, self)
        try:
            self.talk(conn)
        except (OSError, ssl.SSLError, ValueError):
            pass
        finally:
            try:
                conn.sock.close()
            except OSError:
                pass

    def talk(self, conn: Conn) -> None:
        raise NotImplementedError

    def lines(self, c: Conn):
        """Each line the client sends, kept in the transcript, until it closes."""
        while True:
            line = c.line()
            if not line:
                return
            with self.lock:
                self.transcript.append(line)
            yield line

    def stop(self) -> None:
        self.sock.close()


# ---------------------------------------------------------------- IMAP

class Imap(LineServer):
    """A scriptable IMAP server: messages by UID, STARTTLS when a context is given; each
    step (greeting, capability, select, search, size, body, header, store) overridable."""

    def __init__(self, tls_context=None, messages: dict[str, bytes] | None = None,
                 offer_starttls: bool = True):
        super().__init__(tls_context)
        self.messages = dict(messages or {})
        self.seen: set[str] = set()
        self.logins: list[tuple[str, bool]] = []        # (line with the password, over TLS)
        self.fetches: list[tuple[str, str]] = []        # (uid, what)
        self.stores: list[str] = []
        self.offer_starttls = offer_starttls and tls_context is not None

    # --- steps
    def greeting(self, c: Conn) -> None:
        c.send(b"* OK hostile IMAP4rev1 ready\r\n")

    def capability(self, c: Conn, tag: bytes) -> None:
        extra = b" STARTTLS" if self.offer_starttls and not c.tls else b""
        c.send(b"* CAPABILITY IMAP4rev1 AUTH=PLAIN" + extra + b"\r\n" + tag + b" OK done\r\n")

    def select(self, c: Conn, tag: bytes) -> None:
        c.send(b"* %d EXISTS\r\n* OK [UIDVALIDITY 7] ok\r\n" % len(self.messages) + tag +
               b" OK [READ-WRITE] selected\r\n")

    def search(self, c: Conn, tag: bytes) -> None:
        uids = b" ".join(u.encode() for u in self.messages if u not in self.seen)
        c.send(b"* SEARCH " + uids + b"\r\n" + tag + b" OK done\r\n")

    def size(self, c: Conn, tag: bytes, uid: str) -> None:
        raw = self.messages.get(uid, b"")
        c.send(b"* 1 FETCH (UID %s RFC822.SIZE %d)\r\n" % (uid.encode(), len(raw)) + tag +
               b" OK done\r\n")

    def body(self, c: Conn, tag: bytes, uid: str) -> None:
        raw = self.messages.get(uid, b"")
        c.send(b"* 1 FETCH (UID %s BODY[] {%d}\r\n" % (uid.encode(), len(raw)) + raw +
               b")\r\n" + tag + b" OK done\r\n")

    def header(self, c: Conn, tag: bytes, uid: str) -> None:
        raw = self.messages.get(uid, b"").split(b"\r\n\r\n")[0] + b"\r\n\r\n"
        c.send(b"* 1 FETCH (UID %s BODY[HEADER]<0> {%d}\r\n" % (uid.encode(), len(raw)) +
               raw + b")\r\n" + tag + b" OK done\r\n")

    def store(self, c: Conn, tag: bytes, uids: str) -> None:
        self.stores.append(uids)
        self.seen.update(uids.split(","))
        c.send(tag + b" OK stored\r\n")

    # --- the loop
    def talk(self, c: Conn) -> None:
        self.greeting(c)
        for line in self.lines(c):
            words = line.split()
            if len(words) < 2:
                continue
            tag, verb = words[0], words[1].upper()
            if verb == b"CAPABILITY":
                self.capability(c, tag)
            elif verb == b"STARTTLS":
                c.send(tag + b" OK begin TLS\r\n")
                c.starttls()
            elif verb == b"LOGIN":
                self.logins.append((line.decode("latin-1"), c.tls))
                c.send(tag + b" OK logged in\r\n")
            elif verb in (b"SELECT", b"EXAMINE"):
                self.select(c, tag)
            elif verb == b"UID" and len(words) > 2:
                sub = words[2].upper()
                if sub == b"SEARCH":
                    self.search(c, tag)
                elif sub == b"FETCH":
                    uid, what = words[3].decode(), b" ".join(words[4:]).decode()
                    self.fetches.append((uid, what))
                    if "RFC822.SIZE" in what:
                        self.size(c, tag, uid)
                    elif "HEADER" in what:
                        self.header(c, tag, uid)
                    else:
                        self.body(c, tag, uid)
                elif sub == b"STORE":
                    self.store(c, tag, words[3].decode())
                else:
                    c.send(tag + b" BAD what\r\n")
            elif verb == b"LOGOUT":
                c.send(b"* BYE bye\r\n" + tag + b" OK bye\r\n")
                return
            elif verb == b"NOOP":
                c.send(tag + b" OK\r\n")
            else:
                c.send(tag + b" BAD unknown\r\n")


# ---------------------------------------------------------------- SMTP

class Smtp(LineServer):
    """A scriptable SMTP server (STARTTLS when a context is given); keeps each mail."""

    def __init__(self, tls_context=None):
        super().__init__(tls_context)
        self.received: list[bytes] = []
        self.logins: list[tuple[bytes, bool]] = []

    def greeting(self, c: Conn) -> None:
        c.send(b"220 hostile ESMTP\r\n")

    def ehlo(self, c: Conn) -> None:
        tls = b"250-STARTTLS\r\n" if self.tls_context is not None and not c.tls else b""
        c.send(b"250-hostile\r\n" + tls + b"250 AUTH PLAIN LOGIN\r\n")

    def mail_from(self, c: Conn, line: bytes) -> None:
        c.send(b"250 ok\r\n")

    def rcpt(self, c: Conn, line: bytes) -> None:
        c.send(b"250 ok\r\n")

    def data(self, c: Conn) -> None:
        """After DATA: 354, the mail up to its lone dot, then after_data."""
        c.send(b"354 go on\r\n")
        mail = bytearray()
        while True:
            line = c.line()
            if not line:
                return
            if line.rstrip(b"\r\n") == b".":
                break
            mail += line
        self.after_data(c, bytes(mail))

    def after_data(self, c: Conn, mail: bytes) -> None:
        self.received.append(mail)
        c.send(b"250 2.0.0 queued\r\n")

    def talk(self, c: Conn) -> None:
        self.greeting(c)
        for line in self.lines(c):
            verb = (line.split() or [b""])[0].upper()
            if verb in (b"EHLO", b"HELO"):
                self.ehlo(c)
            elif verb == b"STARTTLS":
                c.send(b"220 go ahead\r\n")
                c.starttls()
            elif verb == b"AUTH":
                self.logins.append((line, c.tls))
                c.send(b"235 ok\r\n")
            elif verb == b"MAIL":
                self.mail_from(c, line)
            elif verb == b"RCPT":
                self.rcpt(c, line)
            elif verb == b"DATA":
                self.data(c)
            elif verb == b"RSET" or verb == b"NOOP":
                c.send(b"250 ok\r\n")
            elif verb == b"QUIT":
                c.send(b"221 bye\r\n")
                return
            else:
                c.send(b"502 no\r\n")


def order_mail(sender: str, key: str, ident: str, order: str = "pass") -> bytes:
    return (f"From: {sender}\r\nTo: umpire@example.com\r\nSubject: orders\r\n"
            f"Date: Sun, 09 Sep 2001 01:46:40 -0000\r\nMessage-ID: {ident}\r\n\r\n"
            f"{order}\r\n\r\nOrder key: {key}\r\n").encode()

