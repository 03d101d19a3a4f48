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
    assert _prompt(j, "entente") == ("pay 1 hit in Artois: lose a unit of the strongest or "
                                     "play an Ersatz card (5.3)")
    # The German does not read the Entente hand: only that it holds a card (its size).
    assert _prompt(j, "german") == ("pay 1 hit in Artois: lose a unit of the strongest or "
                                    "play an Ersatz card if the hand holds one (5.3)")
