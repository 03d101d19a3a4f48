"""Checked-in JSON Schemas must match the contract classes they are derived from."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import TypeAdapter

from referee.contracts.schemas import SCHEMAS, schema_text

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("name", list(SCHEMAS))
def test_checked_in_schema_is_current(name):
    path = ROOT / "schemas" / f"{name}.json"
    assert path.is_file(), f"schemas/{name}.json missing: run `make schemas`"
    assert path.read_text(encoding="utf-8") == schema_text(name), \
        f"schemas/{name}.json is stale: run `make schemas`"


def test_schema_command(cli):
    r = cli("schema", "orders")
    assert r.exit_code == 0 and json.loads(r.stdout)
    r = cli("schema", "nonsense")
    assert r.exit_code == 2


def test_journal_records_match_the_record_schema(game):
    from referee.contracts.records import JournalHeader, JournalRecord

    lines = game.read_bytes().splitlines()
    TypeAdapter(JournalHeader).validate_json(lines[0])
    for line in lines[1:]:
        TypeAdapter(JournalRecord).validate_json(line)
