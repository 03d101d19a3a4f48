"""What a pass of `tick` or `watch` logs for the moderator who reads a cron or service log:
each problem once, a last line that counts the games, and the pass's time on each line."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest
from commandclock import START
from mailboxes import write_maildir
from test_inbox import ADDRESSES, SECRET

from referee.mail import tick as ticking
from referee.store.dice import write_secret


def folder_of_games(tmp_path: Path, cli, *unrouted: str, options=()) -> Path:
    """A folder holding the game `club` (its mail read from a Maildir, its mails written to
    an outbox) and, for each name in unrouted, a game with no mail target."""
    games = tmp_path / "games"
    games.mkdir()
    secret = tmp_path / "fixed.secret"
    write_secret(secret, SECRET)
    players = [a for side, addr in ADDRESSES.items() for a in ("--player", f"{side}={addr}")]
    box = write_maildir(tmp_path / "box", [])
    for name in ("club", *unrouted):
        route = ("--mail-in", box, "--mail-out", f"outbox:{tmp_path / 'out'}") \
            if name == "club" else ()
        r = cli("new", games / f"{name}.jsonl", "--scenario", "1914", "--game-id", name,
                "--secret-file", secret, *players, *route, *options)
        assert r.exit_code == 0, r.output
    return games


def test_a_pass_with_a_problem_names_it_once_and_ends_with_its_count(tmp_path, cli):
    """cron's `>> log 2>&1` takes both streams: the problem is named on stdout with its
    game, the pass ends with a line counting the games, and stderr's one line says how
    many problems there are rather than repeating the first."""
    games = folder_of_games(tmp_path, cli, "lone")
    r = cli("tick", games, "--no-map")
    assert r.exit_code == 3, r.output
    both = r.stdout + r.stderr
    assert both.count("no mail target") == 1, both
    assert r.stdout.splitlines()[-1].endswith("2 games: 1 handled, 1 problem"), r.stdout
    assert r.stderr == "referee: 1 problem in 2 games (see above)\n", r.stderr
    # JSON: one document on stdout, one error object (the first problem) on stderr.
    r = cli("tick", games, "--no-map", "--format", "json")
    assert r.exit_code == 3
    doc, [error] = json.loads(r.stdout), r.stderr.splitlines()
    assert doc["ok"] is False and len(doc["problems"]) == 1
    error = json.loads(error)
    assert error["kind"] == "transport" and error["error"] == doc["problems"][0], error


@pytest.mark.parametrize("served", ["journal", "folder"])
def test_a_journal_that_cannot_be_read_counts_among_the_pass_s_games(tmp_path, cli, served):
    """A torn journal is a game the pass found and could not handle: its last line counts
    it ('1 game: 0 handled, 1 problem'), whether tick was given the journal or its folder,
    rather than a pass over '0 games' with a problem in none."""
    games = folder_of_games(tmp_path, cli, "lone")
    lone = games / "lone.jsonl"
    lone.write_bytes(lone.read_bytes()[:-50])                    # its last line torn
    r = cli("tick", lone if served == "journal" else games, "--no-map")
    assert r.exit_code == 3, r.output
    want = ("1 game: 0 handled, 1 problem", "1 problem in 1 game") if served == "journal" \
        else ("2 games: 1 handled, 1 problem", "1 problem in 2 games")
    assert r.stdout.splitlines()[-1].endswith(want[0]), r.stdout
    assert r.stderr == f"referee: {want[1]} (see above)\n", r.stderr


def test_every_line_of_tick_and_watch_begins_with_the_pass_s_time(tmp_path, cli, clock):
    """A service's log and a cron log have no time of their own: each line of `watch` and
    of `tick` begins with its pass's time, from the commands' clock (ISO 8601, UTC, to the
    second); the line on stderr is the error, as every command's."""
    games = folder_of_games(tmp_path, cli, "lone", options=("--deadline", "48h"))
    clock(START + timedelta(minutes=5))
    r = cli("tick", games, "--no-map")
    out = r.stdout.splitlines()
    assert out[-1] == "2026-11-23T18:05:00Z 2 games: 1 handled, 1 problem", r.stdout
    assert out[0] == (f"2026-11-23T18:05:00Z lone: problem  no mail target: `referee mail "
                      f"{games / 'lone.jsonl'} --out TARGET` sets one"), r.stdout
    assert all(line.startswith("2026-11-23T18:05:00Z ") for line in out)
    assert r.stderr == "referee: 1 problem in 2 games (see above)\n", r.stderr
    lines: list[str] = []
    moments = [START + timedelta(hours=25)]

    def wait(seconds: float) -> bool:
        if not moments:
            return True
        clock(moments.pop())
        return False

    assert ticking.watch(games, 300.0, log=lines.append, with_map=False, wait=wait) == 2
    assert lines[0].startswith("2026-11-23T18:05:00Z lone: problem  no mail target"), lines
    assert ("2026-11-24T19:00:00Z club: reminder: the German player, orders due by Wed 25 Nov "
            "18:00 UTC (23h before)") in lines, lines
    assert all(line[:21] in ("2026-11-23T18:05:00Z ", "2026-11-24T19:00:00Z ")
               for line in lines), lines
