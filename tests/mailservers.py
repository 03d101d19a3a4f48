"""Real mail servers on 127.0.0.1 for the tests: IMAP (pymap's in-memory backend) and SMTP
(aiosmtpd), each speaking STARTTLS with a certificate of a throwaway authority (trustme)
and asking for a login. Each listens on a free port of 127.0.0.1 only and starts in well
under a second; nothing here contacts any other address."""

from __future__ import annotations

import asyncio
import imaplib
import logging
import os
import socket
import ssl
import threading
import uuid
from argparse import Namespace
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import trustme

HOST = "127.0.0.1"
USER = "referee"
PASSWORD = "pw-Zq7!tick-9"         # what no output or file of the game may ever hold


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


@dataclass
class Authority:
    """A throwaway certificate authority, its bundle on disk (SSL_CERT_FILE for the
    referee), and a server context holding a certificate for 127.0.0.1."""

    ca: trustme.CA
    bundle: Path

    def server_context(self) -> ssl.SSLContext:
        ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        self.ca.issue_cert(HOST).configure_cert(ctx)
        return ctx

    def client_context(self) -> ssl.SSLContext:
        ctx = ssl.create_default_context()
        self.ca.configure_trust(ctx)
        return ctx


def authority(folder: Path) -> Authority:
    ca = trustme.CA()
    bundle = folder / "ca.pem"
    ca.cert_pem.write_to_path(str(bundle))
    return Authority(ca, bundle)


# ---------------------------------------------------------------- IMAP

@dataclass
class ImapServer:
    """pymap with its in-memory backend, one user (USER, PASSWORD), in a thread of its own."""

    auth: Authority
    port: int = 0
    loop: asyncio.AbstractEventLoop | None = None
    thread: threading.Thread | None = None

    def start(self) -> ImapServer:
        from pymap.backend.dict import DictBackend
        from pymap.imap import IMAPService
        from pysasl.hashing import BuiltinHash

        os.environ.setdefault("FQDN", "localhost")      # its greeting: no name look-up
        self.port = free_port()
        args = Namespace(host=HOST, port=self.port, debug=False, cert=None, key=None,
                         tls=True, passlib_cfg=None, proxy_protocol=None,
                         inherited_sockets=None, demo_data=False, demo_user=USER,
                         demo_password=PASSWORD)
        ready = threading.Event()
        self.loop = asyncio.new_event_loop()
        context = self.auth.server_context()

        async def serve():
            backend, config = await DictBackend.init(args, ssl_context=context,
                                                     reject_dnsbl=False,
                                                     invalid_user_sleep=0.0,
                                                     # a test login costs no key stretching
                                                     hash_context=BuiltinHash(rounds=1))
            config.apply_context()
            async with AsyncExitStack() as stack:
                await backend.start(stack)
                await IMAPService(backend, config).start(stack)
                self._stop = asyncio.Event()
                ready.set()
                await self._stop.wait()

        self.thread = threading.Thread(target=self.loop.run_until_complete, args=(serve(),),
                                       daemon=True)
        self.thread.start()
        assert ready.wait(5), "the IMAP server did not start"
        return self

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self._stop.set)
        self.thread.join(5)

    def client(self) -> imaplib.IMAP4:
        c = imaplib.IMAP4(HOST, self.port, timeout=10)
        c.starttls(self.auth.client_context())
        c.login(USER, PASSWORD)
        return c

    def new_folder(self, name: str = "") -> str:
        """A new folder (name: as IMAP writes it, modified UTF-7)."""
        name = name or f"games-{uuid.uuid4().hex[:8]}"
        c = self.client()
        try:
            assert c.create(f'"{name}"')[0] == "OK"
        finally:
            c.logout()
        return name

    def deliver(self, folder: str, *raws: bytes) -> None:
        """Put messages into a folder, unseen (as a mail server delivers them)."""
        c = self.client()
        try:
            for raw in raws:
                assert c.append(f'"{folder}"', None, None, raw.replace(b"\r\n", b"\n")
                                .replace(b"\n", b"\r\n"))[0] == "OK"
        finally:
            c.logout()

    def seen(self, folder: str) -> dict[str, bool]:
        """Each message's Message-ID and whether it is \\Seen."""
        c = self.client()
        try:
            c.select(f'"{folder}"', readonly=True)
            _, data = c.fetch("1:*", "(FLAGS BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)])")
        finally:
            c.logout()
        out = {}
        for part in data:
            if isinstance(part, tuple):
                ident = part[1].decode().split(":", 1)[1].strip()
                out[ident] = b"\\Seen" in part[0]
        return out


# ---------------------------------------------------------------- SMTP

@dataclass
class SmtpServer:
    """aiosmtpd on a free port: STARTTLS required before AUTH (with implicit: TLS from the
    first byte, as smtps), one login; keeps each mail."""

    auth: Authority
    implicit: bool = False
    utf8: bool = False                 # offers SMTPUTF8 (addresses beyond ASCII, RFC 6531)
    port: int = 0
    received: list[tuple[str, list[str], bytes]] = field(default_factory=list)
    logins: list[str] = field(default_factory=list)
    held: set[str] = field(default_factory=set)     # recipients refused for now (450)
    gone: set[str] = field(default_factory=set)     # recipients refused for good (550)

    def start(self) -> SmtpServer:
        from aiosmtpd.controller import Controller
        from aiosmtpd.smtp import AuthResult

        kept = self

        class Keep:
            """Refuses for good a sender blocked@ (at MAIL FROM), a recipient nobody@ and
            the recipients in `gone` (at RCPT) and any mail to toolarge@ (at DATA, as a size
            or spam filter does); for now, the recipients in `held` (at RCPT, as greylisting
            does)."""

            async def handle_MAIL(self, server, session, envelope, address, options):  # noqa: N802
                if address.startswith("blocked@"):
                    return "553 5.7.1 sender refused"
                envelope.mail_from = address
                envelope.mail_options.extend(options)
                return "250 OK"

            async def handle_RCPT(self, server, session, envelope, address, options):  # noqa: N802
                if address.startswith("nobody@") or address in kept.gone:
                    return "550 5.1.1 no such mailbox"
                if address in kept.held:
                    return "450 4.2.0 greylisted: try again later"
                envelope.rcpt_tos.append(address)
                return "250 OK"

            async def handle_DATA(self, server, session, envelope):  # noqa: N802 - its API
                if any(a.startswith("toolarge@") for a in envelope.rcpt_tos):
                    return "554 5.3.4 message too big for system"
                kept.received.append((envelope.mail_from, list(envelope.rcpt_tos),
                                      envelope.original_content))
                return "250 OK"

        def login(server, session, envelope, mechanism, data):
            ok = data.login.decode() == USER and data.password.decode() == PASSWORD
            if ok:
                kept.logins.append(data.login.decode())
            # handled=False: aiosmtpd itself answers a refused login (535), as a real
            # server does; handled=True would send nothing, and the client wait its timeout.
            return AuthResult(success=ok, handled=False)

        logging.getLogger("mail.log").setLevel(logging.ERROR)     # its deprecation notes
        self.port = free_port()
        # aiosmtpd knows only its STARTTLS as TLS: with TLS from the first byte it is told
        # not to wait for one before AUTH.
        tls = ({"ssl_context": self.auth.server_context(), "auth_require_tls": False}
               if self.implicit else {"require_starttls": True, "auth_require_tls": True,
                                      "tls_context": self.auth.server_context()})
        self.controller = Controller(Keep(), hostname=HOST, port=self.port,
                                     authenticator=login, enable_SMTPUTF8=self.utf8,
                                     server_hostname="localhost", ready_timeout=5, **tls)
        self.controller.start()
        return self

    def stop(self) -> None:
        self.controller.stop()


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    """A throwaway authority and both servers, for the tests of one module."""
    auth = authority(tmp_path_factory.mktemp("ca"))
    imap, smtp = ImapServer(auth).start(), SmtpServer(auth).start()
    yield auth, imap, smtp
    imap.stop()
    smtp.stop()


class Route:
    """A game's route through the test servers: a fresh IMAP folder of its own, and the
    addresses `--mail-in` and `--mail-out` name them by."""

    def __init__(self, imap: ImapServer, smtp: SmtpServer, folder: str):
        self.imap, self.smtp, self.folder = imap, smtp, folder

    @property
    def source(self) -> str:
        return f"imap://{USER}@{HOST}:{self.imap.port}/{self.folder}"

    @property
    def target(self) -> str:
        return f"smtp://{USER}@{HOST}:{self.smtp.port}"


IMAP_PASSWORD_ENV = f"REFEREE_IMAP_PASSWORD_{HOST.replace('.', '_')}"
SMTP_PASSWORD_ENV = f"REFEREE_SMTP_PASSWORD_{HOST.replace('.', '_')}"


def forge_route(journal: Path, source: str | None, target: str | None,
                signed: bool = False) -> None:
    """A route record appended to a game and chained with the referee's own code, as
    someone who can write the game folder (not the moderator's referee home) can; signed,
    as only the holder of the game's key can (what else stops such a route)."""
    import json

    from forging import game_key, resign

    from referee.store.journal import line_of, seal

    raw = journal.read_bytes().splitlines()
    last = json.loads(raw[-1])
    close = (lambda rec: resign(rec, game_key(json.loads(raw[0])))) if signed else seal
    forged = close({"at": last["at"], "actor": "moderator", "order": "set mail route",
                   "events": [], "seq": last["seq"] + 1, "prev": last["hash"],
                   "mail_route": {"to": "moderator", "salt": "00" * 16,
                                  "data": {"source": source, "target": target}}})
    with open(journal, "ab") as fh:
        fh.write(line_of(forged))


def mail_settings(text: str) -> Path:
    """Write the moderator's mail settings (mail.toml, private) in this test's referee home."""
    path = Path(os.environ["REFEREE_HOME"]) / "mail.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    path.chmod(0o600)
    return path


def trust_smtp(monkeypatch, auth: Authority, port: int) -> None:
    """One SMTP server of the tests as the referee's only host and port, its authority
    trusted and its password in the environment."""
    mail_settings(f'[hosts."{HOST}"]\nports = [{port}]\n')
    monkeypatch.setenv("SSL_CERT_FILE", str(auth.bundle))
    monkeypatch.setenv(SMTP_PASSWORD_ENV, PASSWORD)


def spooled(spool: Path, mails: list[tuple[str, str, str]]) -> None:
    """Mails owed in a spool (name, From, To), written in the order given, a second apart."""
    spool.mkdir(exist_ok=True)
    for i, (name, sender, to) in enumerate(mails):
        (spool / name).write_bytes(f"From: {sender}\nTo: {to}\nSubject: s{i}\n\n"
                                   f"hello\n".encode())
        os.utime(spool / name, ns=(1_700_000_000_000_000_000 + i * 10**9,) * 2)


def route_through(servers, monkeypatch, home: Path, kind: type = Route) -> Route:
    """A fresh route through the servers for one test: the referee trusts their authority,
    names their host in its mail settings (TLS required), finds the host's password in the
    environment, and has no ~/.netrc but the one in `home`."""
    auth, imap, smtp = servers
    monkeypatch.setenv("SSL_CERT_FILE", str(auth.bundle))
    mail_settings(f'[hosts."{HOST}"]\ntls = "required"\nports = {[imap.port, smtp.port]}\n')
    monkeypatch.setenv(IMAP_PASSWORD_ENV, PASSWORD)
    monkeypatch.setenv(SMTP_PASSWORD_ENV, PASSWORD)
    monkeypatch.setenv("HOME", str(home))
    smtp.received.clear()
    return kind(imap, smtp, imap.new_folder())


class PlainListener:
    """A server on 127.0.0.1 that offers no TLS at all and keeps every byte it is sent:
    what an intruder's host, or a downgraded route, would be. It speaks just enough IMAP
    (greeting, CAPABILITY without STARTTLS, LOGIN, SELECT, LOGOUT) or SMTP (greeting, EHLO
    without STARTTLS, AUTH, whole mails) for a client to go on as far as it would."""

    def __init__(self, kind: str):
        self.kind = kind
        self.received = bytearray()
        self.connections = 0
        self.sock = socket.create_server((HOST, 0))
        self.port = self.sock.getsockname()[1]
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            with conn:
                self._talk(conn)

    def _talk(self, conn: socket.socket) -> None:
        conn.sendall(b"* OK IMAP4rev1 ready\r\n" if self.kind == "imap" else
                     b"220 plain ESMTP\r\n")
        reader = conn.makefile("rb")
        in_data = False
        for line in reader:
            self.received += line
            if in_data:                     # a mail's text, up to its lone '.'
                if line.rstrip(b"\r\n") == b".":
                    in_data = False
                    conn.sendall(b"250 ok\r\n")
                continue
            words = line.split()
            if not words:
                continue
            if self.kind == "imap":
                tag, verb = words[0], (words[1].upper() if len(words) > 1 else b"")
                if verb == b"CAPABILITY":
                    conn.sendall(b"* CAPABILITY IMAP4rev1 AUTH=PLAIN\r\n")
                if verb == b"SELECT":
                    conn.sendall(b"* 0 EXISTS\r\n")
                if verb == b"LOGOUT":
                    conn.sendall(b"* BYE\r\n" + tag + b" OK bye\r\n")
                    return
                conn.sendall(tag + b" OK done\r\n")
            else:
                verb = words[0].upper()
                if verb in (b"EHLO", b"HELO"):
                    conn.sendall(b"250-plain\r\n250 AUTH PLAIN LOGIN\r\n")
                elif verb == b"DATA":
                    in_data = True
                    conn.sendall(b"354 go on\r\n")
                elif verb == b"QUIT":
                    conn.sendall(b"221 bye\r\n")
                    return
                else:
                    conn.sendall(b"235 ok\r\n" if verb == b"AUTH" else b"250 ok\r\n")

    def stop(self) -> None:
        self.sock.close()


class Relay:
    """A TCP relay on 127.0.0.1 in front of a server: the referee's way to it. down() stops
    it listening (a connection is refused, as from a server that is stopped) and cuts the
    connections under way; up() listens again on the same port. The server behind it keeps
    its mail meanwhile, so a player can mail while the referee cannot read."""

    def __init__(self, port: int):
        self.target = port
        self.port = free_port()
        self.sock: socket.socket | None = None
        self.open: list[socket.socket] = []
        self.up()

    def up(self) -> None:
        self.sock = socket.create_server((HOST, self.port))
        threading.Thread(target=self._serve, args=(self.sock,), daemon=True).start()

    def down(self) -> None:
        try:
            self.sock.shutdown(socket.SHUT_RDWR)      # wakes the accept() under way
        except OSError:
            pass
        self.sock.close()
        for conn in self.open:
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            conn.close()
        self.open.clear()

    def _serve(self, sock: socket.socket) -> None:
        while True:
            try:
                client, _ = sock.accept()
            except OSError:
                return
            server = socket.create_connection((HOST, self.target))
            self.open += [client, server]
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(a: socket.socket, b: socket.socket) -> None:
        try:
            while data := a.recv(65536):
                b.sendall(data)
        except OSError:
            pass
        finally:
            for s in (a, b):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass


def ticks_at_once(path: Path, runs: int = 2) -> list:
    """`runs` passes of tick over path at the same time, each in a thread of its own, as two
    `tick`s from cron may overlap: their reports (each waited for up to a minute)."""
    from referee.mail import tick as ticking

    reports: list = []
    threads = [threading.Thread(target=lambda: reports.append(
        ticking.tick(path, with_map=False))) for _ in range(runs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return reports


@pytest.fixture
def smtp(servers, monkeypatch):
    """The tests' SMTP server as the referee's, its mails of an earlier test forgotten; the
    addresses it refuses for good (`gone`) emptied after the test."""
    auth, _, server = servers
    trust_smtp(monkeypatch, auth, server.port)
    server.received.clear()
    yield server
    server.gone.clear()
