"""Counts people read in reports and logs, said as plain English: "1 die", "2 losses",
"1 eliminated army of the Entente player", never "1 dice", "loss(es)" or "army(ies)"
(base/plurals.py).
The EFT box's roll (2.0 V.4) and the VP lines of an eliminated army (3.1) are worked out
when shown, never kept in a journal: their words change no journal byte."""

from __future__ import annotations

import pytest

import gamecalls as g
from casebook import new_game, position
from referee.engine.victory import vp_breakdown
from referee.render.record_text import describe


@pytest.mark.parametrize(("dice", "losses", "told"), [
    ([1], 1, "1 BP of units, 1 die [1]: 1 loss (2.0 V.4)"),
    ([6], 0, "1 BP of units, 1 die [6]: 0 losses (2.0 V.4)"),
    ([1, 2], 2, "1 BP of units, 2 dice [1 2]: 2 losses (2.0 V.4)")])
def test_the_eft_box_s_roll_says_its_dice_and_losses_plainly(dice, losses, told):
    ev = {"type": "EftLossesDue", "bp": 1, "dice": dice, "losses": losses}
    line = describe(ev, g.game_data(), "public")
    assert line == f"EFT box: {told}", line


def test_an_eliminated_army_s_vp_line_says_army_or_armies(tmp_path):
    data = g.game_data()
    sc = position("1916", remove_units=["fr-10", "ge-1", "ge-7", "ge-i-01"],
                  eliminated_armies=["fr-10", "ge-9"])
    st = g.open_game(new_game(tmp_path, sc)).state
    labels = [label for label, _ in vp_breakdown(st, data)]
    assert "1 eliminated army of the Entente player (3.1)" in labels, labels
    another = next(a for k, a in st.armies.items() if k.startswith("fr-") and
                   a.status != "eliminated")
    another.status = "eliminated"
    labels = [label for label, _ in vp_breakdown(st, data)]
    assert "2 eliminated armies of the Entente player (3.1)" in labels, labels
    assert "1 eliminated army of the German player (3.1)" in labels, labels
    assert not [x for x in labels if "(ies)" in x or "(s)" in x], labels
