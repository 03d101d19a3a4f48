"""A decision's heading offers only what the side asked may do now, as its legal orders have
it (engine.legal_orders): no Biplane's reaction without a Biplane of his in the battle
(8.3.4), no annihilation while his units can pay the hits (5.3.4), no Ersatz card he does
not hold (5.3.2); and what rests on his hand is worded for him alone."""

from __future__ import annotations

import gamecalls as g
from casebook import legal, new_game, position
from referee.game.views import status_view

UNITS = ["ge-6 ge army lille 4I", "uk-1 uk army artois 3I", "uk-4 uk army calais 2I"]


def _battle(tmp_path, entente_hand):
    sc = position("1918", player="german", hands={"german": ["off-01"],
                                                  "entente": entente_hand}, units=UNITS)
    j = new_game(tmp_path, sc, dice="manual")
    for side, order in (("german", "play offensive"), ("german", "move ge-6 artois"),
                        ("german", "end movement"), ("entente", "done")):
        r = g.submit(j, side, [order])
        assert r.rejected is None, (order, r.rejected)
    return j


def _prompt(j, reader):
    game = g.open_game(j)
    return status_view(game.state, game.data, reader)["prompt"]


def test_the_defence_heading_offers_no_biplane_reaction_without_a_biplane(tmp_path):
    j = _battle(tmp_path, ["ers2-01"])
    assert g.open_game(j).state.pending.kind == "defence"
    assert not any(o.startswith("react") for o in legal(j, "entente"))
    for reader in ("entente", "german"):
        said = _prompt(j, reader)
        assert "Biplane" not in said, said
        assert said.endswith("retreat units instead of firing (each to an adjacent Friendly "
                             "or Disputed area), then 'done' and fire (5.4.1)"), said


def _one_hit_on_the_defender(j):
    # Three Entente dice miss; one of the four German dice hits (a die at most the
    # firepower hits, 5.2.1).
    r = g.submit(j, "entente", ["done"], dice_text="6,6,6,1,6,6,6")
    assert r.rejected is None, r.rejected
    assert g.open_game(j).state.pending.kind == "losses"


def test_the_losses_heading_offers_no_annihilation_while_units_can_pay(tmp_path):
    j = _battle(tmp_path, ["ers2-01"])
    _one_hit_on_the_defender(j)
    open_now = legal(j, "entente")
    assert "annihilate" not in open_now and "ersatz ersatz_2" in open_now
    assert _prompt(j, "entente") == ("pay 1 hit in Artois: lose a unit from the strongest unit "
                                     "in the battle area (5.3.1) or play an Ersatz card "
                                     "(5.3)")
    # The German does not read the Entente hand: only that it holds a card (its size).
    assert _prompt(j, "german") == ("pay 1 hit in Artois: lose a unit from the strongest unit "
                                    "in the battle area (5.3.1) or play an Ersatz card if the "
                                    "hand holds one (5.3)")
    # An order of another kind is refused naming the kinds of answer open now, as the
    # heading does: not 'annihilate', which the decision takes once no unit can pay.
    r = g.submit(j, "entente", ["done"])
    assert r.rejected is not None and str(r.rejected[2]).endswith(
        "(5.3)); expected: lose, ersatz"), r.rejected


def _then(cli, j, reader):
    out = cli("report", j, "--as", reader, "--since", "0").stdout
    return " ".join(out.split("Then", 1)[1].split("You may answer", 1)[0].split())


def test_what_comes_next_follows_every_card_not_one_for_all(tmp_path, cli):
    """Two hits to pay: the 1-hit Offensive card leaves one to pay (the decision stays), the
    Ersatz 2 card pays both (5.3.2) and the German decides next; the preview followed the
    first Ersatz card alone, as if it stood for every card, and never named the other's way."""
    j = _battle(tmp_path, ["ers2-01", "off-02"])
    r = g.submit(j, "entente", ["done"], dice_text="6,6,6,1,1,6,6")
    assert r.rejected is None, r.rejected
    assert {"ersatz offensive", "ersatz ersatz_2"} <= set(legal(j, "entente"))
    then = _then(cli, j, "entente")
    assert "after ersatz ersatz_2: the German player decides: retreat after (5.4.2)" \
        in then, then


def test_what_comes_next_names_every_order_that_takes_a_way(tmp_path, cli):
    """One hit to pay: a loss and either 1-hit card all end the Entente's part (5.3); the
    preview named one card of two (mail: 'after lose ... or ersatz offensive')."""
    j = _battle(tmp_path, ["off-02", "loff-01"])
    _one_hit_on_the_defender(j)
    assert {"ersatz offensive", "ersatz limited_offensive"} <= set(legal(j, "entente"))
    then = _then(cli, j, "entente")
    assert "after lose uk-1:infantry, ersatz offensive or ersatz limited_offensive: the " \
           "German player decides" in then, then
