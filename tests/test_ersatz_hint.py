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
    assert (f"after lose {army}:infantry or ersatz limited_offensive, then 2 more answers like "
            "it to close this decision") in out, out
    assert "after ersatz ersatz_2, then 1 more answer like it to close this decision" in out
