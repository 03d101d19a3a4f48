"""`explain N` mailed to a skirmish: answered as a campaign answers it (player.md: every
game answers it), with the record as the side may see it, once, and nothing written to the
journal; a line among orders refuses the mail whole."""

from __future__ import annotations

import email
import json
from email.policy import default

from test_skirmish_mail import BRITISH, GERMAN, mail, mailed_patrol


def _answers(out) -> list[str]:
    return [email.message_from_bytes(p.read_bytes(), policy=default).get_body(
        ("plain",)).get_content() for p in sorted(out.glob("*.eml"))]


def test_explain_by_mail_is_answered_once_and_records_nothing(cli, tmp_path, secret_file):
    j = tmp_path / "patrol.jsonl"
    keys = mailed_patrol(cli, j, secret_file)
    box = tmp_path / "mail"
    box.mkdir()
    out = tmp_path / "out"
    first = mail(box, 1, BRITISH, keys["british"], "move B2 mode=manoeuvre command=yes")
    assert cli("inbox", j, first, "--outbox", out).exit_code == 0
    before = j.read_bytes()
    ask = mail(box, 2, GERMAN, keys["german"], "explain #1")
    r = cli("inbox", j, ask, "--outbox", out / "two", "--format", "json")
    assert r.exit_code == 0, r.stderr
    [got] = json.loads(r.stdout)["messages"]
    assert (got["side"], got["status"], got["records"]) == ("german", "answered", [])
    assert j.read_bytes() == before                      # nothing written to the journal
    [answer] = _answers(out / "two")
    assert answer.startswith("Your message asked for record 1 explained."), answer
    assert "Not read as orders" not in answer and "B2" in answer
    assert "Below: what you are asked now, then your report." in answer
    assert "Report for the German player" in answer
    again = cli("inbox", j, ask, "--outbox", out / "three", "--format", "json")
    assert json.loads(again.stdout)["messages"][0]["status"] == "done"
    assert not list((out / "three").glob("*.eml"))       # answered once


def test_explain_among_orders_or_of_no_record_is_refused_whole(cli, tmp_path, secret_file):
    j = tmp_path / "patrol.jsonl"
    keys = mailed_patrol(cli, j, secret_file)
    box = tmp_path / "mail"
    box.mkdir()
    before = j.read_bytes()
    mixed = mail(box, 1, BRITISH, keys["british"], "explain 0",
                 "move B2 mode=manoeuvre command=yes")
    far = mail(box, 2, GERMAN, keys["german"], "explain 99")
    r = cli("inbox", j, mixed, far, "--outbox", tmp_path / "out", "--format", "json")
    got = [(x["status"], x["reason"]) for x in json.loads(r.stdout)["messages"]]
    assert got[0][0] == "refused" and "holds nothing else" in got[0][1], got
    assert got[1][0] == "refused" and "no record 99 to explain" in got[1][1], got
    assert j.read_bytes() == before
