"""The hint of what follows a hit paid of several (5.3): each Ersatz card's line counts the
answers still needed by that card's own value (5.3.2, 9.2), so a 1-hit card is not put
with a 2-hit one under the count of the 2-hit card."""

from __future__ import annotations

from pathlib import Path

import pytest

import gamecalls as g
from casebook import new_game, position

# Each game's attack: its scenario, the units, the attacker's army and the area attacked.
ATTACKS = {
    "ttlm": ("1918", ["ge-6 ge army lille 4I+1A", "uk-1 uk army artois 3I entrenched",
                      "uk-4 uk army calais 2I"], "ge-6", "artois"),
    "aac": ("1914", ["ge-8 ge army allenstein 4I+1A", "ru-2 ru army lomza 3I entrenched",
                     "ru-1 ru army kovno 2I"], "ge-8", "lomza"),
}


def flat(text: str) -> str:
    return " ".join(text.split())


def _three_hits_to_pay(tmp_path: Path, game: str) -> Path:
    """The German attacks an entrenched army whose defensive fire hits three times
    (5.2.1 c); he holds a Limited Offensive (Ersatz 1) and an Ersatz 2."""
    base, units, army, area = ATTACKS[game]
    sc = position(base, game=game, player="german",
                  hands={"german": ["off-01", "loff-01", "ers2-01"], "entente": []},
                  units=units)
    j = new_game(tmp_path, sc, dice="manual", game=game)
    for side, order, dice in (("german", "play offensive", None),
                              ("german", f"move {army} {area}", None),
                              ("german", "end movement", None), ("german", "done", None),
                              ("german", "done", "6"), ("entente", "done", "1,1,1")):
        r = g.submit(j, side, [order], dice_text=dice)
        assert r.rejected is None, (order, r.rejected)
    st = g.open_game(j).state
    assert (st.pending.kind, st.pending.side) == ("losses", "german")
    return j


@pytest.mark.parametrize("game", ["ttlm", "aac"])
def test_each_ersatz_card_counts_the_answers_left_by_its_own_value(tmp_path, cli, game):
    """3 hits: a unit or the Limited Offensive pays one and leaves 2 answers; the Ersatz 2
    pays two and leaves 1."""
    j = _three_hits_to_pay(tmp_path, game)
    army = ATTACKS[game][2]
    out = flat(cli("report", j, "--as", "german", "--since", "0").stdout)
    assert (f"after lose {army}:infantry or ersatz limited_offensive, then 2 more answers "
            "to close this decision") in out, out
    assert "after ersatz ersatz_2, then 1 more answer (e.g. ersatz limited_offensive) to " \
           "close this decision" in out, out
    assert "like it" not in out, out          # the next answer need not be the first again


def test_the_example_and_the_then_lines_agree_with_the_orders_legal_at_each_step(tmp_path):
    """5.3: what the mail exemplifies and names after a first hit paid is legal in turn,
    each after the ones before it; a line of the example not in the list of orders open
    now is said to open once those before it are applied."""
    from referee.engine import legal_orders
    from referee.engine.order_text import format_order
    from referee.game.ahead import ahead
    from referee.mail.ordersopen import orders_open_text

    j = _three_hits_to_pay(tmp_path, "ttlm")
    game = g.open_game(j)
    legal = [format_order(o) for o in legal_orders(game.state, game.data, "german")]
    got = ahead(game.state, game.data, "german", legal)
    assert got.opened == any(t not in legal for t in got.example[1:]), got
    text = flat(orders_open_text(game.state, game.data, "german"))
    assert ("opens once those before it are applied" in text) == got.opened, text
    named_branches = [b for b in got.branches if b.more and len(b.first) == 1]
    assert named_branches, got.branches
    for b in named_branches:
        named = b.orders[1:1 + b.more]
        assert f"(e.g. {', then '.join(named)})" in text, text
        r = g.submit(j, "german", [b.first[0], *named], dry_run=True)
        assert r.rejected is None, (b.orders, r.rejected)
