"""An extension is more time from now on. Under `--missed wait` a side that missed its
deadline may still ask for more by mail (`extend 24h`) while the game waits on the
moderator; 24h after a deadline long passed has passed too, and such an extension, taken,
would spend the side's one extension and have the next pass rule the same decision missed
again. It is refused, in the reply, and nothing is written; so is the moderator's.

The game is test_unattended.py's (Monday 23 November 2026 18:00 UTC, 48h deadlines,
reminders 24h and 2h before, one extension a side), its policy set to wait: the German's
first decision is due Wednesday 25 November at 18:00 UTC.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from mailkinds import headline
from mailservers import route_through
from test_unattended import START, Post, Table, new_game, records, text_of, words
from ticklines import problem_text

from referee.base.clock import NOW_VARIABLE

H = timedelta(hours=1)
DUE = START + 48 * H


@pytest.fixture
def post(servers, monkeypatch, tmp_path) -> Post:
    return route_through(servers, monkeypatch, tmp_path / "user", Post)


def at(moment) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def test_an_extension_ending_before_now_is_refused_and_spends_nothing(
        cli, post, tmp_path, clock, monkeypatch):
    journal = new_game(cli, tmp_path / "games", post)
    assert cli("deadline", journal, "--missed", "wait").exit_code == 0
    table = Table(cli, journal, post, monkeypatch)
    table.tick_at(START)
    monkeypatch.setenv(NOW_VARIABLE, at(DUE + timedelta(minutes=20)))
    r = cli("tick", journal, "--no-map")
    assert r.exit_code != 0 and "waits on the moderator" in problem_text(r), r.output

    # Thursday 19:00, a day and an hour after the deadline, the German asks for a day more:
    # it would end Thursday 18:00, an hour ago.
    table.answer("german", DUE + 25 * H, ["extend 24h"])
    before = journal.read_bytes()
    monkeypatch.setenv(NOW_VARIABLE, at(DUE + 25 * H))
    cli("tick", journal, "--no-map")
    assert not [r for r in records(journal) if r.get("clock", {}).get("kind") == "extend"]
    assert journal.read_bytes()[:len(before)] == before
    [reply] = [m for m in post.mails_to("german") if "extend" in text_of(m)][-1:]
    said = words(text_of(reply))
    assert "not applied" in headline(reply)
    assert ("24h more ends Thu 26 Nov 18:00 UTC, which has passed already (now Thu 26 Nov "
            "19:00 UTC): no time is given; ask the moderator") in said

    # The moderator's hour is refused the same way; his day and a half is taken, and the
    # German's own extension is still his to ask for.
    r = cli("extend", journal, "german", "1h")
    assert r.exit_code == 1 and "which has passed already" in r.stderr
    assert not [r for r in records(journal) if r.get("clock", {}).get("kind") == "extend"]
    r = cli("extend", journal, "german", "36h")
    assert r.exit_code == 0 and "Fri 27 Nov 06:00 UTC" in r.stdout
    table.answer("german", DUE + 26 * H, ["extend 24h"])
    monkeypatch.setenv(NOW_VARIABLE, at(DUE + 26 * H))
    assert cli("tick", journal, "--no-map").exit_code == 0
    assert [r["actor"] for r in records(journal)
            if r.get("clock", {}).get("kind") == "extend"] == ["moderator", "german"]
    r = cli("deadline", journal)
    assert "German: Orders due by Sat 28 Nov 06:00 UTC (extended by 24h, 60h in all)" in r.stdout
