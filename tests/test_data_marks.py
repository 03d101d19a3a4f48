"""Game data and scenario files are checked against their contracts, and every error of a file's
shape is one line FILE:LINE:COLUMN: what (at where), the line and column those of the YAML text.

Each case below is data: the edits that break a file, and for each error the text it points at
(its first character is the place: the value, the unknown key, or the mapping that lacks a key),
what the line says and where. The line and column expected are found in the edited text by
plain search, never taken from the loader.
"""

from __future__ import annotations

import gzip
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from datacopy import copy_game, edit
from pydantic import TypeAdapter

from referee.base.errors import GameDataError
from referee.contracts import (
    chartmodels,
    deckmodels,
    eventmodels,
    gamemodels,
    mapmodels,
    scenariomodels,
    skirmish,
    unitmodels,
)
from referee.contracts.words import PATTERNS
from referee.data import build, compiled
from referee.data.dataload import PARTS, load_game, load_scenario_file, read_yaml
from referee.data.paths import default_games_dir
from referee.data.upcast import upcast_document

GAMES = default_games_dir()

# A copy of TTLM's 1914 scenario with five errors of five kinds: (text, its replacement).
SCENARIO_EDITS = [
    ("provenance: reconstructed\n", "provenance: reconstructed\nnotse: [a first note]\n"),
    ("last_turn: 23", "last_turn: twenty"),
    ("eft_box: []", "eft_box: [{type: infantry, count: 100}, {count: 2}]"),
    ("first_player: german\n", "first_player: german\nposition: {phase: midday}\n"),
]
SCENARIO_ERRORS = [
    # (the text the error points at, what the line says, where)
    ("notse:", "unknown key 'notse'", "notse"),
    ("twenty", "must be a whole number, got 'twenty'", "last_turn"),
    ("100}", "must be at most 99, got 100", "eft_box[0].count"),
    ("{count: 2}", "missing key 'type'", "eft_box[1].type"),
    ("midday", "must be one of 'reinforcements', 'player_turn', 'production', got 'midday'",
     "position.phase"),
]

# A copy of TTLM's units.yaml with five errors of five kinds.
UNITS_EDITS = [
    ("fr: {name: French Republic,    side: entente, home_country: france,  modern: true,",
     "fr: {name: French Republic,    side: entente, home_country: france,  modern: true, "
     "colour: blue,"),
    ("stacking_limit: 3", "stacking_limit: three"),
    ("    max_per_army: 1\n", "    max_per_army: 1000\n"),
    ("alone_lost_to: enemy_units         # 8.3.3", "alone_lost_to: everyone          # 8.3.3"),
    ('german:  {fill: "#a9c59a", ink: "#2f4f1f"}',
     'german:  {fill: "#a9c59a"}'),
]
UNITS_ERRORS = [
    ("colour: blue", "unknown key 'colour'", "nations.fr.colour"),
    ("three", "must be a whole number, got 'three'", "stacking_limit"),
    ("1000", "must be at most 999, got 1000", "unit_types.biplane.max_per_army"),
    ("everyone", "must be one of 'enemy_infantry', 'enemy_units', got 'everyone'",
     "unit_types.siege_gun.alone_lost_to"),
    ('{fill: "#a9c59a"}', "missing key 'ink'", "side_colours.german.ink"),
]


def _broken(path: Path, edits: list[tuple[str, str]], errors: list[tuple[str, str, str]],
            label: str) -> list[str]:
    """Apply the edits to the file at path; the lines its errors must give, in the order of
    the file."""
    for old, new in edits:
        edit(path, old, new)
    text = path.read_text(encoding="utf-8")
    expected = []
    for points_at, says, where in errors:
        assert text.count(points_at) == 1, points_at
        at = text.index(points_at)
        line = text.count("\n", 0, at) + 1
        column = at - (text.rfind("\n", 0, at) + 1) + 1
        expected.append((at, f"{label}:{line}:{column}: {says} (at {where})"))
    return [line for _, line in sorted(expected)]


def _what_if(tmp_path: Path) -> tuple[Path, list[str]]:
    path = tmp_path / "what-if.yaml"
    path.write_text((GAMES / "ttlm" / "scenarios" / "1914.yaml").read_text(encoding="utf-8"),
                    encoding="utf-8")
    return path, _broken(path, SCENARIO_EDITS, SCENARIO_ERRORS, str(path))


def test_five_errors_of_a_scenario_are_five_lines_at_their_line_and_column(tmp_path, data):
    path, expected = _what_if(tmp_path)
    with pytest.raises(GameDataError) as err:
        load_scenario_file(path, data)
    assert err.value.problems == expected


def test_new_with_a_broken_scenario_lists_its_errors_and_makes_no_journal(tmp_path, cli):
    path, expected = _what_if(tmp_path)
    journal = tmp_path / "j.jsonl"
    r = cli("new", journal, "--scenario", path)
    assert r.exit_code == 3
    assert r.stderr.splitlines() == [f"referee: {line}" for line in expected] + [
        "referee: 5 problems found"]
    assert not journal.exists() and not Path(f"{journal}.secret").exists()


def test_five_errors_of_a_data_file_are_five_lines_and_games_check_exits_3(tmp_path):
    root = copy_game(tmp_path) / "ttlm"
    expected = _broken(root / "units.yaml", UNITS_EDITS, UNITS_ERRORS, "units.yaml")
    with pytest.raises(GameDataError) as err:
        load_game(root)
    assert err.value.problems == expected
    out = subprocess.run([sys.executable, "-m", "referee", "games", "check", str(root)],
                         capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert out.returncode == 3, out.stderr
    assert out.stderr.splitlines() == [f"referee: {line}" for line in expected] + [
        "referee: 5 problems found"]


def test_errors_in_several_files_are_all_listed_each_at_its_file(tmp_path, cli):
    root = copy_game(tmp_path) / "ttlm"
    units = _broken(root / "units.yaml", UNITS_EDITS[:2], UNITS_ERRORS[:2], "units.yaml")
    scenario = _broken(root / "scenarios" / "1916.yaml", SCENARIO_EDITS[1:2],
                       SCENARIO_ERRORS[1:2], "scenarios/1916.yaml")
    r = cli("games", "check", root)
    assert r.exit_code == 3
    lines = r.stderr.splitlines()
    assert [ln for ln in lines if re.match(r"referee: \S+:\d+:\d+: ", ln)] == [
        f"referee: {line}" for line in units + scenario]
    assert lines[-1] == f"referee: {len(lines) - 1} problems found"


def test_make_setup_lists_every_error_of_a_game_it_cannot_compile(tmp_path, monkeypatch,
                                                                 capsys):
    games = copy_game(tmp_path)
    expected = _broken(games / "ttlm" / "units.yaml", UNITS_EDITS, UNITS_ERRORS, "units.yaml")
    monkeypatch.setattr(build, "default_games_dir", lambda: games)
    monkeypatch.setattr(compiled, "PACKAGE_DIR", tmp_path / "compiled")   # never the package's
    assert build.main() == 1
    err = capsys.readouterr().err.splitlines()
    assert err == [f"ttlm: not compiled: 5 problems in {games / 'ttlm'}", *expected]


# ---------------------------------------------------------------- every file, by its contract

CONTRACTS = {"game": gamemodels.GameInfo, "map": mapmodels.MapData, "units": unitmodels.UnitsData,
             "deck": deckmodels.DeckData, "charts": chartmodels.Charts,
             "events": eventmodels.EventsData}
GAME_NAMES = sorted(p.parent.name for p in GAMES.glob("*/game.yaml"))


def _files(game: str) -> list[tuple[str, type]]:
    """Each YAML file of a game with its contract: game.yaml, the files it names, its
    scenarios (a game of kind skirmish: its game file, card and scenarios)."""
    info = read_yaml(GAMES / game / "game.yaml", [])
    files = info.get("files", {})
    if info.get("kind") == "skirmish":
        return [("game.yaml", skirmish.SkirmishGame),
                (files.get("card", "card.yaml"), skirmish.SkirmishCard),
                *[(rel, skirmish.SkirmishScenario) for rel in info["scenarios"].values()]]
    out = [("game.yaml", gamemodels.GameInfo)]
    out += [(files.get(key, f"{key}.yaml"), CONTRACTS[key]) for key in PARTS]
    out += [(rel, scenariomodels.Scenario) for rel in info["scenarios"].values()]
    return out


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_data_file_of_every_game_validates_by_its_contract(game):
    assert len(_files(game)) >= (3 if game == "skirmish" else 7)
    for rel, contract in _files(game):
        problems: list[str] = []
        raw = read_yaml(GAMES / game / rel, problems)
        assert problems == [], rel
        TypeAdapter(contract).validate_json(json.dumps(raw))       # raises on any error


def test_every_shipped_version_of_the_data_validates_by_its_contracts():
    """games/history: each older version, upcast as it is when it is read (upcast.py)."""
    snapshots = sorted((GAMES / "history").glob("*/*.json.gz"))
    assert snapshots
    for path in snapshots:
        document = upcast_document(json.loads(gzip.decompress(path.read_bytes())))
        for key, contract in CONTRACTS.items():
            TypeAdapter(contract).validate_json(json.dumps(document[key]))
        for raw in document["scenarios"].values():
            TypeAdapter(scenariomodels.Scenario).validate_json(json.dumps(raw))


def test_every_text_pattern_of_the_contracts_is_told_in_words():
    schemas = json.dumps([TypeAdapter(c).json_schema(by_alias=True) for c in (*CONTRACTS.values(),
                                                           scenariomodels.Scenario)])
    patterns = set(re.findall(r'"pattern": ("(?:[^"\\]|\\.)*")', schemas))
    assert patterns and {json.loads(p) for p in patterns} <= set(PATTERNS)
