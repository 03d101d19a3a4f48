"""A campaign's end as data (2.0 VI, 3.0-3.3): `result` says the kind of ending, its rule, the
side that wins (none in a stalemate), the side whose order ended it, and the turn and record
it ended at, in `status` and `show` alike, beside the keys it always had. One case for each
kind of ending the engine makes."""

from __future__ import annotations

import json

import pytest
from test_victory import _at_22

import gamecalls as g
from casebook import new_game, position
from referee.engine import endings
from referee.table import Table


def _views(cli, journal, reader: str) -> tuple[dict, dict]:
    """The reader's status and show JSON."""
    def got(*args):
        done = cli(*args, journal, "--as", reader, "--format", "json")
        assert done.exit_code == 0, done.stderr
        return json.loads(done.stdout)
    return got("status"), got("show")


def _result(cli, journal, reader: str = "public") -> dict:
    """The result every view gives the reader, checked to be one and the same."""
    status, show = _views(cli, journal, reader)
    assert status["game_over"] and show["game_over"]
    assert status["result"] == show["result"]
    return status["result"]


def test_a_surrender_is_the_other_sides_win(game, cli):
    """3.3's own example: the German resigning in a Stalemate (12 VP) gives a Marginal Entente
    Victory; a script had to guess the winner from the level's id."""
    assert g.submit(game, "german", ["surrender"]).rejected is None
    assert _result(cli, game, "entente") == {
        "reason": "the german player surrenders: the level counts one worse for him (3.3)",
        "vp": 12, "level": "marginal_entente", "level_name": "Marginal Entente Victory",
        "ending": "surrender", "rule": "3.3", "winner": "entente", "by": "german",
        "turn": 1, "label": "SUMMER 1914", "record": 2}


def test_an_armistice_accepted_names_who_accepted_and_no_winner_in_a_stalemate(game, cli):
    assert g.submit(game, "german", ["propose armistice"]).rejected is None
    assert g.submit(game, "entente", ["accept armistice"]).rejected is None
    result = _result(cli, game)
    assert {k: result[k] for k in ("ending", "rule", "winner", "by", "turn", "record",
                                   "level")} == {
        "ending": "armistice", "rule": "3.2", "winner": None, "by": "entente", "turn": 1,
        "record": 3, "level": "stalemate"}


def test_a_decisive_victory_reached_at_a_check_is_the_ending_of_its_own_kind(tmp_path, cli):
    """3.2: the game ends the moment a Decisive Victory is reached, here mid-turn by a move
    (23 VP): no order ended it, so `by` is null."""
    j = _at_22(tmp_path)
    g.submit(j, "german", ["play offensive", "move ge-i-05 amiens", "end movement"])
    result = _result(cli, j, "german")
    assert {k: result[k] for k in ("ending", "rule", "winner", "by", "level", "vp", "turn",
                                   "record")} == {
        "ending": "decisive_victory", "rule": "3.2", "winner": "german", "by": None,
        "level": "decisive_german", "vp": 23, "turn": 1, "record": 3}


def test_the_last_turn_played_ends_at_the_level_its_vp_give(tmp_path, cli):
    """2.0 VI: the game ends once WINTER 1919-20, the 23rd turn, is played; random play
    through it ends at a Stalemate here, which no side wins."""
    j = new_game(tmp_path, position("1918", turn=23, hands={"german": ["off-01"],
                                                            "entente": ["off-03"]}), name="t23")
    played = json.loads(cli("autoplay", j, "--seed", "1", "--format", "json").stdout)
    assert played["game_over"], played
    result = _result(cli, j, "entente")
    assert played["result"] == result
    last = Table(j).whole().records[-1]["seq"]
    assert {k: result[k] for k in ("ending", "rule", "winner", "by", "turn", "label",
                                   "record")} == {
        "ending": "last_turn", "rule": "2.0 VI", "winner": None, "by": None, "turn": 23,
        "label": "WINTER 1919-20", "record": last}


@pytest.mark.parametrize("kind, reason", [
    ("decisive_victory", endings.reached_reason("Decisive Entente Victory")),
    ("armistice", endings.armistice_reason("german")),
    ("surrender", endings.surrender_reason("entente")),
    ("last_turn", endings.last_turn_reason("WINTER 1919-20")),
])
def test_each_reason_the_engine_writes_reads_back_as_its_kind(kind, reason):
    assert endings.ending_of(reason)[0] == kind
    assert endings.ending_of(f"{reason}, edited")[0] is None


def test_the_winner_is_the_half_of_the_victory_chart_a_level_lies_in():
    """3.1: the VP are the German side's; above the Stalemate the German side wins, below it
    the Entente, in both games."""
    for game in ("ttlm", "aac"):
        data = g.game_data(game)
        winners = [endings.level_winner(lv.id, data) for lv in data.charts.victory.levels]
        assert winners == ["entente"] * 3 + [None] + ["german"] * 3, game
