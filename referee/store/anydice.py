"""Dice of any number of faces (a D6, a D20) from a game's committed secret, or given by hand:
value i of record n is 1 + a uniform draw below the faces (dice.below): fixed by the
secret committed at `new` and the record, so anyone holding the revealed secret can check
it; whoever holds the secret before then can foresee it. A record whose `source` (its
`dice_from`, sheets.own_source) names a stream ("british.3") is keyed by it in place of
its number, and its draws mix in what the source names (a mail's digest)."""

from __future__ import annotations

from ..base.errors import DiceError
from .dice import below, stream_of
from .sheets import mix_text


class AnyDice:
    """The dice of one record; `log` keeps each value with its faces."""

    def __init__(self, game_id: str, record: int, secret: bytes | None,
                 given: list[int] | None = None, source: dict | None = None):
        self.game_id, self.record, self.secret = game_id, record, secret
        self.given = list(given) if given is not None else None
        self.index = 0
        self.log: list[tuple[int, int]] = []
        self.keyed(source)

    def keyed(self, source: dict | None, index: int = 0) -> None:
        """Draw from here on from the stream source names (None: the record's number),
        starting at its value `index`."""
        self.source, self.index = source or None, index
        self.key, self.mix = stream_of(self.record, self.source), mix_text(self.source)

    def roll(self, sides: int, count: int, purpose: str) -> list[int]:
        out = [self._one(sides, purpose) for _ in range(count)]
        self.log += [(sides, v) for v in out]
        return out

    def _one(self, sides: int, purpose: str) -> int:
        if self.given is not None:
            if self.index >= len(self.given):
                raise DiceError(f"{purpose} needs another die and none is left")
            v = self.given[self.index]
            if not 1 <= v <= sides:
                raise DiceError(f"{purpose}: {v} is no face of a D{sides}")
        elif self.secret is None:
            raise DiceError("this game's dice secret was not found")
        else:
            v = 1 + below(self.secret, self.game_id, self.key, self.index, sides, self.mix)
        self.index += 1
        return v

    def check_used_up(self) -> None:
        if self.given is not None and self.index < len(self.given):
            raise DiceError(f"{len(self.given) - self.index} more dice given than the test "
                            f"rolled ({self.index})")
