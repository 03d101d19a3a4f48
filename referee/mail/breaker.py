"""Mail servers that kept a session waiting and then failed: each is left alone for a while,
so that one game's stalled server does not hold up every pass of the folder's other games
(the mailboxes of a folder are read one after the other, and a server that answers each
command just in time holds a session ten minutes: wire.py), nor every game that sends its
mail through it (each game's mail goes in a session of its own).

A session that failed after waiting STALL_SECONDS or more on its server trips it: the
server (by kind, host and port) rests REST, twice as long at each such failure after, at
most LONGEST_REST; any session with it that ends well mends it. While it rests no session
is opened with it: the pass names it as a problem, says when it is tried again, and the
game's mail stays unread (so no deadline is ruled missed) or owed. A server that refuses
at once (a connection refused, a wrong password) costs a pass nothing and never rests.

Kept signed in this user's referee home, as the ledger is, so that the processes a pass
shares its games among, and the passes after it, see it; a record nobody signed, or one
resting longer than LONGEST_REST from now, is no record.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta
from pathlib import Path

from ..base.clock import for_players, now
from ..base.errors import one_line
from ..store import home

STALL_SECONDS = 60.0
REST = timedelta(minutes=5)
LONGEST_REST = timedelta(hours=1)
WHY_MOST = 120                  # characters of the failure kept for the passes it rests


def key_of(kind: str, host: str, port: int) -> str:
    """What a server is known by here: its protocol, host and port."""
    return f"{kind} {host.lower()}:{port}"


def _file(key: str) -> Path:
    return home.data_dir("servers") / f"{hashlib.sha256(key.encode()).hexdigest()[:32]}.rest"


def _record(key: str) -> dict | None:
    data = home.read_signed(_file(key), 1 << 12)
    if not isinstance(data, dict) or data.get("key") != key:
        return None
    fields = (data.get("until"), data.get("at"), data.get("waited"), data.get("strikes"))
    if not all(type(v) in (int, float) for v in fields[:3]) or type(fields[3]) is not int \
            or type(data.get("why", "")) is not str:
        return None
    return data


def resting(key: str) -> str | None:
    """Why no session is opened with the server now, in words for the pass's line; None
    when it may be tried."""
    data = _record(key)
    if data is None:
        return None
    moment = now()
    try:
        until = datetime.fromtimestamp(data["until"], UTC)
        at = datetime.fromtimestamp(data["at"], UTC)
    except (OverflowError, OSError, ValueError):
        return None
    if not moment < until <= moment + LONGEST_REST:
        return None
    why = one_line(data.get("why", "")[:WHY_MOST])
    return (f"not tried now: it kept a session waiting {data['waited']:.0f} s and "
            f"failed{f' ({why})' if why else ''} at {for_players(at)}; it is tried again "
            f"from {for_players(until)}")


def ended(key: str, waited: float, failed: bool, why: str = "") -> None:
    """A session with the server ended, after waiting `waited` seconds on it: a failure
    after STALL_SECONDS trips it (longer at each trip; why: the failure, in the server's or
    the session's words, said while it rests), a session that ended well mends it,
    anything else leaves it as it was."""
    if not failed:
        try:
            _file(key).unlink(missing_ok=True)
        except OSError:             # best effort, as every record of the home
            pass
        return
    if waited < STALL_SECONDS:
        return
    before = _record(key)
    strikes = min((before["strikes"] if before else 0) + 1, 8)
    rest = min(REST * (2 ** (strikes - 1)), LONGEST_REST)
    moment = now()
    home.write_signed(_file(key), {"key": key, "at": moment.timestamp(),
                                   "until": (moment + rest).timestamp(),
                                   "waited": round(waited, 1), "strikes": strikes,
                                   "why": why[:WHY_MOST]})
