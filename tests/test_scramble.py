"""Defender Scramble (optional rule 13.7, given under 8.3.4) with hidden army templates (1.4):
the attacker sees a Biplane arrive, never which army it left."""

from __future__ import annotations

import json

import gamecalls as g
from casebook import new_game, position

UNITS = ["ge-6 ge army lille 4I", "uk-1 uk army artois 3I entrenched",
         "uk-4 uk army amiens 3I+1B"]


def _scramble_from_an_army(tmp_path, hidden: bool):
    sc = position("1918", player="german", hands={"german": ["off-01"], "entente": ["ers2-01"]},
                  units=UNITS)
    j = new_game(tmp_path, sc, {"defender_scramble": True, "hidden_templates": hidden},
                 name=f"scramble-{hidden}")
    # The German plays his only card: with his hand empty he is not asked for more battles
    # nor for combat cards (2.0 II.3).
    for side, order in (("german", "play offensive"), ("german", "move ge-6 artois"),
                        ("german", "end movement"),
                        ("entente", "done"), ("entente", "scramble uk-4:biplane")):
        r = g.submit(j, side, [order])
        assert r.rejected is None, (order, r.rejected)
    st = g.open_game(j).state
    assert "biplane" not in {k.split(":")[1] for k in st.armies["uk-4"].contents}
    assert [p.kind for p in st.pieces.values() if p.area == "artois"] == ["biplane"]
    return j


def test_a_scramble_from_a_hidden_template_names_no_army(tmp_path, cli):
    j = _scramble_from_an_army(tmp_path, hidden=True)
    log = cli("log", j, "--as", "german", "--format", "json").stdout
    assert "uk-4:biplane" not in log
    moved = [e for line in log.splitlines() for e in json.loads(line).get("events", [])
             if e["type"] == "UnitMoved" and e["mode"] == "scramble"]
    assert len(moved) == 1 and "from_army" not in moved[0] and "unit" not in moved[0]
    own = cli("log", j, "--as", "entente", "--format", "json").stdout
    assert "uk-4:biplane" in own
    assert cli("verify", j).exit_code == 0


def test_without_hidden_templates_the_scramble_is_public(tmp_path, cli):
    j = _scramble_from_an_army(tmp_path, hidden=False)
    log = cli("log", j, "--as", "german", "--format", "json").stdout
    assert "uk-4:biplane" in log


def test_the_log_tells_the_scramble_to_each_reader(tmp_path, cli):
    """13.7: the scramble is a line of the log; who sees the army it left sees its unit."""
    j = _scramble_from_an_army(tmp_path, hidden=True)
    told = {}
    for reader in ("german", "entente", "public"):
        r = cli("log", j, "--as", reader, "--width", "400")
        assert r.exit_code == 0, r.stderr
        told[reader] = [line.strip() for line in r.stdout.splitlines()
                        if "scrambles" in line and "(13.7)" in line]
    assert told["german"] == told["public"] == [
        "Entente scrambles a unit from one of his armies (13.7): Amiens - Artois (hidden, 1.4)"]
    assert len(told["entente"]) == 1 and "biplane from uk-4" in told["entente"][0] \
        and told["entente"][0].endswith("scrambles (13.7): Amiens - Artois")
    j = _scramble_from_an_army(tmp_path, hidden=False)
    r = cli("log", j, "--as", "german", "--width", "400")
    assert r.exit_code == 0, r.stderr
    assert "Entente biplane from uk-4" in r.stdout and "scrambles (13.7): Amiens - Artois" \
        in r.stdout
