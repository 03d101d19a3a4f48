"""A game that takes no orders now: a journal that holds its header alone is refused as
what it is, not as a game over."""

from __future__ import annotations

import os
from pathlib import Path

SIDES = ("german", "entente", "moderator")


def _header_alone(game: Path) -> Path:
    """The game's journal cut back to its header (record 0), this referee's mark of what it
    wrote taken away, as on another machine: no set-up record, which `new` writes with it."""
    game.write_bytes(game.read_bytes().splitlines(keepends=True)[0])
    for mark in (Path(os.environ["REFEREE_HOME"]) / "written").glob("*.mark"):
        mark.unlink()
    return game


def test_an_order_to_a_journal_with_its_header_alone_is_not_told_the_game_is_over(cli, game):
    """No decision is asked, so no order is taken; but nothing ended the game (3.0): its
    refusal says why, never that the game is over, and so does `deadline --set`."""
    _header_alone(game)
    r = cli("order", game, "--as", "german", "pass")
    assert r.exit_code == 1 and "set-up" in r.stderr and "game is over" not in r.stderr, \
        r.stderr
    assert "(rule 3.0)" not in r.stderr
    r = cli("deadline", game, "--set", "48h")
    assert r.exit_code == 2 and "set-up" in r.stderr, r.stderr
