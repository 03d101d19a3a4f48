"""`referee games check` lists every problem in one run, also when a name is wrong.

A side, nation, unit kind or country the game does not declare (units.yaml `sides`, `nations`,
`unit_types`; map.yaml `countries` and the nations' home countries) is reported once, where it
is written. Every other check still runs on what is left and skips only what depends on that
name, so a problem elsewhere is reported beside it, and the misspelling does not come back as
a cascade of false problems (no counters, no template, no card limit of the well-spelt name).
"""

from __future__ import annotations

import random

import pytest
from datacopy import copy_game, edit, spot

from referee.base.errors import GameDataError
from referee.data import dataload
from referee.data.dataload import build_game, load_game, load_scenario_file, read_document
from referee.data.paths import default_games_dir

# ---------------------------------------------------------------- a misspelling and another problem

# Each edit: (file, text, its replacement), as datacopy.edit makes it.
SIDE = ("units.yaml", "side: german,  home_country: germany",       # the German nation's side
        "side: germn,  home_country: germany")
SIDE_ORDER = ("units.yaml", "side_order: [german, entente]", "side_order: [germn, entente]")
SIDE_CARD_LIMIT = ("charts.yaml", "{year: 1914, german: 6, entente: 5}",     # 7.1, 1914
                   "{year: 1914, germn: 6, entente: 5}")
NATION = ("events.yaml", "{nation: ge, type: infantry, count: 3, placement: any}",  # turn 2
          "{nation: gem, type: infantry, count: 3, placement: any}")
KIND = ("units.yaml", "stosstruppen: 15, cavalry: 4,", "stosstruppen: 15, cavalery: 4,")
COUNTRY = ("map.yaml", "country: germany", "country: germnay")                 # AAC's map
# Koblenz no longer lists the Palatinate, which lists Koblenz.
NEIGHBOUR = ("map.yaml", "neighbours: [cologne, eifel, trier, pfalz]",
             "neighbours: [cologne, eifel, trier]")
CARD_IDS = ("deck.yaml", "off-15, off-16]", "off-15]")                  # 16 Offensive cards
BUILD_POINTS = ("charts.yaml", "    - {turn: 23, german: 5,  entente: 13, entente_parts: "
                "{fr: 4, uk: 3, us: 6}}\n", "")
EVENTS_AREA = ("events.yaml", "{nation: fr, type: infantry, count: 2, placement: any}",
               "{nation: fr, type: infantry, count: 2, placement: atlantis}")
CONTROL_AREA = ("scenarios/1914.yaml", "german: [aachen,", "german: [atlantis, aachen,")

# Where the problem in the other file points: (file, the text there, found after this text),
# and what its line says.
NOT_SYMMETRIC = (("map.yaml", "koblenz", "- id: pfalz"),
                 "adjacency not symmetric: pfalz lists koblenz but koblenz does not list pfalz "
                 "(at areas.pfalz.neighbours)")
UNKNOWN_CONTROL = (("scenarios/1914.yaml", "atlantis", ""),
                   "unknown area id 'atlantis' (at control.german)")
UNKNOWN_PLACEMENT = (("events.yaml", "atlantis", ""),
                     "'atlantis' is neither any, an area id nor a country "
                     "(at turns[2].reinforcements[3].placement)")
FEW_IDS = (("deck.yaml", "[off-01", ""), "15 ids for count 16 (at cards.offensive.ids)")
FEW_TURNS = (("charts.yaml", "- {turn: 1,", "build_points:"),
             "must list turns 1 to 23 once each (7.0) (at build_points.turns)")

CASES = {
    # case: (game, the misspelling, the misspelt name, a problem in another file, its line)
    "side": ("ttlm", SIDE, "germn", NEIGHBOUR, NOT_SYMMETRIC),
    "side_order": ("ttlm", SIDE_ORDER, "germn", CONTROL_AREA, UNKNOWN_CONTROL),
    "side_card_limit": ("ttlm", SIDE_CARD_LIMIT, "germn", EVENTS_AREA, UNKNOWN_PLACEMENT),
    "nation": ("ttlm", NATION, "gem", CARD_IDS, FEW_IDS),
    "unit_kind": ("ttlm", KIND, "cavalery", BUILD_POINTS, FEW_TURNS),
    "country": ("aac", COUNTRY, "germnay", CARD_IDS, FEW_IDS),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_misspelt_name_and_a_problem_in_another_file_are_both_reported(tmp_path, case):
    """2.0, 4.1, 7.0, 7.1, 9.0, 11.1: a name misspelt in one file no longer hides the other
    checks: the problem in another file is reported too, and the misspelling exactly once,
    without lines about the well-spelt name it stands for (its counters, its card limit)."""
    game, misspelling, bad, other, ((file, text, after), says) = CASES[case]
    root = copy_game(tmp_path, game=game) / game
    for name, old, new in (misspelling, other):
        edit(root / name, old, new)
    line = f"{file}:{spot(root / file, text, after)}: {says}"
    with pytest.raises(GameDataError) as err:
        load_game(root)
    problems = err.value.problems
    assert len([p for p in problems if f"'{bad}'" in p]) == 1, problems
    assert len([p for p in problems if p == line]) == 1, problems
    assert len(problems) == 2, problems


# ---------------------------------------------------------------- every place a name is written

UNKNOWN = "zz_undeclared"
SAMPLE_SEED = 13


def _declared(doc: dict) -> set[str]:
    """Every side, nation, unit kind and country the game declares."""
    u = doc["units"]
    return {*u["sides"], *u["nations"], *u["unit_types"], *doc["map"].get("countries", []),
            *(n["home_country"] for n in u["nations"].values())}


def _not_a_place(path: tuple, how: str) -> bool:
    """Where a name is declared, not used, or where a value equals a name by chance."""
    keys = [str(k) for k in path if not isinstance(k, int)]
    if keys[0] == "scenarios":
        keys = ["scenario", *keys[2:]]
    where, last = ".".join(keys[:-1]), keys[-1]
    return (
        # the declarations themselves
        (how == "key" and where in ("units.sides", "units.nations", "units.unit_types"))
        or (where, last) == ("map", "countries")
        or (where.startswith("units.nations") and last == "home_country")
        # notes shown as text: the neutrals of events.yaml, a scenario's status
        or keys[:2] in (["events", "neutrals"], ["scenario", "status"])
        # fields of a model (an area's `fort`, a template's `infantry`), placement codes
        or (how == "key" and where.startswith(("map.areas", "charts.army_templates.capacity.",
                                               "events.placement_codes")))
        # values that are no side, nation, kind or country: a unit class, a fire phase,
        # ids and areas
        or (how == "value" and (last in ("class", "id", "area", "phases", "neighbours")
                                or where.startswith("scenario.control"))))


def _places(doc: dict) -> list[tuple[tuple, str]]:
    """(path, 'key' or 'value') of every place a declared name is written in the documents."""
    names, found = _declared(doc), []

    def walk(node, path):
        if isinstance(node, dict):
            for k, v in node.items():
                if k in names:
                    found.append(((*path, k), "key"))
                walk(v, (*path, k))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, (*path, i))
        elif isinstance(node, str) and node in names:
            found.append((path, "value"))

    walk(doc, ())
    return [(p, how) for p, how in found if not _not_a_place(p, how)]


def _kind_of_place(path: tuple, how: str, names: set[str]) -> str:
    """A place without its list indices, the names in it and the scenario: one per field."""
    parts = ["[]" if isinstance(k, int) else "*" if k in names else str(k) for k in path]
    if parts[0] == "scenarios":
        parts[1] = "*"
    return ".".join(parts) + f" ({how})"


def _replaced(doc: dict, path: tuple, how: str) -> dict:
    """doc with the name at path replaced by UNKNOWN: only the containers on the path are
    copied, so that the other parts stay the very same objects."""
    top = dict(doc)
    node = top
    for k in path[:-1]:
        child = node[k]
        child = dict(child) if isinstance(child, dict) else list(child)
        node[k] = child
        node = child
    last = path[-1]
    if how == "value":
        node[last] = UNKNOWN
    else:
        items = list(node.items())
        node.clear()
        node.update({(UNKNOWN if k == last else k): v for k, v in items})
    return top


@pytest.fixture(scope="module")
def sampled():
    """Each game's data document, read once, and one place of each kind, drawn with a fixed
    seed from TTLM's and AAC's."""
    docs, by_kind = {}, {}
    for game in ("ttlm", "aac"):
        root = default_games_dir() / game
        problems: list[str] = []
        docs[game] = (root, read_document(root, problems))
        assert problems == []
        names = _declared(docs[game][1])
        for path, how in _places(docs[game][1]):
            by_kind.setdefault(_kind_of_place(path, how, names), []).append((game, path, how))
    rng = random.Random(SAMPLE_SEED)
    return docs, [rng.choice(by_kind[k]) for k in sorted(by_kind)]


def test_a_name_replaced_anywhere_by_an_undeclared_one_is_reported_once(sampled, monkeypatch):
    """2.0, 11.1 and the files' declarations: every place a side, nation, unit kind or country
    is written in TTLM's and AAC's data and scenario files (found by walking the YAML
    documents), replaced by an undeclared name, gives exactly one problem, quoting it, and
    loading raises nothing but GameDataError. There are about 1,300 such places, of some 50
    kinds (a field of a file): one place of each kind is drawn with a fixed seed."""
    docs, places = sampled
    assert len(places) >= 40
    validated: dict = {}
    plain = dataload.validate

    def validate(model, raw, label, problems):     # each unchanged part is validated once
        key = (model, id(raw), label)
        if key not in validated:
            found: list[str] = []
            validated[key] = (raw, plain(model, raw, label, found), found)
        problems.extend(validated[key][2])
        return validated[key][1]

    monkeypatch.setattr(dataload, "validate", validate)
    wrong = []
    for game, path, how in places:
        root, doc = docs[game]
        where = f"{game}: {'.'.join(map(str, path))} ({how})"
        try:
            build_game(root, _replaced(doc, path, how), [])
        except GameDataError as exc:
            problems = exc.problems
        except Exception as exc:        # noqa: BLE001 - the failure this test looks for
            wrong.append(f"{where}: raised {type(exc).__name__}: {exc}")
            continue
        else:
            wrong.append(f"{where}: loaded")
            continue
        if len(problems) != 1 or f"'{UNKNOWN}'" not in problems[0]:
            wrong.append(f"{where}: {problems}")
    assert wrong == []


def test_a_what_if_scenario_lists_a_misspelt_nation_beside_its_other_problems(tmp_path, data):
    """4.1, 11.1: `referee new --scenario FILE` loads the file with every check: a misspelt
    nation no longer hides an unknown area in its control lists, nor comes back as an army
    with no template or no counters."""
    path = tmp_path / "what-if.yaml"
    path.write_text((default_games_dir() / "ttlm" / "scenarios" / "1914.yaml").read_text(
        encoding="utf-8"), encoding="utf-8")
    edit(path, "nation: ge, type: army", "nation: gee, type: army")
    edit(path, *CONTROL_AREA[1:])
    with pytest.raises(GameDataError) as err:
        load_scenario_file(path, data)
    problems = err.value.problems
    assert len([p for p in problems if "'gee'" in p]) == 1, problems
    assert [p for p in problems if "'gee'" not in p] == [
        f"{path}:{spot(path, 'atlantis')}: unknown area id 'atlantis' (at control.german)"]


def test_units_in_an_eft_box_the_game_lacks_are_one_problem(tmp_path):
    """TTLM 2.0 V.4, 3.1: AAC has no EFT box (map.yaml boxes: []); a scenario that puts units
    in it is told so, in one line, instead of the checks stopping at the missing box."""
    path = tmp_path / "eft.yaml"
    path.write_text((default_games_dir() / "aac" / "scenarios" / "1914.yaml").read_text(
        encoding="utf-8") + "eft_box: [{type: infantry, count: 1}]\n", encoding="utf-8")
    with pytest.raises(GameDataError) as err:
        load_scenario_file(path, load_game(default_games_dir() / "aac"))
    assert err.value.problems == [f"{path}:{spot(path, '[{type: infantry', 'eft_box: ')}: the "
                                  f"game has no EFT box (map.yaml boxes) (at eft_box)"]
