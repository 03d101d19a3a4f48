"""`verify` in the home of the game's referee holds the journal to the mark of what that
referee last wrote to it: a journal cut back (an older copy put in its place, every record
in it genuine) fails there with the "cut back" line `status` gives, exit 3; anyone else's
verify (no mark of the game) passes it, since the signatures alone cannot tell
(docs/security.md, Cutting back)."""

from __future__ import annotations

from forging import as_user, forget_mark


def _cut_back(cli, game):
    assert cli("order", game, "--as", "german", "pass").exit_code == 0
    older = game.read_bytes()
    assert cli("order", game, "--as", "german", "move ge-5 luxembourg").exit_code == 0
    game.write_bytes(older)


def test_the_referees_own_verify_fails_a_journal_cut_back(game, cli):
    _cut_back(cli, game)
    status = cli("status", game)
    assert status.exit_code == 3 and "cut back: this referee wrote record 3" in status.stderr
    for fmt in ("text", "json"):
        r = cli("verify", game, "--format", fmt)
        assert r.exit_code == 3, r.stdout
        assert r.stderr.count("\n") == 1 and "verify: OK" not in r.stdout
        assert "cut back: this referee wrote record 3" in r.stderr, r.stderr


def test_an_outsiders_verify_of_the_same_copy_passes(game, cli, monkeypatch, tmp_path):
    _cut_back(cli, game)
    outsider = tmp_path / "player-home"
    outsider.mkdir(mode=0o700)
    as_user(monkeypatch, outsider)
    r = cli("verify", game)
    assert r.exit_code == 0 and r.stdout.endswith("verify: OK\n"), r.stderr


def test_a_copy_restored_on_purpose_verifies_once_its_mark_is_removed(game, cli):
    _cut_back(cli, game)
    forget_mark(game)
    r = cli("verify", game)
    assert r.exit_code == 0 and r.stdout.endswith("verify: OK\n"), r.stderr


def test_the_journal_as_written_verifies_in_its_referees_home(game, cli):
    assert cli("order", game, "--as", "german", "pass").exit_code == 0
    r = cli("verify", game)
    assert r.exit_code == 0 and r.stdout.endswith("verify: OK\n"), r.stderr
