"""A clock behind the journal writes no past: no record is dated before the journal's last.

A clock more than a minute behind the last record's time (set back by hand, by NTP, or
REFEREE_NOW given an older time) refuses every command that writes, in one line naming the
clock and the record's time, and writes nothing; one a minute or less behind (two hosts'
skew) writes, the record dated with the last record's time. Time comes from REFEREE_NOW
(the `clock` fixture); nothing sleeps."""

from __future__ import annotations

import json
from datetime import timedelta

from commandclock import START

from referee.store import timeorder

ORDERED = START + timedelta(hours=1)        # the German's pass: record 3


def _game(cli, tmp_path, clock):
    """A 1914 game begun at START with a 48h deadline, the German's pass in at ORDERED
    (record 3, his next decision owed)."""
    journal = tmp_path / "g.jsonl"
    r = cli("new", journal, "--scenario", "1914", "--game-id", "late-clock", "--deadline",
            "48h")
    assert r.exit_code == 0, r.stderr
    clock(ORDERED)
    r = cli("order", journal, "--as", "german", "pass")
    assert r.exit_code == 0, r.stderr
    return journal


def _times(journal) -> list[str]:
    return [json.loads(line)["at"] for line in journal.read_text().splitlines()[1:]]


def test_a_clock_set_back_writes_nothing_and_says_why_in_one_line(cli, tmp_path, clock):
    journal = _game(cli, tmp_path, clock)
    before = journal.read_bytes()
    clock(ORDERED - timedelta(minutes=30))
    for command in (("order", journal, "--as", "german", "end turn"),
                    ("extend", journal, "german", "2h"),
                    ("deadline", journal, "--set", "24h")):
        r = cli(*command)
        assert r.exit_code == 2, (command, r.output)
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in r.output, r.output
        assert "the clock (2026-11-23T18:30:00Z) is behind record 3's time " \
               "(2026-11-23T19:00:00Z)" in lines[0] and "nothing was written" in lines[0], \
            lines[0]
        assert journal.read_bytes() == before
    r = cli("order", journal, "--as", "german", "pass", "--format", "json")
    assert json.loads(r.stderr.strip().splitlines()[-1])["kind"] == "clock_behind"
    assert journal.read_bytes() == before


def test_a_minute_behind_is_skew_and_the_record_keeps_the_last_time(cli, tmp_path, clock):
    journal = _game(cli, tmp_path, clock)
    clock(ORDERED - timedelta(seconds=61))
    assert cli("extend", journal, "german", "2h").exit_code == 2
    clock(ORDERED - timedelta(seconds=60))
    r = cli("extend", journal, "german", "2h")
    assert r.exit_code == 0, r.output
    assert _times(journal)[-1] == "2026-11-23T19:00:00Z"        # not 18:59, never back
    assert _times(journal) == sorted(_times(journal))
    clock(ORDERED + timedelta(minutes=5))
    assert cli("extend", journal, "german", "1h").exit_code == 0
    assert _times(journal)[-1] == "2026-11-23T19:05:00Z"        # the clock's, once ahead


def test_an_old_journal_that_goes_back_in_time_is_verified_with_a_warning_and_plays_on(
        cli, tmp_path, clock, monkeypatch):
    """A record dated before the one it follows, as a referee before this check wrote it
    with the clock set back: verify passes with a warning, and the game goes on from the
    last record's time."""
    journal = _game(cli, tmp_path, clock)
    with monkeypatch.context() as older:        # the referee that wrote the past
        older.setattr(timeorder, "refuse_behind", lambda raw, name: None)
        older.setattr(timeorder, "in_order", lambda raw, bodies, name: bodies)
        clock(ORDERED - timedelta(minutes=30))
        assert cli("extend", journal, "german", "2h").exit_code == 0
    assert _times(journal)[-2:] == ["2026-11-23T19:00:00Z", "2026-11-23T18:30:00Z"]
    r = cli("verify", journal)
    assert r.exit_code == 0 and r.stdout.rstrip().endswith("verify: OK"), r.output
    assert "times: warning: 1 record is dated before a record it follows (the first: " \
           "record 4 at 2026-11-23T18:30:00Z, after one at 2026-11-23T19:00:00Z)" in r.stdout
    clock(ORDERED - timedelta(minutes=20))      # after the last record: plays on
    assert cli("extend", journal, "german", "1h").exit_code == 0
