"""Where a side plans his production he reads his hand against the card limit (7.1, 2.0
V.3): a German holding 2 cards bought 5 and had to discard one (7 held, the limit 6),
never told the limit before he planned, nor that the BP spent on cards over it are lost
(7.1: "Any BPs expended on the extra cards are lost")."""

from __future__ import annotations

import gamecalls as g
from casebook import new_game, position


def _planning(tmp_path):
    """SUMMER 1914 ends by two passes: the German plans his production (2.0 V.2, 7.0)."""
    sc = position("1914", player="entente", passes=1,
                  hands={"german": ["off-01", "ers2-01"], "entente": ["off-03"]})
    j = new_game(tmp_path, sc)
    assert g.submit(j, "entente", ["pass", "end turn"]).rejected is None
    st = g.open_game(j).state
    assert (st.pending.kind, st.pending.side) == ("production", "german")
    return j


def test_the_production_report_gives_the_hand_and_the_card_limit(tmp_path, cli):
    j = _planning(tmp_path)
    game = g.open_game(j)
    from referee.engine.production import card_limit

    limit = card_limit(game.state, game.data, "german")
    r = cli("report", j, "--as", "german")
    assert r.exit_code == 0, r.output
    said = " ".join(r.stdout.split())
    assert f"You hold 2 cards; the card limit is {limit} (7.1): {limit - 2} more cards " \
        f"may be bought before the excess is discarded, and the BP spent on cards over " \
        f"the limit are lost (7.1)." in said, r.stdout
    assert all(len(line) <= 72 for line in r.stdout.splitlines())
    # The Entente plans his at the same time (7.0), and reads his own hand and limit.
    other = " ".join(cli("report", j, "--as", "entente").stdout.split())
    mine = card_limit(game.state, game.data, "entente")
    assert f"You hold 1 card; the card limit is {mine} (7.1)" in other
    assert "You hold 2 cards" not in other
