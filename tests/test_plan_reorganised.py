"""A sealed plan of arrivals (2.0 I) may reorganise armies within their areas (8.1) in any
line of the mail: the mail lists those moves among the orders open and asks for the whole
plan in one mail, so a move after the last arrival placed is taken, not refused as an
order after a complete plan. A discard plan (2.0 V.3) still takes nothing past the limit."""

from __future__ import annotations

from test_simultaneous import ENTENTE, GERMAN, _discard, _to_autumn_1914, _to_discard

import gamecalls as g


def test_a_move_into_or_out_of_an_army_after_the_last_arrival_is_taken(tmp_path):
    j = _to_autumn_1914(tmp_path)
    assert g.submit(j, "entente", ENTENTE).rejected is None
    r = g.submit(j, "german", [*GERMAN, "move ge-7:infantry"])
    assert r.rejected is None, r.rejected
    st = g.open_game(j).state
    assert st.armies["ge-7"].contents["ge:infantry"] == 2        # 2 + 1 placed - 1 out
    assert st.pending.kind == "card_or_pass"


def test_a_place_after_the_last_arrival_is_still_refused(tmp_path):
    j = _to_autumn_1914(tmp_path)
    r = g.submit(j, "german", [*GERMAN, "place ge infantry metz"], atomic=True)
    assert r.rejected is not None and r.rejected[1] == "place ge infantry metz", r.rejected


def test_a_discard_past_the_limit_is_still_refused(tmp_path):
    j = _to_discard(tmp_path, "d")
    [line] = _discard(j, "entente")
    r = g.submit(j, "entente", [line, "discard ersatz_2"], atomic=True)
    assert r.rejected is not None and r.rejected[1] == "discard ersatz_2", r.rejected
