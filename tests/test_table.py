"""The Table (referee/table/): one game's journal read and checked once, each position
replayed once, whatever a command or a mail pass asks of it."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from test_inbox import ADDRESSES, GAME, KEYS, SECRET, write_mbox

from referee.store import chain
from referee.store.dice import write_secret
from referee.store.journal import Journal


def _mailed_game(tmp_path: Path, cli) -> Path:
    """A 1914 game with both players and the moderator registered, their first reports
    sent (so the pass below owes each side one report: the news of the German's order)."""
    secret = tmp_path / "fixed.secret"
    write_secret(secret, SECRET)
    journal = tmp_path / "g.jsonl"
    r = cli("new", journal, "--scenario", "1914", "--game-id", GAME, "--secret-file", secret,
            *[a for side, addr in ADDRESSES.items() for a in ("--player", f"{side}={addr}")])
    assert r.exit_code == 0, r.output
    empty = write_mbox(tmp_path / "empty.mbox", [])
    r = cli("inbox", journal, empty, "--outbox", tmp_path / "first", "--format", "json")
    assert r.exit_code == 0, r.output
    assert len(json.loads(r.stdout)["outbox"]) == 2
    return journal


def _german_orders(tmp_path: Path) -> Path:
    raw = (f"From: kaiser@example.org\nTo: umpire@example.com\n"
           f"Subject: Re: [referee {GAME} #2] german report\n"
           f"Message-ID: <opening@potsdam.example.org>\n"
           f"Date: Sat, 01 Aug 1914 11:00:00 +0100\n\nplay offensive\nmove ge-1 liege\n\n"
           f"Order key: {KEYS['german']}\n").encode()
    return write_mbox(tmp_path / "box.mbox", [raw])


def test_an_inbox_pass_that_writes_two_reports_reads_and_checks_the_journal_once(
        tmp_path, cli, monkeypatch):
    """One message applied (two records), then a report to each side: the journal file is
    read once (its append reads it again under the lock, as every append must, and finds
    the bytes the Table holds), and no record is checked twice."""
    journal = _mailed_game(tmp_path, cli)
    box = _german_orders(tmp_path)
    before = len(journal.read_bytes().splitlines())
    reads, checked = [], Counter()
    real_raw, real_check, real_usual = Journal.raw, chain.check_line, chain._usual

    def raw(self):
        reads.append(self.path)
        return real_raw(self)

    def check_line(line, n, prev, name, *then):  # a line checked alone
        checked[n] += 1
        return real_check(line, n, prev, name, *then)

    def usual(rec, line, n, prev):              # a line of a batch, checked the quick way
        passed = real_usual(rec, line, n, prev)
        checked[n] += passed
        return passed

    monkeypatch.setattr(Journal, "raw", raw)
    monkeypatch.setattr(chain, "check_line", check_line)
    monkeypatch.setattr(chain, "_usual", usual)
    r = cli("inbox", journal, box, "--outbox", tmp_path / "out", "--format", "json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert [m["status"] for m in out["messages"]] == ["applied"]
    assert len(out["outbox"]) == 2, out["outbox"]
    after = len(journal.read_bytes().splitlines())
    assert after > before
    assert reads == [journal], reads
    assert checked and max(checked.values()) == 1, checked
    assert set(checked) == set(range(before)), "the records the pass found are checked"


def test_the_same_pass_without_the_table_would_read_again(tmp_path, cli, monkeypatch):
    """Negative control for the count above: a Table that forgets what it read after every
    append (as each step of the pass opening the journal for itself did) is seen."""
    from referee.table import Table

    journal = _mailed_game(tmp_path, cli)
    box = _german_orders(tmp_path)
    reads = []
    real_raw = Journal.raw
    monkeypatch.setattr(Journal, "raw", lambda self: reads.append(1) or real_raw(self))
    monkeypatch.setattr(Table, "_moved", lambda self, *a, **k: self.forget())
    r = cli("inbox", journal, box, "--outbox", tmp_path / "out", "--format", "json")
    assert r.exit_code == 0, r.output
    assert len(reads) > 1


def test_a_table_that_wrote_nothing_after_another_wrote_reads_again(game):
    """A Table holds a position; another process appends; this Table's empty append (what
    it had to write turned out to be nothing) sees bytes it did not hold: its records and
    its game are read again, never the old game beside the new records."""
    from referee.table import Table

    mine, theirs = Table.writing(game), Table.writing(game)
    assert mine.game().state.seq == mine.records[-1]["seq"] == 1
    result = theirs.submit("german", ["play offensive"])
    assert result.applied and theirs.game().state.seq == 2
    mine.append(lambda raw: (mine.position(raw).seq, mine.position(raw).hash, []))
    assert mine.records[-1]["seq"] == 2 and mine.game().state.seq == 2
    assert mine.raw == game.read_bytes()
