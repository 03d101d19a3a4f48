"""The losses prompt cites one rule for each way to pay: a unit loss alone cites 5.3.1, which
says which unit a hit takes, and not 5.3 after it as well; a refusal still names the
decision's rule (5.3) once, after the prompt."""

from __future__ import annotations

import gamecalls as g
from casebook import new_game, position


def _owing(tmp_path):
    """The German owes a hit in VOSGES with an empty hand: a unit loss is all he can pay."""
    sc = position("1918", turn=17, player="german", hands={"german": ["off-01"], "entente": []},
                  remove_units=["ge-i-05"], add_units=["ge-9 ge army colmar 1I+2S+1T"])
    j = new_game(tmp_path, sc, dice="manual")
    for side, order, dice in (("german", "play offensive", None),
                              ("german", "move ge-9 vosges", None),
                              ("german", "end movement", None), ("entente", "done", "2,3")):
        r = g.submit(j, side, [order], dice)
        assert r.rejected is None, (order, r.rejected)
    return j


def test_a_unit_loss_alone_is_cited_once(tmp_path, cli):
    j = _owing(tmp_path)
    asked = "pay 1 hit in Vosges: lose a unit from the strongest unit in the battle area (5.3.1)"
    for reader in ("german", "entente", "public"):
        out = " ".join(cli("status", j, "--as", reader).stdout.split())
        assert asked in out and "(5.3.1) (5.3)" not in out, (reader, out)
    r = cli("order", j, "--as", "entente", "done")
    assert r.exit_code != 0
    assert r.stderr.strip().endswith(f"the referee is waiting on the German player ({asked}) "
                                     f"(rule 5.3)"), r.stderr
