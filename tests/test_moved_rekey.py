"""A game rekeyed in one referee home and moved to another: what the home it moved to makes
of an older copy of it (every record and signature genuine), of a key only named, and of a
different game that reuses its id. Each docstring says the case and what the referee does."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from forging import as_user, records, shown
from test_signing_attacks import mailed_game


def _rekeyed(cli, folder: Path) -> tuple[Path, bytes, str, str]:
    """A mailed game, a copy of it from before `rekey`, the key it began with and the new
    one; the game moved on by one record after the key change."""
    journal = mailed_game(cli, folder)
    assert cli("order", journal, "--as", "german", "pass", "end turn").exit_code == 0
    backup = journal.read_bytes()
    r = cli("rekey", journal, "--format", "json")
    assert r.exit_code == 0, r.output
    assert cli("order", journal, "--as", "entente", "pass", "end turn").exit_code == 0
    return journal, backup, records(journal)[0]["signing"]["fingerprint"], \
        json.loads(r.stdout)["fingerprint"].replace("-", "")


def _move(monkeypatch, home: Path, other: Path, *fprs: str) -> None:
    """The moderator goes on in the referee home `other`, with the key files fprs copied."""
    (other / "keys").mkdir(parents=True, mode=0o700)
    for fpr in fprs:
        shutil.copy2(home / "keys" / f"{fpr}.key", other / "keys" / f"{fpr}.key")
    as_user(monkeypatch, other)


def test_a_copy_from_before_rekey_is_cut_back_in_the_home_the_game_moved_to(
        cli, tmp_path, monkeypatch, referee_home):
    """The game is rekeyed, moved to another referee home with both key files (a backup of
    keys/ holds both) and written there; then a nightly backup from before the key change
    is put in its place. That home's mark named only the key it signed with, so the
    backup's signer (the key handed over, which the home it moved to never handed over
    itself) made it "another game of that id": tick played it, and an order was written
    onto the older copy with the old key. The mark knows the game by its record 0 and the
    keys its journal names, so the copy is refused as cut back."""
    journal, backup, old, new = _rekeyed(cli, tmp_path / "games")
    _move(monkeypatch, referee_home, tmp_path / "home-b", old, new)
    assert cli("deadline", journal, "--set", "48h").exit_code == 0
    journal.write_bytes(backup)
    r = cli("tick", journal.parent, "--no-map")
    assert r.exit_code == 3 and "cut back: this referee wrote record" in r.output, r.output
    r = cli("order", journal, "--as", "entente", "pass")
    assert r.exit_code == 3 and "cut back: this referee wrote record" in r.stderr, r.output
    assert journal.read_bytes() == backup


def test_another_game_of_the_same_id_in_the_home_a_game_moved_to_is_its_own(
        cli, tmp_path, monkeypatch, referee_home):
    """A genuinely different game made with the same --game-id in the home the rekeyed game
    moved to (its own record 0, its own key) is no older copy of it: it is written."""
    journal, _, old, new = _rekeyed(cli, tmp_path / "games")
    _move(monkeypatch, referee_home, tmp_path / "home-b", old, new)
    assert cli("deadline", journal, "--set", "48h").exit_code == 0
    other = mailed_game(cli, tmp_path / "elsewhere")
    r = cli("deadline", other, "--set", "24h")
    assert r.exit_code == 0, r.output


def test_verify_with_the_new_key_right_after_rekey_says_it_signed_nothing_yet(cli, game):
    """`verify --key NEW` right after `rekey` said NEW "did not sign this journal (its keys:
    OLD, NEW): it was rewritten under another key", of a journal that names it itself. It
    names the key change, and fails still: a key only named vouches for nothing (whoever
    held the key before could name any). From NEW's first record on it passes."""
    assert cli("rekey", game).exit_code == 0
    change = records(game)[-1]
    new, old = change["signing"]["fingerprint"], records(game)[0]["signing"]["fingerprint"]
    r = cli("verify", game, "--key", new)
    assert r.exit_code == 3, r.output
    assert r.stderr == (
        f"referee: {game.name}: --key {shown(new)} has signed no record of this journal yet: "
        f"record {change['seq']}, a key change signed by key {shown(old)}, only names it, "
        f"and a key only named vouches for nothing; if {shown(old)} is the key you held "
        f"before, check with it until a record signed by {shown(new)} follows\n"), r.stderr
    assert cli("verify", game, "--key", old).exit_code == 0
    assert cli("order", game, "--as", "german", "pass").exit_code == 0
    assert cli("verify", game, "--key", new).exit_code == 0


def test_an_older_receipt_pasted_with_the_new_key_is_told_then_passes(cli, game):
    """A player pastes the new fingerprint (from a later mail) with a receipt of a record
    the key before signed. Before the new key signed anything, verify says the receipt's
    record was signed by the key before; once it has signed a record, that signature
    covers the receipt's record through the chain, and the pair passes."""
    receipt = cli("report", game, "--as", "german").stdout.splitlines()[-1]
    seq = records(game)[-1]["seq"]
    assert cli("rekey", game).exit_code == 0
    old, new = (records(game)[0]["signing"]["fingerprint"],
                records(game)[-1]["signing"]["fingerprint"])
    pasted = f"Fingerprint: {shown(new)} (the game's signing key)\n{receipt}"
    r = cli("verify", game, "--receipt", pasted)
    assert r.exit_code == 3 and "has signed no record of this journal yet" in r.stderr
    assert f"the receipt's record {seq} was signed by key {shown(old)};" in r.stderr, r.stderr
    assert cli("order", game, "--as", "german", "pass").exit_code == 0
    r = cli("verify", game, "--receipt", pasted)
    assert r.exit_code == 0, r.output


def test_an_older_copy_in_a_home_holding_the_new_key_alone_is_told_as_one(
        cli, tmp_path, monkeypatch, referee_home):
    """The guide moves the current key file alone. A copy from before the key change put
    back there was "not a game of this referee: key OLD not in REFEREE_HOME" for tick (which
    invites copying the old key in) and "rewritten by someone without the key" for status,
    though every record of it is the moderator's own. Both now name it an older copy of the
    game, from before its key change, and ask for the current journal back."""
    journal, backup, old, new = _rekeyed(cli, tmp_path / "games")
    change = next(r["seq"] for r in records(journal) if r.get("signing", {}).get(
        "fingerprint") == new)
    _move(monkeypatch, referee_home, tmp_path / "home-b", new)
    assert cli("deadline", journal, "--set", "48h").exit_code == 0
    journal.write_bytes(backup)
    told = (f"an older copy of game signed, from before its rekey at record {change}: its "
            f"last record, {records(journal)[-1]['seq']}, is signed by key {shown(old)}, "
            f"which record {change} handed over to key {shown(new)}, and this referee wrote "
            f"record ")
    r = cli("tick", journal.parent, "--no-map")
    assert r.exit_code == 3 and told in r.output and "not in REFEREE_HOME" not in r.output, \
        r.output
    r = cli("status", journal)
    assert r.exit_code == 3 and told in r.stderr, r.output
    assert "since; restore the current journal in its place (docs/moderator.md, Restoring a " \
        "journal from a backup; if you restored this copy on purpose, remove " in r.stderr and \
        r.stderr.endswith(".mark); nothing of it is shown\n"), r.stderr
    assert journal.read_bytes() == backup
