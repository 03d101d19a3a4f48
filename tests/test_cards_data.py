"""The special Offensives and the Military Crisis! cards are the deck's: change deck.yaml, and
play changes with it (9.1.3-9.1.6, 9.8).

One copy of games/ttlm for the module, its deck.yaml changed in three places that do not meet:

- Gericht (9.1.4) adds 2 dice at F3 (the book: 1 die at F2) in its battle;
- The Big Push (9.1.3; the French text gives its bonus) needs a French army (the book: UK);
- the Entente Military Crisis! is renamed (key and title): it is still a Crisis! card (9.8).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from datacopy import spot
from test_data_driven import _fire, _game, _ok, _play

import gamecalls as g
from casebook import position, yaml_text
from referee.data.paths import default_games_dir


def _change(deck: dict) -> None:
    cards = {c["key"]: c for c in deck["cards"]}
    cards["gericht"]["bonus"].update(dice=2, firepower=3)
    cards["the_big_push"]["bonus"]["army_nation"] = "fr"
    crisis = cards["entente_military_crisis"]
    crisis["key"], crisis["title"] = "eastern_crisis", "Crisis in the East!"


@pytest.fixture(scope="module")
def games(tmp_path_factory) -> Path:
    """A games folder holding TTLM with the changed deck."""
    root = tmp_path_factory.mktemp("deck") / "games"
    shutil.copytree(default_games_dir() / "ttlm", root / "ttlm")
    path = root / "ttlm" / "deck.yaml"
    deck = yaml.safe_load(path.read_text(encoding="utf-8"))
    _change(deck)
    path.write_text(yaml_text(deck, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return root


def test_gericht_adds_the_dice_and_firepower_its_card_gives(tmp_path, games):
    """9.1.4: Gericht's extra artillery dice are its deck entry's; with 2 dice at F3 there (the
    book: 1 at F2), the German artillery fire phase at Verdun rolls 2 card dice at F3, and a
    3 on each is 2 hits (5.2.2)."""
    sc = position("1916", player="german", hands={"german": ["gericht-01"],
                                                  "entente": ["ers2-01"]})
    journal = _game(tmp_path, games, sc)
    _ok(journal, games, "german", "play gericht")
    _ok(journal, games, "german", "move ge-5 verdun")
    _ok(journal, games, "german", "end movement")
    _ok(journal, games, "german", "bonus verdun")
    _ok(journal, games, "german", "done")
    _ok(journal, games, "entente", "done")                    # no combat card
    _ok(journal, games, "entente", "done", [6, 6, 6, 3, 3])   # 2 artillery, siege gun, card
    fire = _fire(journal, games, "artillery")
    card = [(gr["fp"], gr["dice"], gr["hits"]) for gr in fire[0]["groups"]
            if gr["kind"] == "card"]
    assert card == [(3, [3, 3], 2)], fire[0]["groups"]


def test_the_big_push_needs_the_army_its_card_names(tmp_path, games):
    """9.1.3: the army The Big Push needs in its battle area is its deck entry's; with a
    French army there (the book: UK), a French attack on Lille gets the extra die, and
    naming a second battle area is refused as before."""
    sc = position("1916", player="entente", hands={"german": [], "entente": ["bigpush-01"]},
                  remove_units=["uk-1", "ge-6", "fr-2"],
                  add_units=["fr-2 fr army artois 3I+1A", "ge-6 ge army lille 3I+1A"])
    journal = _game(tmp_path, games, sc)
    _ok(journal, games, "entente", "play the_big_push")
    _ok(journal, games, "entente", "move fr-2 lille")
    _ok(journal, games, "entente", "end movement")
    _ok(journal, games, "entente", "bonus lille")
    assert _play(journal, games, "entente", "bonus lille")[0] == "9.1.3"
    _ok(journal, games, "entente", "done", [6, 6])
    fire = _fire(journal, games, "artillery")
    assert [(gr["kind"], gr["fp"], len(gr["dice"])) for gr in fire[0]["groups"]] == \
        [("artillery", 1, 1), ("card", 2, 1)], fire[0]["groups"]


def test_a_renamed_crisis_card_is_still_a_military_crisis(tmp_path, games):
    """9.8: the Crisis! cards are the deck's cards of type crisis, whatever their key: the
    renamed Entente card, played by the German in SPRING 1915, is Gallipoli; the Entente must
    remove one UK infantry-type unit before the German turn goes on."""
    sc = position("1914", turn=4, player="german",
                  hands={"german": ["crisis-entente-01", "off-01"], "entente": ["off-03"]})
    journal = _game(tmp_path, games, sc)
    data = g.game_data("ttlm", games)
    assert data.crisis_keys == ("eastern_crisis", "german_military_crisis")
    _ok(journal, games, "german", "play eastern_crisis")
    state = g.open_game(journal, games_dir=games).state
    assert state.pending.kind == "crisis" and state.pending.side == "entente"
    assert state.crisis["nations"] == ["uk"] and state.crisis["count"] == 1
    assert _play(journal, games, "german", "pass")[0] == "9.8"    # the Entente answers first
    _ok(journal, games, "entente", "remove uk-i-01")
    assert g.open_game(journal, games_dir=games).state.pending.kind == "card_or_pass"


def test_a_card_naming_what_the_game_lacks_is_reported(tmp_path):
    """9.1.3-9.1.6, 9.8: a special Offensive's army nation and unit type, what the other side
    plays it as, and a Crisis! card's VP are checked against the game data, each reported
    with its card."""
    from referee.base.errors import GameDataError
    from referee.data.dataload import load_game

    d = tmp_path / "ttlm"
    shutil.copytree(default_games_dir() / "ttlm", d)
    deck = yaml.safe_load((d / "deck.yaml").read_text(encoding="utf-8"))
    cards = {c["key"]: c for c in deck["cards"]}
    cards["gericht"]["bonus"].update(army_nation="ru", fires_as="zeppelin")
    cards["friedensturm"]["other_side_plays_as"] = "ersatz_2"
    del cards["german_military_crisis"]["unpaid_vp"]
    (d / "deck.yaml").write_text(yaml_text(deck, allow_unicode=True, sort_keys=False),
                                 encoding="utf-8")
    with pytest.raises(GameDataError) as err:
        load_game(d)
    path = d / "deck.yaml"
    gericht, sturm = "key: gericht", "key: friedensturm"
    assert err.value.problems == [      # in the order of the file
        f"deck.yaml:{spot(path, 'ru', gericht, within='army_nation: ru')}: unknown nation "
        f"'ru' (at cards.gericht.bonus.army_nation)",
        f"deck.yaml:{spot(path, 'zeppelin', gericht)}: unknown unit kind 'zeppelin' "
        f"(at cards.gericht.bonus.fires_as)",
        f"deck.yaml:{spot(path, 'ersatz_2', sturm, within='plays_as: ersatz_2')}: 'ersatz_2' "
        f"is not an Offensive-type card key (9.1) (at cards.friedensturm.other_side_plays_as)",
        # the card's mapping, which lacks it: it starts at its first key
        f"deck.yaml:{spot(path, 'key: german_military_crisis')}: unpaid_vp missing: the VP "
        f"of a crisis not answered (3.1) (at cards.german_military_crisis)"]
