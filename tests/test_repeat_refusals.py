"""An order given a second time, once the first has done what it does, is refused for that:
the retreat made, the area chosen, the card played (5.4.4, 9.1.6, 1.3), never for a reason
that reads as if the first had not happened."""

from __future__ import annotations

from casebook import play_case

FRIEDENSTURM = {"base": "1918", "player": "german", "dice": "manual",
                "hands": {"german": ["friedensturm-01", "gas-01"], "entente": ["ers2-01"]}}
OPENING = [{"german": "play friedensturm"}, {"german": "move ge-6 artois"},
           {"german": "end movement"}]
DECLARED = [*OPENING, {"german": "done"}]     # no more battles: his hand holds two cards


def test_a_second_bonus_in_the_same_area_says_it_is_chosen_already(tmp_path):
    play_case({"rule": "9.1.6", "position": FRIEDENSTURM, "steps": [
        *DECLARED, {"german": "bonus artois"},
        {"german": "bonus artois", "reject": "9.1.6",
         "says": ["Artois is already chosen for Friedensturm's extra dice"]}]}, tmp_path)


def test_a_card_played_again_says_it_is_played_already(tmp_path):
    play_case({"rule": "1.3", "position": FRIEDENSTURM, "steps": [
        *DECLARED, {"german": "play poison_gas artois"},
        {"german": "play poison_gas artois", "reject": "1.3",
         "says": ["Poison Gas! is played already (Artois); the German hand holds no other"]}]},
        tmp_path)


def test_a_unit_that_retreated_is_told_so_when_it_retreats_again(tmp_path):
    """The Friedensturm example of 9.1.6 (tests/rulebook): uk-1 retreats to Calais; a second
    retreat of uk-1 says where it went, not that it never took part in the battle."""
    play_case({"rule": "5.4.4", "position": {**FRIEDENSTURM, "hands": {
        "german": ["friedensturm-01"], "entente": ["ers2-01"]}}, "steps": [
        *OPENING, {"german": "bonus artois"}, {"german": "done"},
        {"entente": "done", "dice": [6]}, {"entente": "done", "dice": [
            6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 1, 6, 1, 6]},
        {"entente": "ersatz ersatz_2"}, {"german": "done"},
        {"entente": "retreat uk-1 calais"},
        {"entente": "retreat uk-1 amiens", "reject": "5.4.4",
         "says": ["uk-1 has already retreated this combat phase (to Calais)"]}]}, tmp_path)
