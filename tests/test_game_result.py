"""A campaign's end as data (2.0 VI, 3.0-3.3): `result` says the kind of ending, its rule, the
side that wins (none in a stalemate), the side whose order ended it, and the turn and record
it ended at, in `status`, `show` and `report` alike, beside the keys it always had; a report's
`vp.level` is the result's once the game is over, and its text and the moderator's mail say
who wins. One case for each kind of ending the engine makes."""

from __future__ import annotations

import json

import pytest
from test_victory import _at_22

import gamecalls as g
from casebook import new_game, position
from referee.engine import endings
from referee.table import Table
from referee.table.campaign_end import ended


def _views(cli, journal, reader: str) -> tuple[dict, dict, dict]:
    """The reader's status, show and report JSON (the report keeping his place)."""
    def got(*args):
        done = cli(*args, journal, "--as", reader, "--format", "json")
        assert done.exit_code == 0, done.stderr
        return json.loads(done.stdout)
    return got("status"), got("show"), got("report", "--keep-place")


def _result(cli, journal, reader: str = "public") -> dict:
    """The result every view gives the reader, checked to be one and the same; and the
    report's own keys beside it checked against the status."""
    status, show, report = _views(cli, journal, reader)
    assert status["game_over"] and show["game_over"] and report["game_over"]
    assert status["result"] == show["result"] == report["result"]
    assert report["prompt"] == status["prompt"] == "the game is over"
    result = report["result"]
    assert report["vp"]["level"] == result["level"], report["vp"]      # never another
    assert report["vp"]["level_name"] == result["level_name"]
    return result


def test_a_surrender_is_the_other_sides_win_and_the_report_vp_says_its_level(game, cli):
    """3.3's own example: the German resigning in a Stalemate (12 VP) gives a Marginal Entente
    Victory; a script had to guess the winner from the level's id. A report said `vp.level`
    stalemate and no result at all: a bot posting it told the wrong result. The level of the
    VP stays beside it, as `vp_level`; the text says who wins."""
    assert g.submit(game, "german", ["surrender"]).rejected is None
    result = _result(cli, game, "entente")
    assert result == {
        "reason": "the german player surrenders: the level counts one worse for him (3.3)",
        "vp": 12, "level": "marginal_entente", "level_name": "Marginal Entente Victory",
        "ending": "surrender", "rule": "3.3", "winner": "entente", "by": "german",
        "turn": 1, "label": "SUMMER 1914", "record": 2}
    vp = json.loads(cli("report", game, "--as", "german", "--format", "json").stdout)["vp"]
    assert vp == {"total": 12, "change": 0, "level": "marginal_entente",
                  "level_name": "Marginal Entente Victory", "vp_level": "stalemate",
                  "vp_level_name": "Stalemate"}
    said = " ".join(cli("report", game, "--as", "public").stdout.split())
    assert "Marginal Entente Victory The Entente player wins. What now:" in said, said


def test_show_gives_the_vp_level_as_the_report_does_once_the_game_is_over(game, cli):
    """After a surrender `show` said `vp.level` stalemate where the report said
    marginal_entente, the stalemate beside it: one key, two meanings. The text still heads
    the VP with their own level and gives the result beside it."""
    assert g.submit(game, "german", ["surrender"]).rejected is None
    _status, show, report = _views(cli, game, "entente")
    assert {k: v for k, v in show["vp"].items() if k != "breakdown"} == \
        {k: v for k, v in report["vp"].items() if k != "change"}, (show["vp"], report["vp"])
    assert show["vp"]["vp_level"] == "stalemate", show["vp"]
    assert report["board"]["vp"]["level"] == "stalemate"        # the board's: the chart's
    said = " ".join(cli("show", game, "--as", "entente").stdout.split())
    assert "VP 12: Stalemate Result: Marginal Entente Victory, not the level of the VP" \
        in said, said


def test_an_armistice_accepted_names_who_accepted_and_no_winner_in_a_stalemate(game, cli):
    assert g.submit(game, "german", ["propose armistice"]).rejected is None
    assert g.submit(game, "entente", ["accept armistice"]).rejected is None
    result = _result(cli, game)
    assert {k: result[k] for k in ("ending", "rule", "winner", "by", "turn", "record",
                                   "level")} == {
        "ending": "armistice", "rule": "3.2", "winner": None, "by": "entente", "turn": 1,
        "record": 3, "level": "stalemate"}
    report = json.loads(cli("report", game, "--as", "german", "--format", "json").stdout)
    assert "vp_level" not in report["vp"]            # the VP's own level: nothing beside it
    said = " ".join(cli("report", game, "--as", "german").stdout.split())
    assert "accepted (3.2): Stalemate No side wins. What now:" in said, said


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


def test_the_moderators_mail_at_the_end_says_who_wins(game, cli):
    assert g.submit(game, "entente", ["surrender"]).rejected is None
    _, mail = ended(Table(game).whole(), game.name, ("german", "entente"))
    flat = " ".join(mail.split())
    assert flat.startswith("The game is over: the Entente player surrenders: the level counts "
                           "one worse for him (3.3); result: Marginal German Victory. The "
                           "German player wins. The players are asked nothing more."), flat


def test_a_report_while_an_armistice_waits_carries_it_as_the_status_does(game, cli):
    """The report's JSON says what is asked (`prompt`) and the armistice proposed (3.2) as the
    reader's status does; the game goes on, with no result."""
    assert g.submit(game, "german", ["propose armistice"]).rejected is None
    status, _, report = _views(cli, game, "entente")
    keys = ("prompt", "game_over", "result", "armistice", "armistice_to", "armistice_heard")
    assert {k: report[k] for k in keys} == {k: status[k] for k in keys}
    assert report["armistice"] == "german" and report["game_over"] is False
    assert report["result"] is None


@pytest.mark.parametrize("kind, reason, side", [
    ("decisive_victory", endings.reached_reason("Decisive Entente Victory"), None),
    ("armistice", endings.armistice_reason("german"), "german"),
    ("surrender", endings.surrender_reason("entente"), "entente"),
    ("last_turn", endings.last_turn_reason("WINTER 1919-20"), None),
])
def test_each_reason_the_engine_writes_reads_back_as_its_kind(kind, reason, side):
    assert endings.ending_of(reason) == (kind, side)
    assert endings.ending_of(f"{reason}, edited")[0] is None


def test_the_winner_is_the_half_of_the_victory_chart_a_level_lies_in():
    """3.1: the VP are the German side's; above the Stalemate the German side wins, below it
    the Entente, in both games."""
    for game in ("ttlm", "aac"):
        data = g.game_data(game)
        winners = [endings.level_winner(lv.id, data) for lv in data.charts.victory.levels]
        assert winners == ["entente"] * 3 + [None] + ["german"] * 3, game
