"""A record the referee wrote whole, and perhaps mailed, that `repair` then cut with a torn
last line (docs/moderator.md, Repair): the mark of the game keeps it as lost (store/written.py).
Repair says so, the next mail to a player whose last mail ended at it says so first, and a
reply to a mail of it is told that it was lost rather than that the game has not reached it."""

from __future__ import annotations

from ..render.documents import players_words, reader_words, side_name
from ..store import written
from .ledger import load_ledger


def _mailed_to(header: dict, gone: dict) -> list[str]:
    """The readers whose last mail, as the ledger keeps it, ended at the lost record."""
    ledger = load_ledger(str(header.get("game_id")), str(header.get("hash")))
    return sorted(reader for reader, sent in ledger["sent"].items()
                  if sent == [gone["seq"], gone["hash"]])


def _whose(gone: dict) -> str:
    actor = gone.get("actor")
    return f"{reader_words(actor)} must send his orders again" if _is_side(actor) else \
        "what it held must be done again"


def repair_words(header: dict, kept: int) -> str | None:
    """What `repair` says of the record it cut (header: record 0; kept: the records kept),
    when this referee had written it whole; None when the torn line was a write the referee
    never finished (or the game is not its)."""
    gone = written.lost_record(header.get("game_id"))
    if gone is None or gone["seq"] != kept:
        return None
    mailed = [r for r in _mailed_to(header, gone) if _is_side(r) and ":" not in r]
    told = f" and mailed to {players_words(mailed)}" if mailed else ""
    return (f"record {gone['seq']} ({gone['hash'][:12]}…), which this referee wrote{told}, "
            f"is lost: {_whose(gone)}, and receipts of record {gone['seq']} no longer "
            f"verify")


def _is_side(actor: object) -> bool:
    """Whether a record's actor is a side (not the moderator, nor the referee's clock)."""
    return isinstance(actor, str) and actor not in ("moderator", "referee", "public")


def lost_note(records: list[dict], sent: object, side: str) -> str | None:
    """The first lines of a player's next mail when his last mail ended at the lost record."""
    gone = written.lost_record(records[0].get("game_id"))
    if gone is None or sent != [gone["seq"], gone["hash"]] or \
            (len(records) > gone["seq"] and records[gone["seq"]]["hash"] == gone["hash"]):
        return None
    actor = gone.get("actor")
    whose = "Your orders in it must be sent again" if actor == side else \
        f"The {side_name(actor)} player sends his orders again" if _is_side(actor) \
        else "What it held is to be done again"
    return (f"Record {gone['seq']}, which your last mail reported, was lost when the journal "
            f"was repaired (the game is at record {records[-1]['seq']}). {whose}; your "
            f"receipt of record {gone['seq']} no longer verifies.")


def lost_reply(records: list[dict], seq: int, hash_: str | None) -> str | None:
    """Why a reply to a mail of the lost record is not applied, or None when it is not one."""
    gone = written.lost_record(records[0].get("game_id"))
    if gone is None or gone["seq"] != seq or (hash_ is not None and
                                              not gone["hash"].startswith(hash_)):
        return None
    return f"record {seq} was lost when the journal was repaired; send your orders again"
