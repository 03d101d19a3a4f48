"""Where the dice came from, said once in a report of many records (dice_words.py).

A record of orders typed by hand without a sheet rolls from the secret alone, keyed by its
number: the same sentence under every such record, but for the number, a dozen times in a
forum post of one turn. Such records (and the shuffles of such records, and the dice of a
manual-dice game) are told together once, at the foot of what happened, naming every
record the sentence covers: told under the first of them it read as that record's alone.
The secret alone is what a dice sheet avoids, which the note says. One such record keeps
its sentence by its own dice; a record whose dice mix in a link or a mail's digest keeps
its own sentence, which says what is true of it alone. `explain N` still tells each record
whole.
"""

from __future__ import annotations

from ..base.plurals import joined
from .dice_words import SECRET_ALONE, asking, record_keyed, report_lines
from .sections import Para, Span

# Imported for annotations only: the quick paths do without the typing module.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..data.gamedata import GameData

# What avoids dice the moderator could foresee and choose among (docs/player.md).
SHEETS = "a dice sheet for each side avoids this (docs/player.md, Dice sheets)"
# What records of one kind share, told once with the records it covers.
GROUPED = {
    "dice": "Dice of records {seqs} " + SECRET_ALONE + ": the moderator could foresee and "
            "choose among them (for an audit: each keyed by its record's number; {ask} for "
            "any of them); " + SHEETS + ".",
    "shuffle": "Shuffles of records {seqs} " + SECRET_ALONE + ": the moderator could "
               "foresee and choose among their outcomes (for an audit: each keyed by its "
               "record's number; {ask} for any of them); " + SHEETS + ".",
    "manual": "Dice of records {seqs}: rolled by the players and entered by the moderator "
              "(for an audit: manual dice; {ask} for any of them).",
}


def _records(seqs: list[int]) -> str:
    return joined([str(n) for n in seqs])


class DiceOnce:
    """The dice lines of a report's records, each kind keyed by record number said once."""

    def __init__(self, manual: bool, mailed: bool = False):
        self.manual, self.mailed = manual, mailed     # mailed: a player's mail
        # Where each kind was first told: the record's lines and the line in them.
        self.first: dict[str, tuple[list[list[Span]], list[Span]]] = {}
        self.seqs: dict[str, list[int]] = {}

    def add(self, into: list[list[Span]], rec: dict, data: GameData) -> None:
        """A record's dice sheet lines, then where its dice came from, added to its lines
        `into`: in full, or for a kind said once, at its first record only (moved to the
        foot by close when a later record shares it)."""
        out = [[Span(t)] for t in report_lines(rec, data, self.manual, self.mailed)]
        kind = record_keyed(rec, self.manual)
        if kind is not None:
            self.seqs.setdefault(kind, []).append(rec["seq"])
            if kind in self.first:
                out = out[:-1]
            else:
                self.first[kind] = (into, out[-1])
        into += out

    def close(self) -> list[Para]:
        """Each kind told by more than one record, taken from the first of them: a note for
        the foot of what happened, naming them all."""
        notes = []
        for kind, (lines, line) in self.first.items():
            if len(self.seqs[kind]) > 1:
                lines.remove(line)
                notes.append(Para([Span(GROUPED[kind].format(
                    seqs=_records(self.seqs[kind]), ask=asking("N", self.mailed)))]))
        return notes
