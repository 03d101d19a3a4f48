"""A reinforcement the plan has left no room for: the refusal says why (1.2.2, 2.0 I)."""

from __future__ import annotations

import gamecalls as g
from casebook import new_game, position
from referee.base.errors import cited
from referee.engine import pending_prompt
from referee.game import batch
from referee.game.planexample import plan_example


def _england_holding_two(tmp_path):
    """SUMMER 1916: uk-5, a UK infantry and a UK artillery arrive in ENGLAND, which holds
    a UK infantry and a UK artillery already."""
    return new_game(tmp_path, position("1916", turn=9, add_units=[
        "uk-i-01 uk infantry england", "uk-a-01 uk artillery england"]))


def test_an_arrival_left_without_room_is_refused_with_the_stacking_limit(tmp_path):
    # SUMMER 1916: uk-5, a UK infantry and a UK artillery arrive in ENGLAND, which holds
    # two UK units already. Placing the infantry alone fills ENGLAND (3 units, the empty
    # army not counting), so the artillery cannot follow: the player must read that it is
    # the stacking limit, not only that his plan is complete.
    journal = _england_holding_two(tmp_path)
    r = batch.submit(journal, "entente", ["place uk-5 england", "place uk infantry england",
                                          "place uk artillery england"])
    assert r.rejected is not None
    v = r.rejected[2]
    assert v.rule == "1.2.2", v
    assert "stacking limit" in v.reason, v


def test_the_mails_example_plan_places_every_arrival_it_has_room_for(tmp_path):
    # The same arrivals: the example a mail gives puts the infantry and the artillery into
    # the army placed first, where they add nothing to ENGLAND's stack (8.1, 1.2.2), so no
    # arrival of the example goes back to the force pool for want of room.
    journal = _england_holding_two(tmp_path)
    opened = g.open_game(journal)
    orders, short = plan_example(opened.state, opened.data, "entente", "place uk-5 england")
    assert not short
    assert "place uk infantry england into uk-5" in orders, orders
    assert "place uk artillery england into uk-5" in orders, orders
    r = batch.submit(journal, "entente", orders)
    assert r.rejected is None, r.rejected
    assert sorted(g.open_game(journal).state.armies["uk-5"].contents) == \
        ["uk:artillery", "uk:infantry"]


def test_an_arrival_left_by_done_says_room_could_have_been_made(tmp_path):
    # The same arrivals, the infantry placed alone: ENGLAND is full (1.2.2), but the plan
    # could still put units into uk-5 and the artillery after them (8.1), so it stays open;
    # a 'done' then leaves the artillery in the force pool, and the record says it was the
    # plan's choice, not that no area could take it.
    journal = _england_holding_two(tmp_path)
    r = batch.submit(journal, "entente", ["place uk-5 england", "place uk infantry england",
                                          "done"])
    assert r.rejected is None, r.rejected
    lost = [e for e in g.open_game(journal).records[-1]["events"]
            if e["type"] == "ReinforcementLost"]
    assert [e["unit"] for e in lost] == ["uk:artillery"], lost
    assert "could have made room" in lost[0]["reason"], lost


def test_the_stacking_refusals_cite_1_2_2_and_name_the_side_as_every_line_does(tmp_path):
    # The place refused cites the stacking limit's rule beside the 8.1 it also cites (a
    # reason citing one rule in brackets gets no other added); the move that would undo
    # the room names the side as the board does ('Entente', not 'entente').
    journal = _england_holding_two(tmp_path)
    r = batch.submit(journal, "entente", ["place uk-5 england", "place uk infantry england",
                                          "place uk artillery england"])
    v = r.rejected[2]
    assert v.rule == "1.2.2" and "(1.2.2)" in cited(v.reason, v.rule), v
    r = batch.submit(journal, "entente", ["move uk-i-01 into uk-5", "move uk-i-02 into uk-5",
                                          "place uk artillery england", "move uk-5:infantry"])
    v = r.rejected[2]
    assert v.rule == "1.2.2" and "4 Entente units" in v.reason, v


def test_the_no_room_warning_names_the_area_where_moves_into_armies_make_room(tmp_path):
    # The same arrivals, the infantry placed alone: the artillery has no place as the board
    # stands, and the warning names where units moved into armies would make room for it
    # (ENGLAND, where uk-5 stands: 8.1, 1.2.2), not only that some stacking limit could.
    journal = _england_holding_two(tmp_path)
    r = batch.submit(journal, "entente", ["place uk-5 england", "place uk infantry england"])
    assert r.rejected is None, r.rejected
    opened = g.open_game(journal)
    asked = pending_prompt(opened.state, opened.data, "entente")
    assert "no area can take uk artillery as the board stands: make room in ENGLAND " \
           "within the stacking limit (units into armies there, 8.1)" in asked, asked
