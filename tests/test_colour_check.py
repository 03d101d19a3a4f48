"""The map's colours told apart (data/colourcheck.py): a nation's counters are never filled
in a colour a reader takes for the other side's areas. The colour difference is CIE 1976
ΔE*ab, checked here against CIELAB values published for the sRGB primaries (red L*a*b* =
53.24, 80.09, 67.20; green 87.73, -86.18, 83.18; white 100, 0, 0; black 0, 0, 0).

AT ALL COSTS!'s Russian counters were first filled "earth green", #a9c48f, beside the
German side's area green #a9c59a: at a glance a Russian army read as a German one.
"""

from __future__ import annotations

import math

import pytest
from datacopy import copy_game, edit, spot

from referee.base.errors import GameDataError
from referee.data.colourcheck import MOST_ALIKE, difference
from referee.data.dataload import load_game
from referee.data.paths import default_games_dir


@pytest.mark.parametrize("one,other,expected", [
    ("#ffffff", "#000000", 100.0),
    ("#ff0000", "#00ff00", math.dist((53.24, 80.09, 67.20), (87.73, -86.18, 83.18))),
    ("#ff0000", "#ff0000", 0.0),
])
def test_the_colour_difference_is_cie76_in_cielab(one, other, expected):
    assert difference(one, other) == pytest.approx(expected, abs=0.1)
    assert difference(other, one) == pytest.approx(expected, abs=0.1)


@pytest.mark.parametrize("game", ["ttlm", "aac"])
def test_no_built_in_counter_reads_as_the_other_side_s_areas(game):
    data = load_game(default_games_dir() / game)
    for nat, nation in data.units.nations.items():
        for side, colours in data.units.side_colours.items():
            if side != nation.side and nation.counter is not None:
                assert difference(nation.counter.fill, colours.fill) >= MOST_ALIKE, (nat, side)


def test_a_counter_as_green_as_the_german_areas_is_reported_where_it_is_written(tmp_path):
    games = copy_game(tmp_path, game="aac")
    units = games / "aac" / "units.yaml"
    edit(units, 'counter: {letters: RU, fill: "#c8b27a"}', 'counter: {letters: RU, '
                                                           'fill: "#a9c48f"}')
    with pytest.raises(GameDataError) as err:
        load_game(games / "aac")
    place = spot(units, '"#a9c48f"')
    said = [line for line in err.value.lines() if "too like" in line]
    assert said == [f"units.yaml:{place}: #a9c48f is too like the German side's area fill "
                     f"#a9c59a (a colour difference of 5.3, under 10): a reader would take "
                     f"these counters for that side's; choose a colour further from it (at "
                     f"nations.ru.counter.fill)"], err.value.lines()
