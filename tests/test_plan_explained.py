"""`explain` of the record that ends a sealed reinforcement plan (2.0 I): the prompt its
side answered (his plan so far counted) beside the one everybody is shown, why a 'done'
that left an arrival unplaced was taken, and the revealed orders told apart."""

from __future__ import annotations

import json

import gamecalls as g
from casebook import new_game, position
from referee.game import batch

CROWDED = ["uk-i-01 uk infantry england", "uk-a-01 uk artillery england"]


def _flat(text: str) -> str:
    return " ".join(text.split())


def _ended_by_done(tmp_path):
    # SUMMER 1916: ENGLAND holds two UK units; uk-5 and the infantry fill it (1.2.2), and the
    # plan ends with 'done', the artillery left in the force pool.
    journal = new_game(tmp_path, position("1916", turn=9, add_units=CROWDED))
    for orders in (["place uk-5 england", "place uk infantry england"], ["done"]):
        assert batch.submit(journal, "entente", orders).rejected is None, orders
    return journal, g.open_game(journal).state.seq


def test_explain_of_a_plan_says_which_prompt_it_answered_and_why_done_was_taken(tmp_path,
                                                                                 cli):
    journal, seq = _ended_by_done(tmp_path)
    said = _flat(cli("explain", journal, str(seq), "--as", "entente").stdout)
    asked = said.split("The decision it answered")[1].split("Checks")[0]
    assert "his plan so far counted" in asked and "still to place in your plan: uk artillery" \
        in asked, asked
    assert "As everybody is shown it" in asked and "place uk-5, uk infantry, uk artillery" \
        in asked, asked
    checks = said.split("Checks")[1].split("Dice")[0]
    assert "'done' was taken with uk artillery not placed" in checks and "2.0 I" in checks, \
        checks
    assert "plan revealed: place uk-5 ENGLAND; place uk infantry ENGLAND" in said, said
    doc = json.loads(cli("explain", journal, str(seq), "--as", "entente", "--format",
                         "json").stdout)
    assert "still to place in your plan" in doc["decision"]["own_prompt"], doc["decision"]


def test_the_other_side_is_shown_only_the_public_prompt(tmp_path, cli):
    journal, seq = _ended_by_done(tmp_path)
    said = _flat(cli("explain", journal, str(seq), "--as", "german").stdout)
    assert "still to place in your plan" not in said and "plan so far counted" not in said
    doc = json.loads(cli("explain", journal, str(seq), "--as", "german", "--format",
                         "json").stdout)
    assert doc["decision"].get("own_prompt") is None, doc["decision"]
