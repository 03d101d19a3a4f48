"""A skirmish's orders from a script carry the stale-view guard a campaign's do: with
`--expect-seq N`, the record its writer read, they are refused (exit 1, kind stale_view,
nothing recorded) once the journal has moved past N, as when the other side's done came in
between in a phase both sides play at once; an N the journal does not hold yet is a usage
error (exit 2). They refused the option outright ("a skirmish's orders take none")."""

from __future__ import annotations

import json

import pytest


def _status(cli, j) -> dict:
    return json.loads(cli("status", j, "--format", "json").stdout)


@pytest.mark.parametrize("command", [("order",), ("skirmish", "order")])
def test_an_order_written_against_the_last_record_is_taken(cli, patrol, command):
    seq = _status(cli, patrol)["seq"]
    r = cli(*command, patrol, "--as", "british", "--expect-seq", str(seq), "done")
    assert r.exit_code == 0, r.output
    assert _status(cli, patrol)["seq"] == seq + 1


@pytest.mark.parametrize("command", [("order",), ("skirmish", "order")])
def test_an_order_written_against_an_older_record_is_refused_as_stale(cli, patrol, command):
    assert cli("order", patrol, "--as", "british", "done").exit_code == 0
    before = patrol.read_bytes()
    r = cli(*command, patrol, "--as", "german", "--expect-seq", "0", "done")
    assert r.exit_code == 1, r.output
    assert "the journal has moved on: its last record is 1, the order was written against " \
        "record 0 (--expect-seq)" in r.stderr, r.stderr
    assert patrol.read_bytes() == before
    r = cli(*command, patrol, "--as", "german", "--expect-seq", "0", "done", "--format", "json")
    assert r.exit_code == 1, r.output
    error = json.loads(r.stderr.splitlines()[-1])
    assert (error["kind"], error["exit"]) == ("stale_view", 1), error
    doc = json.loads(r.stdout)
    assert doc["rejected"]["order"] == "done" and "moved on" in doc["rejected"]["error"], doc
    assert patrol.read_bytes() == before


@pytest.mark.parametrize("command", [("order",), ("skirmish", "order")])
def test_a_record_the_journal_does_not_hold_is_a_usage_error(cli, patrol, command):
    before = patrol.read_bytes()
    r = cli(*command, patrol, "--as", "british", "--expect-seq", "5", "done")
    assert r.exit_code == 2, r.output
    assert "--expect-seq 5: the journal has records 0 to 0" in r.stderr, r.stderr
    assert patrol.read_bytes() == before
