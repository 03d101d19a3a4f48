"""A reinforcement the plan has left no room for: the refusal says why (1.2.2, 2.0 I)."""

from __future__ import annotations

from casebook import new_game, position
from referee.game import batch


def test_an_arrival_left_without_room_is_refused_with_the_stacking_limit(tmp_path):
    # SUMMER 1916: uk-5, a UK infantry and a UK artillery arrive in ENGLAND, which holds
    # two UK units already. Placing the infantry alone fills ENGLAND (3 units, the empty
    # army not counting), so the artillery cannot follow: the player must read that it is
    # the stacking limit, not only that his plan is complete.
    sc = position("1916", turn=9, add_units=["uk-i-01 uk infantry england",
                                             "uk-a-01 uk artillery england"])
    journal = new_game(tmp_path, sc)
    r = batch.submit(journal, "entente", ["place uk-5 england", "place uk infantry england",
                                          "place uk artillery england"])
    assert r.rejected is not None
    v = r.rejected[2]
    assert v.rule == "1.2.2", v
    assert "stacking limit" in v.reason, v
