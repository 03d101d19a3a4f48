"""Where a side plans his production he reads his hand against the card limit (7.1, 2.0
V.3): a German holding 2 cards bought 5 and had to discard one (7 held, the limit 6),
never told the limit before he planned, nor that the BP spent on cards over it are lost
(7.1: "Any BPs expended on the extra cards are lost")."""

from __future__ import annotations

import gamecalls as g
from casebook import new_game, position


def _planning(tmp_path, german=("off-01", "ers2-01")):
    """SUMMER 1914 ends by two passes: the German plans his production (2.0 V.2, 7.0)."""
    sc = position("1914", player="entente", passes=1,
                  hands={"german": list(german), "entente": ["off-03"]})
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
        f"may be bought within it; a card bought beyond them is over the limit, and must " \
        f"be discarded at the end of this phase (2.0 V.3), the BP spent on it lost " \
        f"(7.1)." in said, r.stdout
    assert all(len(line) <= 72 for line in r.stdout.splitlines())
    # The Entente plans his at the same time (7.0), and reads his own hand and limit.
    other = " ".join(cli("report", j, "--as", "entente").stdout.split())
    mine = card_limit(game.state, game.data, "entente")
    assert f"You hold 1 card; the card limit is {mine} (7.1)" in other
    assert "You hold 2 cards" not in other


def test_a_plan_that_buys_past_the_limit_says_how_many_cards_and_that_their_bp_is_lost(
        tmp_path, cli):
    """7.1: holding 2 cards against a limit of L, 'buy L+1' buys 3 cards over it; the reply
    to the plan, part given and then sealed, marks the buy's line and says plainly that the
    BP spent on those cards are lost. A buy within the limit is not marked."""
    from referee.engine.production import card_limit

    j = _planning(tmp_path)
    game = g.open_game(j)
    limit = card_limit(game.state, game.data, "german")
    over = 3
    buy = f"buy {limit - 2 + over}"
    assert g.submit(j, "german", [buy]).rejected is None
    for sealed in (False, True):
        if sealed:
            assert g.submit(j, "german", ["done"]).rejected is None
        r = cli("report", j, "--as", "german", "--since", "0")
        assert r.exit_code == 0, r.output
        said = " ".join(r.stdout.split())
        line = next(ln for ln in r.stdout.splitlines() if ln.strip().startswith(buy + " "))
        assert line.rstrip().endswith(f"# {limit - 2 + over} BP, {over} cards over the limit")
        assert f"{over} cards you buy are over your card limit of {limit}: the excess is " \
            f"discarded at the end of this phase, and the {over} BP spent on them are lost " \
            f"(7.1)" in said, r.stdout
    (tmp_path / "within").mkdir()
    j2 = _planning(tmp_path / "within")
    assert g.submit(j2, "german", ["buy 1", "done"]).rejected is None
    r = cli("report", j2, "--as", "german")
    assert "over the limit" not in r.stdout and "over your card limit" not in r.stdout


def test_a_hand_at_the_limit_reads_that_every_card_bought_is_over_it(tmp_path, cli):
    """A German at his limit read "no card may be bought before the excess is discarded",
    as if buying were barred: any card he buys is over the limit, discarded at the end of
    the phase (2.0 V.3), its BP lost (7.1)."""
    from referee.engine.production import card_limit

    (tmp_path / "probe").mkdir()
    probe = g.open_game(_planning(tmp_path / "probe"))
    limit = card_limit(probe.state, probe.data, "german")
    hand = ["off-01", "off-02", "ers2-01", "ers2-02", "loff-01", "loff-02", "loff-03",
            "loff-04"][:limit]
    said = " ".join(cli("report", _planning(tmp_path, hand), "--as", "german").stdout.split())
    assert f"You hold {limit} cards; the card limit is {limit} (7.1): every card you buy " \
        f"is over it, and must be discarded at the end of this phase (2.0 V.3), the BP " \
        f"spent on it lost (7.1)." in said, said
    assert "before the excess is discarded" not in said


def test_one_bp_left_goes_unspent_in_the_singular(tmp_path, cli):
    """'1 BP go unspent and are lost' (7.0): one BP goes, and is lost."""
    j = _planning(tmp_path)
    game = g.open_game(j)
    bp, card = game.state.production["bp"]["german"], game.data.charts.build_points.costs.card
    assert card == 1 and bp > 1, (bp, card)
    assert g.submit(j, "german", [f"buy {bp - 1}", "done"]).rejected is None
    said = " ".join(cli("report", j, "--as", "german").stdout.split())
    assert "1 BP goes unspent and is lost: Build Points are spent" in said, said
