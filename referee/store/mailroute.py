"""Where a game's mail comes from and where its mail goes: the mail route record.

The moderator chooses both at `new --mail-in SOURCE --mail-out TARGET` and changes them
with `referee mail`; each choice is a moderator record whose moderator-only part holds the
two addresses, and the latest one holds. No password is ever part of them: a source or a
target carrying one is refused (mail/credentials.py says where passwords come from).

SOURCE: an mbox file, a Maildir, `imap://USER@HOST[:PORT]/FOLDER` or `imaps://...`.
TARGET: `outbox:DIR`, `smtp://[USER@]HOST[:PORT]`, `smtps://...` or `route:NAME`, a route
of the moderator's mail settings (store/mailsettings.py). A command line is never kept in
a game: journals made before routes were named may hold `sendmail:COMMAND`, which verify
still reads as history but nothing runs.
"""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass
from urllib.parse import quote, unquote, urlsplit

from ..base.errors import UsageError, quoted
from ..base.readers import MODERATOR
from .journal import now
from .players import check_address, roster

ROUTE = "set mail route"
_HOST = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\]")
_USER = re.compile(r"[A-Za-z0-9._+=!$&'*~@-]{1,200}")
# A folder name as kept: printable ASCII is written as it is, but for what would end the
# path or start an escape; anything else is %-escaped UTF-8.
_FOLDER_SAFE = "".join(chr(c) for c in range(0x20, 0x7f) if chr(c) not in "%?#")
_FOLDER = re.compile(r"[^\x00-\x1f\x7f]{1,200}")
_PATH_LIMIT = 4096
_ROUTE_NAME = re.compile(r"[a-z][a-z0-9_-]{0,31}")       # contracts/mailsettings.py RouteName


@dataclass(frozen=True)
class Server:
    """A mail server an address names: its scheme, the login (if any), host, port, folder."""

    scheme: str
    user: str | None
    host: str
    port: int
    folder: str = ""

    @property
    def tls(self) -> bool:
        """TLS from the first byte (imaps, smtps); else STARTTLS when the server offers it."""
        return self.scheme.endswith("s")


_PORTS = {"imap": 143, "imaps": 993, "smtp": 25, "smtps": 465}


def _server(text: str, option: str, need_user: bool, with_folder: bool) -> Server:
    """A server address read strictly (UsageError naming the option and what is wrong)."""
    where = f"{option} {quoted(text)}"
    try:
        parts = urlsplit(text)
    except ValueError as exc:
        raise UsageError(f"{where}: not an address ({exc})") from None
    if parts.query or parts.fragment:
        raise UsageError(f"{where}: no '?' or '#' part is read")
    user, at, hostport = parts.netloc.rpartition("@")
    user = _login(user, option, where)
    if need_user and not user:
        raise UsageError(f"{where}: name the login, {parts.scheme}://USER@HOST/FOLDER")
    host, port = _host_port(hostport, _PORTS[parts.scheme], where)
    folder = unquote(parts.path.lstrip("/"))
    if with_folder:
        folder = folder or "INBOX"
        if not _FOLDER.fullmatch(folder):
            raise UsageError(f"{where}: the folder name holds control characters or is too "
                             f"long")
    elif folder:
        raise UsageError(f"{where}: an SMTP server takes no folder; write "
                         f"{parts.scheme}://[USER@]HOST[:PORT]")
    return Server(parts.scheme, user or None, host, port, folder)


def _login(user: str, option: str, where: str) -> str:
    """The login of an address (a mail address is one: me@example.org@mail.example.org)."""
    if ":" in user:
        raise UsageError(f"{option}: a password never goes into the address (it would be kept "
                         f"in the journal); give it in the environment, the referee's "
                         f"password file or ~/.netrc (docs/moderator.md, Run a game unattended)")
    user = unquote(user)
    if user and not _USER.fullmatch(user):
        raise UsageError(f"{where}: the login is not a plain user name")
    return user


def _host_port(hostport: str, port: int, where: str) -> tuple[str, int]:
    """HOST[:PORT] or [IPv6][:PORT], with the scheme's port when none is given."""
    if hostport.startswith("[") and "]" in hostport:
        end = hostport.index("]") + 1
        host, rest = hostport[:end], hostport[end:]
        if rest and not rest.startswith(":"):
            raise UsageError(f"{where}: {quoted(hostport)} is not HOST[:PORT]")
        port_text = rest[1:]
    else:
        host, _, port_text = hostport.partition(":")
    if not _HOST.fullmatch(host):
        raise UsageError(f"{where}: {quoted(host)} is not a host name")
    if port_text:
        if not port_text.isdigit() or not 0 < int(port_text) < 65536:
            raise UsageError(f"{where}: the port is a number from 1 to 65535")
        port = int(port_text)
    return host.strip("[]"), port


def _path(text: str, option: str) -> str:
    """A local path, absolute (the folder `tick` runs in may be another)."""
    if not text or len(text) > _PATH_LIMIT or any(ord(c) < 32 or ord(c) == 127 for c in text):
        raise UsageError(f"{option} {quoted(text)}: not a file or folder name")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise UsageError(f"{option} {quoted(text)}: a name whose bytes are not UTF-8 text "
                         f"cannot be kept in the journal; rename the file or folder") from None
    return os.path.abspath(os.path.expanduser(text))


def check_source(text: str, option: str = "--mail-in") -> str:
    """SOURCE in the form kept in the journal: an IMAP address, or an absolute path."""
    scheme = text.partition(":")[0].lower()
    if scheme in ("imap", "imaps") and text[len(scheme):len(scheme) + 3] == "://":
        server = _server(text, option, need_user=True, with_folder=True)
        return _url(server)
    if re.match(r"[A-Za-z][A-Za-z0-9+.-]*://", text):
        raise UsageError(f"{option} {quoted(text)}: choose an mbox file, a Maildir, "
                         f"imap://USER@HOST[:PORT]/FOLDER or imaps://USER@HOST[:PORT]/FOLDER")
    return _path(text, option)


def check_target(text: str, option: str = "--mail-out") -> str:
    """TARGET in the form kept in the journal."""
    scheme, colon, rest = text.partition(":")
    scheme = scheme.lower()
    if colon and scheme in ("smtp", "smtps") and rest.startswith("//"):
        return _url(_server(text, option, need_user=False, with_folder=False))
    if colon and scheme == "outbox":
        return f"outbox:{_path(rest, option)}"
    if colon and scheme == "route":
        if not _ROUTE_NAME.fullmatch(rest):
            raise UsageError(f"{option} {quoted(text)}: a route is named route:NAME, NAME of "
                             f"lower-case letters, digits, _ and - (as in your mail settings)")
        return f"route:{rest}"
    if colon and scheme == "sendmail":
        raise UsageError(f"{option} {quoted(text)}: a game never holds a command line; name the "
                         f"command as a route of your mail settings and give route:NAME "
                         f"(docs/moderator.md, Mail settings)")
    raise UsageError(f"{option} {quoted(text)}: choose outbox:DIR, smtp://[USER@]HOST[:PORT], "
                     f"smtps://[USER@]HOST[:PORT] or route:NAME")


def _kept_target(text: str) -> str:
    """check_target, and the sendmail:COMMAND of journals made before routes were named
    (verify reads it as history; nothing runs it)."""
    if text.startswith("sendmail:"):
        try:
            argv = shlex.split(text.removeprefix("sendmail:"))
        except ValueError as exc:
            raise UsageError(f"the command cannot be read ({exc})") from None
        if not argv:
            raise UsageError("the command is empty")
        return f"sendmail:{shlex.join(argv)}"
    return check_target(text)


def _url(server: Server) -> str:
    user = f"{server.user}@" if server.user else ""
    host = f"[{server.host}]" if ":" in server.host else server.host
    folder = f"/{quote(server.folder, safe=_FOLDER_SAFE)}" if server.folder else ""
    return f"{server.scheme}://{user}{host}:{server.port}{folder}"


def server_of(text: str) -> Server:
    """The server a checked IMAP source or SMTP target names."""
    scheme = text.partition(":")[0]
    return _server(text, "mail route", scheme.startswith("imap"), scheme.startswith("imap"))


def is_local(source: str) -> bool:
    """Whether a checked source is a file or folder on this machine."""
    return not source.startswith(("imap://", "imaps://"))


def route_body(source: str | None, target: str | None, salt: str,
               sender: str | None = None) -> dict:
    """The moderator record that sets the route (a moderator-only part); sender, the address
    the referee's mails come from, only when one is set."""
    data = {"source": source, "target": target}
    if sender is not None:
        data["sender"] = sender
    return {"at": now(), "actor": "moderator", "order": ROUTE, "events": [],
            "mail_route": {"to": "moderator", "salt": salt, "data": data}}


ROUTE_PARTS = ("source", "target", "sender")


def mail_route(records) -> dict:
    """{'source': ..., 'target': ..., 'sender': ...} as the latest route record sets them
    (None: unset)."""
    found = dict.fromkeys(ROUTE_PARTS)
    for rec in records:
        part = rec.get("mail_route") if rec.get("order") == ROUTE else None
        if isinstance(part, dict) and isinstance(part.get("data"), dict):
            found = {k: part["data"].get(k) for k in ROUTE_PARTS}
    return found


def former_outboxes(records) -> list[str]:
    """The folders of the outbox:DIR targets a game's route named before the one in force
    (a route change may leave mails written there and never sent), in order, once each."""
    found: list[str] = []
    for rec in records:
        part = rec.get("mail_route") if rec.get("order") == ROUTE else None
        target = part["data"].get("target") if isinstance(part, dict) and \
            isinstance(part.get("data"), dict) else None
        if isinstance(target, str) and target.startswith("outbox:") and target[7:] not in found:
            found.append(target[7:])
    current = mail_route(records)["target"] or ""
    return [f for f in found if f"outbox:{f}" != current]


def referee_address(records) -> str:
    """The address the referee's mails come from and players answer to: the one the route
    sets (`--from`), else the moderator's, else a local one."""
    sender = mail_route(records)["sender"]
    if sender:
        wrong = route_problem({"sender": sender})
        if wrong is not None:       # a record the referee never writes: no mail goes out
            raise UsageError(f"the mail route's own address is not one the referee writes "
                             f"({wrong}); `referee verify` names the record")
        return sender
    return moderator_address(records) or "referee@localhost"


def moderator_address(records) -> str:
    """The moderator's address ("" when he has none): a campaign's roster names it, a
    skirmish's header (its record 0: its players are fixed when it is made) does."""
    found = roster(records).get(MODERATOR, {}).get("address")
    if not found and records:
        players = records[0].get("players")
        found = players.get(MODERATOR) if isinstance(players, dict) else None
    return found if isinstance(found, str) else ""


# The referee's own address: a plain ASCII addr-spec (RFC 5322's dot-atom local part of 64
# characters at most, a host name), so that the From it writes is the address it knows its
# own mail by, and the one players' replies reach: no comment, group, route or quoting.
_OWN_ADDRESS = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*"
                          r"@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
                          r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+")


def check_sender(text: str, option: str = "--from") -> str:
    """The referee's own address as kept: one plain email address (UsageError naming the
    option), with nothing a mail program would read otherwise than the referee does."""
    address = check_address(option, text, text)
    local = address.partition("@")[0]
    if not _OWN_ADDRESS.fullmatch(address) or len(local) > 64 or len(address) > 254:
        raise UsageError(f"{option} {quoted(address)}: the referee's own address is a plain "
                         f"address in ASCII, name@host.example (no comment, quoting or group; a "
                         f"name of 64 characters at most)")
    return address


def route_problem(data: dict) -> str | None:
    """What is wrong with a route record's data (None when each part reads as `new` writes
    it)."""
    for key, check in (("source", check_source), ("target", _kept_target),
                       ("sender", check_sender)):
        value = data.get(key)
        if value is None:
            continue
        try:
            if not isinstance(value, str) or check(value) != value:
                return f"its {key} is not in the form the referee writes"
        except UsageError as exc:
            return str(exc)
    return None
