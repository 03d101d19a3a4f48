"""Every receipt `verify --receipt` is given is checked, whatever their order: two pasted with
the same Signed lines but another receipt line under them are two receipts, and one that
fails is not hidden by a genuine one given after it (player.md: Receipts)."""

from __future__ import annotations

import json

from referee.game import signedreceipt
from referee.game.receipts import key_line, receipt_line


def pasted(cli, journal, side: str = "german") -> tuple[str, dict]:
    """The receipt of the journal's last record as a mail ends with it (key line, Signed
    lines, receipt), from the report this user's referee makes; and the report's receipt."""
    report = json.loads(cli("report", journal, "--as", side, "--format", "json").stdout)
    receipt = report["receipt"]
    assert receipt["signed"], receipt
    return "\n".join([key_line(receipt["fingerprint"]),
                      *signedreceipt.lines(receipt["signed"]),
                      receipt_line(report["game_id"], receipt["seq"], receipt["hash"])]), receipt


def test_a_genuine_receipt_after_an_altered_copy_does_not_hide_it(cli, game):
    assert cli("order", game, "--as", "german", "pass").exit_code == 0
    genuine, receipt = pasted(cli, game)
    head, _, tail = genuine.rpartition(":")
    altered = f"{head}:{'f' if tail[0] != 'f' else 'e'}{tail[1:]}"     # the receipt line only
    for order in ([altered, genuine], [genuine, altered]):
        r = cli("verify", game, *[a for item in order for a in ("--receipt", item)])
        assert r.exit_code == 3, (order, r.output)
        assert "receipts: 2 checked (2 with a signature), 1 in the journal as they were, " \
               "1 not (below)" in r.stdout, r.output
        [line] = r.stderr.strip().splitlines()
        assert "a forged receipt" in line, line


def test_the_count_is_of_every_receipt_given(cli, game):
    assert cli("order", game, "--as", "german", "pass").exit_code == 0
    genuine, receipt = pasted(cli, game)
    bare = f"{receipt['seq']}:{receipt['hash'][:32]}"
    r = cli("verify", game, "--receipt", genuine, "--receipt", genuine, "--receipt", bare,
            "--receipt", bare)
    assert r.exit_code == 0, r.output
    assert "receipts: 4 checked (2 with a signature), each record is in the journal as it " \
           "was" in r.stdout, r.output
