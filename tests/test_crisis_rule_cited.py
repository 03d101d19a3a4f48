"""A Military Crisis! decision cites the card played: 9.9 for the German Military Crisis!
(played by the Entente, the German removes), 9.8 for the Entente's, never both at once."""

from __future__ import annotations

from pathlib import Path

from test_mail_handoff import _crisis_at_declare_battles

import gamecalls as g
from casebook import new_game as case_game
from casebook import position


def _german_crisis(tmp: Path) -> Path:
    """TTLM, SUMMER 1914, the Entente's player turn: he holds the German Military Crisis!
    (1914: Crisis in the East, two German infantry) and plays it at his opening card."""
    tmp.mkdir()
    sc = position("1914", turn=1, player="entente",
                  hands={"german": ["ers3-01"], "entente": ["crisis-german-01"]})
    j = case_game(tmp, sc, None, "committed")
    assert g.submit(j, "entente", ["play german_military_crisis"]).rejected is None
    return j


def test_the_german_crisis_cites_9_9_alone(tmp_path):
    from referee.engine import pending_prompt

    game = g.open_game(_german_crisis(tmp_path / "ge"))
    assert game.state.pending.kind == "crisis"
    asked = pending_prompt(game.state, game.data)
    assert asked.endswith("to remove from the map (9.9)"), asked


def test_the_entente_crisis_cites_9_8_alone(tmp_path):
    from referee.engine import pending_prompt

    j = _crisis_at_declare_battles(tmp_path / "en")
    assert g.submit(j, "german", ["play entente_military_crisis"]).rejected is None
    game = g.open_game(j)
    asked = pending_prompt(game.state, game.data)
    assert asked.endswith("to remove from the map (9.8)"), asked


def test_explain_cites_the_german_crisis_decision_as_9_9(tmp_path, cli):
    """The decision a removal answered is told with the card's rule, 'crisis (9.9)', not the
    Entente card's 9.8, and its check is said to be 9.9's."""
    import json

    j = _german_crisis(tmp_path / "ge")
    assert g.submit(j, "german", ["remove ge-i-01"]).rejected is None
    seq = len(g.open_game(j).records) - 1
    r = cli("explain", j, str(seq), "--as", "german", "--format", "json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["decision"]["rule"] == "9.9", doc["decision"]
    assert "the check of the decision (9.9) passes on it again now" in doc["checks"], doc
    text = cli("explain", j, str(seq), "--as", "german").stdout
    assert "crisis (9.9)" in " ".join(text.split()), text
