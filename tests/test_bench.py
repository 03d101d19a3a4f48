"""What `make bench` measures is what a user meets: its reads after the measure of an
account's first command are the moderator's own, vouched for by his marks."""

from __future__ import annotations

import os
import shutil
import sys

import pytest

from referee.cli import bench
from referee.store import home, written


@pytest.fixture
def benched(cli, secret_file, monkeypatch):
    """A Bench (its own $REFEREE_HOME, the test's put back after) and a new 1914 game made
    in it, the account's key forgotten first."""
    monkeypatch.setenv("REFEREE_HOME", os.environ["REFEREE_HOME"])
    b = bench.Bench(1)
    try:
        home._KEY.clear()
        journal = b.tmp / "g.jsonl"
        assert cli("new", journal, "--scenario", "1914", "--secret-file",
                   secret_file).exit_code == 0
        yield b, journal
    finally:
        shutil.rmtree(b.tmp, ignore_errors=True)


def _files(folder) -> dict:
    return {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_the_reads_after_an_accounts_first_command_find_its_marks(benched):
    b, journal = benched
    raw = journal.read_bytes()
    assert written.wrote(raw) is not None
    no_key = [sys.executable, "-c", "import os, sys; "
              "sys.exit(os.path.exists(os.path.join(os.environ['REFEREE_HOME'], 'key')))"]
    b.measure_first("a command run without the account's key", no_key, short="first")
    home._KEY.clear()
    assert written.wrote(raw) is not None       # signed with the key the home has again


def test_the_reads_with_deadlines_read_a_game_with_deadlines_and_put_the_home_back(
        benched, cli, secret_file):
    """The rows of a game as mail has it: the journal they read holds the moderator's
    deadlines, and the moderator's home is as it was after them."""
    b, journal = benched
    assert cli("order", journal, "--as", "german", "pass").exit_code == 0
    kept = _files(b.home)
    bench._measure_deadline_reads(b, journal, secret_file, journal.read_bytes().count(b"\n"))
    assert [label for label, _ in b.rows] == [
        "status, cold, the campaign with deadlines", "show --format json, cold, with deadlines"]
    assert b'"clock":{"deadline":"72h"' in (b.tmp / "deadlines.jsonl").read_bytes()
    home._KEY.clear()
    assert _files(b.home) == kept
