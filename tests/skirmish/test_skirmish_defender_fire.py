"""Card, Hand-to-Hand Combat: the figure moving into contact "can be fired upon by the
defending figure if that figure has not moved already that turn". With the card's
melee.defender_fire a contacted figure that moved this turn is refused that fire, and no
report offers it; one that has not moved may still fire before the melee. A card without it
(a journal made before) took that fire as an ordinary fire order."""

from __future__ import annotations

import msgspec
from skirmish_cases import ONE_STEP, Table, figure

from referee.table.skirmish.contactnews import contacted_now

OLD = msgspec.structs.replace(ONE_STEP, melee=msgspec.structs.replace(
    ONE_STEP.melee, defender_fire=False))
HTH = "Hand-to-Hand Combat"
SHOT = "unaimed B1 at=R1 range=2 cover=none command=yes"


def _contacted(card=ONE_STEP, moved: str | None = "manoeuvre") -> Table:
    """R1 assaults into contact with B1, which moved before it (or not); the fire phase."""
    t = Table(red=[figure("R1")], blue=[figure("B1")], phase="movement", card=card)
    t.test("red", "move R1 mode=assault contact=yes at=B1 command=yes", [3])
    t.fig("B1").moved = moved
    t.until("fire")
    return t


def test_a_defender_that_moved_does_not_fire_at_the_figure_contacting_it():
    """The patrol's turn as a tester played it: B5 moved, G6 contacted it, and B5's
    `unaimed B5 at=G6` was taken; here refused, and not offered."""
    t = _contacted()
    assert t.refusal("blue", SHOT) == (
        HTH, "B1 moved this turn (manoeuvre): a defending figure fires upon the figure "
             "moving into contact with it (R1) only if it has not moved already that turn")
    assert t.refusal("blue", SHOT.replace("unaimed", "fire")) is not None
    told, = contacted_now(t.card, t.state)
    assert told["defender"] == "B1" and not told["fires"]


def test_a_defender_that_has_not_moved_may_fire_at_it():
    t = _contacted(moved=None)
    assert t.refusal("blue", SHOT) is None
    told, = contacted_now(t.card, t.state)
    assert told["fires"]


def test_a_journal_made_before_took_the_moved_defender_s_fire():
    t = _contacted(card=OLD)
    assert t.refusal("blue", SHOT) is None
    told, = contacted_now(t.card, t.state)
    assert told["fires"]


def test_a_defender_is_told_it_may_fire_only_at_a_figure_it_may_fire_at():
    """It may fire at others (B0 stands in the open), but R1, in melee last turn, can't
    be shot at: the report does not tell it that it may still fire before its melee."""
    t = Table(red=[figure("R1")], blue=[figure("B1")], phase="movement")
    t.state.turn = 3
    t.fig("R1").melee_turn = 2
    t.test("red", "move R1 mode=assault contact=yes at=B1 command=yes", [3])
    t.until("fire")
    told, = contacted_now(t.card, t.state)
    assert told["defender"] == "B1" and not told["fires"]
    assert t.refusal("blue", "unaimed B1 at=R0 range=2 cover=none command=yes") is None
