"""Held orders the moderator enters in more than one `referee order`: a pass of `tick`
between two of them finds the hold entered in part while the rest may still be entered
(the side still owes the decision his first orders left him). The hold stands then, for
the lines not yet entered: the player is told nothing of lines the moderator enters a
minute later, and the moderator is asked for those lines alone (mail/entered.py)."""

from __future__ import annotations

from test_held_orders_dropped import ENTENTE, _held_then_told, _text, _to, dropped
from test_held_orders_stand import held_view
from ticklines import problems

# The dice of the Entente's first 'done' (the German artillery's fire, three dice) and of
# his second (his defensive fire and the German's offensive fire, 18 dice, every one a miss).
FIRST, SECOND = "6,6,6", ",".join(["6"] * 18)


def _entered(cli, j, dice: str) -> None:
    r = cli("order", j, "--as", "entente", "--dice", dice, "--", "done")
    assert r.exit_code == 0, r.output


def test_a_pass_between_two_orders_of_the_moderator_tells_no_line_dropped(tmp_path, cli):
    """The moderator enters the Entente's first 'done', a pass runs, then the second: the
    Entente is told nothing of a line dropped; the pass
    asked the moderator for the second alone."""
    j, out, _ = _held_then_told(tmp_path, cli)
    _entered(cli, j, FIRST)
    r = cli("tick", j, "--no-map")
    assert dropped(out) == []               # the second 'done' may still be entered
    [line] = [x for x in problems(r) if "waits on the moderator" in x]
    assert "the Entente player's orders ('done') need dice" in line, line
    [held] = held_view(cli, j)
    assert held["lines"] == ["done"] and held["command"].endswith("-- done"), held
    # A record of the moderator's between his two orders, no order: the second still counts.
    assert cli("deadline", j, "--set", "24h").exit_code == 0
    _entered(cli, j, SECOND)
    for _ in range(2):
        cli("tick", j, "--no-map")
    assert dropped(out) == [], dropped(out)[0]
    assert held_view(cli, j) == []


def test_a_hold_entered_in_part_then_ended_by_other_orders_tells_no_line_dropped(
        tmp_path, cli):
    """The moderator enters the first 'done', a pass finds the hold standing for the
    second; he then enters a retreat for the Entente's defensive fire, none of the held
    lines: what he entered may stand for the second 'done' written otherwise, and nobody
    is told that it was dropped."""
    j, out, _ = _held_then_told(tmp_path, cli)
    _entered(cli, j, FIRST)
    cli("tick", j, "--no-map")
    r = cli("order", j, "--as", "entente", "retreat fr-c-01 bar_le_duc")
    assert r.exit_code == 0, r.output
    for _ in range(2):
        cli("tick", j, "--no-map")
    assert dropped(out) == []
    assert held_view(cli, j) == []


def test_the_player_reads_which_held_lines_are_still_to_be_entered(tmp_path, cli):
    """The moderator enters the first of the Entente's two held 'done', a pass runs: the
    Entente's report of that record tells him his orders are still held, one of his two
    lines entered and which is still to be entered; the German reads nothing of it. Once
    both are entered, nothing more is said of a hold."""
    j, out, before = _held_then_told(tmp_path, cli)
    _entered(cli, j, FIRST)
    cli("tick", j, "--no-map")
    new = [p for p in set(out.glob("*.eml")) - before]
    to_entente = [" ".join(_text(p).split()) for p in new if _to(p) == ENTENTE]
    assert to_entente, sorted(p.name for p in new)
    told = "The moderator has entered 1 of the 2 orders of your mail; still to enter: 'done'."
    assert all(told in text for text in to_entente), to_entente
    assert not [p for p in new if _to(p) != ENTENTE and "still to enter" in _text(p)]
    _entered(cli, j, SECOND)
    later = set(out.glob("*.eml"))
    for _ in range(2):
        cli("tick", j, "--no-map")
    assert not [p for p in set(out.glob("*.eml")) - later if "still to enter" in _text(p)]
