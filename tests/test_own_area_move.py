"""A move whose path begins with the unit's own area (4.1, 8.1): to join an army there the
order names no area, and the refusal gives that order rather than 'Metz is not adjacent to
Metz'."""

from __future__ import annotations

from casebook import play_case

POSITION = {"base": "1914", "player": "german",
            "hands": {"german": ["off-01"], "entente": ["off-03"]},
            "remove_units": ["ge-4"],
            "add_units": ["ge-4 ge army metz 3I", "ge-i-05 ge infantry metz"]}


def test_joining_an_army_in_the_same_area_is_shown_the_order_that_does_it(tmp_path):
    play_case({"rule": "8.1", "position": POSITION, "steps": [
        {"german": "play offensive"},
        {"german": "move ge-i-05 metz into ge-4", "reject": "8.1",
         "says": ["ge-i-05 is in Metz already; to join ge-4 there, name no area: "
                  "'move ge-i-05 into ge-4'"]},
        {"german": "move ge-i-05 metz", "reject": "4.1",
         "says": ["ge-i-05 is in Metz already; a move names the areas it enters"]},
        {"german": "move ge-i-05 into ge-4",
         "expect": {"state": {"armies.ge-4.contents": {"ge:infantry": 4}}}}]}, tmp_path)


def test_an_army_elsewhere_is_not_offered_to_join(tmp_path):
    """ge-5 stands in Thionville: 'move ge-i-05 into ge-5' would be refused too, so the
    refusal gives only what is wrong with the path (4.1)."""
    play_case({"rule": "4.1", "position": POSITION, "steps": [
        {"german": "play offensive"},
        {"german": "move ge-i-05 metz into ge-5", "reject": "4.1",
         "says": ["ge-i-05 is in Metz already; a move names the areas it enters"]}]},
        tmp_path)
