"""A plan whose arrival has no place until units go into armies (8.1, 1.2.2): the example the
mail gives makes the room and places it, every line of it legal as it is played, and the
words before it say that a 'done' now leaves the arrival in the force pool (2.0 I)."""

from __future__ import annotations

import gamecalls as g
from casebook import new_game, position
from referee.game import batch
from referee.game.planexample import plan_example
from referee.mail.message import order_lines


def _flat(text: str) -> str:
    return " ".join(text.split())


def _infantry_alone(tmp_path):
    """SUMMER 1916: uk-5, a UK infantry and a UK artillery arrive in ENGLAND, which holds two
    UK units; the plan places uk-5, then the infantry on its own: ENGLAND is full."""
    sc = position("1916", turn=9, add_units=["uk-i-01 uk infantry england",
                                             "uk-a-01 uk artillery england"])
    journal = new_game(tmp_path, sc)
    r = batch.submit(journal, "entente", ["place uk-5 england", "place uk infantry england"])
    assert r.rejected is None, r.rejected
    return journal


def _example(out: str) -> list[str]:
    lines = out.split("For example, the rest of it:")[1].split("Reply with")[0]
    return [t.strip() for t in lines.strip().splitlines() if t.strip()]


def test_the_example_makes_room_and_places_the_arrival(tmp_path, cli):
    journal = _infantry_alone(tmp_path)
    out = cli("report", journal, "--as", "entente").stdout
    example = _example(out)
    assert example[-1] == "place uk artillery england into uk-5", out
    assert example[:-1] == ["move uk-i-01 into uk-5"], out
    said = _flat(out)
    assert "a done now leaves uk artillery in the force pool" in said, said
    assert "end it with done" not in said, said
    # The example played as the player would send it: taken, and the artillery placed.
    r = batch.submit(journal, "entente", example)
    assert r.rejected is None, r.rejected
    events = g.open_game(journal).records[-1]["events"]
    assert not [e for e in events if e["type"] == "ReinforcementLost"], events


def test_with_nothing_placeable_the_example_starts_with_the_moves_that_make_room(tmp_path):
    # ENGLAND holds uk-4 [4I] and two stand-alone UK infantry; the plan places uk-5, then the
    # artillery into uk-4: the infantry left has no place until a unit goes into uk-5 (8.1).
    sc = position("1916", turn=9, remove_units=["uk-1"],
                  add_units=["uk-4 uk army england 4I", "uk-i-10 uk infantry england",
                             "uk-i-11 uk infantry england"])
    journal = new_game(tmp_path, sc)
    r = batch.submit(journal, "entente", ["place uk-5 england",
                                          "place uk artillery england into uk-4"])
    assert r.rejected is None, r.rejected
    opened = g.open_game(journal)
    orders, short = plan_example(opened.state, opened.data, "entente", None)
    assert not short and orders[0].startswith("move ") and "done" not in orders, orders
    assert orders[-1].startswith("place uk infantry england into "), orders
    r = batch.submit(journal, "entente", orders)
    assert r.rejected is None, r.rejected
    events = g.open_game(journal).records[-1]["events"]
    assert not [e for e in events if e["type"] == "ReinforcementLost"], events


def test_the_plan_so_far_names_the_id_a_placement_gave_to_its_own_side_alone(tmp_path, cli):
    # The orders open name the infantry placed alone by its id (move uk-i-02 into uk-5): his
    # plan so far says which unit that is, and the other side reads nothing of it.
    journal = _infantry_alone(tmp_path)
    out = cli("report", journal, "--as", "entente").stdout
    so_far = out.split("Your plan so far:")[1].split("For example")[0]
    lines = [" ".join(t.split()) for t in so_far.strip().splitlines()]
    assert lines == ["place uk-5 england", "place uk infantry england # uk-i-02"], so_far
    assert "uk-i-02" in out.split("Reply with")[1], out
    assert "uk-i-02" not in cli("report", journal, "--as", "german").stdout
    # The comment beside it is skipped when the line is sent back in a mail.
    assert order_lines(so_far) == [(3, "place uk-5 england"),
                                   (4, "place uk infantry england")], so_far
