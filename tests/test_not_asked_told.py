"""What a side is not asked in a battle, and what does not fire, is told in the record with
its rule, once for the step (2.0, 5.2-5.4): the report never leaves a player to wonder why
his Russians were not asked to retreat after combat (AAC 5.4.2)."""

from __future__ import annotations

import re

import gamecalls as g
from casebook import legal, new_game, position


def _fight(tmp_path, units, move, game="aac", scenario="1914", name="case"):
    """The German plays an Offensive, makes the moves and answers every later question of
    the battle with 'done' or his first order, as the Entente does, until it is over."""
    sc = position(scenario, game=game, player="german",
                  hands={"german": ["off-01"], "entente": []}, units=units)
    j = new_game(tmp_path, sc, game=game, name=name)
    for order in ("play offensive", *move, "end movement"):
        r = g.submit(j, "german", [order])
        assert r.rejected is None, (order, r.rejected)
    for _ in range(20):
        p = g.open_game(j).state.pending
        if p.kind in ("card_or_pass", "pass_move"):
            break
        open_now = [o for o in legal(j, p.side) if not o.startswith(("propose", "surrender"))]
        r = g.submit(j, p.side, ["done" if "done" in open_now else open_now[0]])
        assert r.rejected is None, r.rejected
    return j


def _events(j, kind):
    return [e for rec in g.open_game(j).records for e in rec.get("events", [])
            if isinstance(e, dict) and e.get("type") == kind]


def test_russians_and_austro_hungarians_are_told_why_they_are_not_asked_to_retreat(
        tmp_path, cli):
    j = _fight(tmp_path, ["ah-3 ah army lemberg 3I", "ru-3 ru army volhynia 3I"],
               ["move ah-3 volhynia"])
    skipped = {e["side"]: e["reason"] for e in _events(j, "DecisionSkipped")
               if e["kind"] == "retreat_after"}
    assert skipped == {
        "german": "his units in the battle (Austria-Hungary) are not Modern forces, and only "
                  "Modern forces retreat after combat (AAC 5.4.2)",
        "entente": "his units in the battle (Russian Empire) are not Modern forces, and only "
                   "Modern forces retreat after combat (AAC 5.4.2)"}
    log = " ".join(cli("log", j, "--as", "entente").stdout.split())
    assert "Entente is not asked (retreat after): his units in the battle (Russian Empire) " \
           "are not Modern forces" in log


def test_a_german_army_is_asked_and_no_line_says_otherwise(tmp_path):
    j = _fight(tmp_path, ["ge-8 ge army allenstein 3I", "ru-2 ru army lomza 3I"],
               ["move ge-8 lomza"])
    sides = [e["side"] for e in _events(j, "DecisionSkipped") if e["kind"] == "retreat_after"]
    assert "german" not in sides and "entente" in sides
    asked = [e["side"] for e in _events(j, "DecisionPending") if e["kind"] == "retreat_after"]
    assert "german" in asked                    # German forces are Modern (AAC 5.4.2)


def _fire_lines(cli, j, reader, phase):
    log = cli("log", j, "--as", reader).stdout
    return [" ".join(chunk.split()) for chunk in re.split(r"\n(?=    (?! )|#)", log)
            if f"{phase} fire (5.2.1" in chunk]


def test_cavalry_is_said_to_fire_no_die_in_offensive_fire(tmp_path, cli):
    """8.3.1: cavalry has no offensive fire. An AT ALL COSTS! German army's and a TO THE LAST
    MAN! one's: the offensive fire line says so once, not once per unit."""
    aac = _fight(tmp_path, ["ge-8 ge army allenstein 3I+2C", "ru-2 ru army lomza 3I"],
                 ["move ge-8 lomza"], name="aac")
    ttlm = _fight(tmp_path, ["ge-6 ge army lille 3I+1C", "uk-1 uk army artois 2I"],
                  ["move ge-6 artois"], game="ttlm", scenario="1918", name="ttlm")
    for j in (aac, ttlm):
        fired = [e for e in _events(j, "FireResolved") if e["phase"] == "offensive"]
        assert [e["silent"] for e in fired] == [["cavalry"]]
        for reader in ("german", "entente"):
            line, = _fire_lines(cli, j, reader, "offensive")
            assert line.endswith("; cavalry (8.3.1) fires no die in offensive fire"), line
            assert line.count("cavalry") == 1, line
        # Cavalry fires in defensive fire (F1): nothing is said of it there.
        assert all(e["silent"] == [] for e in _events(j, "FireResolved")
                   if e["phase"] == "defensive")


def test_the_supply_check_before_production_is_told_when_it_finds_nothing(tmp_path, cli):
    """2.0 V.1, 6.2: supply is checked first in the production phase; a check that finds
    every unit in supply is reported too, not left out as if it never ran."""
    sc = position("1914", player="german", passes=1, hands={"german": [], "entente": []})
    j = new_game(tmp_path, sc)
    for order in ("pass", "end turn"):
        r = g.submit(j, "german", [order])
        assert r.rejected is None, (order, r.rejected)
    assert g.open_game(j).state.phase == "production"
    assert [(e["side"], e["units"]) for e in _events(j, "OutOfSupply")] == [
        ("german", []), ("entente", [])]
    log = " ".join(cli("log", j, "--as", "public").stdout.split())
    for side in ("German", "Entente"):
        assert f"Supply checked (2.0 V.1, 6.2): no {side} unit is out of supply" in log
