"""Game data: the built-in data loads, and a broken copy reports every problem at once."""

from __future__ import annotations

from pathlib import Path

import pytest
from datacopy import copy_game, edit, spot

from referee.base.errors import GameDataError
from referee.data.dataload import load_game
from referee.data.paths import default_games_dir

GAMES = default_games_dir()


def test_built_in_data_loads_with_the_core_numbers(data):
    assert len(data.cards) == 55                                   # 9.0
    assert sum(1 for c in data.cards.values() if c.offensive) == 26  # 9.1
    assert len(data.turns) == 23                                   # 2.0 VI
    assert data.label(23) == "WINTER 1919-20"
    assert data.turn(6).label == "AUTUMN 1915" and data.turn(12).label == "SPRING 1917"
    assert data.areas["liege"].neighbours and "antwerp" in data.areas["liege"].neighbours
    assert set(data.scenarios) == {"1914", "1916", "1918"}


def test_models_are_frozen(data):
    with pytest.raises(AttributeError):
        data.areas["paris"].vp = 99


def _copy(tmp_path: Path) -> Path:
    return copy_game(tmp_path, folder="") / "ttlm"


_edit = edit


def test_three_different_mistakes_are_all_reported(tmp_path, cli):
    d = _copy(tmp_path)
    # 1: an unknown area id among Ghent's neighbours
    _edit(d / "map.yaml", "neighbours: [ostend, ypres, antwerp, brussels, mons]",
          "neighbours: [ostend, ypres, antwerp, brussels, mons, atlantis]")
    # 2: Koblenz no longer lists the Palatinate: asymmetric adjacency
    _edit(d / "map.yaml", "neighbours: [cologne, eifel, trier, pfalz]",
          "neighbours: [cologne, eifel, trier]")
    # 3: an army over its template capacity (French template holds 3 infantry)
    _edit(d / "scenarios/1914.yaml",
          'area: vosges, entrenched: false,\n     contents: [{type: infantry, count: 3}]',
          'area: vosges, entrenched: false,\n     contents: [{type: infantry, count: 5}]')
    with pytest.raises(GameDataError) as err:
        load_game(d)
    text = "\n".join(err.value.problems)
    assert "atlantis" in text
    assert "not symmetric" in text and "pfalz" in text
    assert "fr-1" in text and "5 infantry-type units" in text
    r = cli("games", "check", d)
    assert r.exit_code == 3
    lines = r.stderr.strip().splitlines()
    assert any("atlantis" in line for line in lines)
    assert any("not symmetric" in line for line in lines)
    assert any("5 infantry-type units" in line for line in lines)
    assert "Traceback" not in r.output + r.stderr


def test_schema_errors_and_cross_checks_are_reported_together(tmp_path):
    d = _copy(tmp_path)
    _edit(d / "map.yaml", "    terrain: clear\n", "    terrain: clear\n    colour: red\n")
    _edit(d / "units.yaml", "ge: {army: 11, infantry: 35", "ge: {army: 11, infantry: 3")
    _edit(d / "scenarios/1916.yaml", "- {id: fr-c-01, nation: fr, type: cavalry, area: verdun",
          "- {id: fr-c-01, nation: fr, type: cavalry, area: verdun_heights")
    with pytest.raises(GameDataError) as err:
        load_game(d)
    text = "\n".join(err.value.problems)
    assert "map.yaml:68:5: unknown key 'colour' (at areas[0](england).colour)" in text
    assert "counter mix has 3 (11.1)" in text                       # counts above the mix
    at = spot(d / "scenarios/1916.yaml", "verdun_heights")
    assert (f"scenarios/1916.yaml:{at}: unknown area id 'verdun_heights' "
            f"(at units[24](fr-c-01).area)") in text


def test_stacking_and_artillery_limit_at_set_up(tmp_path):
    d = _copy(tmp_path)
    _edit(d / "scenarios/1914.yaml",
          "- {id: fr-i-02, nation: fr, type: infantry, area: paris, entrenched: false}",
          "- {id: fr-i-02, nation: fr, type: infantry, area: nancy, entrenched: false}\n"
          "  - {id: fr-i-03, nation: fr, type: infantry, area: nancy, entrenched: false}\n"
          "  - {id: fr-i-04, nation: fr, type: infantry, area: nancy, entrenched: false}")
    _edit(d / "scenarios/1914.yaml",
          "contents: [{type: infantry, count: 3}, {type: artillery}]}",
          "contents: [{type: infantry, count: 3}, {type: artillery, count: 2}]}")
    with pytest.raises(GameDataError) as err:
        load_game(d)
    text = "\n".join(err.value.problems)
    scenario = d / "scenarios/1914.yaml"
    # the fourth unit in nancy (after fr-2's army), the contents of ge-3, the units
    assert (f"scenarios/1914.yaml:{spot(scenario, 'nancy', 'fr-i-04')}: 4 entente units in "
            f"nancy, the stacking limit is 3 (1.2.2) (at units[17](fr-i-04).area)") in text
    assert (f"scenarios/1914.yaml:{spot(scenario, '[{type: infantry', 'ge-3')}: 2 artillery, "
            f"the 1914 limit for a ge army is 1 (8.3.2) (at units[2](ge-3).contents)") in text
    assert (f"scenarios/1914.yaml:{spot(scenario, '- {id: ge-1', 'units:')}: 7 ge artillery "
            f"set up, the counter mix has 6 (11.1) (at units)") in text


def test_a_missing_file_and_bad_yaml(tmp_path):
    d = _copy(tmp_path)
    (d / "deck.yaml").unlink()
    (d / "charts.yaml").write_text("turn_track: [unclosed\n")
    with pytest.raises(GameDataError) as err:
        load_game(d)
    text = "\n".join(err.value.problems)
    assert "deck.yaml: file missing" in text
    # The bracket opened at line 1, column 13 is still open at the end of the text (line 2).
    assert ("charts.yaml:2:1: not valid YAML: the structure breaks here: an indentation, a ':' "
            "or a '-' out of place, or a bracket or quote left open (in what begins at line 1, "
            "column 13)") in text


def test_games_check_on_the_built_in_data(cli):
    r = cli("games", "check", GAMES / "ttlm")
    assert r.exit_code == 0 and "OK" in r.stdout


# ---------------------------------------------------------------- the compiled copy

def test_the_compiled_copy_is_the_checked_yaml(tmp_path):
    from referee.data import compiled
    from referee.data.paths import source_digest

    root = GAMES / "ttlm"
    source = source_digest(root)
    fresh = load_game(root)
    out = compiled.write_package_copy(root) if not (
        compiled.PACKAGE_DIR / "ttlm.json").exists() else compiled.PACKAGE_DIR / "ttlm.json"
    assert out.exists()
    got = compiled.load(root, source)
    assert got is not None and got.digest == fresh.digest and got.source == source
    for part in ("info", "map", "units", "deck", "charts", "events", "scenarios"):
        assert getattr(got, part) == getattr(fresh, part), part


def test_a_compiled_copy_is_used_only_for_the_bytes_it_was_made_from(tmp_path, monkeypatch):
    import gamecalls as g
    from referee.data import compiled
    from referee.data.paths import source_digest
    from referee.store import home

    d = _copy(tmp_path)
    before = source_digest(d)
    assert g.game_data("ttlm", tmp_path).areas["paris"].vp == 6
    _edit(d / "map.yaml", "- id: paris\n", "- id: paris\n")       # same bytes: still used
    assert source_digest(d) == before
    text = (d / "map.yaml").read_text(encoding="utf-8")
    start = text.index("- id: paris")
    at = text.index("vp: ", start) + 4
    (d / "map.yaml").write_text(text[:at] + "7" + text[at + 1:], encoding="utf-8")
    assert source_digest(d) != before
    assert g.game_data("ttlm", tmp_path).areas["paris"].vp == 7
    # A copy in the user's cache that this user's key did not sign is not used.
    path = compiled._user_path(source_digest(d))
    payload = home.read_signed(path)
    assert payload is not None
    payload["map"]["areas"][0]["vp"] = 42
    import json
    blob = path.read_bytes().split(b"\n", 2)
    path.write_bytes(blob[0] + b"\n" + blob[1] + b"\n" + json.dumps(payload).encode())
    assert compiled.load(d, source_digest(d)) is None


def test_build_dates_are_checked_against_the_counter_mix_and_the_rules(tmp_path, cli):
    """7.6, 8.2.3, 8.3.4: every counter a nation builds has a date, and each date is possible."""
    d = _copy(tmp_path)
    ev = d / "events.yaml"
    # 1: the US infantry date is missing
    _edit(ev, '      infantry:     {from_turn: 14, rule: "Game Events chart"',
          '      infantry_gone: {from_turn: 14, rule: "Game Events chart"')
    _edit(ev, "infantry_gone", "fort")              # 2: and forts are never built (8.4)
    # 3: a Biplane before 1916 (8.3.4)
    _edit(ev, '      biplane:      {from_turn: 8,  rule: "8.3.4"',
          '      biplane:      {from_turn: 4,  rule: "8.3.4"')
    # 4: Belgian tanks: Belgium has no tank counters (11.1)
    _edit(ev, '      infantry:     {from_turn: 1,  rule: "7.6"}\n    # RECONSTRUCTED',
          '      infantry:     {from_turn: 1,  rule: "7.6"}\n'
          '      tank:         {from_turn: 13, rule: "8.3.5"}\n    # RECONSTRUCTED')
    # 5: Commonwealth rebuilt before the first swap (8.2.3)
    _edit(ev, "commonwealth: {from_turn: 6,", "commonwealth: {from_turn: 2,")
    # 6: a turn the track does not have
    _edit(ev, "paris_gun:    {from_turn: 16,", "paris_gun:    {from_turn: 30,")
    with pytest.raises(GameDataError) as err:
        load_game(d)
    text = "\n".join(err.value.problems)
    # us's mapping lacks infantry; it starts at its first key, the fort
    us_fort = spot(ev, "fort: {from_turn: 14")
    assert (f"events.yaml:{us_fort}: no build date for us infantry (7.6) "
            f"(at build_dates.units.us)") in text
    assert f"events.yaml:{us_fort}: forts are never built" in text
    assert (f"events.yaml:{spot(ev, '4', '      biplane:      {from_turn: ')}: turn 4 is "
            f"before SPRING 1916") in text
    assert (f"events.yaml:{spot(ev, 'tank:', '    be:')}: be has no tank counters (11.1) "
            f"(at build_dates.units.be.tank)") in text
    assert (f"events.yaml:{spot(ev, '2', 'commonwealth: {from_turn: ')}: turn 2 is before "
            f"the first swap") in text
    assert (f"events.yaml:{spot(ev, '30', 'paris_gun:    {from_turn: ')}: turn 30 is not on "
            f"the turn track (2.0 VI) (at build_dates.units.ge.paris_gun.from_turn)") in text
    assert cli("games", "check", d).exit_code == 3


def test_a_scenario_unit_must_have_been_buildable_before_the_start(tmp_path):
    """8.3.6, 7.6: a Paris Gun set up in 1916 could not have been built (SPRING 1918)."""
    d = _copy(tmp_path)
    _edit(d / "scenarios/1916.yaml",
          "- {id: fr-c-01, nation: fr, type: cavalry, area: verdun",
          "- {id: ge-p-01, nation: ge, type: paris_gun, area: metz}\n"
          "  - {id: fr-c-01, nation: fr, type: cavalry, area: verdun")
    with pytest.raises(GameDataError) as err:
        load_game(d)
    assert "units[" in str(err.value.problems) and \
        "a GE paris_gun cannot be in play before the Production phase of turn 16 (SPRING 1918), " \
        "the first in which it can be built (8.3.6)" in \
        "\n".join(err.value.problems)
