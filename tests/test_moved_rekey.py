"""A game rekeyed in one referee home and moved to another: what the home it moved to makes
of an older copy of it (every record and signature genuine), of a key only named, and of a
different game that reuses its id. Each docstring says the case and what the referee does."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from forging import as_user, records
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
