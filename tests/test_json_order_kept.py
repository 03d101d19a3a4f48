"""An order given in its JSON form is recorded, and so shown, in its text form: the phrase
`status` lists among `legal`. It was kept as the JSON text, so `log` printed `German:
{"kind": "pass"}` in the players' reports, `explain` gave the JSON as `order.text`, and a
script could not match what it sent against the phrases it chose from. A journal written
before, whose record holds the JSON text, still verifies and replays as it did: reading a
record takes either form."""

from __future__ import annotations

import json

from referee.game import batch

PASS = '{"kind": "pass"}'


def last_record(journal) -> dict:
    return json.loads(journal.read_text().splitlines()[-1])


def test_a_json_order_is_recorded_as_the_phrase_legal_lists(cli, game):
    legal = json.loads(cli("status", game, "--as", "german", "--format", "json").stdout)["legal"]
    r = cli("order", game, "--as", "german", "--format", "json", "--file", "-",
            input=PASS + "\n")
    assert r.exit_code == 0, r.stderr
    applied = json.loads(r.stdout)["applied"]
    assert [a["order"] for a in applied] == ["pass"] and "pass" in legal
    assert last_record(game)["order"] == "pass"
    log = cli("log", game, "--as", "entente").stdout
    assert "German: pass" in log and "kind" not in log
    shown = json.loads(cli("explain", game, str(applied[0]["seq"]), "--format", "json").stdout)
    assert shown["order"]["text"] == "pass"
    assert cli("verify", game).exit_code == 0


def test_a_text_order_is_kept_as_written(cli, game):
    r = cli("order", game, "--as", "german", "--format", "json", "Pass.")
    assert r.exit_code == 0, r.stderr
    assert last_record(game)["order"] == "Pass."


def test_a_journal_holding_the_json_form_verifies_and_replays_as_before(cli, game,
                                                                          monkeypatch):
    with monkeypatch.context() as m:                 # the record as it was kept before
        m.setattr(batch, "kept_line", lambda text, order, data: text)
        assert cli("order", game, "--as", "german", PASS).exit_code == 0
    assert last_record(game)["order"] == PASS
    r = cli("verify", game, "--format", "json")
    assert r.exit_code == 0 and json.loads(r.stdout)["result"] == "ok", r.output
    status = json.loads(cli("status", game, "--as", "german", "--format", "json").stdout)
    assert status["decision"] == "pass_move"
    assert f"German: {PASS}" in cli("log", game, "--as", "entente").stdout
    r = cli("order", game, "--as", "german", "--format", "json", '{"kind": "end_turn"}')
    assert r.exit_code == 0, r.stderr
    assert last_record(game)["order"] == "end turn"
    assert cli("verify", game).exit_code == 0
