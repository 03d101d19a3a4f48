"""A unit retreating into an army (8.1, 5.4) under hidden army templates (1.4): the opponent
sees the retreat (the unit fought in the battle), never the army it joined."""

from __future__ import annotations

import json

import gamecalls as g
from casebook import new_game, position

UNITS = ["ge-6 ge army lille 4I", "uk-1 uk army artois 2I", "uk-i-09 uk infantry artois",
         "uk-4 uk army calais 2I"]


def _retreat_into(tmp_path, hidden: bool):
    sc = position("1918", player="german", hands={"german": ["off-01"], "entente": ["ers2-01"]},
                  units=UNITS)
    j = new_game(tmp_path, sc, {"hidden_templates": hidden}, name=f"into-{hidden}")
    # The German plays his only card: with his hand empty he is not asked for more battles
    # nor for combat cards (2.0 II.3).
    # With hidden templates each side with an army in the battle is asked about a cavalry
    # retreat, so that the question tells nothing of what the army holds (1.4, 5.4.3).
    cavalry = [("german", "done"), ("entente", "done")] if hidden else []
    for side, order in (("german", "play offensive"), ("german", "move ge-6 artois"),
                        ("german", "end movement"), ("entente", "done"), *cavalry,
                        ("entente", "retreat uk-i-09 calais into uk-4")):
        r = g.submit(j, side, [order])
        assert r.rejected is None, (order, r.rejected)
    st = g.open_game(j).state
    assert st.armies["uk-4"].contents == {"uk:infantry": 3} and "uk-i-09" not in st.pieces
    return j


def test_a_retreat_into_a_hidden_template_names_no_army(tmp_path, cli):
    j = _retreat_into(tmp_path, hidden=True)
    log = cli("log", j, "--as", "german", "--format", "json").stdout
    assert "into uk-4" not in log
    ev = [e for line in log.splitlines() for e in json.loads(line).get("events", [])
          if e["type"] == "UnitRetreated"]
    assert len(ev) == 1 and ev[0]["unit"] == "uk-i-09" and "into" not in ev[0]
    assert "data" not in ev[0]["secret"]
    assert "uk-4" in cli("log", j, "--as", "entente", "--format", "json").stdout
    assert cli("verify", j).exit_code == 0


def test_without_hidden_templates_the_army_joined_is_public(tmp_path, cli):
    j = _retreat_into(tmp_path, hidden=False)
    log = cli("log", j, "--as", "german", "--format", "json").stdout
    assert "into uk-4" in log
