"""Signed lines pasted twice into one `--receipt` are named as such, never read as part of
the game id the receipt names (player.md: Receipts)."""

from __future__ import annotations

from test_receipt_order import pasted


def test_the_signed_lines_pasted_twice_are_named(cli, game):
    assert cli("order", game, "--as", "german", "pass").exit_code == 0
    genuine, receipt = pasted(cli, game)
    lines = genuine.splitlines()
    blob = receipt["signed"]
    for text in ("\n".join([*lines, *lines[1:-1]]),         # the Signed lines again, after
                 "\n".join([lines[0], *lines[1:-1], *lines[1:]]),     # or before the receipt
                 "\n".join([*lines, "Signed:"])):
        r = cli("verify", game, "--receipt", text)
        assert r.exit_code == 2, r.output
        [line] = r.stderr.strip().splitlines()
        assert f"Signed: {blob[:4]}…{blob[-3:]} is" in line, line
        assert "a receipt of game" not in line, line
