"""Which fire phases of the records were fought in a Surprise Attack! battle (9.7).

A battle under a Surprise Attack! card fires in its own order (dogfight, offensive fire,
defensive fire: the sequence of play's 4a, the note of 5.2.1), so its fire phases are told
with that order's letters. The journal's fire events do not say so; the battle's start does
(BattleBegan's `surprise`), and a battle runs over many records, each loss, reaction and
retreat a player decides being a record of its own. A reader of the records carries the
battle under way from one record to the next (`log`, `dice`), or takes it from the position
a record was played on (a report, `explain`, an order's answer); the records stay as they
are written.
"""

from __future__ import annotations

BEGINS = "BattleBegan"
ENDS = ("BattleEnded", "CombatPhaseEnded")
FIRE = "FireResolved"


class Battles:
    """Whether the records read so far leave a Surprise Attack! battle under way."""

    def __init__(self, surprise: bool = False):
        self.surprise = surprise

    @classmethod
    def at(cls, state: object) -> Battles:
        """The battle under way in state (a position; None: the start of the game)."""
        battle = getattr(state, "battle", None)
        return cls(bool(battle and battle.get("surprise")))

    def marked(self, events: list[dict]) -> list[dict]:
        """A record's events read on from the battle under way, each fire phase of a Surprise
        Attack! battle marked ("surprise": True) for its wording: a copy, the record left as
        it is."""
        out = []
        for ev in events:
            kind = ev.get("type")
            if kind == BEGINS:
                self.surprise = bool(ev.get("surprise"))
            elif kind in ENDS:
                self.surprise = False
            elif kind == FIRE and self.surprise:
                ev = {**ev, "surprise": True}
            out.append(ev)
        return out
