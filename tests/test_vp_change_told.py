"""A report says how the VP changed over the records it tells (3.1) only when there is a
change to tell: the first report of a game (the players' first mail) said "Change since
record 0: +0.", which told a player nothing. A change from the start of the game is said
from the start of the game, and a report since a later record with no change says so in
words. The mail read on a phone says it in its one VP line alike."""

from __future__ import annotations

import json

import pytest

from referee.render.phone import vp_brief
from referee.render.sections import Para

VP = {"total": 12, "level_name": "Stalemate", "breakdown": [{"label": "areas", "vp": 12}]}


@pytest.mark.parametrize("reader", ["german", "entente", "moderator", "public"])
@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_the_first_report_of_a_game_tells_no_change_of_zero(game, cli, reader, fmt):
    r = cli("report", game, "--as", reader, "--since", "0", "--format", fmt)
    assert r.exit_code == 0, r.stderr
    assert json.loads(cli("report", game, "--as", reader, "--since", "0", "--format",
                          "json").stdout)["vp"]["change"] == 0
    assert "Victory points" in r.stdout
    assert "Change since" not in r.stdout and "+0" not in r.stdout, r.stdout


def _line(section) -> str:
    [head, *_] = section.blocks
    assert isinstance(head, Para)
    return "".join(s.text for s in head.spans)


def test_the_phone_s_vp_line_says_a_change_only_when_there_is_one():
    assert _line(vp_brief(VP, 0, 0)) == "VP 12: Stalemate."
    assert _line(vp_brief(VP, 16, 0)) == "VP 12: Stalemate; no change since record 16."
    assert _line(vp_brief(VP, 0, 1)) == ("VP 12: Stalemate; change since the start of the "
                                         "game: +1.")
    assert _line(vp_brief(VP, 16, -1)) == "VP 12: Stalemate; change since record 16: -1."
