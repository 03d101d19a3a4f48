"""A signed receipt of record N counts only when signed by the key the game had at record N
(the journal's key changes say which), and `--key` pins receipts as the fingerprint line
pasted with them does (player.md: Receipts; security.md: a key change is how a leak is
recovered from, so the key it retires must not vouch for what came after it)."""

from __future__ import annotations

import base64
import hashlib

from forging import records, shown
from test_receipt_order import pasted

from referee.game import signedreceipt
from referee.game.receipts import receipt_line
from referee.store import signing


def _rekeyed(cli, game) -> tuple[str, str, int]:
    """A game played on after a key change: (old key, new key, the key change's record)."""
    assert cli("order", game, "--as", "german", "pass").exit_code == 0
    assert cli("rekey", game).exit_code == 0
    change = records(game)[-1]
    assert cli("order", game, "--as", "german", "move ge-5 luxembourg").exit_code == 0
    return records(game)[0]["signing"]["fingerprint"], change["signing"]["fingerprint"], \
        change["seq"]


def forged(game, fpr: str, seq: int, made_up: str = "made up") -> str:
    """A receipt of record seq, for a hash of the signer's choice, signed by key fpr (which
    this user's referee home holds): what whoever holds that key can make."""
    header = records(game)[0]
    digest = hashlib.sha256(made_up.encode()).hexdigest()
    key = signing.held(fpr)
    blob = base64.urlsafe_b64encode(
        bytes([signedreceipt.FORM]) + bytes.fromhex(digest) + bytes.fromhex(header["hash"])
        + key.sign_receipt(header["game_id"], header["hash"], seq, digest)).decode()
    return "\n".join([*signedreceipt.lines(blob), receipt_line(header["game_id"], seq, digest)])


def _refused(cli, game, receipt: str, *more: str) -> str:
    r = cli("verify", game, "--receipt", receipt, *more)
    assert r.exit_code == 3, r.output
    lines = r.stderr.strip().splitlines()
    assert "proof, to anyone" not in lines[0] and "rewritten after" not in lines[0], lines
    return lines[0]


def test_a_key_retired_by_rekey_cannot_convict_a_later_record(cli, game):
    old, new, change = _rekeyed(cli, game)
    line = _refused(cli, game, forged(game, old, change + 1))
    assert f"signed by key {shown(old)}, but record {change + 1} had key {shown(new)}" in line
    # nor the new key a record the old one signed (the key change itself is the old key's)
    line = _refused(cli, game, forged(game, new, change))
    assert f"signed by key {shown(new)}, but record {change} had key {shown(old)}" in line
    # what each key signed in its own time is still proof
    r = cli("verify", game, "--receipt", forged(game, old, change))
    assert r.exit_code == 3 and "proof, to anyone with the mail" in r.stderr, r.output


def test_key_pins_a_receipt_as_its_fingerprint_line_does(cli, game):
    old, new, change = _rekeyed(cli, game)
    text, _ = pasted(cli, game)             # of the last record, the new key's
    bare = "\n".join(text.splitlines()[1:])                 # without its fingerprint line
    assert cli("verify", game, "--receipt", bare, "--key", shown(new)).exit_code == 0
    line = _refused(cli, game, bare, "--key", shown(old))
    assert f"signed by key {shown(new)}, the one record {change + 1} had, not by key " \
           f"{shown(old)} that --key pins" in line, line
    pinned = f"Fingerprint: {shown(old)}\n{bare}"
    line = _refused(cli, game, pinned)
    assert f"not by key {shown(old)} that the fingerprint line pasted with it pins" in line


def test_a_key_that_took_over_later_vouches_for_an_older_receipt(cli, game):
    assert cli("order", game, "--as", "german", "pass").exit_code == 0
    older, _ = pasted(cli, game)            # record 1, signed by the first key
    assert cli("rekey", game).exit_code == 0
    new = records(game)[-1]["signing"]["fingerprint"]
    assert cli("order", game, "--as", "german", "move ge-5 luxembourg").exit_code == 0
    bare = "\n".join(older.splitlines()[1:])
    r = cli("verify", game, "--receipt", bare, "--key", shown(new))
    assert r.exit_code == 0, r.output
