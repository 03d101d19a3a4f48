"""`log`, a report and `explain` tell one event in one wording, with what the game before
its record holds (render/incontext.py): why artillery fired at F2 (9.3), what Bad Weather
cancelled (9.3) and kept out of the combat phase (8.3.4, 9.5), a card played after it."""

from __future__ import annotations

import shutil
from pathlib import Path

import gamecalls as g
from casebook import new_game, position

HANDS = {"german": ["friedensturm-01", "gas-01"], "entente": ["ers2-01", "weather-01"]}
OPENING = [("german", "play friedensturm", None), ("german", "move ge-6 artois", None),
           ("german", "end movement", None), ("german", "done", None),
           ("german", "play poison_gas artois", None), ("german", "done", None)]
R9 = Path(__file__).parent / "fixtures" / "rules9-gas-after-weather-1916.jsonl"


def _played(tmp_path: Path, steps) -> Path:
    j = new_game(tmp_path, position("1918", player="german", hands=HANDS), dice="manual")
    for side, text, dice in [*OPENING, *steps]:
        r = g.submit(j, side, [text], dice)
        assert r.rejected is None, (text, r.rejected)
    return j


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_log_and_explain_say_why_artillery_fired_at_f2(tmp_path, cli):
    j = _played(tmp_path, [("entente", "done", "6")])
    line = "Artois — German artillery fire (5.2.1 b): ge-6:artillery F2 (Poison Gas!, 9.3) [6]"
    r = cli("log", j, "--since", "8")
    assert r.exit_code == 0, r.stderr
    assert line in _flat(r.stdout), r.stdout
    r = cli("explain", j, "8")
    assert r.exit_code == 0, r.stderr
    assert _flat(r.stdout).count(line) == 2, r.stdout      # its hits and what it changed
    r = cli("report", j, "--since", "7", "--as", "german")
    assert line in _flat(r.stdout), r.stdout


def test_bad_weather_says_the_gas_it_cancels_and_the_biplanes_it_grounds(tmp_path, cli):
    j = _played(tmp_path, [("entente", "play bad_weather", None)])
    said = ("Entente plays Bad Weather (9.5); the German Poison Gas! in Artois is cancelled "
            "by Bad Weather (9.3); Biplanes take no part in this combat phase (8.3.4, 9.5)")
    for argv in (("log", j, "--since", "8"), ("explain", j, "8"),
                 ("report", j, "--since", "7", "--as", "entente")):
        r = cli(*argv)
        assert r.exit_code == 0, r.stderr
        assert said in _flat(r.stdout), (argv, r.stdout)


def test_a_gas_played_after_bad_weather_under_old_rules_is_told_cancelled(tmp_path, cli):
    """The rules-9 fixture: the German gas in Verdun, the Entente's Bad Weather, then the
    Entente's gas there, which the rules then took and 9.3 cancels as it is played."""
    path = tmp_path / "war16.jsonl"
    shutil.copyfile(R9, path)
    r = cli("log", path, "--since", "10")
    assert r.exit_code == 0, r.stderr
    out = _flat(r.stdout)
    assert "Entente plays Bad Weather (9.5); the German Poison Gas! in Verdun is cancelled " \
           "by Bad Weather (9.3)" in out, out
    assert "Entente plays Poison Gas! in Verdun (9.3), cancelled by Bad Weather as it is " \
           "played (9.3)" in out, out


def test_a_battle_not_fought_says_the_card_played_for_it_is_spent():
    from types import SimpleNamespace

    from referee.render.incontext import in_context
    from referee.render.record_text import describe

    data = g.game_data("ttlm")
    before = SimpleNamespace(turn_state=None, combat={"weather": True, "cards": [
        {"side": "german", "area": "bar_le_duc", "key": "surprise_attack"},
        {"side": "german", "area": "bar_le_duc", "key": "poison_gas"}]})
    ev = {"type": "BattleCancelled", "area": "bar_le_duc",
          "reason": "Bad Weather turned the Offensive into a Limited Offensive: one battle "
                    "only (9.5)"}
    line = describe(in_context([ev], before, data)[0], data, "public")
    # The gas is told where Bad Weather cancelled it, not again here.
    assert line.endswith("one battle only (9.5); the German Surprise Attack! played for it "
                         "is spent with no effect (9.7)"), line
