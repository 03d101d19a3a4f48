"""The game layer's calls the tests make, each taken from the module that defines it: the
package has no facade (its commands reach a game through the Table, referee/table/), and a
test that drives the game layer itself names what it calls here once."""

from referee.data.catalog import check_game_name, game_data, parse_options
from referee.game.batch import AlreadyApplied, Submission, submit
from referee.game.lifecycle import create_game, register_sheets, rekey, reveal, upgrade
from referee.game.replay import Game, Position, open_game, position
from referee.game.verification import verify
from referee.store.journal import Journal
from referee.table import any_game_data

__all__ = ["AlreadyApplied", "Game", "Journal", "Position", "Submission", "any_game_data",
           "check_game_name", "create_game", "game_data", "open_game", "parse_options",
           "position", "register_sheets", "rekey", "reveal", "submit", "upgrade", "verify"]
