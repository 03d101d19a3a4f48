"""A journal with a record taken out, or two records swapped, is refused on one line that
says so ("record 50 is missing", "records 20 and 21 are swapped"), not by the bare "out of
order: it says seq 51" that left the reader to work it out; wherever the lines fall in the
batches the reader decodes together (chain.BATCH)."""

from __future__ import annotations

import pytest

from referee.base.errors import JournalError
from referee.store import chain
from referee.store.chain import line_of, parse, seal


def _journal(count: int) -> list[dict]:
    recs = [seal({"seq": 0, "prev": None, "schema_version": chain.SCHEMA_VERSION})]
    for n in range(1, count):
        recs.append(seal({"seq": n, "prev": recs[-1]["hash"], "order": f"pass {n}"}))
    return recs


def _fault(recs: list[dict]) -> JournalError:
    with pytest.raises(JournalError) as err:
        parse(b"".join(line_of(r) for r in recs), "j.jsonl")
    return err.value


@pytest.mark.parametrize("gone", [5, chain.BATCH - 1, chain.BATCH, 99])
def test_a_record_taken_out_is_named_missing(gone):
    recs = _journal(120)
    del recs[gone]
    err = _fault(recs)
    assert str(err).startswith(f"j.jsonl: record {gone} is missing (the next line says seq "
                               f"{gone + 1}); restore the journal from a backup"), err
    assert err.record == gone


def test_records_taken_out_together_are_named_as_a_range():
    recs = _journal(30)
    del recs[10:13]
    assert "records 10 to 12 are missing (the next line says seq 13)" in str(_fault(recs))


@pytest.mark.parametrize("first", [20, chain.BATCH - 1])
def test_two_records_swapped_are_named_swapped(first):
    """The second pair lies across two batches: the line after the first is the next
    batch's first."""
    recs = _journal(120)
    recs[first], recs[first + 1] = recs[first + 1], recs[first]
    err = _fault(recs)
    assert f"records {first} and {first + 1} are swapped: where record {first} belongs the " \
        f"journal holds record {first + 1}, and record {first} after it" in str(err), err


def test_a_record_put_back_again_says_it_comes_before():
    recs = _journal(30)
    recs.insert(12, recs[7])
    assert "record 12 is out of order: where it belongs the journal holds record 7 again" in \
        str(_fault(recs))


def test_the_command_line_says_it_on_one_line(game, cli):
    for order in ("pass", "move ge-5 luxembourg"):
        assert cli("order", game, "--as", "german", order).exit_code == 0
    lines = game.read_bytes().splitlines(keepends=True)
    game.write_bytes(b"".join(lines[:2] + lines[3:]))
    for command in ("status", "verify", "log"):
        r = cli(command, game)
        assert r.exit_code == 3 and r.stderr.count("\n") == 1, r.output
        assert "record 2 is missing (the next line says seq 3)" in r.stderr, r.stderr
