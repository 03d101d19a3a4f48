"""`report --format json` on a skirmish prints a `skirmish-report`, which a script reads as it
reads any report: the records it covers (`since`, `upto`), the receipt of the last (as the
skirmish's mails end with it, and `verify --receipt` takes), the dice mode and whom the game
waits on (`waiting_on`, `waiting_on_all`). It had none of them; scripting.md did not say
that `report` changes shape on a skirmish."""

from __future__ import annotations

import json

import jsonschema
from skirmish_cases import said_done

from referee.contracts.schemas import schema
from referee.store.signing import shown


def _json(cli, *args) -> dict:
    r = cli(*args, "--format", "json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    jsonschema.Draft202012Validator(schema("skirmish-report")).validate(doc)
    return doc


def _records(j) -> list[dict]:
    return [json.loads(line) for line in j.read_text().splitlines()]


def test_a_skirmish_report_covers_records_and_ends_with_its_receipt(cli, patrol):
    assert said_done(cli, patrol, "british").exit_code == 0
    assert cli("order", patrol, "--as", "german", "move G3 mode=stealthy command=yes"
               ).exit_code == 0
    head, *_, last = _records(patrol)
    status = json.loads(cli("status", patrol, "--format", "json").stdout)
    for doc in (_json(cli, "report", patrol, "--as", "german"),
                _json(cli, "skirmish", "report", patrol, "--as", "german")):
        assert (doc["since"], doc["upto"]) == (0, last["seq"]) == (0, 2), doc
        receipt = doc["receipt"]
        assert (receipt["seq"], receipt["hash"]) == (last["seq"], last["hash"]), receipt
        assert receipt["fingerprint"] == shown(head["signing"]["fingerprint"]), receipt
        assert receipt["signature"] and receipt["signed"], receipt
        assert doc["dice"] == "committed"
        assert doc["waiting_on"] == doc["waiting_on_all"] == status["waiting_on"] == \
            status["waiting_on_all"] == ["german"], (doc, status)
        r = cli("verify", patrol, "--receipt",
                f"Receipt: patrol {receipt['seq']}:{receipt['hash'][:32]}")
        assert r.exit_code == 0, r.output


def test_a_report_since_a_record_says_so_and_lists_the_tests_after_it(cli, patrol):
    assert cli("order", patrol, "--as", "british", "move B2 mode=stealthy command=yes"
               ).exit_code == 0
    assert cli("order", patrol, "--as", "british", "move B3 mode=stealthy command=yes"
               ).exit_code == 0
    doc = _json(cli, "report", patrol, "--since", "1")
    assert (doc["since"], doc["upto"]) == (1, 2), doc
    assert [t["record"] for t in doc["tests"]] == [2], doc["tests"]


def test_show_is_the_game_now_and_no_report_of_records(cli, patrol):
    doc = _json(cli, "show", patrol)
    assert not {"since", "upto", "receipt"} & set(doc), sorted(doc)
