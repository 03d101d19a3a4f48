"""A receipt signed by the game's key (player.md: Receipts): proof to a third party.

A mail's receipt comes with the game key's signature of it (game/signedreceipt.py), so a
journal rewritten after the mail is shown rewritten to anyone with the mail and the
journal, not only to the player who kept it. A signature altered, made by another game's
key, or moved to another record fails as a forged receipt."""

from __future__ import annotations

import base64
import json

from forging import resign
from test_receipts import WIDTH, body_lines, last_record, mailed_report

from referee.game import signedreceipt
from referee.store import signing
from referee.store.journal import canonical


def _records(path):
    return [json.loads(line) for line in path.read_bytes().split(b"\n")[:-1]]


def _rewrite(path, records):
    """Records chained, sealed and signed again by the key that signed them (what the
    holder of the game's key can do)."""
    out, prev = [], None
    for rec in records:
        rec = resign({**{k: v for k, v in rec.items() if k != "hash"}, "prev": prev})
        prev = rec["hash"]
        out.append(rec)
    path.write_bytes(b"".join(canonical(r) + b"\n" for r in out))


def _signed_tail(cli, tmp_path, game_id="signed-game"):
    """A journal and the last lines of the report mail `inbox` writes: key line, Signed
    lines (three), receipt."""
    journal, raw = mailed_report(cli, tmp_path, game_id)
    lines = body_lines(raw)
    assert lines[-5] == "Signed:", lines[-7:]
    return journal, lines[-6:]


def _blob(tail: list[str]) -> bytes:
    """What the Signed lines hold: the form, the record's hash, record 0's, the signature."""
    return base64.urlsafe_b64decode("".join(tail[2:5]).replace(" ", ""))


def test_a_mails_signed_receipt_verifies_and_fits_a_phone(cli, tmp_path):
    journal, tail = _signed_tail(cli, tmp_path)
    assert all(len(line) <= WIDTH for line in tail), tail
    last = last_record(journal)
    blob = _blob(tail)
    assert blob[0] == 2 and len(blob) == 129
    assert blob[1:33].hex() == last["hash"]         # the whole hash, signed
    assert blob[33:65].hex() == _records(journal)[0]["hash"]        # and record 0's
    r = cli("verify", journal, "--receipt", "\n".join(tail))
    assert r.exit_code == 0, r.output
    assert "receipts: 1 checked (1 with a signature), each record is in the journal as it " \
           "was" in r.stdout
    assert cli("verify", journal, "--receipt", "\n".join(tail[1:])).exit_code == 0
    json_receipt = json.loads(cli("report", journal, "--as", "german", "--format",
                                  "json").stdout)["receipt"]
    assert json_receipt["hash"] == last["hash"] and len(json_receipt["signature"]) == 86


def test_a_journal_rewritten_after_the_mail_is_proved_rewritten(cli, tmp_path):
    journal, tail = _signed_tail(cli, tmp_path)
    records = _records(journal)
    seq = records[-1]["seq"]
    records[1] = {**records[1], "at": "2001-01-01T00:00:00Z"}       # replaced from record 1
    _rewrite(journal, records)
    r = cli("verify", journal, "--receipt", "\n".join(tail))
    assert r.exit_code == 3, r.output
    line = r.stderr.strip().splitlines()[0]     # then what else verify found wrong
    assert (f"the game's key {signing.shown(signing.signer_of(records[-1]['sig']))} signed "
            f"hash {last_hash(tail)} for record {seq}, and the journal does not hold it"
            ) in line and "rewritten after that mail" in line, line
    _rewrite(journal, records[:seq])                    # and cut back before it
    r = cli("verify", journal, "--receipt", "\n".join(tail))
    assert r.exit_code == 3 and f"ends at record {seq - 1}): proof" in r.stderr, r.output


def last_hash(tail: list[str]) -> str:
    return _blob(tail)[1:33].hex()


def _forged(cli, journal, pasted: str) -> None:
    r = cli("verify", journal, "--receipt", pasted)
    assert r.exit_code == 3, r.output
    [line] = r.stderr.strip().splitlines()
    assert "a forged receipt" in line, line


def test_a_signature_altered_by_one_sign_fails_as_forged(cli, tmp_path):
    journal, tail = _signed_tail(cli, tmp_path)
    # in the hash's rest, in record 0's, in the signature
    for row, at in ((2, 8), (3, 2), (3, 40), (3, 65), (4, 45)):
        line = tail[row]
        sign = line[at]
        other = "A" if sign != "A" else "B"
        altered = [*tail]
        altered[row] = line[:at] + other + line[at + 1:]
        _forged(cli, journal, "\n".join(altered))


def test_a_signature_by_another_games_key_fails_as_forged(cli, tmp_path):
    journal, tail = _signed_tail(cli, tmp_path / "a")
    other, other_tail = _signed_tail(cli, tmp_path / "b")
    assert other_tail[2:5] != tail[2:5]
    _forged(cli, journal, "\n".join([tail[0], *other_tail[1:5], tail[5]]))
    _forged(cli, journal, "\n".join([*other_tail[1:5], tail[5]]))   # without the key line


def test_a_signature_moved_to_another_record_fails_as_forged(cli, tmp_path):
    journal, tail = _signed_tail(cli, tmp_path)
    records = _records(journal)
    seq = records[-1]["seq"]
    earlier = records[seq - 1]
    moved = tail[5].replace(f" {seq}:", f" {seq - 1}:").replace(
        tail[5].rsplit(":", 1)[1], earlier["hash"][:32])
    blob = _blob(tail)
    raw = blob[:1] + bytes.fromhex(earlier["hash"]) + blob[33:]
    text = base64.urlsafe_b64encode(raw).decode()
    _forged(cli, journal, "\n".join([*signedreceipt.lines(text), moved]))
    # A record's own signature passed off as a receipt's fails too, in either form.
    sig = base64.urlsafe_b64decode(earlier["sig"].split(".")[1] + "==")
    for raw in (blob[:1] + bytes.fromhex(earlier["hash"]) + blob[33:65] + sig,
                bytes.fromhex(earlier["hash"]) + sig):
        text = base64.urlsafe_b64encode(raw).decode()
        _forged(cli, journal, "\n".join([*signedreceipt.lines(text), moved]))


def test_a_receipt_statement_is_never_what_a_record_signature_covers(tmp_path):
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = signing.GameKey(Ed25519PrivateKey.generate())
    digest, first = "ab" * 32, "cd" * 32
    for statement in (signing.receipt_statement("g", 3, digest, first),
                      signing.receipt_statement("g", 3, digest)):     # the older form
        assert statement != signing._DOMAIN + digest.encode()
        assert not statement.startswith(signing._DOMAIN)
    for domain in (signing._RECEIPT_DOMAIN, signing._RECEIPT_BEGUN_DOMAIN):
        assert not (signing._DOMAIN + digest.encode()).startswith(domain)
    # neither receipt form's prefix starts the other's
    assert not signing._RECEIPT_BEGUN_DOMAIN.startswith(signing._RECEIPT_DOMAIN)
    assert not signing._RECEIPT_DOMAIN.startswith(signing._RECEIPT_BEGUN_DOMAIN)
    record_sig = key.sig(digest)                        # a record's signature of that hash
    for named in (first, None):
        assert not signing.checks_receipt(signing._unb64(record_sig.split(".")[1]), "g", 3,
                                          digest, key.public, named)
    receipt_sig = key.sign_receipt("g", first, 3, digest)
    assert not signing.checks(f"{key.fpr}.{signing._b64(receipt_sig)}", digest, key.public)
    assert signing.checks_receipt(receipt_sig, "g", 3, digest, key.public, first)
    assert not signing.checks_receipt(receipt_sig, "g", 3, digest, key.public)
    assert not signing.checks_receipt(receipt_sig, "g", 3, digest, key.public, digest)


def test_a_receipt_without_its_signature_is_checked_as_before(cli, tmp_path):
    journal, tail = _signed_tail(cli, tmp_path)
    r = cli("verify", journal, "--receipt", "\n".join([tail[0], tail[5]]))
    assert r.exit_code == 0, r.output
    assert "receipts: 1 checked, each record is in the journal as it was" in r.stdout
    for lost in (3, 4):                                 # one line lost, the last one too
        r = cli("verify", journal, "--receipt", "\n".join(tail[:lost] + tail[lost + 1:]))
        assert r.exit_code == 2 and "the Signed lines are not whole" in r.stderr, r.output
