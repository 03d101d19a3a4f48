"""A signed receipt names record 0's hash as well as the game id (a game id is the
moderator's to choose, `new --game-id`; record 0 is not): a receipt moved to another game
of the same id and key is not taken for proof that that game's journal was rewritten. Mails
sent before carry the older form, which names no record 0: they still check, and say what
they cannot tell (player.md: Receipts; security.md: Signed receipts)."""

from __future__ import annotations

import base64

from forging import as_user, fixed_key, records, shown
from test_receipt_order import pasted

from referee.game import signedreceipt
from referee.game.receipts import receipt_line
from referee.store import signing
from referee.store.dice import write_secret


def _twins(cli, tmp_path, monkeypatch, referee_home):
    """Two games made under one id and one key (their dice secrets differ), each played one
    record on, the second in another referee home (one home keeps one game of an id and
    key); the first home's is in force again when this returns. Each game's journal and its
    last mail's receipt."""
    key = fixed_key(tmp_path / "keys")
    games = []
    for name, secret in (("b", "6f"), ("a", "5e")):
        as_user(monkeypatch, tmp_path / "home-b" if name == "b" else referee_home)
        journal = tmp_path / name / "war.jsonl"
        journal.parent.mkdir()
        write_secret(tmp_path / name / "fixed.secret", bytes.fromhex(secret * 32))
        r = cli("new", journal, "--scenario", "1914", "--game-id", "war", "--secret-file",
                tmp_path / name / "fixed.secret", "--signing-key", key)
        assert r.exit_code == 0, r.output
        assert cli("order", journal, "--as", "german", "pass").exit_code == 0
        games.insert(0, (journal, pasted(cli, journal)[0]))
    assert records(games[0][0])[0]["hash"] != records(games[1][0])[0]["hash"]
    return games


def older(journal, seq: int, digest: str) -> str:
    """A receipt of record seq with that hash in the older form (two Signed lines, no record
    0), signed by the game's key as mails sent before it carry."""
    header = records(journal)[0]
    key = signing.held(header["signing"]["fingerprint"])
    sig = key._private.sign(signing.receipt_statement(header["game_id"], seq, digest))
    blob = base64.urlsafe_b64encode(bytes.fromhex(digest) + sig).decode()
    return "\n".join([*signedreceipt.lines(blob), receipt_line(header["game_id"], seq, digest)])


def test_a_receipt_of_another_game_of_that_id_and_key_is_no_proof(cli, tmp_path, monkeypatch,
                                                                   referee_home):
    (a, _), (b, moved) = _twins(cli, tmp_path, monkeypatch, referee_home)
    r = cli("verify", a, "--receipt", moved)
    assert r.exit_code == 3, r.output
    [line] = r.stderr.strip().splitlines()
    first_a, first_b = records(a)[0]["hash"], records(b)[0]["hash"]
    fpr = shown(records(a)[0]["signing"]["fingerprint"])
    assert f"the game's key {fpr} signed hash" in line, line
    assert f"record 0 {first_b[:12]}…, but this journal's record 0 is {first_a[:12]}…" in line
    assert "signed another record 0 for this game id" in line, line
    assert "proof, to anyone" not in line and "rewritten after that mail" not in line, line
    as_user(monkeypatch, tmp_path / "home-b")
    assert cli("verify", b, "--receipt", moved).exit_code == 0


def test_a_receipt_of_the_older_form_still_checks_and_says_what_it_cannot_tell(
        cli, tmp_path, monkeypatch, referee_home):
    (a, _), (b, _) = _twins(cli, tmp_path, monkeypatch, referee_home)
    last = records(a)[-1]
    genuine = older(a, last["seq"], last["hash"])
    assert len(genuine.splitlines()) == 4           # Signed, two lines of 64, the receipt
    r = cli("verify", a, "--receipt", genuine)
    assert r.exit_code == 0, r.output
    assert "receipts: 1 checked (1 with a signature)" in r.stdout
    moved = older(b, last["seq"], records(b)[-1]["hash"])
    r = cli("verify", a, "--receipt", moved)
    assert r.exit_code == 3, r.output
    [line] = r.stderr.strip().splitlines()
    assert "the journal was rewritten after that mail, or the mail is of another game made " \
           "under the same id and key" in line, line
    assert "proof, to anyone" not in line, line
