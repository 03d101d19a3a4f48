"""`extend 24h` mailed in a skirmish. A tester's British player asked for more time as
player.md's Deadlines offer every player, and was answered only "no orders found ... Not
read as orders: line 1 'extend 24h'", though a skirmish has no deadlines (`referee
deadline` on one says so). Now the line is read as asked and answered in one line saying
that a skirmish has no deadlines; the orders beside it are taken as ever."""

from __future__ import annotations

import json

from test_skirmish_end_mails import Duel
from test_skirmish_mail import BRITISH

NONE = ("'extend 24h': a skirmish has no deadlines (it moves on as the sides say done), so "
        "nothing was extended.")


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_extend_alone_is_answered_that_a_skirmish_has_no_deadlines(cli, tmp_path):
    duel = Duel(cli, tmp_path)
    before = duel.j.read_bytes()
    duel.post("british", "extend 24h")
    r = cli("tick", duel.j, "--no-map", "--format", "json")
    assert r.exit_code == 0, r.output
    (got,) = json.loads(r.stdout)["games"][0]["messages"]
    assert (got["status"], got["code"]) == ("refused", "extend_refused"), got
    assert duel.j.read_bytes() == before
    (answer,) = duel.tick()[BRITISH]
    first = _flat(answer.split("\n\n")[0])
    assert first == f"Nothing of your mail was recorded: {NONE}", answer
    assert "Not read as orders" not in answer and "no orders found" not in answer, answer


def test_extend_beside_orders_is_answered_and_the_orders_taken(cli, tmp_path):
    duel = Duel(cli, tmp_path)
    duel.post("british", "extend 24h", "done")
    (answer,) = duel.tick()[BRITISH]
    assert answer.startswith("Your mail was recorded: #6\n"), answer
    assert f"Not read: {NONE}" in _flat(answer), answer
    assert "Not read as orders" not in answer, answer
