"""verify with receipts that fail names every one of them, one line each, and still says what
it found of the chain and the signatures (exit 3, as for one)."""

from __future__ import annotations

import json

from forging import records, write_resigned


def _played(game, cli):
    assert cli("order", game, "--as", "german", "pass", "end turn").exit_code == 0
    recs = records(game)
    assert len(recs) >= 4
    return recs


def _receipt(rec):
    return f"{rec['seq']}:{rec['hash'][:32]}"


def test_every_failing_receipt_is_named_beside_the_chain_and_signatures(game, cli, tmp_path):
    _played(game, cli)
    export = tmp_path / "entente.jsonl"
    export.write_text(cli("log", game, "--as", "entente", "--format", "json").stdout)
    recs = records(export)
    receipts = [_receipt(r) for r in recs[1:]]
    recs[2] = {**recs[2], "at": "2001-01-01T00:00:00Z"}       # written again from 2
    write_resigned(export, recs)
    r = cli("verify", export, "--export", "entente", *[a for x in receipts
                                                         for a in ("--receipt", x)])
    assert r.exit_code == 3, r.output
    failing = r.stderr.splitlines()
    assert len(failing) == len(recs) - 2, r.stderr       # each record from 2 on
    for rec, line in zip(recs[2:], failing):
        assert line.startswith(f"referee: entente.jsonl: receipt {rec['seq']}:"), line
        assert "rewritten after the receipt" in line
    out = r.stdout.splitlines()
    assert out[0].startswith(f"chain: {len(recs)} records")
    assert out[1].startswith("signatures: records 0-") and "game's key" in out[1]
    assert f"receipts: {len(receipts)} checked, 1 in the journal as they were" in r.stdout
    assert "verify: OK" not in r.stdout
    r = cli("verify", export, "--export", "entente", "--format", "json",
            *[a for x in receipts for a in ("--receipt", x)])
    error = json.loads(r.stderr)
    assert r.exit_code == 3 and error["record"] == 2 and r.stdout == ""
    assert all(f"receipt {x}" in error["error"] for x in receipts[1:])


def test_a_ruling_that_fails_too_is_said_after_the_receipts(game, cli):
    recs = _played(game, cli)
    receipts = [_receipt(recs[1]), _receipt(recs[-1])]
    last = recs[-1]
    last["events"] = last["events"][:-1]                    # a ruling edited and signed again
    write_resigned(game, recs)
    r = cli("verify", game, "--receipt", receipts[0], "--receipt", receipts[1])
    assert r.exit_code == 3, r.output
    lines = r.stderr.splitlines()
    assert len(lines) == 2, r.stderr
    assert f"receipt {receipts[1]}" in lines[0] and "rewritten" in lines[0]
    assert f"record {last['seq']}" in lines[1] and "receipt" not in lines[1]
    out = r.stdout.splitlines()          # every check, passed or failed, then the verdict
    assert out[0] == f"chain: {len(recs)} records, every hash and link checks", r.stdout
    assert out[1].startswith(
        f"signatures: records 0-{last['seq']}, each signed by the game's key "), r.stdout
    assert out[2].startswith(f"rulings: FAILED: record {last['seq']}: "), r.stdout
    assert out[3].startswith("receipts: 2 checked, 1 in the journal as they were, 1 not")
    assert out[4:] == ["verify: FAILED (rulings; receipts)"], r.stdout
