"""The engine reads unit types from the game data: change the data, and play changes with it.

Each test plays a copy of games/ttlm, changed in one place, from a folder of its own
(`games_dir`, as `--games DIR` does), with forced dice where dice matter:

- infantry's offensive firepower F1 -> F3 (units.yaml `fire`, 5.2.1, 8.2.1): a 3 now hits;
- infantry's `cost_bp` 1 -> 3 (7.2, 7.6): a build the Build Points left paid for is refused;
- a new infantry-slot unit type added in the data only (like AT ALL COSTS!'s Russian Imperial
  Guards, an infantry-slot unit at 2 BP): it is built at its cost onto an army's infantry
  slots, fires at its own firepower, and is taken as a loss as an infantry-type unit (1.4,
  5.3.1, 7.2, 8.2).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from datacopy import copy_game, new_game, spot

import gamecalls as g
from casebook import position
from referee.base.errors import GameDataError
from referee.contracts.unitmodels import FIRE_KEYS
from referee.data.dataload import load_game
from referee.data.paths import default_games_dir


def _copy(tmp: Path, change) -> Path:
    """games/ttlm copied under tmp/games/ttlm, with change(document_by_file) applied."""
    return copy_game(tmp, change, ("units.yaml", "events.yaml"))


_game = new_game


def _play(journal: Path, games: Path | None, side: str, text: str, dice: list[int] | None = None):
    """Submit one order; the rejection (rule, reason) or None."""
    r = g.submit(journal, side, [text], ",".join(map(str, dice)) if dice else None,
                 games_dir=games)
    return None if r.rejected is None else (r.rejected[2].rule, r.rejected[2].reason)


def _ok(journal, games, side, text, dice=None):
    got = _play(journal, games, side, text, dice)
    assert got is None, (text, got)


def _fire(journal: Path, games: Path | None, phase: str) -> list[dict]:
    """The FireResolved events of one phase in the last record."""
    game = g.open_game(journal, games_dir=games)
    return [e for e in game.records[-1]["events"]
            if e["type"] == "FireResolved" and e["phase"] == phase]


# ---------------------------------------------------------------- 5.2.1: firepower

def _verdun(tmp: Path, games: Path | None, offensive_dice: list[int], contents=None) -> Path:
    """The 5.3.1 example position: the German 5th Army (5 infantry, 2 artillery, a siege gun)
    attacks Verdun (the entrenched 2e Armée, a cavalry unit, the Verdun 4 fort); every die
    misses up to the attacker's offensive fire, which gets offensive_dice (forced)."""
    sc = position("1916", player="german", hands={"german": ["off-01"],
                                                  "entente": ["ers2-01"]})
    if contents is not None:
        fr2 = next(u for u in sc["units"] if u["id"] == "fr-2")
        fr2["contents"] = contents
    journal = _game(tmp, games, sc)
    _ok(journal, games, "german", "play offensive")
    _ok(journal, games, "german", "move ge-5 verdun")
    _ok(journal, games, "german", "end movement")
    _ok(journal, games, "entente", "done")                       # no combat card
    _ok(journal, games, "entente", "done", [6, 6, 6])            # artillery step: all miss
    # defensive fire (10 dice, all miss), then offensive fire: 5 infantry, 2 artillery, siege gun
    _ok(journal, games, "entente", "done", [6] * 10 + offensive_dice)
    return journal


def _infantry_f3(files):
    files["units.yaml"]["unit_types"]["infantry"]["fire"]["offense"] = "F3"


def test_infantry_offense_f3_in_the_data_makes_a_3_hit(tmp_path, games):
    """5.2.1, 8.2.1: with infantry's offense F3 in units.yaml (the book: F1), the German
    infantry fires F3 and three 3s are three hits, which the Entente must now take."""
    journal = _verdun(tmp_path, games, [3, 3, 3, 6, 6, 6, 6, 6])
    fire = _fire(journal, games, "offensive")
    assert len(fire) == 1
    inf = [gr for gr in fire[0]["groups"] if gr["kind"] == "infantry"]
    assert [(gr["fp"], gr["dice"], gr["hits"]) for gr in inf] == [(3, [3, 3, 3, 6, 6], 3)]
    assert fire[0]["hits"] == 3
    assert g.open_game(journal, games_dir=games).state.pending.kind == "losses"


# ---------------------------------------------------------------- 7.2, 7.6: costs

def _to_production(tmp: Path, games: Path | None, **changes) -> Path:
    """AUTUMN 1917 (turn 14), both sides pass: the Production phase, the Entente with 10 BP."""
    sc = position("1914", turn=14, player="entente", passes=1,
                  hands={"german": ["off-01"], "entente": ["off-03"]}, **changes)
    journal = _game(tmp, games, sc)
    _ok(journal, games, "entente", "pass")
    _ok(journal, games, "entente", "end turn")
    state = g.open_game(journal, games_dir=games).state
    assert state.phase == "production" and state.production["bp"]["entente"] == 10
    return journal


def _infantry_costs_3(files):
    files["units.yaml"]["unit_types"]["infantry"]["cost_bp"] = 3


# ---------------------------------------------------------------- a unit type from the data

GUARDS = {"class": "infantry", "code": "GD", "nations": ["fr"], "move": 1, "cost_bp": 2,
          "fire": {"offense": "F2", "defense": "F2"}, "entrench": True,
          "rule": "8.2", "notes": "a test type, like AT ALL COSTS!'s Imperial Guards"}


def _changed(files):
    """Infantry F3 on offense and 3 BP, and a new French infantry-slot type 'guards'."""
    _infantry_f3(files)
    _infantry_costs_3(files)
    _add_guards(files)


def _add_guards(files):
    units = files["units.yaml"]
    units["unit_types"] = {**units["unit_types"], "guards": GUARDS}
    units["counter_mix"]["fr"]["guards"] = 2
    files["events.yaml"]["build_dates"]["units"]["fr"]["guards"] = {"from_turn": 1,
                                                                    "rule": "7.6"}


@pytest.fixture(scope="module")
def games(tmp_path_factory) -> Path:
    """One changed copy of the TTLM data for the whole module (the changes do not meet)."""
    return _copy(tmp_path_factory.mktemp("changed"), _changed)


def test_a_new_infantry_type_in_the_data_loads_and_checks(games):
    """The new type is an infantry-slot type, its letter and piece id code come from its code."""
    data = g.game_data("ttlm", games)
    assert "guards" in data.units.infantry_types
    assert data.units.cost("guards") == 2
    assert data.units.letter["guards"] == "GD" and data.units.kind_words["gd"] == "guards"


def test_cost_bp_in_the_data_is_what_a_build_costs(tmp_path, games):
    """7.2, 7.6, 1.4: costs are each type's cost_bp. 'build fr guards verdun into fr-3' costs
    the new type's 2 BP and fills the last of the French army's 3 infantry slots (2 infantry
    there): a second one no longer fits the template. With infantry at 3 BP in units.yaml (the
    book: 1 BP), the 1 BP then left no longer pays for a French infantry unit (refused, citing
    7.0 and its cost), while it still pays for US artillery (1 BP)."""
    journal = _to_production(tmp_path, games, remove_units=["fr-3"],
                             add_units=["fr-3 fr army verdun 2I+1A"])
    _ok(journal, games, "entente", "buy 7")                 # 3 BP left
    _ok(journal, games, "entente", "build fr guards verdun into fr-3")
    rule, why = _play(journal, games, "entente", "build fr guards verdun into fr-3")
    assert rule == "1.4" and "infantry-type units" in why, why
    rule, why = _play(journal, games, "entente", "build fr infantry verdun")
    assert rule == "7.0" and "1 left, this costs 3" in why, why
    _ok(journal, games, "entente", "build us artillery paris")
    _ok(journal, games, "entente", "done")
    _ok(journal, games, "german", "done")
    after = g.open_game(journal, games_dir=games).state
    assert after.armies["fr-3"].contents == {"fr:infantry": 2, "fr:artillery": 1,
                                             "fr:guards": 1}, after.armies["fr-3"].contents


def test_a_new_infantry_type_fires_and_is_taken_as_an_infantry_type_loss(tmp_path, games):
    """5.2.1, 5.3.1: the 2e Armée with 2 guards, 1 infantry and 2 artillery defends Verdun; the
    guards fire at their F2 and, counting as infantry type with the infantry (3 against 2
    artillery), are offered as the loss and taken."""
    contents = [{"type": "guards", "count": 2}, {"type": "infantry", "count": 1},
                {"type": "artillery", "count": 2}]
    journal = _verdun(tmp_path, games, [1, 6, 6, 6, 6, 6, 6, 6], contents)
    fire = _fire(journal, games, "defensive")
    kinds = {gr["kind"]: gr["fp"] for gr in fire[0]["groups"]}
    assert kinds["guards"] == 2 and kinds["infantry"] == 2, kinds   # entrenched infantry F2
    game = g.open_game(journal, games_dir=games)
    from referee.engine import legal_orders
    from referee.engine.order_text import format_order
    lose = sorted(format_order(o) for o in legal_orders(game.state, game.data, "entente")
                  if o.kind == "lose")
    assert lose == ["lose fr-2:guards", "lose fr-2:infantry"], lose
    _ok(journal, games, "entente", "lose fr-2:guards")
    state = g.open_game(journal, games_dir=games).state
    assert state.armies["fr-2"].contents.get("fr:guards") == 1
    assert state.pool["fr"]["guards"] == 1


# ---------------------------------------------------------------- referee games check

def _units_edited(tmp: Path, *edits: tuple[str, str]) -> Path:
    """games/ttlm copied under tmp, units.yaml edited as text (each edit once)."""
    root = tmp / "games" / "ttlm"
    shutil.copytree(default_games_dir() / "ttlm", root)
    text = (root / "units.yaml").read_text(encoding="utf-8")
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    (root / "units.yaml").write_text(text, encoding="utf-8")
    return root


def test_games_check_names_every_broken_unit_key_with_its_file_and_path(tmp_path):
    """A misspelt firepower key, an unknown option and an unknown type in roll_order are all
    reported at once, one line each, with the file and the path in it."""
    root = _units_edited(tmp_path,
                         ("fire: {offense: F2, defense: F1, in_rough: null}",
                          "fire: {offense: F2, defense: F1, in_rugh: null}"),
                         ("option: uk_materiel_superiority", "option: uk_materiel"),
                         ("roll_order: [infantry,", "roll_order: [infantery,"))
    with pytest.raises(GameDataError) as exc:
        load_game(root)
    problems = exc.value.problems
    units = root / "units.yaml"
    assert problems == [      # in the order of the file
        f"units.yaml:{spot(units, 'infantery')}: unknown unit type 'infantery' "
        f"(at roll_order[0])",
        f"units.yaml:{spot(units, 'uk_materiel')}: unknown option 'uk_materiel' (game.yaml "
        f"options) (at unit_types.artillery.materiel_superiority.option)",
        f"units.yaml:{spot(units, 'in_rugh')}: unknown firepower key (one of "
        f"{', '.join(FIRE_KEYS)}) (at unit_types.tank.fire.in_rugh)"]


def test_games_check_names_a_firepower_that_is_no_firepower(tmp_path):
    """'F9' is no firepower (a die has six faces, 5.2.1); a flag that is not yes/no is refused."""
    root = _units_edited(tmp_path,
                         ("fire: {offense: F2, defense: F1, in_rough: null}",
                          "fire: {offense: F9, defense: F1, in_rough: null}"),
                         ("aircraft: true", "aircraft: sometimes"))
    with pytest.raises(GameDataError) as exc:
        load_game(root)
    problems = exc.value.problems
    assert any(p.startswith("units.yaml:") and p.endswith("(at unit_types.tank.fire.offense)")
               for p in problems)
    assert any(p.startswith("units.yaml:") and p.endswith("(at unit_types.biplane.aircraft)")
               for p in problems)
