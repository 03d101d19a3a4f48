"""A journal edited at one record and chained again without the key is refused by the commands
that read or write it naming where the forgery begins, the record `verify` names, not only
the last record, whose signature alone a read checks (it is the first that gives it away)."""

from __future__ import annotations

from pathlib import Path

import pytest
from forging import records

from referee.store.chain import canonical, seal


@pytest.fixture
def played(game, cli):
    """The test game a few records on."""
    for order in ("pass", "move ge-5 luxembourg"):
        assert cli("order", game, "--as", "german", order).exit_code == 0
    assert cli("deadline", game, "--set", "48h").exit_code == 0
    return game


def _chained_again(journal, at: int, unsigned: bool = False) -> int:
    """Record `at` edited, every record sealed and chained again without the key (signatures
    kept, or dropped from `at` on); returns the last record's seq."""
    recs, prev, out = records(journal), None, []
    recs[at]["at"] = "2020-01-01T00:00:00Z"
    for n, rec in enumerate(recs):
        dropped = ("hash", "sig") if unsigned and n >= at else ("hash",)
        rec = seal({**{k: v for k, v in rec.items() if k not in dropped},
                    **({"prev": prev} if prev else {})})
        prev = rec["hash"]
        out.append(canonical(rec) + b"\n")
    journal.write_bytes(b"".join(out))
    return len(recs) - 1


@pytest.mark.parametrize("unsigned", [False, True])
def test_the_refusal_names_the_record_the_forgery_begins_at(played, cli, unsigned):
    last = _chained_again(played, 1, unsigned)
    assert last >= 3
    verify = cli("verify", played)
    assert verify.exit_code == 3 and "record 1: " in verify.stderr, verify.stderr
    for argv in (["status"], ["log"], ["deadline", "--set", "48h"],
                 ["order", "--as", "german", "pass"]):
        r = cli(argv[0], played, *argv[1:])
        assert r.exit_code == 3 and r.stderr.count("\n") == 1, (argv, r.output)
        assert "from record 1 on (the first whose signature fails, as `referee verify` " \
               "names it)" in r.stderr, (argv, r.stderr)
        assert f"record {last} " in r.stderr, (argv, r.stderr)


def test_a_forgery_of_the_last_record_alone_names_no_other(played, cli):
    last = _chained_again(played, len(records(played)) - 1)
    r = cli("status", played)
    assert r.exit_code == 3 and f"record {last} names key" in r.stderr
    assert "from record" not in r.stderr, r.stderr


def test_a_forged_route_is_refused_with_the_step_the_guide_gives(played, cli, tmp_path):
    """A route record put in by someone who can write the folder (unsigned): every command
    refuses it on one line that ends with what to do, the step the guide's Repair section
    gives for a journal someone without the key wrote to."""
    from mailservers import forge_route

    forge_route(played, None, f"outbox:{tmp_path / 'out'}")
    step = ("put back the copy from your last backup, or a .bak that `referee repair` left, "
            "and run `referee verify` on it (docs/moderator.md, Repair)")
    before = played.read_bytes()
    for argv in (["mail", "--out", f"outbox:{tmp_path / 'o2'}"], ["tick", "--no-map"],
                 ["status"], ["order", "--as", "german", "pass"]):
        r = cli(argv[0], played, *argv[1:])
        assert r.exit_code == 3, (argv, r.output)
        line = next((x for x in (r.stderr + r.stdout).splitlines()
                     if "carries no signature" in x), r.output)
        assert line.endswith(f": {step}"), line
    assert played.read_bytes() == before
    guide = Path("docs/moderator.md").read_text()
    repair = guide[guide.index("\n## Repair\n"):guide.index("\n## When the game is over")]
    assert "Put back the copy from your last backup, or a `.bak` that\n`repair` left, and run " \
           "`referee verify` on it" in repair
