"""Under hidden army templates (1.4) whether a side is asked to place his arrivals (2.0 I)
must not tell what his armies hold.

The referee asked him only where an arrival had a place as the board stands, or would have
one once units went into armies (8.1; room.py), and else left it in the force pool unasked.
Both rest on what armies hold: an empty army counts no unit toward stacking, an army holding
units one (1.2.2), and a template full or not decides whether a unit may go in. The
opponent, who sees whether a decision is asked and whether a plan stays open, learnt it.
Under hidden templates the side is now asked wherever one of his army counters stands in
an area an arrival may go to, whatever it holds, and may answer 'done'.

As test_attrition_hidden.py does: one public position, the hidden contents varied, the same
orders; what the German and the public are told of the records and of the decision that
follows must be the same.
"""

from __future__ import annotations

import pytest

import gamecalls as g
from casebook import new_game, position
from referee.engine import pending_prompt
from referee.game import batch
from referee.render.record_text import describe

# AUTUMN 1916: a UK infantry arrives in ENGLAND, which holds uk-4 and two stand-alone UK
# artillery: at the stacking limit (1.2.2) unless uk-4 is empty. uk-4 [4I] has room in its
# template for an artillery, whose move frees a place; [4I+2A+1C] has none; an empty uk-4
# counts no unit, so the infantry has a place as the board stands.
CONTENTS = ("4I", "4I+2A+1C", "empty")


def _game(tmp_path, contents: str, hidden: bool = True):
    sc = position("1916", turn=10, remove_units=["uk-1"],
                  add_units=[f"uk-4 uk army england {contents}", "uk-a-10 uk artillery england",
                             "uk-a-11 uk artillery england"])
    folder = tmp_path / contents.replace("+", "-")
    folder.mkdir(parents=True)
    return new_game(folder, sc, {"hidden_templates": hidden})


def _told(journal, reader: str) -> tuple:
    game = g.open_game(journal)
    p = game.state.pending
    lines = [describe(e, game.data, reader) for r in game.records for e in r.get("events", [])]
    return (p.kind, p.side) if p else None, [x for x in lines if x]


@pytest.mark.parametrize("reader", ["german", "public"])
def test_whether_the_entente_is_asked_to_place_tells_nothing_of_a_hidden_army(tmp_path,
                                                                               reader):
    told = {c: _told(_game(tmp_path / reader, c), reader) for c in CONTENTS}
    assert told["4I"][0] == ("reinforce", "entente"), told["4I"]
    assert len(set(map(repr, told.values()))) == 1, told


@pytest.mark.parametrize("reader", ["german", "public"])
def test_a_done_leaves_the_same_records_whatever_the_army_holds(tmp_path, reader):
    # Asked all the same where the infantry has no place as the board stands (uk-4 holds
    # units), the Entente answers 'done': it stays in the force pool, told as the plan's
    # choice in the one wording hidden templates give (1.4).
    told = {}
    for c in ("4I", "4I+2A+1C"):
        journal = _game(tmp_path / reader, c)
        assert batch.submit(journal, "entente", ["done"]).rejected is None, c
        told[c] = _told(journal, reader)
    assert len(set(map(repr, told.values()))) == 1, told
    assert any("does not arrive" in x for x in told["4I"][1]), told["4I"]


def _spring_1917(tmp_path, contents: str, hidden: bool = True):
    """SPRING 1917: a UK infantry and a UK artillery arrive in ENGLAND, and the ANZAC swap
    is due (8.2.3); ENGLAND holds uk-4 and a stand-alone UK artillery."""
    sc = position("1916", turn=12, remove_units=["uk-1"],
                  add_units=[f"uk-4 uk army england {contents}", "uk-a-10 uk artillery england"])
    folder = tmp_path / contents.replace("+", "-")
    folder.mkdir(parents=True)
    return new_game(folder, sc, {"hidden_templates": hidden})


# The swap made and the infantry placed alone, only the artillery is left: ENGLAND holds
# three units if uk-4 holds any. With [4I] its template takes the artillery standing there,
# whose move frees a place; with [4I+2A+1C] nothing does; empty, it counts none.
PLAN = ["swap uk-2:infantry", "place uk infantry england"]


@pytest.mark.parametrize("reader", ["german", "public"])
def test_whether_the_plan_stays_open_tells_nothing_of_a_hidden_army(tmp_path, reader):
    told = {}
    for c in CONTENTS:
        journal = _spring_1917(tmp_path / reader, c)
        assert batch.submit(journal, "entente", PLAN).rejected is None, c
        told[c] = _told(journal, reader)
    assert told["4I"][0] == ("reinforce", "entente"), told["4I"]
    assert len(set(map(repr, told.values()))) == 1, told


def test_with_open_templates_a_plan_without_room_left_closes(tmp_path):
    journal = _spring_1917(tmp_path, "4I+2A+1C", hidden=False)
    assert batch.submit(journal, "entente", PLAN).rejected is None
    assert g.open_game(journal).state.pending.kind != "reinforce"


def test_the_side_asked_with_nothing_to_place_reads_that_done_ends_it(tmp_path):
    # Only the Entente reads why he is asked where nothing can be placed (his own prompt):
    # the public and the German read the prompt every variant gives.
    asked = {}
    for c in ("4I", "4I+2A+1C"):
        game = g.open_game(_game(tmp_path, c))
        asked[c] = {r: pending_prompt(game.state, game.data, r) for r in ("entente", "german")}
    assert "send 'done' (asked all the same: what armies hold is hidden, 1.4)" in \
        asked["4I+2A+1C"]["entente"], asked
    assert "send 'done'" not in asked["4I"]["entente"], asked
    assert asked["4I"]["german"] == asked["4I+2A+1C"]["german"], asked


def _swap_only(tmp_path, contents: str, hidden: bool = True):
    """SPRING 1917, the ANZAC swap due (8.2.3): ENGLAND full of UK units standing alone, so
    the arrivals have no place, whatever any army holds; no UK infantry stands alone on the
    map, so whether one may be swapped rests on what the UK armies hold."""
    sc = position("1916", turn=12, remove_units=["uk-1", "uk-2", "uk-3"],
                  add_units=[f"uk-{n} uk army {area} {contents} entrenched"
                             for n, area in ((1, "artois"), (2, "ypres"), (3, "amiens"))] +
                  ["uk-a-10 uk artillery england", "uk-a-11 uk artillery england",
                   "uk-c-10 uk cavalry england"])
    folder = tmp_path / contents.replace("+", "-")
    folder.mkdir(parents=True)
    return new_game(folder, sc, {"hidden_templates": hidden})


@pytest.mark.parametrize("reader", ["german", "public"])
def test_whether_a_swap_is_asked_tells_nothing_of_a_hidden_army(tmp_path, reader):
    told = {c: _told(_swap_only(tmp_path / reader, c), reader) for c in ("2I+1A", "1A+1B")}
    assert told["2I+1A"][0] == ("reinforce", "entente"), told["2I+1A"]
    assert len(set(map(repr, told.values()))) == 1, told


def test_with_open_templates_no_swap_is_asked_where_no_uk_infantry_stands(tmp_path):
    game = g.open_game(_swap_only(tmp_path, "1A+1B", hidden=False))
    assert game.state.pending.kind != "reinforce", game.state.pending
    said = [e for r in game.records for e in r.get("events", [])
            if e["type"] == "CommonwealthSwapped"]
    assert [e.get("replaced") for e in said] == [None], said


def test_with_open_templates_an_arrival_without_room_is_lost_unasked(tmp_path):
    game = g.open_game(_game(tmp_path, "4I+2A+1C", hidden=False))
    assert game.state.pending is None or game.state.pending.kind != "reinforce", \
        game.state.pending
    lost = [e for r in game.records for e in r.get("events", [])
            if e["type"] == "ReinforcementLost"]
    assert [e["unit"] for e in lost] == ["uk:infantry"], lost
