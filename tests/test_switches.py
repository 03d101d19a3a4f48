"""Rules switched by a game's data or options: what differs between the games of one system
(AT ALL COSTS! core rules v2.0 beside TTLM's), each with an accepted and a refused case."""

from __future__ import annotations

import pytest

from casebook import new_game, position
from referee import game as g
from referee.engine.victory import victory_level


@pytest.fixture(scope="module")
def eft_games(tmp_path_factory):
    """The same position one pass from production, 6 BP of units in the EFT box, without and
    with the option linked_with_aac (2.0 V.4, 3.1); each played to the end of production."""
    games = {}
    for linked in (False, True):
        tmp = tmp_path_factory.mktemp(f"eft-linked-{linked}")
        base = position("1914", player="entente", passes=1,
                        hands={"german": ["off-01"], "entente": ["off-03"]},
                        remove_units=["ge-i-01", "ge-i-02", "ge-7"])  # room in the counter mix
        base["eft_box"] = [{"type": "infantry", "count": 6, "nation": "ge"}]
        j = new_game(tmp, base, {"linked_with_aac": linked}, "manual")
        vp_before = victory_level(g.open_game(j).state, g.game_data())[0]
        g.submit(j, "entente", ["pass", "end turn"])
        g.submit(j, "german", ["done"])
        r = g.submit(j, "entente", ["done"], "1,4" if not linked else None)
        assert r.rejected is None, r.rejected
        events = [e["type"] for a in r.applied for e in a.record["events"]]
        games[linked] = (g.open_game(j).state, vp_before, events)
    return games


def test_ttlm_alone_rolls_for_eft_losses_and_counts_the_eft_vp(eft_games):
    """2.0 V.4, 3.1 without the link: the loss roll is made, the box is worth +1 VP."""
    st, vp, events = eft_games[False]
    assert vp == 13                                                   # 12 + 1 for the box
    assert "EftLossesDue" in events and "EftUnitLost" in events
    assert sum(1 for p in st.pieces.values() if p.area == "eft") == 5


def test_linked_with_aac_skips_the_eft_losses_phase_and_the_eft_vp(eft_games):
    """2.0 V.4, 3.1 (linked with AT ALL COSTS!): no loss roll, no decision, no EFT VP."""
    st, vp, events = eft_games[True]
    assert vp == 12                                                   # the box adds nothing
    assert not {"EftLossesDue", "EftUnitLost"} & set(events)
    assert "ProductionEnded" in events and st.turn == 2
    assert sum(1 for p in st.pieces.values() if p.area == "eft") == 6
    assert victory_level(st, g.game_data())[0] == 12
