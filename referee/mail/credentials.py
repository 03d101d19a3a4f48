"""Mail server passwords: never in the journal or its folder, never printed.

A password goes only to a host that the moderator's mail settings name
(store/mailsettings.py), and only the one given for that host. Looked for in this order,
the first found wins:

1. the environment, per host: `REFEREE_IMAP_PASSWORD_<HOST>` or `REFEREE_SMTP_PASSWORD_<HOST>`
   (HOST in capitals, each character not a letter or digit as `_`: mail.example.org is
   `MAIL_EXAMPLE_ORG`);
2. the referee's password file, `passwords` beside this user's signing key (netrc form:
   `machine HOST login USER password PASSWORD`), which must be readable by this user only;
3. `~/.netrc` (the standard library's netrc; it too must be private).

A file that other users may read is refused, with the reason; its contents are never
quoted in an error (a netrc parse error names the line only).
"""

from __future__ import annotations

import netrc
import os
import stat
from pathlib import Path

from ..base.errors import UsageError
from ..store import home, mailsettings
from ..store.mailsettings import env_name


def password_file() -> Path:
    """The referee's own password file (netrc form), beside the signing key."""
    return home.key_path().parent / "passwords"


def password(kind: str, user: str | None, host: str) -> str | None:
    """The password for user at host (kind: imap or smtp), or None when none is given or
    the host is not one of the moderator's mail settings."""
    found = _found(kind, user, host)
    return found[0] if found is not None else None


def password_place(kind: str, user: str | None, host: str) -> str | None:
    """Where the password for user at host is read from, as a refused login names it: the
    variable, or the file (never the password); None when none is given."""
    try:
        found = _found(kind, user, host)
    except UsageError:
        return None
    return found[1] if found is not None else None


def _found(kind: str, user: str | None, host: str) -> tuple[str, str] | None:
    """(password, where it was read) for user at host, the first found in the order above."""
    named = mailsettings.named_host(host)
    if named is None:
        return None
    variable = env_name(kind, named)
    value = os.environ.get(variable)
    if value:
        return value, variable
    for path in (password_file(), Path(os.path.expanduser("~")) / ".netrc"):
        found = _from_netrc(path, user, named)
        if found is not None:
            return found, str(path)
    return None


def _from_netrc(path: Path, user: str | None, host: str) -> str | None:
    """The password a netrc-form file gives for host (and user, when named)."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    if not stat.S_ISREG(info.st_mode):
        raise UsageError(f"{path}: not a regular file; it cannot hold mail passwords")
    if os.name == "posix" and info.st_mode & 0o077:
        raise UsageError(f"{path}: other users of this machine may read it, so its mail "
                         f"passwords are not used; `chmod 600 {path}` makes it private")
    if os.name == "posix" and info.st_uid != os.getuid():
        raise UsageError(f"{path}: belongs to another user, so its mail passwords are not used")
    try:
        # The host's own line only (a host name in any case): netrc's `default` line
        # would be a password for every host.
        machines = netrc.netrc(str(path)).hosts
        found = next((v for k, v in machines.items() if k.casefold() == host.casefold()),
                     None)
    except netrc.NetrcParseError as exc:
        raise UsageError(f"{path}: cannot be read as a netrc file (line {exc.lineno})"
                         ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: cannot be read ({type(exc).__name__})") from None
    if found is None:
        return None
    login, _, secret = found
    if user and login and login != user:
        return None
    return secret or None
