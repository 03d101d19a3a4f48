"""`players --new-key SIDE --format json` names the side whose key it changed, under
`new_key`, as `--set` to another mailbox does: a script sending keys on by hand learnt
of a new one only from the text."""

from __future__ import annotations

import json

import jsonschema

from referee.contracts.schemas import schema


def test_new_key_names_the_side_in_json(cli, tmp_path, secret_file):
    j = tmp_path / "k.jsonl"
    r = cli("new", j, "--scenario", "1914", "--secret-file", secret_file,
            "--player", "german=hans@example.org", "--player", "entente=jean@example.org")
    assert r.exit_code == 0, r.stderr
    before = {p["side"]: p["key"] for p in json.loads(
        cli("players", j, "--keys", "--format", "json").stdout)["players"]}
    r = cli("players", j, "--new-key", "german", "--format", "json")
    assert r.exit_code == 0, r.stderr
    doc = json.loads(r.stdout)
    jsonschema.Draft202012Validator(schema("players")).validate(doc)
    assert doc["new_key"] == ["german"]
    after = {p["side"]: p["key"] for p in json.loads(
        cli("players", j, "--keys", "--format", "json").stdout)["players"]}
    assert after["german"] != before["german"] and after["entente"] == before["entente"]
    r = cli("players", j, "--set", "entente=pierre@example.org", "--new-key", "german",
            "--format", "json")
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["new_key"] == ["entente", "german"]
    assert "new_key" not in json.loads(cli("players", j, "--format", "json").stdout)
