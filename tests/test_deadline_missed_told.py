"""A deadline that has passed is told as missed, with what follows by the game's policy,
wherever the deadlines are shown: `extend` (which prints every owing side's), `deadline`
and `status`, in text and JSON. `extend` printed a past time as if it were to come.

The game of test_deadlines.py (`--deadline 48h`, policy wait), brought to production
(7.0), a sealed plan both sides owe, asked on Tuesday 24 November 2026 at 10:00 UTC: due
by Thursday 26 November 10:00.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

from test_deadlines import new_game, order


def test_extend_tells_the_other_sides_passed_deadline_as_missed(tmp_path, cli, clock):
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    clock(datetime(2026, 11, 24, 10, 0, tzinfo=UTC))
    for side in ("german", "entente"):
        order(journal, side, "pass")
        order(journal, side, "end turn")
    before = cli("deadline", journal).stdout
    assert before == ("German: Orders due by Thu 26 Nov 10:00 UTC\n"
                      "Entente: Orders due by Thu 26 Nov 10:00 UTC\n")
    clock(datetime(2026, 11, 26, 11, 0, tzinfo=UTC))
    r = cli("extend", journal, "german", "24h")
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines()[1:] == [
        "German: Orders due by Fri 27 Nov 10:00 UTC (extended by 24h)",
        "Entente: Orders due by Thu 26 Nov 10:00 UTC, missed: the game waits for them"]
    due = json.loads(cli("deadline", journal, "--format", "json").stdout)["due"]
    assert [d.get("missed") for d in due] == [None, "wait"]
    status = " ".join(cli("status", journal).stdout.split())
    assert "Entente: Orders due by Thu 26 Nov 10:00 UTC, missed: the game waits for them." \
        in status and "German: Orders due by Fri 27 Nov 10:00 UTC (extended by 24h)." in status
    view = json.loads(cli("status", journal, "--format", "json").stdout)["deadlines"]["due"]
    assert [d.get("missed") for d in view] == [None, "wait"]


def test_a_status_kept_before_the_deadline_tells_it_missed_once_it_has_passed(
        tmp_path, cli, clock):
    """`status` keeps its view for the journal's bytes; the same bytes read after the
    deadline say it is missed (the clock's, never kept), and before it, not."""
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    for fmt in ("text", "json"):
        clock(datetime(2026, 11, 24, 10, 0, tzinfo=UTC))
        early = cli("status", journal, "--format", fmt).stdout
        assert "missed" not in early, early
        clock(datetime(2026, 11, 26, 11, 0, tzinfo=UTC))
        late = cli("status", journal, "--format", fmt).stdout
        assert ("missed: the game waits for them" if fmt == "text" else '"missed": "wait"') \
            in " ".join(late.split()), late
        report = cli("report", journal, "--as", "public", "--since", "0").stdout
        assert "missed: the game waits for them" in " ".join(report.split()), report
