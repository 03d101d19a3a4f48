"""Held orders the moderator entered in part: the player is told which of his lines were
not entered, those alone (mail/dropped.py, PARTLY); an order of the moderator's that is
none of the held lines may be one of them written otherwise, and then nobody is told that
a line was dropped (the module's docstring says why)."""

from __future__ import annotations

from test_held_orders_dropped import DATE, _held_then_told, _no_one_else_reads_them, dropped
from test_held_orders_stand import held_view
from test_waits_on_moderator import held_for_dice

from referee.mail.entered import not_entered

ARTILLERY = "6,6,6"     # the dice of the Entente's first 'done' (the German artillery's fire)


def _entered(cli, j, *lines: str, dice: str = ARTILLERY) -> None:
    r = cli("order", j, "--as", "entente", "--dice", dice, "--", *lines)
    assert r.exit_code == 0, r.output


def test_held_orders_entered_in_part_tell_the_player_the_lines_not_entered(tmp_path, cli):
    """The Entente's three 'done' held; the moderator enters two, and the battle goes to
    the German (his retreat after combat, 5.4.2): the third can be entered no more, and the
    Entente is told, once, that one 'done' of his mail of 24 Nov was not entered, and what
    he is asked now. (While the Entente still owed a decision after the moderator's orders,
    the rest could still be entered, and the hold stood: test_held_orders_later.py.)"""
    j, box, out = held_for_dice(tmp_path, cli, lines=("done",) * 3, date=DATE)
    assert cli("tick", j, "--no-map").exit_code != 0
    before = set(out.glob("*.eml"))
    _entered(cli, j, "done", "done", dice=",".join(["6"] * 21))
    for _ in range(2):
        cli("tick", j, "--no-map")
    [text] = dropped(out)
    flat = " ".join(text.split())
    assert "Of the orders of your mail of Tue 24 Nov 10:00 UTC, held for the moderator's " \
        "dice since record 6, these were not entered:" in flat, text
    assert "\n  done\n\n" in text and "\n  done\n  done\n" not in text, text
    assert "The moderator entered the other orders of your mail, not these." in flat, text
    assert "they will not be entered" in flat, text
    assert "Nothing is asked of you now: the game waits on the other side." in flat, text
    assert all(len(line) <= 72 for line in text.splitlines()), text
    _no_one_else_reads_them(cli, j, out, before)


def test_held_orders_all_entered_tell_nothing(tmp_path, cli):
    """Both 'done' entered, the second written in capitals: nothing was dropped."""
    j, out, _ = _held_then_told(tmp_path, cli)
    _entered(cli, j, "done", "DONE", dice=",".join(["6"] * 21))
    for _ in range(2):
        cli("tick", j, "--no-map")
    assert dropped(out) == []
    assert held_view(cli, j) == []


def test_an_order_entered_that_is_none_of_the_held_lines_tells_no_line_dropped(tmp_path,
                                                                               cli):
    """The moderator enters a cavalry retreat (5.4.3), none of the held lines, then one
    'done': the retreat may stand for the other 'done' written otherwise, for all the
    referee can tell. One 'done' was entered, so no mail says that both were not; nor that
    one was not, which the retreat may be."""
    j, out, _ = _held_then_told(tmp_path, cli)
    _entered(cli, j, "retreat fr-c-01 bar_le_duc", "done")
    for _ in range(2):
        cli("tick", j, "--no-map")
    assert dropped(out) == []
    assert held_view(cli, j) == []


def _record(*orders: str) -> dict:
    """A record of the German's orders entered by the moderator (a sealed plan's holds
    them one a line)."""
    return {"actor": "german", "order": "\n".join(orders), "events": [{"type": "UnitPlaced"}]}


PLACE = ["place ge infantry metz", "place ge infantry koblenz"]


def test_a_done_the_referee_dropped_as_not_needed_counts_entered():
    """2.0 I: a 'done' after the last placement of a sealed plan is dropped (not needed:
    game/batch.py), and the plan's record holds the placements alone; a 'done' after a
    'done' answers a decision of its own, and is not entered when no record holds it."""
    assert not_entered([_record(*PLACE)], "german", [*PLACE, "done"]) == ([], 0)
    assert not_entered([_record("done")], "german", ["done", "Done"]) == ([1], 0)
    assert not_entered([_record(PLACE[0]), _record("move ge-5 verdun")], "german",
                       [PLACE[0], "move ge-5 to verdun"]) == ([1], 1)
    # A mail's record ends the moderator's orders: what follows is the player's own.
    mailed = {**_record(PLACE[1]), "mail": {"to": "moderator"}}
    assert not_entered([_record(PLACE[0]), mailed], "german", PLACE) == ([1], 0)
