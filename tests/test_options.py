"""Optional rules of issue 3: hidden army templates (1.4), suppressing armies (15.4.1),
the Antwerp evacuation (14.2.4)."""

from __future__ import annotations

import json

import gamecalls as g
from casebook import new_game, position


def _hidden_game(tmp_path, on: bool):
    sc = position("1914", player="german", hands={"german": ["off-01"], "entente": ["off-03"]})
    return new_game(tmp_path, sc, {"hidden_templates": on}, name=f"hidden-{on}")


def test_hidden_templates_hide_transfers_between_armies(tmp_path, cli):
    j = _hidden_game(tmp_path, True)
    r = g.submit(j, "german", ["play offensive", "move ge-1:infantry into ge-2"])
    assert r.rejected is None
    st = g.open_game(j).state
    assert st.armies["ge-2"].contents["ge:infantry"] == 5
    # The Entente's export of the journal names neither the unit nor the armies.
    log = cli("log", j, "--as", "entente", "--format", "json").stdout
    moved = [e for line in log.splitlines() for e in json.loads(line).get("events", [])
             if e["type"] == "UnitMoved"]
    assert len(moved) == 1
    assert "unit" not in moved[0] and "into" not in moved[0] and "data" not in moved[0]["secret"]
    assert "ge-1:infantry" not in log
    # The German sees his own move in full.
    own = cli("log", j, "--as", "german", "--format", "json").stdout
    assert "ge-1:infantry" in own
    # The Entente's view shows the army counters but not their templates.
    view = json.loads(cli("show", j, "--as", "entente", "--format", "json").stdout)
    armies = {u["id"]: u for u in view["areas"]["aachen"]["units"]}
    assert armies["ge-2"]["contents"] is None and armies["ge-2"]["strength"] is None
    mine = json.loads(cli("show", j, "--as", "german", "--format", "json").stdout)
    armies = {u["id"]: u for u in mine["areas"]["aachen"]["units"]}
    assert armies["ge-2"]["contents"]["ge:infantry"] == 5
    assert cli("verify", j).exit_code == 0


def test_without_the_option_templates_are_public(tmp_path, cli):
    j = _hidden_game(tmp_path, False)
    g.submit(j, "german", ["play offensive", "move ge-1:infantry into ge-2"])
    log = cli("log", j, "--as", "entente", "--format", "json").stdout
    assert "ge-1:infantry" in log
    view = json.loads(cli("show", j, "--as", "entente", "--format", "json").stdout)
    armies = {u["id"]: u for u in view["areas"]["aachen"]["units"]}
    assert armies["ge-2"]["contents"]["ge:infantry"] == 5


def test_suppressing_an_army(tmp_path):
    sc = position("1914", player="german", hands={"german": ["off-01"], "entente": ["off-03"]})
    j = new_game(tmp_path, sc, {"suppressing_armies": True})
    r = g.submit(j, "german", ["play offensive", "suppress ge-7"])
    assert r.rejected is None
    st = g.open_game(j).state
    assert st.armies["ge-7"].status == "suppressed"
    loose = [p for p in st.pieces.values() if p.area == "colmar"]
    assert sorted(p.kind for p in loose) == ["infantry", "infantry"]
    # A suppressed army is not an eliminated one: no VP for the Entente (3.1).
    from referee.engine.victory import victory_level
    assert victory_level(st, g.game_data())[0] == 12
    # Once per seasonal turn.
    r = g.submit(j, "german", ["suppress ge-6"])
    assert r.rejected and r.rejected[2].rule == "15.4.1"


def test_suppress_into_another_army_and_the_stacking_limit(tmp_path):
    sc = position("1914", player="german", hands={"german": ["off-01"], "entente": ["off-03"]},
                  add_units=["ge-i-05 ge infantry aachen"])
    j = new_game(tmp_path, sc, {"suppressing_armies": True})
    # Aachen: ge-1, ge-2 and ge-i-05. ge-2's seven units cannot stand loose there.
    r = g.submit(j, "german", ["play offensive", "suppress ge-2"])
    assert r.rejected and r.rejected[2].rule == "1.2.2"
    r = g.submit(j, "german", ["suppress ge-2 into ge-1"])
    assert r.rejected and r.rejected[2].rule == "1.4"       # 8 infantry, 6 auxiliaries
    r = g.submit(j, "german", ["suppress ge-3 into ge-1"])
    assert r.rejected and r.rejected[2].rule == "15.4.1"     # ge-3 is in the Eifel


def test_suppress_needs_the_option_and_supply(tmp_path):
    sc = position("1914", player="german", hands={"german": ["off-01"], "entente": ["off-03"]})
    j = new_game(tmp_path, sc)
    r = g.submit(j, "german", ["play offensive", "suppress ge-7"])
    assert r.rejected and r.rejected[2].rule == "15.4.1"
    sc = position("1914", player="german", hands={"german": ["off-01"], "entente": ["off-03"]},
                  remove_units=["ge-7"], add_units=["ge-7 ge army lille 2I"],
                  control={"lille": "german"})
    j = new_game(tmp_path, sc, {"suppressing_armies": True}, name="cut-off")
    r = g.submit(j, "german", ["play offensive", "suppress ge-7"])
    assert r.rejected and r.rejected[2].rule == "15.4.1" and "supply" in str(r.rejected[2])


def test_antwerp_evacuation(tmp_path):
    sc = position("1914", player="entente", hands={"german": ["off-01"], "entente": ["off-03"]},
                  remove_units=["be-1"], add_units=["be-1 be army antwerp 2I",
                                                    "ge-i-05 ge infantry antwerp"])
    off = new_game(tmp_path, sc, name="no-option")
    r = g.submit(off, "entente", ["pass", "evacuate be-1 ostend"])
    assert r.rejected and r.rejected[2].rule == "14.2.4"
    on = new_game(tmp_path, sc, {"antwerp_evacuation": True}, name="option")
    r = g.submit(on, "entente", ["pass", "evacuate be-1 brussels"])
    assert r.rejected and r.rejected[2].rule == "14.2.4"    # not a coastal supply source
    r = g.submit(on, "entente", ["evacuate be-1 ostend"])
    assert r.rejected is None
    st = g.open_game(on).state
    assert st.armies["be-1"].area == "ostend"
    assert st.area_state("antwerp", g.game_data()) == "disputed"   # the fort stays


def test_the_options_in_play_are_named_with_their_rules_where_a_reader_meets_the_game(
        tmp_path, cli):
    """A reader who knows the core rules is told which optional rules are in play, each
    with its rule, where he first meets the game: record 0 in `log`, the head of a report
    from the start (every format) and `show` (its JSON too); a game playing none says
    nothing of them."""
    sc = position("1914", player="german", hands={"german": ["off-01"], "entente": ["off-03"]})
    j = new_game(tmp_path, sc, {"hidden_templates": True, "defender_scramble": True},
                 name="optioned")
    said = "Optional rules in play: defender_scramble (13.7), hidden_templates (1.4)"
    log = " ".join(cli("log", j).stdout.split())
    assert "created: scenario case, dice committed (commitment " in log
    assert said in log.split(" #1 ")[0], log
    for fmt in ("text", "markdown", "bbcode", "chat"):
        r = cli("report", j, "--since", "0", "--format", fmt)
        assert r.exit_code == 0, r.stderr
        head = " ".join(r.stdout.split("#1 ")[0].split()).replace("\\_", "_")  # chat's
        assert said in head, (fmt, head)
    for fmt in ("text", "markdown", "bbcode"):
        assert said in " ".join(cli("show", j, "--format", fmt).stdout.split()), fmt
    view = json.loads(cli("show", j, "--format", "json").stdout)
    assert view["option_rules"] == {"defender_scramble": "13.7", "hidden_templates": "1.4"}
    plain = new_game(tmp_path, sc, {}, name="plain")
    for command in (["log", plain], ["report", plain, "--since", "0"], ["show", plain]):
        assert "Optional rules" not in cli(*command).stdout, command
