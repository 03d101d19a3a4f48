"""A game's time zone: deadlines told in the players' time, weekends counted there.

Deadlines are no rule of the game: every expected time here is worked out by hand from
the zones' rules (CET is UTC+1 and CEST UTC+2, summer time in the EU beginning on Sunday
29 March 2026 at 01:00 UTC; PST is UTC-8 and PDT UTC-7, summer time in the US ending on
Sunday 1 November 2026 at 09:00 UTC; NZDT is UTC+13 in the New Zealand summer) and the
calendar (Monday 23 November 2026 is the day the games begin, so Saturday 28 November is
a Saturday). The games begin at 18:00 UTC unless a test says otherwise (commandclock.py).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from commandclock import START, at
from forging import game_key, resign
from mailboxes import write_maildir
from mailkinds import first_line
from test_deadlines import ADDRESSES, mails, new_game, records, status, text_of, verified

from referee.base import zones
from referee.base.clock import for_players, past_weekend
from referee.mail.inbox import inbox as mail_inbox
from referee.mail.reminders import check_deadlines
from referee.store.journal import line_of

DUE = datetime(2026, 11, 25, 18, 0, tzinfo=UTC)            # START + 48h: a Wednesday
PARIS_WORDS = "Orders due by Wed 25 Nov 19:00 CET (18:00 UTC)"


def deadline(cli, journal: Path, *options: str) -> dict:
    """`deadline --format json` with options (exit 0 asserted)."""
    r = cli("deadline", journal, *options, "--format", "json")
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


# ---------------------------------------------------------------- a time as players read it

# (the moment in UTC, the game's zone, the words), each worked out by hand.
TOLD = [
    (datetime(2026, 11, 28, 18, 0, tzinfo=UTC), None, "Sat 28 Nov 18:00 UTC"),
    (datetime(2026, 11, 28, 18, 0, tzinfo=UTC), "UTC", "Sat 28 Nov 18:00 UTC"),
    (datetime(2026, 11, 28, 18, 0, tzinfo=UTC), "Etc/UTC", "Sat 28 Nov 18:00 UTC"),
    (datetime(2026, 11, 28, 18, 0, tzinfo=UTC), "Europe/Paris",
     "Sat 28 Nov 19:00 CET (18:00 UTC)"),
    # The day there is another than in UTC: both days are told.
    (datetime(2026, 11, 29, 18, 0, tzinfo=UTC), "Pacific/Auckland",
     "Mon 30 Nov 07:00 NZDT (Sun 29 Nov 18:00 UTC)"),
    (datetime(2026, 11, 28, 3, 0, tzinfo=UTC), "America/Los_Angeles",
     "Fri 27 Nov 19:00 PST (Sat 28 Nov 03:00 UTC)"),
    # Summer time: Wednesday 1 July 2026.
    (datetime(2026, 7, 1, 12, 0, tzinfo=UTC), "Europe/London",
     "Wed 1 Jul 13:00 BST (12:00 UTC)"),
    (datetime(2026, 7, 1, 12, 0, tzinfo=UTC), "America/New_York",
     "Wed 1 Jul 08:00 EDT (12:00 UTC)"),
]


@pytest.mark.parametrize(("moment", "zone", "words"), TOLD)
def test_a_time_is_told_in_the_games_zone_with_utc_beside_it(moment, zone, words):
    assert for_players(moment, zone) == words
    assert len(f"Your orders were due by {words};") <= 72


# (the deadline before the weekend is skipped, the zone, the deadline after), by hand.
WEEKENDS = [
    # Saturday 18:00 UTC is Sunday 07:00 in Auckland: Monday 07:00 there.
    (datetime(2026, 11, 28, 18, 0, tzinfo=UTC), "Pacific/Auckland",
     datetime(2026, 11, 29, 18, 0, tzinfo=UTC)),
    # Friday 12:00 UTC is no weekend in UTC, but Saturday 01:00 in Auckland: Monday 01:00.
    (datetime(2026, 11, 27, 12, 0, tzinfo=UTC), "Pacific/Auckland",
     datetime(2026, 11, 29, 12, 0, tzinfo=UTC)),
    (datetime(2026, 11, 27, 12, 0, tzinfo=UTC), None,
     datetime(2026, 11, 27, 12, 0, tzinfo=UTC)),
    # Saturday 03:00 UTC is Friday 19:00 in Los Angeles: it stays; in UTC it moves.
    (datetime(2026, 11, 28, 3, 0, tzinfo=UTC), "America/Los_Angeles",
     datetime(2026, 11, 28, 3, 0, tzinfo=UTC)),
    (datetime(2026, 11, 28, 3, 0, tzinfo=UTC), None,
     datetime(2026, 11, 30, 3, 0, tzinfo=UTC)),
    # Saturday 18:00 UTC, 10:00 PST: Monday 10:00 PST.
    (datetime(2026, 11, 28, 18, 0, tzinfo=UTC), "America/Los_Angeles",
     datetime(2026, 11, 30, 18, 0, tzinfo=UTC)),
    # Summer time begins in Paris over the weekend: Saturday 28 March 19:00 CET (18:00
    # UTC) moves to Monday 30 March 19:00 CEST, 17:00 UTC (47 hours later, not 48).
    (datetime(2026, 3, 28, 18, 0, tzinfo=UTC), "Europe/Paris",
     datetime(2026, 3, 30, 17, 0, tzinfo=UTC)),
    # Summer time ends in Los Angeles over the weekend: Saturday 31 October 10:00 PDT
    # (17:00 UTC) moves to Monday 2 November 10:00 PST, 18:00 UTC (49 hours later).
    (datetime(2026, 10, 31, 17, 0, tzinfo=UTC), "America/Los_Angeles",
     datetime(2026, 11, 2, 18, 0, tzinfo=UTC)),
]


@pytest.mark.parametrize(("due", "zone", "moved"), WEEKENDS)
def test_a_weekend_is_skipped_on_the_zones_own_clock(due, zone, moved):
    assert past_weekend(due, zone) == moved


def test_the_zones_come_with_the_referee_where_the_system_has_none():
    # PYTHONTZPATH empty: zoneinfo looks in no system folder, as on a machine without
    # /usr/share/zoneinfo, and reads the tzdata package the referee depends on.
    code = ("from datetime import UTC, datetime; from referee.base.clock import for_players; "
            "print(for_players(datetime(2026, 11, 28, 18, 0, tzinfo=UTC), 'Europe/Paris'))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, "PYTHONTZPATH": ""}, timeout=60)
    assert done.stdout == "Sat 28 Nov 19:00 CET (18:00 UTC)\n", done.stderr


# ---------------------------------------------------------------- set by new and by deadline

def test_new_sets_the_zone_and_every_deadline_is_told_there(tmp_path, cli, clock):
    journal = new_game(tmp_path, cli, "via_cli", "--deadline", "48h", "--zone",
                       "Europe/Paris")
    settings = [r["clock"] for r in records(journal) if "clock" in r]
    assert settings[0]["zone"] == "Europe/Paris"
    view = status(cli, journal)["deadlines"]
    assert view["zone"] == "Europe/Paris"
    [due] = view["due"]
    assert (due["due"], due["words"]) == ("2026-11-25T18:00:00Z", PARIS_WORDS)
    assert f"German: {PARIS_WORDS}." in cli("status", journal).stdout
    assert f"German: {PARIS_WORDS}" in cli("deadline", journal).stdout
    assert verified(journal)


def test_deadline_sets_the_zone_and_utc_puts_it_back(tmp_path, cli, clock):
    journal = new_game(tmp_path, cli, "via_cli", "--deadline", "48h")
    view = deadline(cli, journal, "--zone", "America/New_York")
    assert view["zone"] == "America/New_York"
    # Wednesday 18:00 UTC is 13:00 in New York (EST, UTC-5).
    assert view["due"][0]["words"] == "Orders due by Wed 25 Nov 13:00 EST (18:00 UTC)"
    assert records(journal)[-1]["clock"] == {"kind": "settings", "zone": "America/New_York"}
    view = deadline(cli, journal, "--zone", "UTC")
    assert "zone" not in view
    assert view["due"][0]["words"] == "Orders due by Wed 25 Nov 18:00 UTC"
    assert records(journal)[-1]["clock"] == {"kind": "settings", "zone": "UTC"}
    assert verified(journal)


def test_a_game_without_a_zone_says_nothing_of_one(tmp_path, cli, clock):
    journal = new_game(tmp_path, cli, "via_cli", "--deadline", "48h")
    assert not any("zone" in r.get("clock", {}) for r in records(journal))
    view = status(cli, journal)["deadlines"]
    assert "zone" not in view
    assert view["due"][0]["words"] == "Orders due by Wed 25 Nov 18:00 UTC"


@pytest.mark.parametrize("zone", ["Europe/Pariss", "../../etc/passwd", "/etc/localtime",
                                  "localtime", "posix/Europe/Paris", "Europe/../UTC",
                                  "A" * 300, ""])
def test_an_unknown_zone_is_one_line_and_the_journal_is_unchanged(tmp_path, cli, clock,
                                                                  zone):
    journal = new_game(tmp_path, cli, "via_cli", "--deadline", "48h")
    before = journal.read_bytes()
    r = cli("deadline", journal, "--zone", zone)
    assert r.exit_code == 2 and r.stderr.count("\n") == 1, r.output
    assert f"--zone {zone[:20]!r}"[:-1] in r.stderr and "Europe/Paris" in r.stderr, r.stderr
    assert journal.read_bytes() == before
    r = cli("new", tmp_path / "n.jsonl", "--scenario", "1914", "--deadline", "48h",
            "--zone", zone)
    assert r.exit_code == 2 and r.stderr.count("\n") == 1 and "--zone" in r.stderr, r.output
    assert not (tmp_path / "n.jsonl").exists()


def test_a_zone_at_new_goes_with_a_deadline(tmp_path, cli, clock):
    r = cli("new", tmp_path / "n.jsonl", "--scenario", "1914", "--zone", "Europe/Paris")
    assert r.exit_code == 2 and "--zone go with --deadline" in r.stderr, r.output
    assert not (tmp_path / "n.jsonl").exists()


# ---------------------------------------------------------------- weekends in the zone

# (the zone, the game's deadline, the deadline worked out by hand from START with the
# weekend skipped there, and its words)
GAMES = [
    # Saturday 28 Nov 18:00 UTC is Sunday 07:00 NZDT: Monday 30 Nov 07:00 NZDT.
    ("Pacific/Auckland", "120h", "2026-11-29T18:00:00Z",
     "Orders due by Mon 30 Nov 07:00 NZDT (Sun 29 Nov 18:00 UTC)"),
    # Friday 27 Nov 12:00 UTC is Saturday 01:00 NZDT: Monday 30 Nov 01:00 NZDT.
    ("Pacific/Auckland", "90h", "2026-11-29T12:00:00Z",
     "Orders due by Mon 30 Nov 01:00 NZDT (Sun 29 Nov 12:00 UTC)"),
    # Saturday 28 Nov 03:00 UTC is Friday 19:00 PST: no weekend in Los Angeles.
    ("America/Los_Angeles", "105h", "2026-11-28T03:00:00Z",
     "Orders due by Fri 27 Nov 19:00 PST (Sat 28 Nov 03:00 UTC)"),
    # Saturday 28 Nov 18:00 UTC is Saturday 10:00 PST: Monday 10:00 PST.
    ("America/Los_Angeles", "120h", "2026-11-30T18:00:00Z",
     "Orders due by Mon 30 Nov 10:00 PST (18:00 UTC)"),
]


@pytest.mark.parametrize(("zone", "span", "due", "words"), GAMES)
def test_skip_weekends_skips_the_zones_weekend(tmp_path, cli, clock, zone, span, due, words):
    journal = new_game(tmp_path, cli, "via_cli", "--deadline", span, "--skip-weekends",
                       "--zone", zone)
    [shown] = status(cli, journal)["deadlines"]["due"]
    assert (shown["due"], shown["words"]) == (due, words)


@pytest.mark.parametrize(("begins", "zone", "due", "words"), [
    # Tuesday 24 March 18:00 UTC + 96h: Saturday 28 March 19:00 CET; summer time begins
    # on the Sunday, so Monday 30 March 19:00 is CEST, 17:00 UTC.
    (datetime(2026, 3, 24, 18, 0, tzinfo=UTC), "Europe/Paris", "2026-03-30T17:00:00Z",
     "Orders due by Mon 30 Mar 19:00 CEST (17:00 UTC)"),
    # Tuesday 27 October 17:00 UTC + 96h: Saturday 31 October 10:00 PDT; summer time ends
    # on the Sunday, so Monday 2 November 10:00 is PST, 18:00 UTC.
    (datetime(2026, 10, 27, 17, 0, tzinfo=UTC), "America/Los_Angeles",
     "2026-11-02T18:00:00Z", "Orders due by Mon 2 Nov 10:00 PST (18:00 UTC)"),
])
def test_a_skipped_weekend_keeps_the_hour_across_summer_time(tmp_path, cli, clock, begins,
                                                            zone, due, words):
    clock(begins)
    journal = new_game(tmp_path, cli, "via_cli", "--deadline", "96h", "--skip-weekends",
                       "--zone", zone)
    [shown] = status(cli, journal)["deadlines"]["due"]
    assert (shown["due"], shown["words"]) == (due, words)


def test_a_zone_set_later_moves_a_skipped_weekend(tmp_path, cli, clock):
    # In UTC, Saturday 28 Nov 03:00 moves to Monday; in Los Angeles it is Friday evening.
    journal = new_game(tmp_path, cli, "via_cli", "--deadline", "105h", "--skip-weekends")
    assert status(cli, journal)["deadlines"]["due"][0]["due"] == "2026-11-30T03:00:00Z"
    view = deadline(cli, journal, "--zone", "America/Los_Angeles")
    assert view["due"][0]["due"] == "2026-11-28T03:00:00Z"
    assert verified(journal)


# ---------------------------------------------------------------- mails and reminders

def test_a_players_mail_gives_his_deadline_in_the_zone(tmp_path, cli, clock):
    journal = new_game(tmp_path, cli, "via_cli", "--deadline", "48h", "--zone",
                       "Europe/Paris")
    mail_inbox(journal, [write_maildir(tmp_path / "none", [])], tmp_path / "mails",
               with_map=False)
    german = next(m for m in mails(tmp_path / "mails") if m["To"] == ADDRESSES["german"])
    assert f"{PARIS_WORDS}." in " ".join(text_of(german).split())
    assert all(len(line) <= 72 for line in text_of(german).splitlines())


def test_reminders_and_a_missed_deadline_are_told_in_the_zone(tmp_path, cli, clock):
    journal = new_game(tmp_path, cli, "via_cli", "--deadline", "48h", "--zone",
                       "Pacific/Auckland")
    out = tmp_path / "out"
    # Wednesday 25 Nov 18:00 UTC is Thursday 26 Nov 07:00 NZDT.
    told = "Thu 26 Nov 07:00 NZDT (Wed 25 Nov 18:00 UTC)"
    log = check_deadlines(journal, out, DUE - timedelta(hours=24))
    assert log == [f"reminder: the German player, orders due by {told} (24h before)"]
    [reminder] = mails(out)
    assert str(reminder["Subject"]) == "[referee mailtest] German player, SUMMER 1914"
    assert first_line(reminder).startswith("A reminder: your orders are due by Thu 26 Nov")
    assert " ".join(text_of(reminder).split()).count(told) == 1, text_of(reminder)
    assert all(len(line) <= 72 for line in text_of(reminder).splitlines())
    log = check_deadlines(journal, out, DUE + timedelta(hours=1))
    assert log == [f"missed: the German player's orders were due by {told}; waiting (the "
                   f"moderator is told)"]
    logged = " ".join(cli("log", journal).stdout.split())
    assert f"The German player was reminded 24h before the deadline, {told}" in logged, \
        logged
    assert f"The German player's orders were due by {told} and none came" in logged, logged
    seq = records(journal)[-1]["seq"]
    assert told in " ".join(cli("explain", journal, str(seq)).stdout.split())
    reported = " ".join(cli("report", journal, "--as", "german").stdout.split())
    assert f"Your orders were due by {told} and none came" in reported, reported
    reported = " ".join(cli("report", journal, "--as", "entente").stdout.split())
    assert f"The German player's orders were due by {told} and none came" in reported, \
        reported
    assert verified(journal)


# ---------------------------------------------------------------- a zone read back

@pytest.mark.parametrize(("zone", "why"), [
    ("../../etc/passwd", "is malformed"), ("/etc/localtime", "is malformed"),
    ("A" * 300, "is malformed"), ("localtime", "not the name of a time zone"),
    ("posixrules", "not the name of a time zone"), ("Mars/Olympus", "no time zone has"),
])
def test_a_record_with_a_hostile_zone_is_refused_cleanly(tmp_path, cli, clock, monkeypatch,
                                                         zone, why):
    journal = new_game(tmp_path, cli, "via_cli", "--deadline", "48h")
    recs = records(journal)
    recs.append(resign({"seq": len(recs), "prev": recs[-1]["hash"], "at": at(START),
                        "actor": "moderator", "order": "set deadlines", "events": [],
                        "clock": {"kind": "settings", "zone": zone}}, game_key(recs[0])))
    journal.write_bytes(b"".join(line_of(r) for r in recs))
    before = journal.read_bytes()
    asked: list[str] = []
    real = zones.zone_rules

    def looked_up(name: str):
        asked.append(name)
        return real(name)

    monkeypatch.setattr(zones, "zone_rules", looked_up)
    for command in (["status", journal], ["deadline", journal], ["verify", journal],
                    ["extend", journal, "24h"], ["deadline", journal, "--set", "72h"]):
        r = cli(*command)
        assert r.exit_code == 3 and r.stderr.count("\n") == 1, (command, r.output)
        assert f"record {len(recs) - 1}" in r.stderr, (command, r.stderr)
    assert why in cli("status", journal).stderr
    assert journal.read_bytes() == before
    # Only a name of a place's form reaches the time zone database.
    assert set(asked) <= {"Mars/Olympus"}, asked


def test_a_deadline_on_the_last_day_there_is_is_told_in_utc_where_the_zone_has_none(
        tmp_path, cli, clock):
    """A game begun at 12:00 UTC on Wednesday 29 December 9999 with a 48h deadline is due
    on Friday 31 December at 12:00 UTC, a time UTC can tell; on Kiritimati (UTC+14) it would
    be 02:00 on 1 January 10000, which no date holds. The game, as one in UTC is, can be made
    and read; the deadline is told in UTC alone."""
    clock(datetime(9999, 12, 29, 12, 0, tzinfo=UTC))
    journal = new_game(tmp_path, cli, "via_cli", "--deadline", "48h", "--zone",
                       "Pacific/Kiritimati")
    [due] = status(cli, journal)["deadlines"]["due"]
    assert (due["due"], due["words"]) == ("9999-12-31T12:00:00Z",
                                          "Orders due by Fri 31 Dec 12:00 UTC")
    r = cli("deadline", journal)
    assert r.exit_code == 0 and "German: Orders due by Fri 31 Dec 12:00 UTC" in r.stdout, \
        r.output
