"""The last names the rules wrote in are the game's data: change the data and play follows.

Each test changes one property in a copy of games/ttlm:

- the nation and area of the optional evacuation by sea (units.yaml `evacuation_area`,
  14.2.4: the Belgian army from Antwerp);
- the area the Paris Gun scores near (charts.yaml victory modifier `near_area`, 8.3.6);
- a country a nation's reinforcements must be placed in (units.yaml `reinforcements_in`);
- a duplicate that disagrees (build_points `entente_parts` that do not add up to the Entente's
  Build Points, 7.0) is reported by games check.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import yaml
from datacopy import copy_game, new_game, spot

import gamecalls as g
from casebook import position, yaml_text
from referee.base.errors import GameDataError
from referee.data.dataload import load_game
from referee.data.paths import default_games_dir
from referee.engine.unit_bp import eft_bp
from referee.engine.victory import vp_breakdown


def _copy(tmp: Path, change) -> Path:
    """games/ttlm copied under tmp/games/ttlm, with change(document_by_file) applied."""
    return copy_game(tmp, change, ("units.yaml", "charts.yaml"))


_game = new_game


@pytest.fixture(scope="module")
def moved(tmp_path_factory) -> Path:
    """A copy of TTLM with the evacuation area in Brussels and the Paris Gun's area Lille."""
    def change(files):
        files["units.yaml"]["nations"]["be"]["evacuation_area"] = "brussels"
        items = files["charts.yaml"]["victory"]["modifiers"]["items"]
        next(m for m in items if m["id"] == "paris_gun")["near_area"] = "lille"

    return _copy(tmp_path_factory.mktemp("moved"), change)


def test_the_evacuation_area_is_the_data_s(tmp_path, moved):
    """14.2.4 with the evacuation area moved from Antwerp to Brussels: the Belgian army leaves
    Brussels by sea to a coastal Friendly Entente supply source, and no longer Antwerp."""
    games = moved
    opts = ["antwerp_evacuation=true"]
    hands = {"german": ["off-01"], "entente": ["off-03"]}
    there = position("1914", player="entente", hands=hands, remove_units=["be-1"],
                     add_units=["be-1 be army brussels 2I"])
    j = _game(tmp_path, games, there, opts, name="brussels")
    r = g.submit(j, "entente", ["pass", "evacuate be-1 ostend"], games_dir=games)
    assert r.rejected is None
    assert g.open_game(j, games_dir=games).state.armies["be-1"].area == "ostend"
    old = position("1914", player="entente", hands=hands, remove_units=["be-1"],
                   add_units=["be-1 be army antwerp 2I"])
    j = _game(tmp_path, games, old, opts, name="antwerp")
    r = g.submit(j, "entente", ["pass", "evacuate be-1 ostend"], games_dir=games)
    assert r.rejected and r.rejected[2].rule == "14.2.4"
    assert "not in Brussels" in r.rejected[2].reason


def test_the_paris_gun_scores_near_the_data_s_area(tmp_path, moved):
    """8.3.6 with the Paris Gun's area moved from Paris to Lille: the gun in Lille scores +1
    VP, and in Compiègne (next to Paris) nothing."""
    games = moved
    data = load_game(games / "ttlm")
    sc = position("1918", turn=17, player="german",
                  hands={"german": ["off-01"], "entente": ["off-03"]},
                  add_units=["ge-p-01 ge paris_gun lille"])
    st = g.open_game(_game(tmp_path, games, sc), games_dir=games).state
    lines = dict(vp_breakdown(st, data))
    assert lines["the Paris Gun in or next to Lille (8.3.6)"] == 1
    st.pieces["ge-p-01"].area = "compiegne"
    assert not [k for k in dict(vp_breakdown(st, data)) if "Paris Gun" in k]


def test_reinforcements_placed_in_a_country_are_a_nation_flag(tmp_path):
    """A Game Events chart may place a nation's arrivals in one country: the flag given to the
    UK makes games check report every UK reinforcement placed elsewhere (ENGLAND, 4.6). The
    reconstruction gives it to no nation: the US's arrive as any others do (2.0 I)."""
    def change(files):
        files["units.yaml"]["nations"]["uk"]["reinforcements_in"] = "france"

    with pytest.raises(GameDataError) as exc:
        load_game(_copy(tmp_path, change) / "ttlm")
    assert any("UK units arrive in France (units.yaml reinforcements_in)" in p
               for p in exc.value.problems)
    assert not any("US units arrive" in p for p in exc.value.problems)


def test_build_point_parts_that_disagree_with_the_total_are_reported(tmp_path):
    """7.0: build_points `entente_parts` explain the Entente's figure; parts that do not add
    up to it are a data problem games check reports."""
    def change(files):
        files["charts.yaml"]["build_points"]["turns"][0]["entente_parts"]["fr"] += 1

    root = _copy(tmp_path, change) / "ttlm"
    with pytest.raises(GameDataError) as exc:
        load_game(root)
    # entente_parts of the first turn: a mapping, which starts at its first key
    at = spot(root / "charts.yaml", "fr:", "build_points:", "turns:", "entente_parts:")
    assert f"charts.yaml:{at}: the parts add up to 9, entente says 8 (7.0) " \
           f"(at build_points.turns[0].entente_parts)" in exc.value.problems


def _first_anywhere(doc: dict) -> str:
    """Where the first reinforcement placed anywhere (code any) is, as a problem line names it."""
    return next(f"turns[{t['turn']}].reinforcements[{j}].placement" for t in doc["turns"]
                for j, r in enumerate(t.get("reinforcements") or [])
                if r["placement"] == "any")


@pytest.mark.parametrize("edit, place, problem", [
    (lambda ev: ev["availability"]["cards"].__setitem__("gericht", 9),
     ("9", ("availability:", "gericht: "), ""),
     lambda doc: "turn 9, the deck says 8 (9.1.4) (at availability.cards.gericht)"),
    (lambda ev: ev["stosstruppen_1918"].__setitem__("total", 11),
     ("11", ("stosstruppen_1918:", "total: "), ""),
     lambda doc: "11, the turns' reinforcements add up to 10 (8.2.2) "
                 "(at stosstruppen_1918.total)"),
    (lambda ev: ev["placement_codes"].pop("any"),
     ("any", ("turns:",), "placement: any"),
     lambda doc: f"placement 'any' is not one of placement_codes "
                 f"(at {_first_anywhere(doc)})"),
])
def test_events_duplicates_that_disagree_are_reported(tmp_path, edit, place, problem):
    """Values events.yaml repeats (the cards' first turns of 9.1.3-9.4, the 1918
    Stoßtruppen of 8.2.2, the placement codes of 2.0 I and 4.6) must agree with the deck and
    the turns; games check reports a disagreement."""
    root = tmp_path / "games"
    shutil.copytree(default_games_dir() / "ttlm", root / "ttlm")
    path = root / "ttlm" / "events.yaml"
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    edit(doc)
    path.write_text(yaml_text(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    with pytest.raises(GameDataError) as exc:
        load_game(root / "ttlm")
    text, after, within = place
    at = spot(path, text, *after, within=within)
    assert exc.value.problems == [f"events.yaml:{at}: {problem(doc)}"]


def test_games_check_shows_the_ruleset_and_each_scenario_s_text(cli):
    """game.yaml `ruleset` and each scenario's provenance, status and notes are shown by
    `referee games check` (their one use)."""
    r = cli("games", "check", default_games_dir() / "ttlm")
    assert r.exit_code == 0
    assert "ruleset: TO THE LAST MAN! core rulebook (2013)" in r.stdout
    assert "scenario 1918: 1918: the Kaiserschlacht (reconstructed)" in r.stdout
    assert "  note: The optional 1918 UK Matériel Superiority rule (8.3.2)" in r.stdout
    assert "  status: belgium belligerent_entente;" in r.stdout
    # charts.yaml reasoning, anchors, notes and what each VP modifier counts (3.1, 8.3.6)
    assert "chart build_points reasoning: Germany starts richer" in r.stdout
    assert "chart victory anchors: The 2009 web edition" in r.stdout
    assert "VP modifier paris_gun: +1 per the Paris Gun in or adjacent to the Paris" in r.stdout
    assert "VP modifier total_blockade: by year, see the total_blockade chart" in r.stdout
    # map.yaml box access_note, events.yaml swaps' replaces (8.2.3) and neutrals (4.1)
    assert "box Eastern Front Transit Box: How units enter and leave the box" in r.stdout
    assert "turn 6 swap: Canadian replaces one UK infantry on the map" in r.stdout
    assert "neutrals campaign_game.holland: neutral for the whole game" in r.stdout


def test_a_closed_area_that_is_no_sea_box_is_reported(tmp_path):
    """4.6: only a sea-movement box (ENGLAND) is closed to the enemy; map.yaml's
    `enemy_may_enter` must agree with the area's kind, anywhere else it is reported."""
    root = tmp_path / "games"
    shutil.copytree(default_games_dir() / "ttlm", root / "ttlm")
    path = root / "ttlm" / "map.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace(
        "    enemy_may_enter: false\n", "    enemy_may_enter: true\n", 1), encoding="utf-8")
    with pytest.raises(GameDataError) as exc:
        load_game(root / "ttlm")
    at = spot(path, "true", "enemy_may_enter: ")          # England's, the first area
    assert exc.value.problems == [f"map.yaml:{at}: true, but a sea-movement box is closed to "
                                  f"the enemy (4.6) (at areas.england.enemy_may_enter)"]


def test_the_first_year_of_dated_counters_is_the_data_s(tmp_path):
    """8.3.4: each Biplane counter bears the year it becomes available, none before 1916; with
    `counter_years_from: 1917` games check reports the 1916 counters."""
    def change(files):
        files["units.yaml"]["unit_types"]["biplane"]["counter_years_from"] = 1917

    root = _copy(tmp_path, change) / "ttlm"
    with pytest.raises(GameDataError) as exc:
        load_game(root)
    at = spot(root / "units.yaml", "1916", "biplane_counter_years:", "ge:")
    assert f"units.yaml:{at}: no Biplane before 1917 (8.3.4) (at biplane_counter_years.ge)" \
        in exc.value.problems, exc.value.problems


@pytest.mark.parametrize("term", ["imp\nulse", "x" * 10000, "<b>turn</b>", ""])
def test_a_term_that_is_not_a_few_words_on_one_line_is_reported(tmp_path, term):
    """AAC 2.0 II.1: the game's word for the player turn ("impulse") goes into messages and
    every output format; a newline, markup or a 10 KB term is a data problem games check
    reports."""
    root = tmp_path / "games"
    shutil.copytree(default_games_dir() / "aac", root / "aac")
    path = root / "aac" / "game.yaml"
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    doc["terms"]["player_turn"] = term
    path.write_text(yaml_text(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    with pytest.raises(GameDataError) as exc:
        load_game(root / "aac")
    assert any("terms.player_turn" in p for p in exc.value.problems), exc.value.problems


def test_a_side_order_without_both_sides_is_one_problem_not_a_cascade(tmp_path):
    """2.0 I: side_order names each side once; a side_order naming one side is reported once,
    without scenario lines that read every area as controlled by None."""
    def change(files):
        files["units.yaml"]["side_order"] = ["german"]

    root = _copy(tmp_path, change) / "ttlm"
    with pytest.raises(GameDataError) as exc:
        load_game(root)
    at = spot(root / "units.yaml", "- german", "side_order:")   # the list, at its first item
    assert f"units.yaml:{at}: must list each side of `sides` once (german, entente) " \
           f"(at side_order)" in exc.value.problems
    assert not [p for p in exc.value.problems if "None" in p or "scenario" in p], \
        exc.value.problems


@pytest.mark.parametrize("reader", ["public", "moderator"])
def test_a_side_named_like_a_reader_is_reported(tmp_path, reader):
    """2.0: the two sides are the players; a side called `public` or `moderator` would make
    that reader (--as public, the default) see the side's hand, so games check refuses it."""
    root = tmp_path / "games"
    shutil.copytree(default_games_dir() / "aac", root / "aac")
    for path in (root / "aac").rglob("*.yaml"):
        text = path.read_text(encoding="utf-8")
        path.write_text(re.sub(r"\bentente\b", reader, text), encoding="utf-8")
    with pytest.raises(GameDataError) as exc:
        load_game(root / "aac")
    at = spot(root / "aac" / "units.yaml", f"{reader}:", "\nsides:")
    assert any(p.startswith(f"units.yaml:{at}: '{reader}' names a reader") and
               p.endswith(f"(at sides.{reader})") for p in exc.value.problems), \
        exc.value.problems


@pytest.fixture(scope="module")
def transit(tmp_path_factory) -> Path:
    """A copy of TTLM whose off-map box is called `transit` in map.yaml, not `eft`."""
    def change(files):
        (box,) = files["map.yaml"]["boxes"]
        box["id"] = "transit"

    return copy_game(tmp_path_factory.mktemp("transit"), change, ("map.yaml",))


def test_the_eft_box_is_the_data_s_box_whatever_its_id(tmp_path, transit, cli):
    """2.0 V.4 and 3.1 with the box's id changed in map.yaml: units set up in it stand in it,
    a unit moves in from a Friendly supply source (games/ttlm reconstruction), the box's
    units count for VP, the loss roll is made for them and taken from them, and the views
    and the log show it all."""
    games = transit
    sc = position("1914", player="german", passes=1,
                  hands={"german": ["off-01"], "entente": ["off-03"]},
                  remove_units=["ge-i-01", "ge-i-02"])      # room in the counter mix
    sc["eft_box"] = [{"type": "infantry", "count": 5, "nation": "ge"}]
    j = _game(tmp_path, games, sc)
    state = g.open_game(j, games_dir=games).state
    assert sum(1 for p in state.pieces.values() if p.area == "transit") == 5
    r = g.submit(j, "german", ["pass", "eft ge-7"], games_dir=games)            # from Colmar
    assert r.rejected is None, r.rejected
    moved = [e for a in r.applied for e in a.record["events"] if e["type"] == "UnitMoved"]
    assert [(e["unit"], e["mode"], e["to_area"]) for e in moved] == [("ge-7", "eft", "transit")]
    assert g.open_game(j, games_dir=games).state.armies["ge-7"].status == "eft"
    view = json.loads(cli("--games", games, "show", j, "--format", "json").stdout)
    assert "ge-7" in view["eft_box"] and len(view["eft_box"]) == 6
    assert any("EFT box" in b["label"] for b in view["vp"]["breakdown"])          # 3.1
    log = cli("--games", games, "log", j).stdout
    assert "ge-7 moves into the Eastern Front Transit box" in log
    # The production phase: one die per 5 BP of units in the box, or part (2.0 V.4).
    for side, order in (("german", "end turn"), ("german", "done")):
        assert g.submit(j, side, [order], games_dir=games).rejected is None, order
    game = g.open_game(j, games_dir=games)
    bp = eft_bp(game.state, game.data)
    assert bp >= 6                                  # five infantry and an army with units
    dice = ",".join(["1"] + ["6"] * (-(-bp // 5) - 1))
    r = g.submit(j, "entente", ["done"], dice, games_dir=games)
    assert r.rejected is None, r.rejected
    events = [e for a in r.applied for e in a.record["events"]]
    assert next(e for e in events if e["type"] == "EftLossesDue")["bp"] == bp
    assert "EFT box losses" in cli("--games", games, "dice", j).stdout
    # Infantry and an army's units are in the box: its owner chooses the loss.
    now = json.loads(cli("--games", games, "status", j, "--as", "german", "--format",
                         "json").stdout)
    assert now["decision"] == "eft_losses" and now["prompt"].startswith("eliminate 1")
    assert "lose ge-i-" in " ".join(now["legal"]) and "lose ge-7:" in " ".join(now["legal"])
    loose = next(o for o in now["legal"] if o.startswith("lose ge-i-"))
    r = g.submit(j, "german", [loose], games_dir=games)
    assert r.rejected is None, r.rejected
    state = g.open_game(j, games_dir=games).state
    assert sum(1 for p in state.pieces.values() if p.area == "transit") == 4
    log = cli("--games", games, "log", j).stdout
    assert f"German loses {loose.split()[1]} (infantry) in the EFT box" in log


def test_a_second_off_map_box_is_reported(tmp_path):
    """The rules have one off-map box, the EFT box (2.0 V.4, 3.1): a map.yaml listing two is
    a data problem, at its `boxes`, rather than a box the engine would silently ignore."""
    def change(files):
        (box,) = files["map.yaml"]["boxes"]
        files["map.yaml"]["boxes"].append({**box, "id": "western", "name": "Western Box"})

    with pytest.raises(GameDataError) as exc:
        load_game(copy_game(tmp_path, change, ("map.yaml",)) / "ttlm")
    (line,) = [p for p in exc.value.problems if "off-map box" in p]
    assert line.startswith("map.yaml:") and "2 are listed" in line and line.endswith(
        "(at boxes)")
