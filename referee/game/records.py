"""The shape of journal records: what a line must hold, beyond a valid hash chain.

The chain proves a file is intact, not who wrote it: anybody can write a
journal whose hashes check. Every record is therefore also validated against
these models before it is replayed, so a well-chained file of the wrong shape
is reported with its record number instead of crashing the referee.
"""

from functools import cache

import msgspec

from ..base.errors import ContractError, JournalError, UsageError, quoted
from ..base.plurals import counted
from ..contracts.records import JournalHeader, JournalRecord
from ..store.chain import canonical


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
            f"record {seq} as built breaks its contract at {broken[0]} "
            f"({counted(broken[1], 'problem')}); nothing was written. This is a bug: please "
            f"report it with the command you ran.")


def audit_contracts(raw: bytes, name: str) -> None:
    """Validate every line of a journal by its contract, as verify does of an export
    (JournalError names the first record that breaks it, where and how)."""
    for seq, line in enumerate(raw.splitlines()):
        broken = _first_break(seq, line, json_errors=False)
        if broken:
            raise _breaking(name, seq, broken)


def _breaking(name: str, seq: int, broken: tuple[str, int]) -> JournalError:
    more = f" (and {broken[1] - 1} more)" if broken[1] > 1 else ""
    return JournalError(f"{name}: record {seq} breaks the journal's contract at "
                        f"{broken[0]}{more}", record=seq)


def contracted(rec: dict, name: str) -> JournalRecord:
    """record_of for verify, which holds each record to its contract by the fast decoder
    alone: a record that breaks it is named as audit_contracts names it, where and how in
    the contract's words, pydantic's validation being asked only then (the two readers give
    one verdict: tests/test_contracts.py); a break only record_of finds, as it names it."""
    try:
        return record_of(rec, name)
    except JournalError as exc:
        seq = exc.record if type(exc.record) is int else rec.get("seq")
        broken = _first_break(seq, canonical(rec), json_errors=False)
        if broken is None:
            raise
        raise _breaking(name, seq, broken) from None


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
        raise JournalError(_malformed(rec, name, exc), record=rec.get("seq")) from None
    parts_checked(rec, name)
    return typed


def _malformed(rec: dict, name: str, exc: msgspec.ValidationError) -> str:
    """Why a record breaks its contract, in words: a time the referee never writes is named
    as such (the contract's pattern is no reading for a moderator)."""
    seq = rec.get("seq")
    if str(exc).endswith("`$.at`") and type(rec.get("at")) is str:
        return (f"{name}: record {seq} has no time the referee writes "
                f"({quoted(rec['at'])}; it writes UTC to the second, as "
                f"2026-11-30T18:00:00Z) - at `$.at`")
    return f"{name}: record {seq} is malformed: {exc}"


@cache
def _shapes() -> tuple[dict, tuple]:
    """The shapes of the secret data (contracts/secretparts.py), made at the first record
    checked: by each event that carries one, and the parts a record may carry beside its
    events' secrets, each with the shape of its data and whether only the moderator may be
    its reader."""
    from ..contracts import secretparts as s  # start-up: a cold read checks them beside

    return s.SECRET_DATA, (("private_order", s.OrderText, False),
                           ("standing", s.StandingSet, False), ("mail", s.MailData, True),
                           ("players", s.Roster, True), ("mail_route", s.MailRoute, True))


def parts_checked(rec: dict, name: str) -> None:
    """The secret data a record's events and parts carry, validated (JournalError names the
    record, as record_of does). Read off the record as JSON, so that the check beside a cold
    read (store/checking.py) runs it on records its caller took straight into their class:
    what is not where the contract puts a secret is the contract's to refuse."""
    secret_data, parts = _shapes()
    try:
        events = rec.get("events")
        for i, ev in enumerate(events if type(events) is list else ()):
            kind = ev.get("type") if type(ev) is dict else None
            secret = ev.get("secret") if type(kind) is str and kind in secret_data else None
            if type(secret) is dict and secret.get("data") is not None:
                _convert_at(secret["data"], secret_data[kind], f"$.events[{i}].secret.data")
        for field, shape, moderator_only in parts:
            part = rec.get(field)
            if type(part) is not dict:
                continue
            # Whose part a standing or private order is (the actor's own) verify checks;
            # replaying needs none of it.
            if moderator_only and part.get("to") != "moderator":
                raise msgspec.ValidationError(f"this part is for the moderator only - at "
                                              f"`$.{field}.to`")
            if part.get("data") is not None:
                _convert_at(part["data"], shape, f"$.{field}.data")
    except msgspec.ValidationError as exc:
        raise JournalError(f"{name}: record {rec.get('seq')} is malformed: {exc}",
                           record=rec.get("seq")) from None


def _convert_at(data: dict, shape: type, where: str) -> None:
    """Validate a nested payload; its errors name where it sits in the record."""
    try:
        msgspec.convert(data, shape)
    except msgspec.ValidationError as exc:
        message, _, at = str(exc).partition(" - at `$")
        raise msgspec.ValidationError(f"{message} - at `{where}{at or '`'}") from None
