"""Every rulebook example and official ruling in tests/rulebook/*.yaml, played by one runner."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

import gamecalls as g
from casebook import play_case

CASES = sorted((Path(__file__).parent / "rulebook").glob("*.yaml"))

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)   # LibYAML where there


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_rulebook_case(path, tmp_path):
    case = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)
    assert case.get("rule") and case.get("steps"), "a case names its rule and has steps"
    play_case(case, tmp_path)


# A season a case's title names in brackets, as '(SUMMER 1918)'.
_SEASON = re.compile(r"\(((?:SPRING|SUMMER|AUTUMN|WINTER) \d{4}(?:-\d\d)?)\)")


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_a_case_s_title_names_the_season_of_its_turn(path):
    """A title that names the season its position is set in names the one its turn is on
    the game's turn chart: a reader checks the case against the rules by it."""
    case = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)
    pos = case.get("position") or {}
    named = _SEASON.findall(" ".join(str(case.get("title", "")).split()))
    if "turn" not in pos or not named:
        return
    label = g.game_data(pos.get("game", "ttlm")).label(pos["turn"])
    assert label in named, (pos["turn"], label, named)
