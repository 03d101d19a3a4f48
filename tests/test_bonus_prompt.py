"""What the attacker is asked about a special offensive's extra dice comes from the orders
open to him (legal_orders, the single source of legality): the 'bonus AREA' line only while
a Battle Area can take them (9.1.3: one holding a UK army), else a line saying they are lost
and why. The Entente read "name a battle area for The Big Push's extra dice ('bonus AREA',
9.1.3)" with no UK army in any battle, and 'bonus' was refused."""

from __future__ import annotations

import gamecalls as g
from casebook import new_game, position
from referee.engine import legal_orders, pending_prompt
from referee.engine.order_text import format_order


def _big_push(tmp_path, army: str, into: str):
    """SPRING 1916, the Entente plays The Big Push and moves army into into, a battle."""
    sc = position("1916", player="entente",
                  hands={"german": [], "entente": ["bigpush-01", "gas-01"]})
    j = new_game(tmp_path, sc)
    for order in ("play the_big_push", f"move {army} {into}", "end movement", "done"):
        r = g.submit(j, "entente", [order])
        assert r.rejected is None, (order, r.rejected)
        if g.open_game(j).state.pending.kind == "attacker_cards":
            break
    game = g.open_game(j)
    assert game.state.pending.kind == "attacker_cards", game.state.pending
    return j, game


def test_with_no_uk_army_in_a_battle_the_dice_are_said_lost(tmp_path):
    j, game = _big_push(tmp_path, "fr-9", "noyon")
    said = pending_prompt(game.state, game.data)
    assert "'bonus AREA'" not in said, said
    assert "The Big Push's extra dice are lost: no Battle Area holds a UK army (9.1.3)" \
        in said, said
    legal = [format_order(o) for o in legal_orders(game.state, game.data, "entente")]
    assert not [o for o in legal if o.startswith("bonus")], legal
    assert g.submit(j, "entente", ["done"]).rejected is None      # the decision closes
    assert g.open_game(j).state.pending.kind != "attacker_cards"


def test_with_a_uk_army_in_a_battle_the_bonus_line_stays(tmp_path):
    _, game = _big_push(tmp_path, "uk-1", "lille")
    said = pending_prompt(game.state, game.data)
    assert "name a battle area for The Big Push's extra dice ('bonus AREA', 9.1.3)" \
        in said, said
    assert "lost" not in said, said
