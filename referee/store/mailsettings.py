"""The moderator's mail settings (contracts/mailsettings.py), read from his referee home.

The file is trusted only as his own: a regular file, his, that no other user may read or
write (like the password file beside it). Read afresh at each call: `watch` picks up a
change at its next pass. Its problems are one line each, naming the file.
"""

from __future__ import annotations

import os
import re
import stat
import tomllib
from pathlib import Path
from typing import Any

from ..base.errors import UsageError
from . import home

FILE_NAME = "mail.toml"
MAX_BYTES = 1 << 16


def settings_path() -> Path:
    """Where the mail settings live: beside this user's signing key."""
    return home.key_path().parent / FILE_NAME


def load() -> Any:
    """The mail settings (MailSettings; empty when there is no file), or UsageError."""
    from ..contracts.mailsettings import MailSettings  # start-up: only mail paths read it

    path = settings_path()
    raw = _own_bytes(path)
    if raw is None:
        return MailSettings()
    try:
        document = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{path}: not valid TOML ({exc})") from None
    except RecursionError:      # arrays or tables nested past Python's recursion
        raise UsageError(f"{path}: nested deeper than mail settings are") from None
    try:
        settings = _validated(MailSettings, document, path)
    except RecursionError:
        raise UsageError(f"{path}: nested deeper than mail settings are") from None
    shared = _shared_variables(list(settings.hosts))
    if shared:
        raise UsageError(f"{path}: the hosts {' and '.join(shared[1])} would read one password "
                         f"variable ({shared[0]}); name at most one of them")
    for host, allowed in settings.hosts.items():
        if allowed.tls == "none" and not on_this_machine(host):
            raise UsageError(f"{path}: hosts.{host}: tls = \"none\" is for a server on this "
                             f"machine (127.0.0.1, ::1 or localhost); a login to {host} "
                             f"would cross the network in the clear, so no mail setting is "
                             f"read: give it TLS")
    return settings


def on_this_machine(host: str) -> bool:
    """Whether a host of the settings is this machine: a loopback address, or localhost."""
    import ipaddress  # start-up: only the mail paths read the settings

    name = host.strip("[]").casefold()
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def _shared_variables(hosts: list[str]) -> tuple[str, list[str]] | None:
    """(variable, hosts) when two hosts would read one password variable, else None."""
    seen: dict[str, str] = {}
    for host in hosts:
        variable = env_name("*", host)
        if variable in seen:
            return variable, [seen[variable], host]
        seen[variable] = host
    return None


def env_name(kind: str, host: str) -> str:
    """The environment variable read for a server's password: one per host."""
    return f"REFEREE_{kind.upper()}_PASSWORD_{re.sub(r'[^A-Za-z0-9]', '_', host).upper()}"


def named_host(host: str) -> str | None:
    """The moderator's own spelling of a host his settings name (a name matches in any
    case), or None: passwords are looked up under it, never under the route's."""
    wanted = host.strip("[]").casefold()
    return next((k for k in load().hosts if k.casefold() == wanted), None)


def host_settings(host: str, port: int | None = None) -> Any:
    """The settings of a host the moderator allows, or None; with a port, None too when
    the settings do not name that port of the host."""
    settings = load()
    name = next((k for k in settings.hosts if k.casefold() == host.strip("[]").casefold()),
                None)
    found = settings.hosts.get(name) if name is not None else None
    if found is None or (port is not None and port not in found.ports):
        return None
    return found


def route_command(name: str) -> list[str]:
    """The command of a route the moderator named (UsageError when there is none)."""
    route = load().routes.get(name)
    if route is None:
        raise UsageError(f"route:{name}: no route of that name in {settings_path()}; a route "
                         f"that runs a program is named there, [routes.{name}] sendmail = "
                         f"[\"/usr/sbin/sendmail\", \"-t\", \"-oi\"] (docs/moderator.md, Mail "
                         f"settings)")
    return list(route.sendmail)


def _own_bytes(path: Path) -> bytes | None:
    """The file's bytes, when it is this user's own private regular file; None when absent."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) |
                     getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise UsageError(f"{path}: cannot be read ({exc.strerror})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UsageError(f"{path}: not a regular file, so no mail setting is read")
        if os.name == "posix" and info.st_uid != os.getuid():
            raise UsageError(f"{path}: belongs to another user, so no mail setting is read")
        if os.name == "posix" and info.st_mode & 0o077:
            raise UsageError(f"{path}: other users of this machine may read or change it, so "
                             f"no mail setting is read; `chmod 600 {path}` makes it private")
        if info.st_size > MAX_BYTES:
            raise UsageError(f"{path}: larger than {MAX_BYTES // 1024} KiB")
        return os.read(fd, MAX_BYTES + 1)
    finally:
        os.close(fd)


def _validated(model: type, document: dict, path: Path) -> Any:
    """The settings built from the document, every problem one line naming the file."""
    from ..contracts.validation import engine, validator  # start-up: as above
    from ..contracts.words import words  # start-up: as above

    try:
        return validator(model).validate_python(document, strict=True)
    except engine().ValidationError as exc:
        problems = [f"{'.'.join(map(str, e['loc'])) or '(top)'}: {words(e)}"
                    for e in exc.errors(include_url=False)]
        raise UsageError(f"{path}: " + "; ".join(problems[:5])) from None
