"""The board of every report (game/board.py, render/board.py): what it holds for each reader,
how it reads at 72 columns, and the country names it is grouped by (map.yaml).

The Board section's content is checked against the rules in the golden reports
(test_report_golden.py) and for secrets in test_leaks.py; here: its shape, that every area
of the 1914 scenario of both games is on it exactly once and within 72 columns, that each
reader gets the hands `show` gives him (1.3) and the army contents he may see (1.4).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from datacopy import copy_game
from pydantic import TypeAdapter

import gamecalls as g
from casebook import new_game, position
from referee.base.errors import GameDataError
from referee.contracts.results import BoardView
from referee.data.dataload import load_game
from referee.engine.supply import in_supply
from referee.game.board import board_view
from referee.game.views import state_view
from referee.render.board import board_section
from referee.render.documents import show_document
from referee.render.formats import to_text
from referee.render.sections import Document

READERS = ("german", "entente", "public", "moderator")
GAMES = Path(__file__).resolve().parent.parent / "games"


@pytest.fixture(scope="module")
def openings(tmp_path_factory) -> dict:
    """The 1914 start of each game, with hidden army templates and without."""
    tmp = tmp_path_factory.mktemp("boards")
    out = {}
    for game in ("ttlm", "aac"):
        for hidden in (False, True):
            name = f"{game}-{'hidden' if hidden else 'open'}"
            journal = new_game(tmp, position("1914", game=game), {"hidden_templates": hidden},
                               name=name, game=game)
            out[game, hidden] = g.open_game(journal)
    return out


def board_of(opened, reader: str) -> dict:
    s, d = opened.state, opened.data
    return board_view(s, d, reader, state_view(s, d, reader))


def board_text(board: dict) -> list[str]:
    return to_text(Document("t", [board_section(board)])).splitlines()


def areas_said(board: dict) -> list[list[str]]:
    """The text of each area's own line, country by country."""
    out = []
    for block in board_section(board).blocks[:-2]:
        if block.kind == "items":
            texts = ["".join(span.text for span in item) for item in block.items]
            out.append([t for t in texts if not t.startswith(("Quiet, ", "Neutral: ",
                                                              "Supply sources"))])
    return out


def listed(board: dict) -> list[list[str]]:
    """The area names each country's lines give: an area's own line begins with its name, a
    line of quiet or neutral areas lists them after its colon; supply sources are not
    counted (they name areas listed already)."""
    out = []
    for block in board_section(board).blocks:
        if block.kind != "items":
            continue
        names: list[str] = []
        for item in block.items:
            text = "".join(span.text for span in item)
            if text.startswith(("Quiet, ", "Neutral: ")):
                names += text.split(": ", 1)[1].split(", ")
            elif not text.startswith("Supply sources"):
                names.append(text.split(", ", 1)[0])
        out.append(names)
    return out[:-1]                     # the last list is what lies off the map


@pytest.mark.parametrize("game", ["ttlm", "aac"])
@pytest.mark.parametrize("hidden", [False, True])
def test_every_area_once_within_72_columns(openings, game, hidden):
    """Each area of the 1914 map is on the board once, in its country's part: on a line of
    its own when something stands there, else in a list of quiet areas; no line is longer
    than 72 columns, and in TTLM each area's line fits on one."""
    opened = openings[game, hidden]
    data = opened.data
    for reader in READERS:
        board = board_of(opened, reader)
        TypeAdapter(BoardView).validate_python(board)
        lines = board_text(board)
        long = [ln for ln in lines if len(ln) > 72]
        assert not long, (game, reader, long)
        assert [c["id"] for c in board["countries"]] == [c.id for c in data.map.country_names]
        for country, shown in zip(board["countries"], listed(board)):
            assert country["name"] in lines, country["name"]
            assert sorted(shown) == sorted(a["name"] for a in country["areas"]), country["id"]
            for a in country["areas"]:
                assert data.areas[a["id"]].country == country["id"]
        if game == "ttlm":
            own = [text for names in areas_said(board) for text in names]
            assert own and all(len("- " + text) <= 72 for text in own), own
        for area in data.map.areas:
            assert sum(1 for c in board["countries"] for a in c["areas"]
                       if a["id"] == area.id) == 1


def test_hands_and_contents_as_show_gives_them(openings):
    """A side sees his own hand by name, the other's size only; the public sizes only; the
    moderator every hand (1.3). Under hidden templates (1.4) the other side's armies are
    'hidden' and its force pool is left out; a side sees his own."""
    opened = openings["ttlm", True]
    s, d = opened.state, opened.data
    for reader in READERS:
        board = board_of(opened, reader)
        cards = board["cards"]
        assert cards["hand_sizes"] == {x: len(s.hands[x]) for x in d.sides}
        if reader in d.sides:
            assert [c["id"] for c in cards["hand"]] == s.hands[reader]
            assert cards["hands"] is None
        elif reader == "moderator":
            assert cards["hand"] is None
            assert {x: [c["id"] for c in h] for x, h in cards["hands"].items()} == s.hands
        else:
            assert cards["hand"] is None and cards["hands"] is None
        armies = [u for c in board["countries"] for a in c["areas"] for u in a["units"]
                  if u["type"] == "army"]
        for u in armies:
            mine = reader == "moderator" or u["side"] == reader
            assert (u["contents"] is not None) == mine, (reader, u)
            assert (u["summary"] != "hidden") == mine
        assert all(reader == "moderator" or d.nation_side[n] == reader
                   for n in board["force_pool"])


def test_a_board_is_made_from_the_view_of_its_reader(openings):
    """A board made from another reader's view (who may see more) is refused, not sent."""
    opened = openings["ttlm", True]
    s, d = opened.state, opened.data
    with pytest.raises(ValueError):
        board_view(s, d, "entente", state_view(s, d, "moderator"))


def test_forts_supply_sources_and_what_lies_off_the_map(openings):
    """The forts of the 1914 set-up at their printed strength with their owners (8.4), the
    supply sources of the map (6.1), the EFT box only in TTLM (2.0 V.4; AAC has none), no
    Build Points outside a production phase (7.0)."""
    for game in ("ttlm", "aac"):
        opened = openings[game, False]
        d = opened.data
        board = board_of(opened, "public")
        areas = {a["id"]: a for c in board["countries"] for a in c["areas"]}
        for area in d.map.areas:
            shown = areas[area.id]
            assert shown["supply_source"] == area.supply_source
            if area.fort is None:
                assert shown["fort"] is None
                continue
            fort = shown["fort"]
            in_play = area.fort.id in opened.state.forts
            assert fort["in_play"] == in_play and fort["printed"] == area.fort.strength
            assert fort["side"] == d.nation_side[fort["nation"]]
            assert fort["besieged"] is False      # no enemy unit stands with a fort in 1914
        assert (board["eft_box"] is None) == (game == "aac")
        assert board["build_points"] is None


def test_each_force_pool_is_headed_by_its_nations_name(openings):
    """A force pool (where units lost go, 5.3.1) is headed by its nation's name as units.yaml
    writes it ('German Empire'), never by the nation's id ('ge'), in the report's board and
    in `show`, for every reader; under hidden templates only the pools he sees (1.4)."""
    for (game, hidden), opened in openings.items():
        written = yaml.safe_load((GAMES / game / "units.yaml").read_text())["nations"]
        for reader in READERS:
            board = board_of(opened, reader)
            pools = {n for n, row in board["force_pool"].items() if row}
            assert pools or (hidden and reader == "public"), (game, reader)
            assert board["nation_names"] == {n: written[n]["name"] for n in board["force_pool"]}
            lines = [ln for ln in board_text(board) if "Force pool" in ln]
            assert sorted(ln.split(":")[0] for ln in lines) == \
                sorted(f"- Force pool, {written[n]['name']}" for n in pools)
            shown = to_text(show_document(state_view(opened.state, opened.data, reader)))
            assert sorted(re.findall(r"^- (.+) force pool:", shown, re.M)) == \
                sorted(written[n]["name"] for n in pools)


def test_country_names_are_checked(tmp_path):
    """map.yaml `country_names`: a country the game does not declare, one named twice, and
    an area whose country has no name are each reported where they are written."""
    def change(files):
        names = files["map.yaml"]["country_names"]
        names.append({"id": "atlantis", "name": "Atlantis"})
        names.append({"id": "belgium", "name": "Belgium again"})
        files["map.yaml"]["country_names"] = [n for n in names if n["id"] != "luxembourg"]

    games = copy_game(tmp_path, change, ("map.yaml",))
    with pytest.raises(GameDataError) as err:
        load_game(games / "ttlm")
    lines = err.value.lines()
    for said in ("unknown country 'atlantis' (the game declares belgium, france, germany, "
                 "luxembourg, uk) (at country_names[4](atlantis).id)",
                 "country 'belgium' is named more than once (at country_names[5](belgium).id)",
                 "country 'luxembourg' has no name in `country_names` (at "
                 "areas.luxembourg.country)"):
        assert sum(line.endswith(said) for line in lines) == 1, (said, lines)


def test_a_supply_source_says_whom_it_supplies(tmp_path):
    """6.2, 6.3: a source supplies its side only through a Friendly area: held by the other
    side it supplies neither (Ostend German-held), Disputed only its side's units in it
    (Dunkirk); the board says so in its text and its JSON, and agrees with the supply the
    engine works out."""
    sc = position("1914", control={"ostend": "german"},
                  add_units=["ge-i-09 ge infantry dunkirk", "uk-i-09 uk infantry dunkirk"])
    opened = g.open_game(new_game(tmp_path, sc, name="sources"))
    board = board_of(opened, "entente")
    areas = {a["id"]: a for c in board["countries"] for a in c["areas"]}
    assert (areas["ostend"]["supplies"], areas["dunkirk"]["supplies"],
            areas["calais"]["supplies"]) == ("none", "own_area", "network")
    assert "supplies" not in areas["ypres"]
    TypeAdapter(BoardView).validate_python(board)
    text = " ".join(" ".join(board_text(board)).split())
    assert "Entente Ostend (German-Friendly: supplies neither side, 6.2)" in text
    assert "Dunkirk (disputed: supplies only the Entente units in it, 6.3)" in text
    assert "Calais, " in text and "Calais (" not in text
    s, d = opened.state, opened.data
    assert in_supply(s, d, "entente", "dunkirk")        # its own units, 6.3


def test_the_side_holding_an_area_is_named_once_on_its_line():
    """'Briey, German: German ge-5 …' named the holder twice: the line names him after the
    area, and his units come first, unnamed; any other side in the area (the besieged fort's,
    8.4) is named. A disputed area names every side, in the game's order."""
    from referee.render.board import area_line

    army = {"id": "ge-5", "type": "army", "summary": "3I+1C+1A", "side": "german"}
    fort = {"name": "Longwy", "strength": 1, "printed": 1, "besieged": True, "in_play": True,
            "side": "entente"}
    briey = {"name": "Briey", "control": "german", "battle": None, "units": [army],
             "fort": fort}
    sides = ["german", "entente"]

    def text(area: dict) -> str:
        return "".join(s.text for s in area_line(area, sides))

    assert text(briey) == "Briey, German: ge-5 [3I+1C+1A]; Entente fort Longwy 1/1 (besieged)"
    held = dict(briey, name="Sedan", control="entente", fort=dict(fort, name="Sedan"),
                units=[army, {"id": "fr-4", "type": "army", "summary": "3I", "side": "entente"}])
    assert text(held) == "Sedan, Entente: fr-4 [3I], fort 1/1 (besieged); German ge-5 [3I+1C+1A]"
    assert text(dict(held, control="disputed")) == \
        "Sedan, disputed: German ge-5 [3I+1C+1A]; Entente fr-4 [3I], fort 1/1 (besieged)"
