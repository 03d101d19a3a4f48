"""Receipts a rewritten journal no longer holds: the receipts line says first where the journal
differs from them (and that a receipt cannot tell what changed there), and a receipt two
mails carry is said once."""

from __future__ import annotations

from forging import records, write_resigned


def test_the_first_record_that_differs_is_said_and_a_receipt_given_twice_once(game, cli,
                                                                               tmp_path):
    assert cli("order", game, "--as", "german", "pass", "end turn").exit_code == 0
    export = tmp_path / "entente.jsonl"
    export.write_text(cli("log", game, "--as", "entente", "--format", "json").stdout)
    recs = records(export)
    receipts = [f"{r['seq']}:{r['hash'][:32]}" for r in recs[1:]]
    receipts.append(receipts[-1])                       # the last one, in two mails
    recs[2] = {**recs[2], "at": "2001-01-01T00:00:00Z"}       # written again from 2
    write_resigned(export, recs)
    r = cli("verify", export, "--export", "entente",
            *[a for x in receipts for a in ("--receipt", x)])
    assert r.exit_code == 3, r.output
    line = next(x for x in r.stdout.splitlines() if x.startswith("receipts:"))
    assert line.endswith(": the journal differs from the receipts from record 2 on: "
                         "rewritten since the mails were sent; a receipt holds only its "
                         "record's hash, so what changed in record 2 it cannot tell"), line
    failing = r.stderr.splitlines()
    assert len(failing) == len(recs) - 2, r.stderr      # each record from 2 on, once
    assert len(set(failing)) == len(failing)
