"""A game whose dice secret file was moved away is a problem of that game on every pass of
`tick`, naming where the secret was looked for and what to do, in text and JSON; never "all
handled" (it can roll no die, deal no card, nor make its players' order keys). A game that
needs the file no more (its secret revealed in the journal) is no problem."""

from __future__ import annotations

import json
from pathlib import Path

from test_signing import mailed_game


def _tick(cli, folder: Path, *args: str):
    return cli("tick", folder, "--no-map", *args)


def test_a_missing_secret_is_a_problem_on_every_pass(cli, tmp_path):
    folder = tmp_path / "games"
    journal = mailed_game(cli, folder)
    secret = journal.with_name(journal.name + ".secret")
    assert _tick(cli, folder).exit_code == 0
    secret.rename(tmp_path / "moved.secret")
    for _ in range(2):
        r = _tick(cli, folder)
        assert r.exit_code == 3, r.output
        assert "all handled" not in r.output
        line = next(x for x in r.output.splitlines() if "dice secret is missing" in x)
        assert str(secret) in line and "put the game's secret file back" in line, line
        assert "docs/moderator.md" in line, line
    r = _tick(cli, folder, "--format", "json")
    assert r.exit_code == 3, r.output
    assert "dice secret is missing" in json.dumps(json.loads(r.stdout)), r.stdout
    (tmp_path / "moved.secret").rename(secret)
    r = _tick(cli, folder)
    assert r.exit_code == 0 and "dice secret" not in r.output, r.output


def test_a_game_whose_secret_is_revealed_needs_the_file_no_more(cli, tmp_path):
    folder = tmp_path / "games"
    journal = mailed_game(cli, folder)
    assert cli("reveal", journal, "--force").exit_code == 0
    journal.with_name(journal.name + ".secret").rename(tmp_path / "moved.secret")
    r = _tick(cli, folder)
    assert "dice secret" not in r.output, r.output


def test_a_skirmish_without_its_secret_is_a_problem_too(cli, tmp_path):
    """A skirmish reads its mail whole and makes its order keys from the secret: without it
    the game cannot be read for mail at all, which is its problem line on every pass."""
    from mailboxes import write_maildir

    folder = tmp_path / "games"
    folder.mkdir()
    journal = folder / "patrol.jsonl"
    r = cli("new", journal, "--game", "skirmish", "--scenario", "patrol", "--game-id", "patrol",
            "--player", "british=tommy@example.org", "--player", "german=fritz@example.org",
            "--mail-in", str(write_maildir(tmp_path / "box", [])),
            "--mail-out", f"outbox:{tmp_path / 'out'}")
    assert r.exit_code == 0, r.output
    assert _tick(cli, folder).exit_code == 0
    journal.with_name(journal.name + ".secret").rename(tmp_path / "moved.secret")
    for _ in range(2):
        r = _tick(cli, folder)
        assert r.exit_code == 3 and "all handled" not in r.output, r.output
        line = next(x for x in r.output.splitlines() if "dice secret is needed" in x)
        assert "patrol.jsonl.secret" in line and "put the game's secret file there" in line
