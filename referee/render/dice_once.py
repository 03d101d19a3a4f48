"""Where the dice came from, said once in a report of many records (dice_words.py).

A record of orders typed by hand without a sheet rolls from the secret alone, keyed by its
number: the same sentence under every such record, but for the number, a dozen times in a
forum post of one turn. Such records (and the shuffles of such records, and the dice of a
manual-dice game) are told together at the first of them, naming every record the
sentence covers; a record whose dice mix in a link or a mail's digest keeps its own
sentence, which says what is true of it alone. `explain N` still tells each record whole.
"""

from __future__ import annotations

from ..base.plurals import joined
from .dice_words import record_keyed, report_lines
from .sections import Span

# Imported for annotations only: the quick paths do without the typing module.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..data.gamedata import GameData

# What records of one kind share, told once with the records it covers.
GROUPED = {
    "dice": "Dice of records {seqs}: the secret alone, each keyed by its record's number: "
            "the moderator could foresee and choose among them (explain N for any of them).",
    "shuffle": "Shuffles of records {seqs}: the secret alone, each keyed by its record's "
               "number: the moderator could foresee and choose among their outcomes "
               "(explain N for any of them).",
    "manual": "Dice of records {seqs}: rolled by the players and entered by the moderator "
              "(manual dice; explain N for any of them).",
}


def _records(seqs: list[int]) -> str:
    return joined([str(n) for n in seqs])


class DiceOnce:
    """The dice lines of a report's records, each kind keyed by record number said once."""

    def __init__(self, manual: bool):
        self.manual = manual
        self.first: dict[str, list[Span]] = {}      # the line each kind is told on
        self.seqs: dict[str, list[int]] = {}

    def lines(self, rec: dict, data: GameData) -> list[list[Span]]:
        """A record's dice sheet lines, then where its dice came from: in full, or for a kind
        said once, at its first record only (filled in by close)."""
        out = [[Span(t)] for t in report_lines(rec, data, self.manual)]
        kind = record_keyed(rec, self.manual)
        if kind is None:
            return out
        self.seqs.setdefault(kind, []).append(rec["seq"])
        if kind in self.first:
            return out[:-1]
        self.first[kind] = out[-1]
        return out

    def close(self) -> None:
        """Each kind told by more than one record: its first line names them all."""
        for kind, line in self.first.items():
            if len(self.seqs[kind]) > 1:
                line[0] = Span(GROUPED[kind].format(seqs=_records(self.seqs[kind])))

