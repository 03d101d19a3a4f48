"""Fewer round trips by mail: a trailing 'done' that is not needed, decisions that cannot
matter, both sides at once where the rules allow it."""

from __future__ import annotations

import json

from casebook import new_game, position
from referee import game as g


def _to_autumn_1914(tmp_path, name="r"):
    """SUMMER 1914 ends by two passes and a quiet production: AUTUMN 1914's arrivals come
    (2.0 I: three German infantry, then the Entente's)."""
    sc = position("1914", player="entente", passes=1,
                  hands={"german": ["off-01"], "entente": ["off-03"]})
    j = new_game(tmp_path, sc, name=name)
    assert g.submit(j, "entente", ["pass", "end turn"]).rejected is None
    assert g.submit(j, "german", ["done"]).rejected is None
    assert g.submit(j, "entente", ["done"]).rejected is None
    st = g.open_game(j).state
    assert st.pending.kind == "reinforce" and st.pending.side == "german"
    return j


PLACE_ALL = ["place ge infantry metz", "place ge infantry koblenz", "place ge infantry colmar"]


def test_a_trailing_done_after_the_last_placement_is_dropped(tmp_path):
    """2.0 I: placing the last arrival completes the placement; the 'done' after it answers a
    decision that no longer exists, so it is dropped (and said so) instead of breaking the
    batch, atomic or not."""
    for atomic in (False, True):
        j = _to_autumn_1914(tmp_path, name=f"a{atomic}")
        r = g.submit(j, "german", PLACE_ALL + ["done"], atomic=atomic)
        assert r.rejected is None, r.rejected
        assert len(r.applied) == 3
        assert [(i, t) for i, t, _ in r.dropped] == [(3, "done")]
        assert "not needed" in r.dropped[0][2]
        st = g.open_game(j).state
        assert st.pending.kind == "reinforce" and st.pending.side == "entente"
        assert len(g.open_game(j).records) - 1 == st.seq


def test_a_done_that_answers_a_real_decision_is_kept(tmp_path):
    """2.0 I: a 'done' while placements are still possible is refused; 'done' after 'done'
    (declare no battle, then play no card, 2.0 II.3) answers two decisions and is kept."""
    j = _to_autumn_1914(tmp_path)
    r = g.submit(j, "german", PLACE_ALL[:2] + ["done"])
    assert r.rejected is not None and r.rejected[0] == 2 and r.rejected[2].rule == "2.0 I"
    assert r.dropped == []


def test_the_dropped_done_is_reported(tmp_path, cli):
    """2.0 I: `order` says which order was dropped and why, in text and JSON."""
    j = _to_autumn_1914(tmp_path)
    r = cli("order", j, "--as", "german", "--atomic", "--format", "json", *PLACE_ALL, "done")
    assert r.exit_code == 0, r.output
    assert [d["order"] for d in json.loads(r.stdout)["dropped"]] == ["done"]
