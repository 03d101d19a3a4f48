"""The shape of journal records: what a line must hold, beyond a valid hash chain.

The chain proves a file is intact, not who wrote it: anybody can write a
journal whose hashes check. Every record is therefore also validated against
these models before it is replayed, so a well-chained file of the wrong shape
is reported with its record number instead of crashing the referee.
"""

import msgspec

from ..base.errors import ContractError, JournalError, UsageError
from ..contracts.events_base import Secret
from ..contracts.records import (
    SECRET_DATA,
    JournalHeader,
    JournalRecord,
    MailData,
    MailRoute,
    OrderText,
    Roster,
    StandingSet,
)


def _first_break(seq: int, line: bytes, json_errors: bool = True) -> tuple[str, int] | None:
    """Where and how a journal line first breaks its contract (record 0 the header's), and
    how many problems it has; None when it keeps it."""
    # start-up: only a write or verify validates; reading a journal needs no pydantic-core
    from ..contracts import check

    found = check.problems("journal-header" if seq == 0 else "journal-record", line,
                           json_errors=json_errors)
    if not found:
        return None
    loc, msg = found[0]
    return f"{check.where(loc)}: {msg}", len(found)


def keep_contract(seq: int, line: bytes) -> None:
    """Refuse a record this referee built that breaks its contract (a bug), before it is
    written: the journal stays as it was (ContractError)."""
    broken = _first_break(seq, line)
    if broken:
        raise ContractError(
            f"record {seq} as built breaks its contract at {broken[0]} ({broken[1]} "
            f"problem(s)); nothing was written. This is a bug: please report it with the "
            f"command you ran.")


def audit_contracts(raw: bytes, name: str) -> None:
    """Validate every line of a journal by its contract, as verify does (JournalError names
    the first record that breaks it, where and how)."""
    for seq, line in enumerate(raw.splitlines()):
        broken = _first_break(seq, line, json_errors=False)
        if broken:
            more = f" (and {broken[1] - 1} more)" if broken[1] > 1 else ""
            raise JournalError(f"{name}: record {seq} breaks the journal's contract at "
                               f"{broken[0]}{more}", record=seq)


def header_of(rec: dict, name: str) -> JournalHeader:
    """The header record, validated (JournalError names record 0 when it is malformed; a
    skirmish's header, which these commands do not read, is a usage error saying so)."""
    if rec.get("game_kind") == "skirmish":
        raise UsageError(f"{name}: a skirmish game (games/skirmish): the campaign games' "
                         f"rules do not read it (the commands hand it to its own kind)")
    try:
        return msgspec.convert(rec, JournalHeader)
    except msgspec.ValidationError as exc:
        raise JournalError(f"{name}: record 0 (the header) is malformed: {exc}",
                           record=0) from None


def record_of(rec: dict, name: str) -> JournalRecord:
    """A record after the header, validated with its events and the secret data they carry
    (JournalError names it)."""
    try:
        typed = msgspec.convert(rec, JournalRecord)
    except msgspec.ValidationError as exc:
        raise JournalError(f"{name}: record {rec.get('seq')} is malformed: {exc}",
                           record=rec.get("seq")) from None
    return parts_checked(typed, name)


def parts_checked(typed: JournalRecord, name: str) -> JournalRecord:
    """A record of its class, with the secret data its events and parts carry validated
    (JournalError names it, as record_of does)."""
    try:
        for i, ev in enumerate(typed.events):
            if ev.type in SECRET_DATA:
                secret = getattr(ev, "secret", None)
                if isinstance(secret, Secret) and secret.data is not None:
                    _convert_at(secret.data, SECRET_DATA[ev.type], f"$.events[{i}].secret.data")
        private = typed.private_order
        if private is not None and private.data is not None:
            _convert_at(private.data, OrderText, "$.private_order.data")
        standing = typed.standing
        # Whose part it is (the actor's own) verify checks; replaying needs none of it.
        if standing is not None:
            if standing.data is not None:
                _convert_at(standing.data, StandingSet, "$.standing.data")
        for field, shape in (("mail", MailData), ("players", Roster),
                             ("mail_route", MailRoute)):
            part = getattr(typed, field)
            if part is None:
                continue
            if part.to != "moderator":
                raise msgspec.ValidationError(f"this part is for the moderator only - at "
                                              f"`$.{field}.to`")
            if part.data is not None:
                _convert_at(part.data, shape, f"$.{field}.data")
    except msgspec.ValidationError as exc:
        raise JournalError(f"{name}: record {typed.seq} is malformed: {exc}",
                           record=typed.seq) from None
    return typed


def _convert_at(data: dict, shape: type, where: str) -> None:
    """Validate a nested payload; its errors name where it sits in the record."""
    try:
        msgspec.convert(data, shape)
    except msgspec.ValidationError as exc:
        message, _, at = str(exc).partition(" - at `$")
        raise msgspec.ValidationError(f"{message} - at `{where}{at or '`'}") from None
