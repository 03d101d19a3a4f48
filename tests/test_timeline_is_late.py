"""Timeline.is_late: a deadline the journal recorded missed, with nobody answering for it,
for that side's hand-off at that very time; late() lists the dues it holds for."""

from datetime import UTC, datetime, timedelta

from referee.base.clock import stamp
from referee.game.clockwalk import Due, Settings
from referee.game.timeline import Timeline

AT = datetime(2026, 11, 25, 18, 0, tzinfo=UTC)


def _due(side: str, handoff: int, due: datetime) -> Due:
    return Due(side, handoff, "orders", due, timedelta(0), due - timedelta(days=2))


def _timeline(dues: list[Due], missed: set, answered: set = frozenset()) -> Timeline:
    return Timeline(Settings(), False, dues, 7, "h", {}, set(), set(missed), set(answered))


def test_a_deadline_recorded_missed_is_late():
    d = _due("german", 5, AT)
    assert _timeline([d], {("german", 5, stamp(AT))}).is_late(d)


def test_another_hand_off_time_or_side_is_not_late():
    tl = _timeline([], {("german", 5, stamp(AT))})
    assert not tl.is_late(_due("german", 6, AT))            # a later hand-off
    assert not tl.is_late(_due("german", 5, AT + timedelta(hours=24)))   # extended since
    assert not tl.is_late(_due("entente", 5, AT))


def test_a_deadline_the_referee_answered_for_is_not_late():
    d = _due("german", 5, AT)
    assert not _timeline([d], set(), {("german", 5, stamp(AT))}).is_late(d)


def test_late_lists_the_dues_is_late_holds_for():
    late, on_time = _due("german", 5, AT), _due("entente", 4, AT)
    tl = _timeline([late, on_time], {("german", 5, stamp(AT))})
    assert tl.late() == [late]
    assert [d for d in tl.dues if tl.is_late(d)] == tl.late()
