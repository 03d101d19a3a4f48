"""Every option of every game is in the one table of docs/rules.md, with its rule.

A moderator chooses optional rules at `referee new --option KEY=true`; the table in
docs/rules.md ("What is implemented") is where he reads what each one changes. The games'
data (games/<game>/game.yaml `options`) is the source: an option added there, or its rule
changed, fails this test until the table says so, and a row for an option no game has
fails too.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(p.parent for p in (ROOT / "games").glob("*/game.yaml"))
# The table names a game as its rulebook does.
SHORT = {"ttlm": "TTLM", "aac": "AAC"}
ROW = re.compile(r"^\| `([a-z_]+)` \| ([A-Z, ]+) \| ([^|]+) \| (.+) \|$")


def _table() -> dict[str, tuple[set[str], str]]:
    """option -> (the games it names, its rule), from the rows of the options table."""
    rows = {}
    for line in (ROOT / "docs" / "rules.md").read_text(encoding="utf-8").splitlines():
        m = ROW.match(line)
        if m:
            rows[m.group(1)] = ({g.strip() for g in m.group(2).split(",")}, m.group(3).strip())
    return rows


def _options(game: Path) -> dict:
    return (yaml.safe_load((game / "game.yaml").read_text(encoding="utf-8")) or {}).get(
        "options") or {}


@pytest.mark.parametrize("game", GAMES, ids=lambda p: p.name)
def test_each_option_of_the_game_is_a_row_with_its_rule(game):
    table = _table()
    for key, spec in _options(game).items():
        assert key in table, f"{game.name}: option {key} is missing from docs/rules.md"
        games, rule = table[key]
        assert SHORT[game.name] in games, f"{key}: the table does not name {game.name}"
        assert rule == spec["rule"], f"{key}: the table cites {rule}, the data {spec['rule']}"


def test_no_row_names_an_option_a_game_does_not_have():
    table = _table()
    assert len(table) >= 6                     # the table was found and read
    have = {(SHORT[g.name], key) for g in GAMES if g.name in SHORT for key in _options(g)}
    for key, (games, _) in table.items():
        for name in games:
            assert (name, key) in have, f"docs/rules.md lists {key} for {name}: no such option"


def test_a_game_without_options_is_said_to_have_none():
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    for game in GAMES:
        if not _options(game):
            assert f"The {game.name} has no options." in text
