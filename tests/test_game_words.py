"""Each game's own words where the referee names its cards and steps of play.

- TTLM 2.0 II.1 opens a player turn with an "Offensive type card"; AT ALL COSTS! 2.0 II.1
  calls the player turn an impulse and the card that opens one an Offensive card (any card
  with the word Offensive in its title). The prompt and the refusal say each game's words,
  with the article each takes ("an impulse", not "a impulse").
- TTLM 2.0 II.1: the cards drawn to replace a pass discard cannot be played until the next
  player turn (the French text: not before the opponent's turn). The event's line says they
  may not be played in the rest of this player turn, not "until his next" one, which would
  reach past the opponent's turn the rule lets them be used in.
"""

from __future__ import annotations

import pytest

import gamecalls as g
from referee.engine import pending_prompt
from referee.engine.cards import can_play_offensive
from referee.render.record_text import describe

WORDS = {"ttlm": ("player turn", "Offensive-type card"), "aac": ("impulse", "Offensive card")}


@pytest.fixture(params=sorted(WORDS))
def opening(request, tmp_path):
    journal = tmp_path / f"{request.param}.jsonl"
    g.create_game(journal, "1914", game=request.param, game_id=f"words-{request.param}")
    return request.param, g.open_game(journal)


def test_the_opening_prompt_names_the_game_s_offensive_card(opening):
    game, played = opening
    turn, card = WORDS[game]
    text = pending_prompt(played.state, played.data)
    assert f"play an {card} or pass in this {turn}, SUMMER 1914 (2.0 II.1)" in text
    assert game == "ttlm" or "Offensive-type" not in text


def test_a_card_that_opens_no_turn_is_refused_in_the_game_s_words(opening):
    game, played = opening
    turn, card = WORDS[game]
    refused = can_play_offensive(played.state, played.data, "german", "ersatz_2")
    assert refused is not None and refused.rule == "2.0 II.1"
    article = "an" if turn[0] in "aeiou" else "a"
    assert f"is not an {card}; {article} {turn} opens with an" in refused.reason


def test_cards_drawn_after_a_pass_discard_are_locked_for_this_turn_only(opening):
    game, played = opening
    turn, _ = WORDS[game]
    event = {"type": "CardsDrawn", "side": "german", "count": 2, "locked": True,
             "reason": "replacing cards discarded while passing (2.0 II.1)"}
    line = describe(event, played.data, "public")
    assert line.endswith(f"(none may be played in the rest of this {turn}, 2.0 II.1)")
    assert "next" not in line


@pytest.mark.parametrize("wasted, says", [
    (0, "German pays 2 hits with Ersatz 2 as Ersatz (5.3.2)"),
    (1, "German pays 1 hit with Ersatz 2 as Ersatz, 1 point lost (5.3.2)")])
def test_a_hit_paid_with_a_card_names_its_rule_as_a_unit_lost_does(tmp_path, wasted, says):
    """5.3.1 and 5.3.2: a unit lost is told with its rule; a card played to pay hits is
    told with its own, whether or not Ersatz points are lost."""
    journal = tmp_path / "w.jsonl"
    g.create_game(journal, "1914", game_id="words-ersatz")
    played = g.open_game(journal)
    event = {"type": "LossTaken", "side": "german", "area": "liege", "how": "ersatz",
             "card": "ers2-04", "hits": 2 - wasted, "wasted": wasted}
    assert describe(event, played.data, "public") == says
