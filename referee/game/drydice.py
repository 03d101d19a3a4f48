"""Dice that stop at the first roll or shuffle: a dry run's (game/batch.py) and a look ahead
(game/ahead.py), which may decide orders but never tell what the dice or the deck give; and
dice that count, for the moderator: how many dice orders held for his hand roll."""

from __future__ import annotations

from ..store.dice import Dice


class DryStop(Exception):
    """A dry run reached an order whose result the rules leave to the dice or the deck:
    args are (what it would do, 'dice' or 'cards')."""


class DryDice(Dice):
    """Dice for a dry run: any die or shuffle stops it before the secret is used."""

    def __init__(self, game_id: str, record: int):
        super().__init__(game_id, record, None)

    def _roll(self, count: int, purpose: str) -> list[int]:
        if count == 0:
            return []
        raise DryStop(f"it would roll dice ({purpose})", "dice")

    def shuffle(self, cards: list[str]) -> tuple[list[str], int]:
        raise DryStop("it would shuffle the deck", "cards")

    def salt(self) -> str:
        return "0" * 32

    def order_salt(self) -> str:
        return "0" * 32

    def mail_salt(self) -> str:
        return "0" * 32

    def standing_salt(self) -> str:
        return "0" * 32


class CountingDice(DryDice):
    """Dice for a dry run that counts the dice orders roll: every die shows `value` (the
    count may rest on what the dice show: a caller tries a low and a high value); a shuffle
    still stops the run."""

    def __init__(self, game_id: str, record: int, value: int):
        super().__init__(game_id, record)
        self.value = value

    def _roll(self, count: int, purpose: str) -> list[int]:
        return [self.value] * count
