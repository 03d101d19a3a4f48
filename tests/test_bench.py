"""What `make bench` measures is what a user meets: its reads after the measure of an
account's first command are the moderator's own, vouched for by his marks."""

from __future__ import annotations

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
