"""A refusal cites its rule once: when its reason already names the rule in brackets, no
'(rule X)' is added after it ("(9.3, 9.4) (rule 9.3)" was the same citation twice)."""

from __future__ import annotations

import gamecalls as g
from casebook import new_game, position
from referee.base.errors import IllegalOrderError, cited


def test_a_reason_that_cites_is_not_cited_again():
    assert cited("Poison Gas! and Advanced Artillery Barrage! cannot be combined (9.3, 9.4)",
                 "9.3").endswith("(9.3, 9.4)")
    assert cited("Ypres is an Enemy area (4.2)", "2.0 II.1") == "Ypres is an Enemy area (4.2)"
    assert cited("arrives in an area of France (7.3); Lille is not one", "2.0 I") == \
        "arrives in an area of France (7.3); Lille is not one"
    assert cited("the plan is in (rule 7.0)", "7.0") == "the plan is in (rule 7.0)"
    # Numbers in brackets that are not rules, and no brackets at all: the rule is added.
    assert cited("name one unit per entrench order (4 cost 1 BP)", "7.4") == \
        "name one unit per entrench order (4 cost 1 BP) (rule 7.4)"
    assert cited("all units go to the same area (Amiens)", "5.4.2").endswith("(rule 5.4.2)")
    err = IllegalOrderError("play poison_gas somme", "9.3", "cannot be combined (9.3, 9.4)")
    assert str(err) == "order 'play poison_gas somme' rejected: cannot be combined (9.3, 9.4)"
    assert err.rule == "9.3"            # the rule stays whole for JSON and the mail's facts


def test_two_combat_cards_that_clash_cite_their_rules_once(tmp_path):
    sc = position("1918", player="german", hands={
        "german": ["friedensturm-01", "gas-01", "aab-01"], "entente": ["ers2-01"]})
    j = new_game(tmp_path, sc, dice="manual")
    for order in ("play friedensturm", "move ge-6 artois", "end movement", "done",
                  "play advanced_artillery_barrage artois"):
        assert g.submit(j, "german", [order]).rejected is None, order
    said = str(g.submit(j, "german", ["play poison_gas artois"]).rejected[2])
    assert said.endswith("cannot be combined (9.3, 9.4)"), said
    assert said.count("9.3") == 1, said
