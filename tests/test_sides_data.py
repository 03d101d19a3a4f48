"""Sides, nations, unit kinds and countries are the game's own names, declared in its files.

The data schema fixes none of them: a game declares its sides and nations in units.yaml
(`sides`, `nations`), its unit kinds in `unit_types`, its countries in map.yaml `countries`
and the nations' `home_country`; every other file may name only those, and each name it
does not declare is reported with its file and path, all at once (`referee games check`).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from referee.errors import GameDataError
from referee.gamedata import default_games_dir, load_game

GAMES = default_games_dir()


def _copy(tmp_path: Path) -> Path:
    dst = tmp_path / "ttlm"
    shutil.copytree(GAMES / "ttlm", dst)
    return dst


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _rename_side(root: Path, old: str, new: str) -> None:
    """Every mention of a side's id (a whole word, or `<side>_parts`) in a game copy's YAML."""
    word = re.compile(rf"\b{old}(?=\b|_parts\b)")
    for path in root.rglob("*.yaml"):
        text = path.read_text(encoding="utf-8")
        path.write_text(word.sub(new, text), encoding="utf-8")


def test_a_new_nation_on_a_renamed_side_loads(tmp_path):
    """Another game's sides and nations load: `entente` renamed `allies`, with a nation `ru`
    (home country russia) that has armies, a template and build dates (units 1.2, 1.4, 7.6)."""
    d = _copy(tmp_path)
    _rename_side(d, "entente", "allies")
    _edit(d / "units.yaml", "allies: [fr, uk, be, us]", "allies: [fr, uk, be, us, ru]")
    _edit(d / "units.yaml", "  us: {name: United States,",
          "  ru: {name: Russian Empire, side: allies, home_country: russia}\n"
          "  us: {name: United States,")
    _edit(d / "units.yaml", "  us: {army: 5,", "  ru: {army: 2, infantry: 6}\n  us: {army: 5,")
    _edit(d / "charts.yaml", "    us: {infantry: 6, auxiliary: 3}",
          "    us: {infantry: 6, auxiliary: 3}\n    ru: {infantry: 4, auxiliary: 0}")
    _edit(d / "events.yaml", "build_dates:\n  units:\n",
          "build_dates:\n  units:\n    ru:\n      infantry: {from_turn: 1, rule: \"7.6\"}\n")
    data = load_game(d)
    assert data.sides == ("german", "allies")
    assert data.nation_side["ru"] == "allies" and data.units.mix["ru"] == {"army": 2,
                                                                          "infantry": 6}
    assert "russia" in data.countries
    assert data.scenarios["1914"].control["allies"]
    assert data.build_points(1) == {"german": 10, "allies": 8}      # 7.0 chart, turn 1
    assert data.card_limit(1914, "allies") == 5                      # 7.1 chart, 1914


def test_unknown_names_are_reported_with_their_file_and_path(tmp_path):
    """A nation, a side, a unit kind or a country the game does not declare is a problem
    naming the file and the path, each of them in one run (units.yaml sides/nations, 11.1)."""
    d = _copy(tmp_path)
    _edit(d / "units.yaml", "  us: {army: 5,", "  ru: {army: 2, infantry: 6}\n  us: {army: 5,")
    _edit(d / "units.yaml", "  be: {army: 1,  infantry: 3, fort: 3}",
          "  be: {army: 1,  infantry: 3, fort: 3, zeppelin: 1}")
    _edit(d / "map.yaml", "country: luxembourg", "country: ruritania")
    _edit(d / "scenarios/1914.yaml", "{id: fort-liege,        nation: be,",
          "{id: fort-liege,        nation: ru,")
    _edit(d / "scenarios/1914.yaml", "first_player: german", "first_player: austria")
    with pytest.raises(GameDataError) as err:
        load_game(d)
    problems = err.value.problems
    text = "\n".join(problems)
    assert "units.yaml: counter_mix.ru: unknown nation 'ru'" in text
    assert "units.yaml: counter_mix.be.zeppelin: unknown unit kind 'zeppelin'" in text
    assert "map.yaml: areas.luxembourg.country: unknown country 'ruritania'" in text
    assert "scenarios/1914.yaml: forts[" in text and "(fort-liege).nation: unknown nation 'ru'" \
        in text
    assert "scenarios/1914.yaml: first_player: unknown side 'austria'" in text
