"""The records the moderator (or a side, for its own dice sheet or more time) writes that
decide nothing: a roster, a mail route, a dice sheet, a fact about the game's time. Each is
checked for the shape the referee gives it (verify.py decides the others again)."""

from __future__ import annotations

from ..base.errors import JournalError
from ..store.authorship import ADOPT, REKEY
from ..store.mailroute import ROUTE, route_problem
from ..store.players import REGISTER, roster_problem
from ..store.sheets import SHEET
from .clockwalk import fact_problem
from .timeline import EXTEND, MISSED, PAUSE, REMINDED, RESUME, SETTINGS


def check_roster(rec: dict, name: str, sides) -> None:
    """A roster record: the moderator's, no events, dice or order, one moderator-only part
    naming each side of the game (or the moderator) once, with a plain address."""
    part = rec.get("players")
    ok = (rec.get("actor") == "moderator" and rec.get("order") == REGISTER
          and rec.get("events") == [] and not rec.get("dice") and "private_order" not in rec
          and "mail" not in rec and "mail_route" not in rec and isinstance(part, dict)
          and part.get("to") == "moderator")
    if not ok:
        raise JournalError(f"{name}: record {rec['seq']} claims to register the players but is "
                           f"not a roster record the referee writes", record=rec["seq"])
    data = part.get("data")
    problem = roster_problem(data["players"], sides, data.get("observers", [])) \
        if isinstance(data, dict) else None
    if problem:
        raise JournalError(f"{name}: record {rec['seq']} registers the players wrongly: "
                           f"{problem}", record=rec["seq"])


def check_route(rec: dict, name: str) -> None:
    """A mail route record: the moderator's, no events, dice or other part, one moderator-only
    part whose source and target read as `new` and `mail` write them."""
    part = rec.get("mail_route")
    ok = (rec.get("actor") == "moderator" and rec.get("order") == ROUTE
          and rec.get("events") == [] and not rec.get("dice") and isinstance(part, dict)
          and part.get("to") == "moderator"
          and not any(k in rec for k in ("private_order", "mail", "players", "standing")))
    if not ok:
        raise JournalError(f"{name}: record {rec['seq']} claims to set the mail route but is "
                           f"not a mail route record the referee writes", record=rec["seq"])
    data = part.get("data")
    problem = route_problem(data) if isinstance(data, dict) else None
    if problem:
        raise JournalError(f"{name}: record {rec['seq']} sets the mail route wrongly: "
                           f"{problem}", record=rec["seq"])


def check_signing(rec: dict, name: str) -> None:
    """An adoption or a key change: the moderator's, no events, dice or other part, the key
    it names (authorship.py has checked its signature and the key)."""
    ok = (rec.get("actor") == "moderator" and rec.get("order") in (ADOPT, REKEY)
          and rec.get("events") == [] and not rec.get("dice")
          and set(rec) <= {"at", "actor", "order", "events", "signing", "seq", "prev", "hash",
                           "sig"})
    if not ok:
        raise JournalError(f"{name}: record {rec['seq']} claims to adopt the game or change its "
                           f"key but is not such a record as the referee writes",
                           record=rec["seq"])


def check_sheet(rec: dict, name: str, sides, manual: bool) -> None:
    """A dice sheet registered: by its side (a mail, or `order`) or the moderator, no events,
    dice, order or links, in a game of committed dice."""
    part, actor = rec.get("sheet"), rec.get("actor")
    side = part.get("side") if isinstance(part, dict) else None
    ok = (rec.get("order") == SHEET and side in sides and actor in (side, "moderator")
          and rec.get("events") == [] and not rec.get("dice") and not manual
          and not any(k in rec for k in ("private_order", "players", "standing", "link",
                                         "dice_from"))
          and ("mail" not in rec or actor == side))
    if not ok:
        raise JournalError(f"{name}: record {rec['seq']} claims to register a dice sheet but is "
                           f"not a record the referee writes for it", record=rec["seq"])


def no_sheet_parts(rec: dict, name: str) -> None:
    """A record of the moderator (roster, reveal, upgrade) reveals no link and mixes none."""
    extra = [k for k in ("sheet", "link", "dice_from") if k in rec]
    if extra:
        raise JournalError(f"{name}: record {rec['seq']} ({rec['order']!r}) holds "
                           f"{', '.join(extra)}, which the referee writes only with orders",
                           record=rec["seq"])


def check_clock(rec: dict, name: str, sides) -> None:
    """A record holding only a fact about time: the moderator's (a side's own for an
    extension it asked for, with the message it asked in), no events, dice or other parts,
    and the order text the referee writes for that fact."""
    fact, n = rec["clock"], rec["seq"]
    actor = rec.get("actor")
    texts = {"settings": SETTINGS, "reminded": REMINDED, "missed": MISSED, "pause": PAUSE,
             "resume": RESUME, "extend": f"{EXTEND} {fact.get('by')}"}
    # A side's own extension gives back no hold's time (mail/holdtime.py: the moderator's).
    by_side = fact["kind"] == "extend" and actor == fact.get("side") and "hold" not in fact
    ok = (rec.get("order") == texts[fact["kind"]] and not rec.get("events")
          and not any(k in rec for k in ("dice", "private_order", "players", "standing",
                                         "sheet", "link", "dice_from"))
          and (actor == "moderator" or by_side) and ("mail" not in rec or by_side))
    problem = fact_problem(fact, sides)
    if not ok or problem is not None:
        raise JournalError(f"{name}: record {n} claims a fact about the game's time "
                           f"({fact['kind']}) but is not a record the referee writes for it"
                           + (f": {problem}" if problem else ""), record=n)
