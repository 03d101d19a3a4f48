"""A scenario's units against the build dates (7.6, 8.3.5): a type's first date is a Production
Phase, the last of its turn (2.0 V), so a German Tank (SPRING 1918) can stand on the map in
that turn's Production Phase or later, not before it, and the refusal says that limit."""

from __future__ import annotations

import pytest

from casebook import position, yaml_text

REFUSED = ("a GE tank cannot be in play before the Production phase of turn 16 (SPRING 1918), "
           "the first in which it can be built (8.3.5)")


def _new(tmp_path, cli, turn: int, phase: str):
    sc = position("1918", turn=turn, hands={"german": [], "entente": []},
                  add_units=["ge-t-90 ge tank colmar"])
    sc["position"] = {"phase": phase, **({"player": "german"} if phase == "player_turn" else {})}
    path = tmp_path / f"t{turn}-{phase}.yaml"
    path.write_text(yaml_text(sc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return cli("new", tmp_path / f"t{turn}-{phase}.jsonl", "--scenario", path,
               "--game-id", "tanks")


@pytest.mark.parametrize("turn,phase", [(16, "reinforcements"), (16, "player_turn"),
                                        (14, "production")])
def test_a_german_tank_before_its_first_production_phase_is_refused(tmp_path, cli, turn, phase):
    r = _new(tmp_path, cli, turn, phase)
    assert r.exit_code == 3, r.stdout
    assert REFUSED in r.stderr and "Traceback" not in r.stderr, r.stderr


@pytest.mark.parametrize("turn,phase", [(16, "production"), (17, "reinforcements")])
def test_a_german_tank_from_its_first_production_phase_on_stands(tmp_path, cli, turn, phase):
    r = _new(tmp_path, cli, turn, phase)
    assert r.exit_code == 0, r.stderr
