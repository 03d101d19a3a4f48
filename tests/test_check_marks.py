"""Every problem the cross-file checks find in a game data or scenario file is one line
FILE:LINE:COLUMN: what (at where), like an error of the file's shape (test_data_marks.py).

A path names a list item by its id or key (areas.koblenz, cards.poison_gas), a turn of
events.yaml by its number (turns[2]); the line points at the value a problem is about (a name
in a list: that item), or at the mapping that lacks what is missing. Each case below is data:
an edit of a copy of TTLM, and the text its line points at, found in the edited text by plain
search, never taken from the loader.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest
from datacopy import copy_game, edit, spot

from referee.base.errors import GameDataError
from referee.data.dataload import load_game
from referee.data.marks import Marks
from referee.data.problems import At, Nth, named


class Case(NamedTuple):
    """An edit of one file, and the line its one problem gives: at the first `points_at`
    after the texts `after` (in `within`, when given), what it says and where."""

    file: str
    old: str
    new: str
    points_at: str
    says: str
    where: str
    after: tuple[str, ...] = ()
    within: str = ""


DECLARES_SIDES = "(the game declares german, entente)"
DECLARES_KINDS = ("(the game declares army, infantry, stosstruppen, commonwealth, cavalry, "
                  "artillery, siege_gun, biplane, tank, paris_gun, fort)")

CASES = [
    # game.yaml: who moves how (4.5, 4.6)
    Case("game.yaml", "sides: [entente]", "sides: [entente, allies]", "allies",
         f"unknown side 'allies' {DECLARES_SIDES}", "movement.strategic.sides"),
    Case("game.yaml", "home: england", "home: avalon", "avalon",
         "unknown area id 'avalon' (4.6)", "movement.sea.home"),
    # map.yaml: an area's links, a fort, an impassable region, a box
    Case("map.yaml", "neighbours: [cologne, eifel, trier, pfalz]",
         "neighbours: [cologne, eifel, trier, pfalz, lemuria]", "lemuria",
         "unknown area id 'lemuria'", "areas.koblenz.neighbours"),
    Case("map.yaml", "fort: {id: fort-cologne, name: Cologne, nation: ge, strength: 3}",
         "fort: {id: fort-cologne, name: Cologne, nation: ge, strength: 5}",
         "{id: fort-cologne", "only the Paris and Nancy counters are double-sided, so other "
         "forts are 4 or less (8.4)", "areas.cologne.fort"),
    Case("map.yaml", "touches: [mulhouse, belfort, besancon]",
         "touches: [mulhouse, belfort, besancon, thule]", "thule",
         "unknown area id 'thule'", "impassable.switzerland.touches"),
    Case("map.yaml", "    owner: german\n", "    owner: kaiser\n", "kaiser",
         f"unknown side 'kaiser' {DECLARES_SIDES}", "boxes.eft.owner"),
    # units.yaml: a nation's areas, the counter mix, the roll order
    Case("units.yaml", "rebuild_area: england,", "rebuild_area: albion,", "albion",
         "unknown area id 'albion'", "nations.uk.rebuild_area"),
    Case("units.yaml", "roll_order: [infantry, stosstruppen,",
         "roll_order: [infantry, stoss,", "stoss,", "unknown unit type 'stoss'",
         "roll_order[1]"),
    Case("units.yaml", "  be: {army: 1,  infantry: 3, fort: 3}",
         "  be: {army: 1,  infantry: 3, fort: 3, zeppelin: 1}", "zeppelin",
         f"unknown unit kind 'zeppelin' {DECLARES_KINDS}", "counter_mix.be.zeppelin"),
    # deck.yaml: a card's links to other cards and kinds
    Case("deck.yaml", "not_with: [poison_gas]", "not_with: [poison_gas, mustard_gas]",
         "mustard_gas", "unknown card key 'mustard_gas'",
         "cards.advanced_artillery_barrage.not_with"),
    Case("deck.yaml", "unit_kinds: [infantry, commonwealth]",
         "unit_kinds: [infantry, commonwealth, hussars]", "hussars",
         "unknown unit kind 'hussars'", "cards.entente_military_crisis.unit_kinds"),
    # charts.yaml: the turn track, the Victory Chart
    Case("charts.yaml", '{turn: 3,  season: WINTER, label: "WINTER 1914-15"',
         '{turn: 3,  season: SUMMER, label: "WINTER 1914-15"', "SUMMER",
         "season SUMMER, expected WINTER (2.0 VI)", "turn_track.turns[2].season",
         ("{turn: 3,",)),
    Case("charts.yaml", "game_ends_on: [decisive_entente, decisive_german]",
         "game_ends_on: [decisive_entente, decisive_german, armistice]", "armistice",
         "unknown level 'armistice'", "victory.game_ends_on"),
    Case("charts.yaml", "unit: paris_gun, near_area: paris,",
         "unit: paris_gun, near_area: lutetia,", "lutetia",
         "unknown area id 'lutetia' (8.3.6)", "victory.modifiers.items.paris_gun.near_area"),
    # events.yaml: a turn's label and reinforcements, a build date
    Case("events.yaml", '    label: "AUTUMN 1914"', '    label: "FALL 1914"', '"FALL 1914"',
         "label 'FALL 1914', turn track says 'AUTUMN 1914'", "turns[2].label"),
    Case("events.yaml", "{nation: fr, type: infantry, count: 2, placement: any}",
         "{nation: fr, type: infantry, count: 2, placement: atlantis}", "atlantis",
         "'atlantis' is neither any, an area id nor a country",
         "turns[2].reinforcements[3].placement"),
    Case("events.yaml", 'stosstruppen: {from_turn: 13, rule: "7.5"',
         'stosstruppen: {from_turn: 31, rule: "7.5"', "31",
         "turn 31 is not on the turn track (2.0 VI)",
         "build_dates.upgrades.stosstruppen.from_turn", ("upgrades:",)),
    # a scenario: its start, control, units and cards
    Case("scenarios/1914.yaml", 'start: {turn: 1, label: "SUMMER 1914"}',
         'start: {turn: 1, label: "SPRING 1914"}', '"SPRING 1914"',
         "turn 1 is 'SUMMER 1914', not 'SPRING 1914'", "start.label"),
    Case("scenarios/1914.yaml", "  draw_order: [german, entente]",
         "  draw_order: [german, entente]\n  discard: [off-99]", "off-99",
         "unknown card id 'off-99'", "cards.discard"),
    Case("scenarios/1914.yaml", "german: [aachen,", "german: [atlantis, aachen,", "atlantis",
         "unknown area id 'atlantis'", "control.german"),
    Case("scenarios/1914.yaml", 'name: "3. Armee", area: eifel,',
         'name: "3. Armee", area: avalon,', "avalon", "unknown area id 'avalon'",
         "units[2](ge-3).area"),
    Case("scenarios/1914.yaml", "eft_box: []\n",
         "eft_box: []\nforts_out_of_play: [fort-lyon]\n", "fort-lyon",
         "unknown fort id 'fort-lyon'", "forts_out_of_play"),
]
# The files in the order the game reads them: their lines come in this order.
FILES = ["game.yaml", "map.yaml", "units.yaml", "deck.yaml", "charts.yaml", "events.yaml",
         "scenarios/1914.yaml"]


def _broken(root: Path, cases: list[Case]) -> list[str]:
    """Apply the cases' edits to the game at root; the lines its problems must give, in the
    order of the files and, in a file, of its text."""
    for c in cases:
        edit(root / c.file, c.old, c.new)
    expected = []
    for c in cases:
        at = spot(root / c.file, c.points_at, *c.after, within=c.within)
        line, column = map(int, at.split(":"))
        expected.append(((FILES.index(c.file), line, column),
                         f"{c.file}:{at}: {c.says} (at {c.where})"))
    return [line for _, line in sorted(expected)]


@pytest.mark.parametrize("case", CASES, ids=[f"{c.file}:{c.where}" for c in CASES])
def test_one_problem_of_a_kind_is_one_line_at_its_line_and_column(tmp_path, case):
    root = copy_game(tmp_path) / "ttlm"
    expected = _broken(root, [case])
    with pytest.raises(GameDataError) as err:
        load_game(root)
    assert err.value.problems == expected


def test_every_problem_of_a_game_is_listed_in_the_order_of_its_files(tmp_path):
    """All the cases at once: as many lines, each at its line and column, the files in the
    order they are read and each file's lines from its top down; games check exits 3."""
    root = copy_game(tmp_path) / "ttlm"
    expected = _broken(root, CASES)
    with pytest.raises(GameDataError) as err:
        load_game(root)
    assert err.value.problems == expected
    out = subprocess.run([sys.executable, "-m", "referee", "games", "check", str(root)],
                         capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert out.returncode == 3, out.stderr
    assert out.stderr.splitlines() == [f"referee: {line}" for line in expected] + [
        f"referee: {len(expected)} problems found"]


def test_a_shape_error_and_a_cross_file_problem_of_one_file_are_in_its_order(tmp_path):
    """A file's lines come from its top down, whichever check found them."""
    root = copy_game(tmp_path) / "ttlm"
    edit(root / "map.yaml", "    terrain: clear\n", "    terrain: clear\n    colour: red\n")
    late = _broken(root, [CASES[2]])                        # koblenz, after england
    with pytest.raises(GameDataError) as err:
        load_game(root)
    first = f"map.yaml:{spot(root / 'map.yaml', 'colour: red')}: unknown key 'colour' " \
            f"(at areas[0](england).colour)"
    assert err.value.problems == [first, *late]


# ---------------------------------------------------------------- the mapper

TEXT = """\
areas:
  - id: england
    neighbours: []
  - {id: pfalz, neighbours: [koblenz, saar]}
cards:
  - key: offensive
    ids: [off-01, off-02]
build_points:
  1914: {german: 10}
"""


def _at(text: str, needle: str, after: str = "") -> tuple[int, int]:
    start = text.index(after) if after else 0
    at = text.index(needle, start)
    return text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1


@pytest.mark.parametrize("path, needle, after", [
    (("areas", "pfalz"), "{id: pfalz", ""),                     # a list item by its id
    (("areas", "pfalz", "neighbours", "saar"), "saar", ""),     # a list item by its value
    (("areas", "england", "neighbours"), "[]", ""),
    (("cards", "offensive", "ids", Nth(1, "")), "off-02", ""),  # by its index
    (("cards", "offensive", "count"), "key: offensive", ""),    # missing: its mapping
    (("areas", "atlantis", "vp"), "- id: england", ""),         # no such item: the list
    (("build_points", "1914", "german"), "10", ""),             # a key written as a number
])
def test_a_path_of_keys_ids_values_and_indexes_leads_to_its_node(path, needle, after):
    assert Marks(TEXT).place(path) == _at(TEXT, needle, after)


def test_a_problem_reads_as_before_until_it_is_placed():
    """Without the file's text (a snapshot, a position in a journal) the line reads
    'FILE: where: what'; placed, 'FILE:LINE:COLUMN: what (at where)'."""
    p = At("map.yaml", ("areas", "pfalz", "neighbours")).says("unknown area id 'saar'", "saar")
    assert p == "map.yaml: areas.pfalz.neighbours: unknown area id 'saar'"
    assert p.placed(p.place(Marks(TEXT))) == \
        "map.yaml:4:39: unknown area id 'saar' (at areas.pfalz.neighbours)"
    unit = At(None).at("units", named(3, "ge-1"), "area").says("unknown area id 'x'")
    assert unit == "units[3](ge-1).area: unknown area id 'x'"
    assert unit.labelled("1914.yaml") == "1914.yaml: units[3](ge-1).area: unknown area id 'x'"
    key = At("units.yaml", ("counter_mix", "ru")).key("unknown nation 'ru'")
    assert key.placed((2, 3)) == "units.yaml:2:3: unknown nation 'ru' (at counter_mix.ru)"
