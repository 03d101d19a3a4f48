"""Two journals of one game in a folder (a backup copy beside the live one): neither is
played, since a message would be applied to both and answered twice."""

from __future__ import annotations

from ..base.errors import one_line
from .tickgame import Game


def one_journal_a_game(games: list[Game]) -> tuple[list[Game], list[tuple[str, list]]]:
    """The games to play, and a problem for each game id that two journals of the folder
    hold (a backup copy beside the live one): neither is played, since a message would be
    applied to both and answered twice, until the moderator moves one away."""
    by_id: dict[str, list[Game]] = {}
    for x in games:
        by_id.setdefault(x.game_id, []).append(x)
    twins = [(f"game {game_id}: {len(xs)} journals hold it "
              f"({', '.join(one_line(x.journal.name) for x in xs)}); none is played until "
              f"only one is left in the folder", xs)
             for game_id, xs in by_id.items() if len(xs) > 1]
    return [x for x in games if len(by_id[x.game_id]) == 1], twins

