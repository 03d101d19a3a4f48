"""The board a position keeps between events is the board worked out afresh.

`evolve` keeps the per-area board (state.board: who is present, who holds, how many units
stack) through events that move no unit, and works out again only the areas a move
touches (evolve.BOARD_AREAS). Every answer of the rules that asks who is in an area
(disputed, stacking, holding, VP) reads that board, so a kept board that missed a change
would rule wrongly. Here every board the engine reads while verify decides whole stored
games again, of both games, with every optional rule on and off, is compared with the board
worked out from scratch from the same position.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from gamecalls import create_game
from referee.engine.state import KEPT_BOARD, State
from referee.game.autoplay import autoplay
from referee.game.verification import verify

HERE = Path(__file__).parent / "replays"
GAMES = ["ttlm-1914-seed7.jsonl", "ttlm-1918-seed9.jsonl"]


@pytest.fixture
def checked_boards(monkeypatch):
    """State.board, comparing the first read after each event with a fresh board."""
    kept_board = State.board
    seen = {"kept": 0, "compared": 0}

    def board(self, data):
        kept = "board" in self._cache or KEPT_BOARD in self._cache
        b = kept_board(self, data)
        if kept and "board_checked" not in self._cache:
            self._cache["board_checked"] = True
            fresh = self._cells({}, data, None)
            assert b == fresh, f"record {self.seq}: kept board differs from a fresh one"
            seen["compared"] += 1
        return b

    def board_after(self, before, areas, data):
        seen["kept"] += 1
        return State._cells(self, {a: c for a, c in before.items() if a not in areas}, data,
                            areas)

    monkeypatch.setattr(State, "board", board)
    monkeypatch.setattr(State, "board_after", board_after)
    return seen


@pytest.mark.parametrize("name", GAMES)
def test_every_board_read_equals_a_fresh_one(name, tmp_path, checked_boards):
    journal = tmp_path / name
    journal.write_bytes(gzip.decompress((HERE / f"{name}.gz").read_bytes()))
    journal.chmod(0o600)
    verify(journal)
    # The test saw boards kept through moves, and compared many: it cannot pass empty.
    assert checked_boards["kept"] > 100
    assert checked_boards["compared"] > 300


def test_every_board_read_in_random_play_of_at_all_costs(tmp_path, checked_boards):
    """AT ALL COSTS!, played at random (its own map, sea moves and units; hidden templates:
    moves onto and off templates are secret details), then verified."""
    options = ["defender_scramble=on", "hidden_templates=on"]
    journal = tmp_path / "aac.jsonl"
    create_game(journal, "1914", game="aac", options=options, game_id="aac-board")
    autoplay(journal, 5, max_records=400, check_every=10_000)
    verify(journal)
    assert checked_boards["kept"] > 100
    assert checked_boards["compared"] > 500


# Every optional rule of TO THE LAST MAN! on (games/ttlm/game.yaml `options`): each changes
# what an event does (a suppressed army, the Belgian army by sea, a scramble's biplanes).
EVERY_OPTION = ["hidden_templates=on", "suppressing_armies=on", "antwerp_evacuation=on",
                "uk_materiel_superiority=on", "defender_scramble=on", "linked_with_aac=on"]


@pytest.mark.parametrize(("game", "scenario", "options", "seed"), [
    ("ttlm", "1914", EVERY_OPTION, 3), ("ttlm", "1918", EVERY_OPTION, 4),
    ("aac", "1914", [], 6)])
def test_every_board_read_in_random_play_with_the_optional_rules(game, scenario, options,
                                                                 seed, tmp_path,
                                                                 checked_boards):
    """Random play, then verified, of TO THE LAST MAN! with every optional rule on (the
    stored games play none) and of AT ALL COSTS! with none (the test above plays two)."""
    journal = tmp_path / f"{game}.jsonl"
    create_game(journal, scenario, game=game, options=options, game_id=f"board-{seed}")
    autoplay(journal, seed, max_records=400, check_every=10_000)
    verify(journal)
    assert checked_boards["kept"] > 100
    assert checked_boards["compared"] > 300


def test_a_board_kept_through_a_move_it_missed_is_caught(tmp_path, monkeypatch, checked_boards):
    """Negative control: a kept board that ignores a move's areas fails the comparison."""
    monkeypatch.setattr(State, "board_after", lambda self, before, areas, data: before)
    name = GAMES[0]
    journal = tmp_path / name
    journal.write_bytes(gzip.decompress((HERE / f"{name}.gz").read_bytes()))
    journal.chmod(0o600)
    with pytest.raises(AssertionError, match="kept board differs"):
        verify(journal)
