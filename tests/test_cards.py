"""The deck (1.3, 9.0-9.9): the 55 cards, drawing, reshuffling."""

from __future__ import annotations

from collections import Counter

import gamecalls as g
from casebook import new_game, position


def test_the_55_cards_and_their_counts(data):
    """9.0-9.9: the numbers printed in parentheses in the card manifest."""
    counts = Counter(c.key for c in data.cards.values())
    assert counts == {
        "offensive": 16, "limited_offensive": 6, "the_big_push": 1, "gericht": 1,
        "tout_le_monde": 1, "friedensturm": 1, "ersatz_2": 10, "ersatz_3": 2,
        "poison_gas": 6, "advanced_artillery_barrage": 2, "bad_weather": 3,
        "strategic_reserves": 2, "surprise_attack": 2, "entente_military_crisis": 1,
        "german_military_crisis": 1}
    assert sum(counts.values()) == 55
    assert {c.ersatz for c in data.cards.values() if c.key == "ersatz_2"} == {2}
    assert {c.ersatz for c in data.cards.values() if c.key == "ersatz_3"} == {3}
    assert {c.ersatz for c in data.cards.values() if c.key not in ("ersatz_2", "ersatz_3")} == {1}


def test_the_discards_are_reshuffled_when_the_draw_pile_runs_out(tmp_path):
    """1.3: a passing player discards 3 cards with only 1 left to draw; the discards
    (and only them: hands keep their cards) are shuffled into a new draw pile."""
    all_ids = [c for c in g.game_data().card_order]
    german = ["off-01", "off-02", "ers2-01"]
    entente = ["off-03"]
    pile = ["ers2-02"]
    discard = [c for c in all_ids if c not in german + entente + pile]
    sc = position("1914", player="german", hands={"german": german, "entente": entente},
                  draw_pile=pile)
    sc["cards"]["discard"] = discard
    j = new_game(tmp_path, sc)
    st = g.open_game(j).state
    assert st.draw_pile == pile and len(st.discard) == 50      # 55 - 3 - 1 - 1
    r = g.submit(j, "german", ["pass", "discard offensive offensive ersatz_2"])
    assert r.rejected is None
    events = [e for a in r.applied for e in a.record["events"]]
    types = [e["type"] for e in events]
    assert types.count("CardsDrawn") == 2 and "DeckShuffled" in types
    shuffled = next(e for e in events if e["type"] == "DeckShuffled")
    assert shuffled["count"] == 53 and "ran out" in shuffled["reason"]   # 50 + the 3 discards
    st = g.open_game(j).state
    assert len(st.hands["german"]) == 3 and "ers2-02" in st.hands["german"]
    assert st.hands["entente"] == entente
    assert len(st.draw_pile) + len(st.discard) + 4 == 55
    assert st.discard == []
    assert g.verify(j).records


def test_hands_are_dealt_german_first(tmp_path, game):
    """Theatre 11.2 via the scenario: the German draws his hand first, then the Entente."""
    recs = g.open_game(game).records
    drawn = [e["side"] for e in recs[1]["events"] if e["type"] == "CardsDrawn"]
    assert drawn == ["german", "entente"]


def test_cards_drawn_after_a_pass_unlock_at_the_next_player_turn_whoever_plays_it(tmp_path):
    """2.0 II.1, our reading: the lock on cards drawn after a pass discard ends when the next
    player turn begins; normally the opponent's (the French text: not before the opponent's
    turn), but after two passes end the seasonal turn it is the next season's first one,
    which may be the drawer's own."""
    from referee.contracts.events_turn import PlayerTurnBegan
    from referee.engine.evolve import evolve

    sc = position("1914", player="german", hands={"german": ["off-01"], "entente": ["off-03"]})
    st = g.open_game(new_game(tmp_path, sc)).state
    st.locked = {"german": ["off-01"], "entente": ["off-03"]}
    evolve(st, PlayerTurnBegan(side="german"), g.game_data())
    assert st.locked == {"german": [], "entente": []}
