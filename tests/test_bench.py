"""What `make bench` measures is what a user meets: its reads after the measure of an
account's first command are the moderator's own, vouched for by his marks."""

from __future__ import annotations

import os
import shutil
import sys

from referee.cli import bench
from referee.store import home, written


def test_the_reads_after_an_accounts_first_command_find_its_marks(cli, secret_file):
    b = bench.Bench(1)
    try:
        home._KEY.clear()
        journal = b.tmp / "g.jsonl"
        assert cli("new", journal, "--scenario", "1914", "--secret-file",
                   secret_file).exit_code == 0
        raw = journal.read_bytes()
        assert written.wrote(raw) is not None
        no_key = [sys.executable, "-c", "import os, sys; "
                  "sys.exit(os.path.exists(os.path.join(os.environ['REFEREE_HOME'], 'key')))"]
        b.measure_first("a command run without the account's key", no_key, short="first")
        home._KEY.clear()
        assert written.wrote(raw) is not None       # signed with the key the home has again
    finally:
        shutil.rmtree(b.tmp, ignore_errors=True)


def test_the_reads_with_deadlines_read_a_game_with_deadlines_and_put_the_home_back(
        cli, secret_file, monkeypatch):
    """The rows of a game as mail has it: the journal they read holds the moderator's
    deadlines, and the moderator's home is as it was after them."""
    monkeypatch.setenv("REFEREE_HOME", os.environ["REFEREE_HOME"])  # put back after the test
    b = bench.Bench(1)
    try:
        home._KEY.clear()
        journal = b.tmp / "g.jsonl"
        assert cli("new", journal, "--scenario", "1914", "--secret-file",
                   secret_file).exit_code == 0
        assert cli("order", journal, "--as", "german", "pass").exit_code == 0
        kept = {p.relative_to(b.home): p.read_bytes() for p in b.home.rglob("*")
                if p.is_file()}
        bench._measure_deadline_reads(b, journal, secret_file,
                                      journal.read_bytes().count(b"\n"))
        assert [label for label, _ in b.rows] == [
            "status, cold, the campaign with deadlines", "show --format json, cold, with deadlines"]
        assert b'"clock":{"deadline":"72h"' in (b.tmp / "deadlines.jsonl").read_bytes()
        home._KEY.clear()
        assert {p.relative_to(b.home): p.read_bytes() for p in b.home.rglob("*")
                if p.is_file()} == kept
    finally:
        shutil.rmtree(b.tmp, ignore_errors=True)
