"""The moderator's mail settings: the one file that names where the referee may connect,
give a password, or run a program to send mail.

It lives in the moderator's referee home, beside his signing key (`mail.toml`), never in
a game folder: a journal only names a host (in its route) or a route of this file
(`route:NAME`), and a host or route this file does not name is refused. So nothing a
folder holds makes the referee run a program or hand a password to a host of someone
else's choosing.
"""

from typing import Annotated, Literal

from msgspec import Meta, field

from .base import Frozen

# A route's name as a game keeps it: --mail-out route:NAME.
RouteName = Annotated[str, Meta(pattern=r"^[a-z][a-z0-9_-]{0,31}\Z")]
# A host as a route names it: a name or an address (IPv6 without brackets).
HostName = Annotated[str, Meta(pattern=r"^[A-Za-z0-9:][A-Za-z0-9.:-]{0,252}\Z")]


Port = Annotated[int, Meta(ge=1, le=65535)]
# The standard ports of SMTP, IMAP, SMTPS, submission and IMAPS: on another machine only
# its administrator listens there, and on this one only root may open them.
MAIL_PORTS = (25, 143, 465, 587, 993)


class HostSettings(Frozen):
    """A mail server the referee may connect to and give its password (per host: the
    environment, the referee's password file or ~/.netrc), on the ports named."""

    # required: TLS from the first byte (imaps, smtps) or STARTTLS before anything is said;
    # a server that offers neither is refused. none: a server on this machine without TLS.
    tls: Literal["required", "none"] = "required"
    # A route may name only these ports of the host: a forged one cannot send the referee
    # to a port any user of the machine could listen on.
    ports: Annotated[list[Port], Meta(min_length=1, max_length=16)] = field(
        default_factory=lambda: list(MAIL_PORTS))


class RouteSettings(Frozen):
    """A way out for a game's mail that runs a program: a sendmail-compatible command,
    each argument as it is given to the program (no shell)."""

    sendmail: Annotated[list[Annotated[str, Meta(min_length=1, max_length=4096)]],
                        Meta(min_length=1, max_length=64)]


class ReadingSettings(Frozen):
    """How much one pass of tick or watch reads from an IMAP folder: the rest waits for the
    next pass, so that a flood of mail costs a bounded memory and time each pass."""

    messages: Annotated[int, Meta(ge=1, le=10000)] = 50
    megabytes: Annotated[int, Meta(ge=1, le=1024)] = 32


class PassSettings(Frozen):
    """How one pass of tick or watch runs: the processes it shares its busy games among
    (absent: the cores it may use, at most four; 1: the games one after the other)."""

    workers: Annotated[int, Meta(ge=1, le=64)] | None = None


class MailSettings(Frozen):
    """mail.toml: the hosts and the routes the moderator allows (absent: none), how much a
    pass reads, and how it runs."""

    hosts: dict[HostName, HostSettings] = {}
    routes: dict[RouteName, RouteSettings] = {}
    reading: ReadingSettings = ReadingSettings()
    passes: PassSettings = PassSettings()
