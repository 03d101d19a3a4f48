"""A mail read directly (direct.py) whose order lines are those of an earlier mail of the
same writer, recorded already since the mail both answer: a phone that sent one reply twice,
under two Message-IDs. Its second copy is not refused at the line the first one's records
now bar ("G3 has fired this turn"), which reads as lost orders: it is told that it repeats
the mail recorded as those records, as a campaign's stale reply is (appliedas.py)."""

from __future__ import annotations

from .answered import Answered
from .appliedas import answers_earlier, applied_as


def repeated_as(records: list[dict], answered: Answered | None, side: str,
                lines: list[str]) -> str | None:
    """Why a mail of side whose order lines are `lines`, answering the referee's mail of
    record answered, is not taken when one mail of his recorded after that record made
    records of exactly those lines, or None: its words, read after 'Nothing of your mail was
    recorded: '."""
    if not lines or not answers_earlier(records, answered):
        return None
    seqs = applied_as(records, answered.seq, side, lines, _mail_of, lambda r: [r["order"]])
    if seqs is None:
        return None
    which = f"#{seqs[0]}" if seqs[0] == seqs[1] else f"#{seqs[0]}–#{seqs[1]}"
    return (f"this mail repeats your mail already recorded as {which} (the same "
            f"orders, answering the same mail): nothing more was done")


def _mail_of(record: dict) -> str | None:
    """The digest of the mail a skirmish record was made from (an order of one), or None."""
    mail = record.get("mail")
    return mail if isinstance(mail, str) and isinstance(record.get("order"), str) else None
