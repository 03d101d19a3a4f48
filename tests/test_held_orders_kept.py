"""Mailed orders held for the moderator's dice are ended only by an order of their side's
(mail/holds.py): the player's own mail asking for more time while they wait is a fact about
time, no order, and leaves them held, the game waiting on the moderator."""

from __future__ import annotations

import json

from mailboxes import write_maildir
from test_held_orders_stand import held_view, records
from test_waits_on_moderator import held_for_dice


def order_key(cli, j, side: str) -> str:
    return {p["side"]: p["key"] for p in json.loads(
        cli("players", j, "--keys", "--format", "json").stdout)["players"] if "key" in p}[side]


def test_a_players_extend_leaves_his_orders_held(tmp_path, cli):
    """The Entente's orders are held; he then mails `extend 24h`. The extension is kept,
    but his orders are still held and every pass still says the game waits on the
    moderator: they were dropped without a word, tick saying all was handled."""
    j, box, out = held_for_dice(tmp_path, cli)
    assert cli("deadline", j, "--set", "24h").exit_code == 0
    assert cli("tick", j, "--no-map").exit_code != 0            # held; he is told
    [at] = [h["record"] for h in held_view(cli, j)]
    write_maildir(box, [(f"From: e@example.org\nSubject: more time\nMessage-ID: "
                         f"<m2@example.org>\n\nextend 24h\n\nOrder key: "
                         f"{order_key(cli, j, 'entente')}\n").encode()])
    r = cli("tick", j, "--no-map")
    assert [(x["actor"], x["order"]) for x in records(j)[at + 1:]] == [
        ("entente", "extend 24h")]
    assert [(h["side"], h["record"], h["lines"]) for h in held_view(cli, j)] == [
        ("entente", at, ["done", "done"])]
    assert r.exit_code != 0 and "the game waits on the moderator: entente's orders" in \
        r.stderr, r.output
