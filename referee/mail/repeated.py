"""A mail read directly (direct.py) whose order lines are those of an earlier mail of the
same writer, recorded already since the mail both answer: a phone that sent one reply twice,
under two Message-IDs. Its second copy is not refused at the line the first one's records
now bar ("G3 has fired this turn"), which reads as lost orders: it is told that it repeats
the mail recorded as those records, as a campaign's stale reply is (appliedas.py)."""

from __future__ import annotations

from .answered import Answered


def repeated_as(records: list[dict], answered: Answered | None, side: str,
                lines: list[str]) -> str | None:
    """Why a mail of side whose order lines are `lines`, answering the referee's mail of
    record answered, is not taken when one mail of his recorded after that record made
    records of exactly those lines, or None: its words, read after 'Nothing of your mail was
    recorded: '."""
    if answered is None or not lines or not 0 <= answered.seq < len(records) - 1 or \
            not answered.is_of(records[answered.seq]):
        return None
    want = [_plain(t) for t in lines]
    made: dict[str, list[dict]] = {}
    for r in records[answered.seq + 1:]:
        if r.get("actor") == side and isinstance(r.get("mail"), str) and \
                isinstance(r.get("order"), str):
            made.setdefault(r["mail"], []).append(r)
    for recs in made.values():
        if [_plain(r["order"]) for r in recs] == want:
            seqs = [r["seq"] for r in recs]
            which = f"#{seqs[0]}" if len(seqs) == 1 else f"#{seqs[0]}–#{seqs[-1]}"
            return (f"this mail repeats your mail already recorded as {which} (the same "
                    f"orders, answering the same mail): nothing more was done")
    return None


def _plain(line: str) -> str:
    """A line as compared: its words, case aside."""
    return " ".join(line.split()).casefold()
