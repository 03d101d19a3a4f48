"""An extension holds while its side answers his decision step by step: his next decision,
a new hand-off of his own with nobody else asked between, is due no earlier than the time
he was granted (an extension granted, then lost by answering at once, would punish the
side that answers early). Once the other side is asked, his deadlines run as before.

The game of test_deadlines.py: `--deadline 48h` from Monday 23 November 2026 18:00 UTC,
the German owing his card or a pass (2.0 II.1) by Wednesday 18:00.
"""

from __future__ import annotations

import shutil
from datetime import UTC, datetime

from test_deadlines import new_game, order, records, status, verified


def _due(cli, journal) -> dict[str, str]:
    return {d["side"]: d["due"] for d in status(cli, journal)["deadlines"]["due"]}


def test_an_extension_holds_for_the_sides_next_decision_until_the_other_is_asked(
        tmp_path, cli, clock):
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    r = cli("extend", journal, "german", "24h")
    assert r.exit_code == 0 and "German: Orders due by Thu 26 Nov 18:00 UTC" in r.stdout
    # Tuesday 10:00 he passes: his pass's move (2.0 II.1) is a new decision of his own, due
    # 48h after it (Thursday 10:00) but for the extension, which holds: Thursday 18:00.
    clock(datetime(2026, 11, 24, 10, 0, tzinfo=UTC))
    order(journal, "german", "pass")
    assert _due(cli, journal) == {"german": "2026-11-26T18:00:00Z"}
    assert cli("deadline", journal).stdout == "German: Orders due by Thu 26 Nov 18:00 UTC\n"
    # Ending his turn asks the Entente: his time was for his decisions, and hers runs from
    # her hand-off; so does his own next one, once she has answered.
    clock(datetime(2026, 11, 24, 11, 0, tzinfo=UTC))
    order(journal, "german", "end turn")
    assert _due(cli, journal) == {"entente": "2026-11-26T11:00:00Z"}
    clock(datetime(2026, 11, 24, 12, 0, tzinfo=UTC))
    order(journal, "entente", "pass")
    order(journal, "entente", "end turn")
    assert _due(cli, journal)["german"] == "2026-11-26T12:00:00Z"
    assert verified(journal)


def test_a_deadline_an_older_referee_told_as_missed_stands(tmp_path, cli, clock,
                                                           monkeypatch):
    """A journal written before an extension held: the German's next decision was due
    Thursday 10:00 and a pass at 12:00 recorded it missed (the game waits). Read now, that
    deadline stands as the journal told it: no later one, no second missed record, no
    reminder of a deadline already past."""
    from referee.game import clockwalk
    from referee.mail.reminders import check_deadlines
    from referee.store import home

    journal = new_game(tmp_path, cli, "--deadline", "48h")
    assert cli("extend", journal, "german", "24h").exit_code == 0
    with monkeypatch.context() as older:             # a referee that kept no floor
        older.setattr(clockwalk.Walk, "carried", lambda self, *a: self.floor.clear())
        clock(datetime(2026, 11, 24, 10, 0, tzinfo=UTC))
        order(journal, "german", "pass")
        missed_at = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)
        clock(missed_at)
        check_deadlines(journal, tmp_path / "out", missed_at)
    shutil.rmtree(home.cache_dir("snapshots"), ignore_errors=True)   # its walk, kept then
    told = [r["clock"] for r in records(journal) if (r.get("clock") or {}).get("kind")
            == "missed"]
    assert [f["due"] for f in told] == ["2026-11-26T10:00:00Z"], told
    for moment in (datetime(2026, 11, 26, 12, 5, tzinfo=UTC),
                   datetime(2026, 11, 26, 19, 0, tzinfo=UTC)):
        clock(moment)
        assert _due(cli, journal) == {"german": "2026-11-26T10:00:00Z"}
        check_deadlines(journal, tmp_path / "out", moment)
    assert [r["clock"] for r in records(journal) if (r.get("clock") or {}).get("kind")
            in ("missed", "reminder")] == told
    assert verified(journal)
