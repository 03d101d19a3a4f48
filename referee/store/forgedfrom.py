"""Where a journal passed off as this referee's stops being his: the first record whose
signature does not check against the game's key in force.

The commands that read a game check one signature, the last record's (through the hash
chain it vouches for every record before it): when it fails, the journal is refused, and
only then is every signature checked, as `verify` checks them (authorship.py), to name the
record the forgery begins at. A journal that reads well never comes here, so a read costs
what it did; one refused costs a check of its signatures more.
"""

from __future__ import annotations

from ..base.errors import JournalError
from .chain import scan


def first_forged(raw: bytes, name: str) -> int | None:
    """The first record of raw (checked: a fault in the chain is raised as such) whose
    signature is not the game's key's as verify reads them, or None when there is none."""
    from .authorship import Authorship  # start-up: only a journal refused comes here

    records = scan(raw, name)
    header = next(records)
    try:
        authors = Authorship(name, header)
    except JournalError as exc:
        return exc.record
    for rec in records:
        try:
            authors.check(rec)
        except JournalError as exc:
            return exc.record
    return None


# What to do with a journal someone without the key wrote to (docs/moderator.md, Repair):
# the referee mends none, and cutting the forged records off would keep what they changed.
WROTE_NOTHING = "nothing was written"
RESTORE = ("put back the copy from your last backup, or a .bak that `referee repair` left, and "
           "run `referee verify` on it (docs/moderator.md, Repair)")


def forged_end(raw: bytes, name: str, last: object, done: str) -> str:
    """The end of the refusal of a forged journal: where the forgery begins (since), what
    the command did not do (done), and what the moderator does now."""
    return f"{since(raw, name, last)}; {done}: {RESTORE}"


def since(raw: bytes, name: str, last: object) -> str:
    """The words that say where the forgery begins, for the refusal of a journal whose last
    record (last: its seq) is not signed as it should be: "" when it begins there."""
    first = first_forged(raw, name)
    if first is None or first == last:
        return ""
    return f", from record {first} on (the first whose signature fails, as `referee verify` " \
        f"names it)"
