"""A verify that fails still says every check it made, one line each, passed or failed, then
its verdict: the chain and the signatures over the whole journal (a record re-signed after an
edit leaves every record signed, not just those before it), the check that failed, the
receipts; in JSON the error object's `checks` holds the same lines."""

from __future__ import annotations

import json

from forging import records, write_resigned


def _edited_early(game, cli):
    assert cli("order", game, "--as", "german", "pass", "end turn").exit_code == 0
    recs = records(game)
    assert len(recs) >= 4
    recs[2]["events"] = recs[2]["events"][:-1]       # a ruling edited, every record re-signed
    write_resigned(game, recs)
    return recs


def test_a_failed_verify_says_every_check_and_the_signatures_of_every_record(game, cli):
    recs = _edited_early(game, cli)
    r = cli("verify", game)
    assert r.exit_code == 3, r.output
    out = r.stdout.splitlines()
    last = recs[-1]["seq"]
    assert out[0] == f"chain: {len(recs)} records, every hash and link checks", r.stdout
    assert out[1].startswith(f"signatures: records 0-{last}, each signed by "), r.stdout
    assert out[2].startswith("rulings: FAILED: record 2: ") and \
        out[2].endswith("(the records after it were not decided again)"), r.stdout
    assert out[-1] == "verify: FAILED (rulings)", r.stdout
    assert "record 2" in r.stderr


def test_in_json_the_error_object_holds_the_same_checks(game, cli):
    recs = _edited_early(game, cli)
    text = cli("verify", game).stdout.splitlines()
    r = cli("verify", game, "--format", "json")
    assert r.exit_code == 3 and r.stdout == "", r.output
    error = json.loads(r.stderr)
    assert error["record"] == 2 and error["checks"] == text
    assert error["checks"][1].startswith(f"signatures: records 0-{recs[-1]['seq']}")
