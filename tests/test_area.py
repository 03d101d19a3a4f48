"""'Did you mean' in errors that name an unknown area, unit or card, drawn only from what
the reader may see (1.3 hands, 1.4 hidden templates).

One 1914 game with hidden army templates and a fixed secret is made once for the module;
nothing is ever applied to it (every order tried here is rejected, which writes nothing).
Expected values are read off games/ttlm/map.yaml and scenarios/1914.yaml by hand.
"""

from __future__ import annotations

import re

import pytest

from referee import game as g
from referee.suggest import hand_cards, visible_units

SECRET = "5e" * 32


@pytest.fixture(scope="module")
def journal(tmp_path_factory):
    folder = tmp_path_factory.mktemp("area")
    secret = folder / "fixed.secret"
    secret.write_text(SECRET + "\n")
    secret.chmod(0o600)
    path = folder / "hidden-1914.jsonl"
    with pytest.MonkeyPatch.context() as mp:         # this module's own referee home
        mp.setenv("REFEREE_HOME", str(folder / "home"))
        g.create_game(path, "1914", options=["hidden_templates=true"], game_id="area-test",
                      secret_file=secret)
    return path


@pytest.fixture(scope="module")
def opened(journal):
    return g.open_game(journal)


def _names(message: str) -> list[str]:
    """The names a 'did you mean' at the end of an error offers."""
    m = re.search(r"did you mean (.*)\?$", message)
    return re.split(r", | or ", m.group(1)) if m else []


def _rejection(journal, side: str, text: str) -> str:
    result = g.submit(journal, side, [text])
    assert result.rejected is not None and not result.applied, text
    return str(result.rejected[2])


# ---------------------------------------------------------------- did you mean, in orders

def test_an_order_naming_an_unknown_area_suggests_the_nearest(journal):
    # The order reader's error keeps its form (the input quoted, the column) and adds the
    # suggestion at its end, on the same line.
    message = _rejection(journal, "german", "move ge-1 to Lieg")
    assert message.startswith("cannot read order 'move ge-1 to Lieg' at column 14: no area is "
                              "called 'Lieg'")
    assert _names(message) == ["Liège"] and "\n" not in message


def test_a_misspelt_unit_is_answered_from_the_readers_own_view(journal):
    message = _rejection(journal, "german", "move ge1 luxembourg")
    assert _names(message) == ["ge-1"]


def test_no_suggestion_names_a_unit_on_a_hidden_template(journal, opened):
    # 1.4: fr-3 holds an artillery unit on its hidden template; 'fr-3:artillery' would be by
    # far the nearest name to the German's typo, but he may not learn that it exists.
    assert opened.state.armies["fr-3"].contents.get("fr:artillery")
    message = _rejection(journal, "german", "move fr-3:artilery verdun")
    assert not any(n.startswith("fr-3:") for n in _names(message)), message
    assert "fr-3:" not in message.split("did you mean")[-1]
    # The Entente, whose template it is, is offered it.
    seen = visible_units(opened.state, opened.data, "entente")
    assert "fr-3:artillery" in seen.values()


def test_no_suggestion_names_an_army_in_the_other_sides_pool(journal, opened):
    # uk-2 waits in the Entente force pool in 1914: not a unit the German may see.
    assert opened.state.armies["uk-2"].status == "pool"
    message = _rejection(journal, "german", "move uk-22 ostend")
    assert "uk-2" not in _names(message), message
    seen = set(visible_units(opened.state, opened.data, "german").values())
    assert "uk-2" not in seen and "ge-9" in seen          # ge-9: the German's own pool army
    assert not any(i.startswith(("fr-3:", "uk-1:")) for i in seen)


def test_no_suggestion_names_a_card_of_the_other_hand(journal, opened):
    # 1.3: Gericht is in the Entente hand, Friedensturm in the draw pile; the German's own
    # hand (The Big Push, Strategic Reserves!...) is all he may be offered.
    st = opened.state
    assert "gericht-01" in st.hands["entente"]
    assert any(opened.data.cards[c].key == "friedensturm" for c in st.draw_pile)
    for typo in ("play gerict", "play friedenstrum"):
        message = _rejection(journal, "german", typo)
        assert _names(message) == [], message
    assert _names(_rejection(journal, "german", "play big psh")) == ["The Big Push"]
    assert "Gericht" in hand_cards(st, opened.data, "entente").values()
    assert "Gericht" not in hand_cards(st, opened.data, "german").values()
