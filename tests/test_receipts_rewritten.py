"""What a failing receipt says of the journal: rewritten where it holds the receipt's record
with another hash; cut back where it ends before that record, and then perhaps written again
from an earlier record, which the receipt alone cannot tell."""

from __future__ import annotations

import json

from forging import resign

from referee.store.journal import canonical


def _records(path):
    return [json.loads(line) for line in path.read_bytes().split(b"\n")[:-1]]


def _write(path, records):
    """Records chained, sealed and signed again (what the holder of the game's key can)."""
    out, prev = [], None
    for rec in records:
        rec = {k: v for k, v in rec.items() if k != "hash"}
        rec["prev"] = prev
        rec = resign(rec)
        prev = rec["hash"]
        out.append(rec)
    path.write_bytes(b"".join(canonical(r) + b"\n" for r in out))


def _export(game, cli, tmp_path):
    """An export of a game of a few records, and the receipt of its last record."""
    assert cli("order", game, "--as", "german", "pass", "end turn").exit_code == 0
    export = tmp_path / "entente.jsonl"
    export.write_text(cli("log", game, "--as", "entente", "--format", "json").stdout)
    records = _records(export)
    assert len(records) >= 4
    return export, records, f"{records[-1]['seq']}:{records[-1]['hash'][:32]}"


def test_a_journal_rewritten_shorter_is_not_told_as_only_cut_back(game, cli, tmp_path):
    export, records, receipt = _export(game, cli, tmp_path)
    fork = records[:-1]
    fork[-1] = {**fork[-1], "at": "2001-01-01T00:00:00Z"}      # its last record written again
    _write(export, fork)
    r = cli("verify", export, "--export", "entente", "--receipt", receipt)
    assert r.exit_code == 3, r.output
    assert (f"names record {records[-1]['seq']}, but the journal ends at record "
            f"{fork[-1]['seq']}") in r.stderr
    assert "cut back (rewound), perhaps also written again from an earlier record" in r.stderr


def test_a_journal_holding_the_record_with_another_hash_was_rewritten(game, cli, tmp_path):
    export, records, receipt = _export(game, cli, tmp_path)
    records[-1] = {**records[-1], "at": "2001-01-01T00:00:00Z"}
    _write(export, records)
    r = cli("verify", export, "--export", "entente", "--receipt", receipt)
    assert r.exit_code == 3 and "the journal was rewritten after the receipt" in r.stderr
    assert "cut back" not in r.stderr
