"""Manual dice given before any die is rolled are refused with why none was needed yet: no
die is due yet, and the decision now, whose and what (here a cavalry retreat before combat,
5.4.3, which the defender answers after the attacker and before any fire)."""

from __future__ import annotations

import gamecalls as g
from casebook import new_game, position
from referee.base.errors import DiceError
from referee.store.dice import ManualDice


def _attack_on_vosges(tmp_path):
    """SUMMER 1918, manual dice: the German army ge-9 (1 infantry, 2 Stosstruppen, 1 cavalry)
    beside Vosges, where a French cavalry unit stands alone."""
    sc = position("1918", turn=17, player="german", hands={"german": ["off-01"], "entente": []},
                  remove_units=["ge-i-05"],
                  add_units=["ge-9 ge army colmar 1I+2S+1C", "fr-c-09 fr cavalry vosges"])
    return new_game(tmp_path, sc, dice="manual")


def _refused_dice(cli, j, side: str, dice: str) -> list[str]:
    """The lines of `order --as SIDE --dice DICE done`, refused (exit 1) with the journal
    unchanged."""
    before = j.read_bytes()
    r = cli("order", j, "--as", side, "--dice", dice, "done")
    assert r.exit_code == 1, r.stdout
    assert j.read_bytes() == before
    return r.stderr.splitlines()


def test_the_refusal_gives_the_reason_it_is_handed():
    m = ManualDice([6, 1])
    try:
        m.check_used_up("; the next roll waits on X")
    except DiceError as exc:
        assert str(exc) == ("dice rejected: 2 more dice given than needed (the orders rolled 0); "
                            "the next roll waits on X (nothing was recorded)")
    else:
        raise AssertionError("extra dice accepted")


def test_dice_given_before_the_other_sides_cavalry_retreat_are_refused_with_why(tmp_path, cli):
    j = _attack_on_vosges(tmp_path)
    for order in ("play offensive", "move ge-9 vosges", "end movement"):
        r = g.submit(j, "german", [order])
        assert r.rejected is None, (order, r.rejected)
    assert g.open_game(j).state.pending.kind == "cavalry_retreat"
    assert _refused_dice(cli, j, "german", "6,1") == [
        "referee: dice rejected: 2 more dice given than needed (the orders rolled 0); no die "
        "is due yet: the decision now is the Entente player's, cavalry retreating before "
        "combat (5.4.3) (nothing was recorded)"]


def test_dice_given_before_the_senders_own_next_decision_say_it_is_his(tmp_path, cli):
    """The decision the game waits on may be the sender's own, and no die need come from it
    (here the defender's retreat instead of firing, 5.4.1, before any fire): the refusal
    says no die is due yet and that the decision is his, not that a roll waits on it."""
    j = _attack_on_vosges(tmp_path)
    for side, order in (("german", "play offensive"), ("german", "move ge-9 vosges"),
                        ("german", "end movement"), ("german", "done")):
        r = g.submit(j, side, [order])
        assert r.rejected is None, (order, r.rejected)
    said = _refused_dice(cli, j, "entente", "6")
    assert said == [
        "referee: dice rejected: 1 more dice given than needed (the orders rolled 0); no die "
        "is due yet: the decision now is your own, the defender's retreat instead of firing "
        "(5.4.1) (nothing was recorded)"]
    assert not any("waits on" in line for line in said)
