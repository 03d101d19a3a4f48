"""What a side asked for combat cards reads of the cards the date forbids (2.0 II.3b,
9.3-9.5): the prompt, which both sides read, names only the cards someone may play now; the
side asked reads, in his own report only, which cards of his hand are not allowed now and
the rule's reason. It read "play combat cards (Poison Gas!, Advanced Artillery Barrage!,
Surprise Attack!)" in SUMMER 1914, when only Surprise Attack! may be played, and the
German holding Poison Gas! could only answer 'done', told no reason. He reads as well
which of the cards the prompt names his hand holds: none, or the ones it does."""

from __future__ import annotations

import pytest

import gamecalls as g
from casebook import new_game, position
from referee.engine import pending_prompt

BARRED = "Poison Gas! may be played from SPRING 1915 only (9.3)"


def _asked_for_cards(tmp_path, turn: int = 1):
    """The German has moved the 1. Armee into Saint-Mihiel and declared the battle there;
    he holds Poison Gas! (9.3: from SPRING 1915) beside his Offensive."""
    sc = position("1914", turn=turn, player="german",
                  hands={"german": ["off-01", "gas-01"], "entente": ["ers3-01"]},
                  remove_units=["ge-1", "ge-2"],
                  add_units=["ge-1 ge army metz 5I+1A", "fr-i-03 fr infantry st_mihiel"])
    j = new_game(tmp_path, sc)
    for order in ("play offensive", "move ge-1 st_mihiel", "end movement", "done"):
        assert g.submit(j, "german", [order]).rejected is None, order
    st = g.open_game(j).state
    assert (st.pending.kind, st.pending.side) == ("attacker_cards", "german")
    return j


def test_the_prompt_names_only_the_combat_cards_allowed_now(tmp_path):
    game = g.open_game(_asked_for_cards(tmp_path))
    said = pending_prompt(game.state, game.data)
    assert "play combat cards (cards the rules allow now: Surprise Attack!), naming its " \
        "battle area;" in said, said
    assert "Poison Gas!" not in said and "Advanced Artillery Barrage!" not in said


def test_from_spring_1915_the_prompt_names_poison_gas(tmp_path):
    game = g.open_game(_asked_for_cards(tmp_path, turn=4))
    said = pending_prompt(game.state, game.data)
    assert "(cards the rules allow now: Poison Gas!, Surprise Attack!), naming their" in said, said


@pytest.mark.parametrize("reader", ["german", "entente", "public"])
def test_the_side_asked_reads_why_his_cards_are_not_allowed_and_nobody_else(
        tmp_path, cli, reader):
    j = _asked_for_cards(tmp_path)
    r = cli("report", j, "--as", reader)
    assert r.exit_code == 0, r.output
    said = " ".join(r.stdout.split())
    if reader == "german":
        assert "your hand holds none of the cards the rules allow now (Surprise " \
               "Attack!); then 'done' (2.0 II.3b)" in said, r.stdout
        assert f"In your hand, not allowed now: {BARRED}." in said, r.stdout
    else:
        assert "Poison Gas" not in said and "not allowed now" not in said
        assert "hand holds" not in said, said


def test_once_poison_gas_is_allowed_he_reads_that_his_hand_holds_it(tmp_path, cli):
    r = cli("report", _asked_for_cards(tmp_path, turn=4), "--as", "german")
    said = " ".join(r.stdout.split())
    assert "not allowed now" not in said
    assert "of the cards the rules allow now (Poison Gas!, Surprise Attack!) your hand " \
        "holds Poison Gas!: play it, naming its battle area;" in said, r.stdout



def test_the_defenders_prompt_says_bad_weather_names_no_area(tmp_path):
    """9.5, 2.0 II.3b: Bad Weather, the defender's, names no battle area: it affects every
    battle. The prompt read "play combat cards (Poison Gas!, Bad Weather), naming their
    battle areas"; it names the area only for the cards that take one."""
    j = _asked_for_cards(tmp_path, turn=4)
    assert g.submit(j, "german", ["done"]).rejected is None
    game = g.open_game(j)
    assert game.state.pending.kind == "defender_cards"
    said = pending_prompt(game.state, game.data)
    assert said == ("as defender, play combat cards (cards the rules allow now: "
                    "Poison Gas!), naming its battle area, or Bad Weather, which names no "
                    "battle area: it affects every battle (9.5); then 'done' (2.0 II.3b)"), said


def test_once_bad_weather_is_played_the_prompt_names_no_card_it_closed(tmp_path):
    """9.3, 9.5: after Bad Weather turned the Limited Offensive into a pass, the prompt still
    offered "play combat cards (Poison Gas!), naming its battle area, or Bad Weather": no
    battle is left to name, and Bad Weather is played once a turn."""
    sc = position("1914", turn=4, player="german",
                  hands={"german": ["loff-01"], "entente": ["weather-01", "gas-02"]})
    j = new_game(tmp_path, sc)
    for order in ("play limited_offensive", "move ge-1 liege", "end movement"):
        assert g.submit(j, "german", [order]).rejected is None, order
    assert g.submit(j, "entente", ["play bad_weather"]).rejected is None
    game = g.open_game(j)
    said = pending_prompt(game.state, game.data)
    assert said == ("as defender, play combat cards (none the rules allow now); then 'done' "
                    "(2.0 II.3b)")


@pytest.mark.parametrize("fmt", ["text", "markdown", "bbcode", "chat", "json"])
def test_the_waiting_side_reads_the_cards_as_allowed_now_not_as_a_hand(tmp_path, cli, fmt):
    """'Waiting on the German player: as attacker, play combat cards (Surprise Attack!)'
    read as a look into the German's hand, and so did '(cards allowed now: Surprise
    Attack!)', by a German who held none; it lists the cards the rules allow now, and says
    it is the rules that allow them, in every format."""
    r = cli("report", _asked_for_cards(tmp_path), "--as", "entente", "--format", fmt)
    assert r.exit_code == 0, r.output
    said = " ".join(r.stdout.replace("\\n", " ").split())
    assert "play combat cards (cards the rules allow now: Surprise Attack!" in said, said
    assert "cards allowed now" not in said, said


def test_the_list_holds_cards_alone_and_a_special_offensive_is_said_apart(tmp_path):
    """9.1, 9.1.4, 2.0 II.3b: "cards allowed now: Surprise Attack!, the special offensive's
    battle areas" read as if the areas were a card, and said so under a plain Offensive,
    which has no extra dice. The list names cards alone; Gericht in play is said apart,
    with the order that names its battle area, and no longer once it is named."""
    (tmp_path / "plain").mkdir()
    game = g.open_game(_asked_for_cards(tmp_path / "plain"))
    said = pending_prompt(game.state, game.data)
    assert "special offensive" not in said and "bonus" not in said, said
    sc = position("1916", player="german", hands={"german": ["gericht-01"],
                                                  "entente": ["ers2-01"]})
    (tmp_path / "gericht").mkdir()
    j = new_game(tmp_path / "gericht", sc)
    for order in ("play gericht", "move ge-5 verdun", "end movement"):
        assert g.submit(j, "german", [order]).rejected is None, order
    game = g.open_game(j)
    assert game.state.pending.kind == "attacker_cards"
    said = pending_prompt(game.state, game.data)
    cards = said.split("(cards the rules allow now: ")[1].split(")")[0]
    assert "Gericht" not in cards and "battle area" not in cards, said
    assert said.endswith("; name a battle area for Gericht's extra dice ('bonus AREA', "
                         "9.1.4); then 'done' (2.0 II.3b)"), said
    assert g.submit(j, "german", ["bonus verdun"]).rejected is None
    game = g.open_game(j)
    assert "Gericht" not in pending_prompt(game.state, game.data)


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_the_side_asked_reads_his_hand_first_and_the_others_the_rules_alone(
        tmp_path, cli, fmt):
    """'cards the rules allow now: Poison Gas!, Surprise Attack!' read, to a German whose
    hand held neither, as his hand. His own prompt leads with what he holds; the other
    side's and the public's give the list alone, with no word of his hand."""
    import json

    j = _asked_for_cards(tmp_path, turn=4)
    said = {}
    for reader in ("german", "entente", "public"):
        r = cli("status", j, "--as", reader, "--format", fmt)
        assert r.exit_code == 0, r.output
        said[reader] = " ".join((json.loads(r.stdout)["prompt"] if fmt == "json"
                                 else r.stdout).split())
    assert "of the cards the rules allow now (Poison Gas!, Surprise Attack!) your hand " \
        "holds Poison Gas!: play it, naming its battle area" in said["german"], said
    for reader in ("entente", "public"):
        assert "(cards the rules allow now: Poison Gas!, Surprise Attack!)" in said[reader]
        assert "hand" not in said[reader], said
