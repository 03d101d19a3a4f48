"""verify's warning of a record dated back says what the rules it was made under tell: a
referee of rules 13 or later refuses a clock set back, so such a record's time was edited;
and that the game plays on only while it has not ended."""

from __future__ import annotations

from referee.store.timesback import TimesBack


def _warned(rules: int, *later: dict, upgrade: int | None = None) -> str:
    times = TimesBack({"rules_version": rules, "engine_version": "0.1.0"})
    times.see(1, "2026-03-03T12:00:00Z",
              [{"type": "RulesUpgraded", "rules": upgrade}] if upgrade else [])
    times.see(2, "2026-03-01T13:00:00Z", [])
    for seq, rec in enumerate(later, 3):
        times.see(seq, rec.get("at"), rec.get("events"))
    warning = times.warning()
    assert warning is not None
    return warning


def test_a_record_of_rules_that_refuse_the_past_was_edited():
    warning = _warned(14)
    assert "made under rules 14, in a game begun by referee 0.1.0" in warning, warning
    assert "its time was edited after it was written" in warning
    assert "did not yet refuse" not in warning and warning.endswith("the game plays on")


def test_a_record_of_older_rules_may_have_been_written_with_the_clock_back():
    warning = _warned(12)
    assert "made under rules 12" in warning and "did not yet refuse" in warning, warning
    assert "written while the clock was set back, or its time edited" in warning


def test_the_rules_an_upgrade_moved_on_to_are_the_records_after_it():
    assert "made under rules 14" in _warned(11, upgrade=14)


def test_a_game_that_ended_does_not_play_on():
    warning = _warned(14, {"at": "2026-03-04T10:00:00Z",
                           "events": [{"type": "GameEnded", "level": "draw"}]})
    assert "plays on" not in warning and warning.endswith("the game has ended"), warning
