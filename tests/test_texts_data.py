"""The engine's messages, prompts and card lists name what the game's data says.

Each test plays a copy of games/ttlm changed in the data only:

- `retitled`: Poison Gas! is titled "Chlorine Cloud!" and playable from SUMMER 1915 (turn 5;
  the book: SPRING 1915, 9.3), Bad Weather is titled "Fog of War" (9.5), and the Canadian
  Commonwealth swap comes in WINTER 1915-16 (turn 7; the book: AUTUMN 1915, 8.2.3), and the
  Entente Military Crisis! is titled "Caporetto!" (9.8). The not-a-combat-card message
  (2.0 II.3b), the defender's combat-card prompt, the reason a defender is not asked on turn 1
  (9.3-9.5), the Commonwealth rebuild message (8.2.3) and the VP line of an unanswered crisis
  (3.1) name the new titles and dates;
- `no_surprise`: the deck has no Surprise Attack! (9.7): the attacker's prompt and the
  not-a-combat-card message do not name it, and no order plays it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from datacopy import copy_game, new_game

import gamecalls as g
from casebook import position
from referee.contracts.orders import PlayCard
from referee.engine import check, legal_orders, pending_prompt
from referee.engine.order_text import format_order
from referee.engine.victory import vp_breakdown


def _retitle(files):
    cards = {c["key"]: c for c in files["deck.yaml"]["cards"]}
    cards["poison_gas"].update(title="Chlorine Cloud!", from_turn=5, from_label="SUMMER 1915")
    cards["bad_weather"]["title"] = "Fog of War"
    cards["entente_military_crisis"]["title"] = "Caporetto!"
    ev = files["events.yaml"]
    ev["availability"]["cards"]["poison_gas"] = 5
    turns = {t["turn"]: t for t in ev["turns"]}
    turns[7]["swaps"] = turns[6]["swaps"]
    turns[6]["swaps"] = []
    ev["commonwealth_swaps"]["swaps"][0]["turn"] = 7
    ev["build_dates"]["units"]["uk"]["commonwealth"]["from_turn"] = 7     # rebuilt after it


def _drop_surprise(files):
    deck = files["deck.yaml"]
    gone = next(c for c in deck["cards"] if c["key"] == "surprise_attack")
    deck["cards"].remove(gone)
    deck["total"] -= gone["count"]


@pytest.fixture(scope="module")
def retitled(tmp_path_factory) -> Path:
    return copy_game(tmp_path_factory.mktemp("retitled"), _retitle, ("deck.yaml", "events.yaml"))


@pytest.fixture(scope="module")
def no_surprise(tmp_path_factory) -> Path:
    return copy_game(tmp_path_factory.mktemp("nosurprise"), _drop_surprise, ("deck.yaml",))


def _ok(journal: Path, games: Path, side: str, *texts: str) -> None:
    for text in texts:
        r = g.submit(journal, side, [text], None, games_dir=games)
        assert r.rejected is None, (text, r.rejected)


def _verdun(tmp: Path, games: Path, hands: dict, *more: str) -> g.Game:
    """SPRING 1916: the German 5th Army enters Verdun under an Offensive, and the German
    gives the orders more; the battle is declared and the combat cards are asked (2.0 II.3b)."""
    journal = new_game(tmp, games, position("1916", player="german", hands=hands))
    _ok(journal, games, "german", "play offensive", "move ge-5 verdun", "end movement", *more)
    return g.open_game(journal, games_dir=games)


def test_the_defender_is_asked_for_the_combat_cards_the_deck_titles(tmp_path, retitled):
    """2.0 II.3b, 9.3, 9.5: the defender's prompt and the not-a-combat-card message list the
    deck's titles, in the deck's order (combat cards, then Bad Weather); the prompt leaves
    out the Barrage, which nobody plays before SPRING 1917 (9.4)."""
    game = _verdun(tmp_path, retitled, {"german": ["off-01"], "entente": ["ers2-01"]})
    assert game.state.pending.kind == "defender_cards"
    text = pending_prompt(game.state, game.data)
    # Bad Weather names no battle area (9.5): the prompt says so of it apart from the others.
    assert "(cards the rules allow now: Chlorine Cloud!), naming its battle area, or Fog of War, " \
           "which names no battle area" in text, text
    v = check(game.state, game.data, PlayCard(card="ersatz_2"), "entente")
    assert v.rule == "2.0 II.3" and v.reason.endswith(
        "the combat cards are Chlorine Cloud!, Advanced Artillery Barrage!, Surprise Attack! "
        "and Fog of War"), v
    assert "Poison Gas" not in text + v.reason and "Bad Weather" not in text + v.reason
    game.state.vp_adjust = {"entente_crisis_unpaid": 1}                     # 3.1, 9.8
    assert ("Caporetto! not answered (3.1)", 1) in vp_breakdown(game.state, game.data)


def test_the_turn_1_defender_skip_names_the_deck_dates(tmp_path, retitled):
    """9.3-9.5: on turn 1 no combat card the defender plays is allowed (Bad Weather never on
    turn 1, Poison Gas! and the Barrage later), so he is not asked; the reason gives the
    deck's titles and dates: here Chlorine Cloud! from SUMMER 1915."""
    journal = new_game(tmp_path, retitled, position(
        "1914", player="german", hands={"german": ["off-01"], "entente": ["ers2-01"]}))
    _ok(journal, retitled, "german", "play offensive", "move ge-1 liege", "end movement")
    events = g.open_game(journal, games_dir=retitled).records[-1]["events"]
    skipped = [e["reason"] for e in events
               if e["type"] == "DecisionSkipped" and e["kind"] == "defender_cards"]
    assert skipped == ["no combat card the defender plays is allowed now (Fog of War not on "
                       "turn 1, 9.5; Chlorine Cloud! from SUMMER 1915, 9.3; Advanced Artillery "
                       "Barrage! from SPRING 1917, 9.4)"], skipped


def test_the_commonwealth_rebuild_names_the_data_swap_turns(tmp_path, retitled):
    """8.2.3: only a Commonwealth unit swapped in and eliminated since is rebuilt. SPRING 1916,
    the Canadian (swapped in WINTER 1915-16 in this data) is gone from the set-up: it is rebuilt
    once, then the refusal names the swap turns of events.yaml, WINTER 1915-16 and SPRING
    1917 (the book: AUTUMN 1915 and SPRING 1917)."""
    sc = position("1916", player="entente", passes=1,
                  hands={"german": ["off-01"], "entente": ["off-03"]},
                  remove_units=["uk-2"], add_units=["uk-2 uk army ypres 2I+1A"])
    journal = new_game(tmp_path, retitled, sc)
    _ok(journal, retitled, "entente", "pass", "end turn", "build uk commonwealth calais")
    r = g.submit(journal, "entente", ["build uk commonwealth calais"], None, games_dir=retitled)
    rule, why = r.rejected[2].rule, r.rejected[2].reason
    assert rule == "8.2.3" and why == (
        "Commonwealth units enter play by the swaps of WINTER 1915-16 and SPRING 1917; only "
        "one swapped in and eliminated since may be rebuilt"), why


def test_a_deck_without_surprise_attack_neither_offers_nor_names_it(tmp_path, no_surprise):
    """9.7, 2.0 II.3b: with no Surprise Attack! in the deck, the attacker's prompt lists the
    deck's other combat cards allowed now (not the Barrage before SPRING 1917, 9.4), no order
    plays it, and the message naming the combat cards leaves it out."""
    game = _verdun(tmp_path, no_surprise, {"german": ["off-01", "gas-01"],
                                           "entente": ["ers2-01"]}, "done")  # no other battle
    state, data = game.state, game.data
    assert state.pending.kind == "attacker_cards"
    text = pending_prompt(state, data)
    assert "(cards the rules allow now: Poison Gas!), naming its battle area;" in text, text
    legal = [format_order(o) for o in legal_orders(state, data, "german")]
    assert any("gas" in o.lower() for o in legal), legal
    assert not any("surprise" in o.lower() for o in legal), legal
    v = check(state, data, PlayCard(card="surprise_attack", area="verdun"), "german")
    assert v.rule == "2.0 II.3" and v.reason == (
        "surprise_attack is not a combat card; the combat cards are Poison Gas!, Advanced "
        "Artillery Barrage! and Bad Weather"), v
    assert "Surprise" not in text
