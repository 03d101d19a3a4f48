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
from referee.game.replay import open_game
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



def _occupied(cells: dict) -> dict:
    return {area: bits for area, bits in cells.items() if bits}


def _compare_presence(monkeypatch) -> dict:
    """State.sides_present as it is now, each answer compared with a fresh board's cells;
    how many were worked out alone and how many read off a kept board."""
    worked_out = State.sides_present
    seen = {"alone": 0, "from a board": 0}

    def sides_present(self, data):
        kept = "board" in self._cache or KEPT_BOARD in self._cache
        present = worked_out(self, data)
        fresh = {area: cell[0] for area, cell in self._cells({}, data, None).items()}
        assert _occupied(present) == _occupied(fresh), f"record {self.seq}: sides present"
        seen["from a board" if kept else "alone"] += 1
        return present

    monkeypatch.setattr(State, "sides_present", sides_present)
    return seen


def _stored(name: str, tmp_path: Path) -> Path:
    journal = tmp_path / name
    journal.write_bytes(gzip.decompress((HERE / f"{name}.gz").read_bytes()))
    journal.chmod(0o600)
    return journal


@pytest.mark.parametrize("name", GAMES)
def test_the_sides_present_at_each_turn_are_the_boards(name, tmp_path, monkeypatch):
    """A player turn's friendly areas (4.1) read only which sides stand in each area: with no
    board kept (a replay keeps none), these are worked out without the board, and must be
    what a fresh board's cells say, in a replay and in verify's deciding alike."""
    seen = _compare_presence(monkeypatch)
    journal = _stored(name, tmp_path)
    open_game(journal)
    verify(journal)
    assert seen["alone"] > 10 and seen["from a board"] > 0, seen


def test_sides_present_that_miss_the_armies_are_caught(tmp_path, monkeypatch):
    """Negative control: sides present worked out without the armies fail the comparison."""
    worked_out = State.sides_present

    def without_armies(self, data):
        armies, self.armies = self.armies, {}
        try:
            return worked_out(self, data)
        finally:
            self.armies = armies

    monkeypatch.setattr(State, "sides_present", without_armies)
    _compare_presence(monkeypatch)
    with pytest.raises(AssertionError, match="sides present"):
        open_game(_stored(GAMES[0], tmp_path))
