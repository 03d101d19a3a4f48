"""A skirmish's `log --format json`: the moderator's, its records whole in the shapes of
the skirmish's journal schemas; for anyone else refused with advice that is true. The
refusal said "nothing of it is secret: verify the journal itself", while the journal's
first record names every player's address."""

from __future__ import annotations

import json

import jsonschema

from referee.contracts.schemas import schema

BRITISH = "tommy@example.org"


def made(cli, tmp_path, secret_file):
    j = tmp_path / "p.jsonl"
    r = cli("new", j, "--game", "skirmish", "--scenario", "patrol", "--secret-file",
            secret_file, "--player", f"british={BRITISH}", "--player", "german=fritz@example.org")
    assert r.exit_code == 0, r.stderr
    return j


def test_the_moderator_s_log_is_the_journal_in_its_schemas(cli, tmp_path, secret_file):
    j = made(cli, tmp_path, secret_file)
    r = cli("log", j, "--as", "moderator", "--format", "json")
    assert r.exit_code == 0, r.stderr
    lines = [json.loads(line) for line in r.stdout.splitlines()]
    jsonschema.Draft202012Validator(schema("skirmish-journal-header")).validate(lines[0])
    for rec in lines[1:]:
        jsonschema.Draft202012Validator(schema("skirmish-journal-record")).validate(rec)
    assert BRITISH in r.stdout


def test_another_reader_is_refused_without_being_told_nothing_is_private(
        cli, tmp_path, secret_file):
    j = made(cli, tmp_path, secret_file)
    for reader in ("british", "public"):
        r = cli("log", j, "--as", reader, "--format", "json")
        assert r.exit_code == 2 and r.stdout == ""
        error = json.loads(r.stderr)
        assert error["kind"] == "usage"
        assert "nothing of it is secret" not in error["error"]
        assert "address" in error["error"] and "--as moderator" in error["error"]
        assert BRITISH not in error["error"]


def test_scripting_md_says_what_the_code_does():
    from pathlib import Path

    text = " ".join((Path(__file__).parents[2] / "docs" / "scripting.md").read_text(
        encoding="utf-8").split())
    assert "`log --format json --as moderator` gives the journal whole" in text
    assert "json` is refused: nothing of a skirmish is secret" not in text
    assert "`skirmish-journal-header`, then each record a `skirmish-journal-record`" in text
