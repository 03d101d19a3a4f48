"""Mailed orders held for the moderator's dice are ended only by an order of their side's
answering the decision (mail/holds.py): the player's own mail asking for more time while
they wait is a fact about time, and an armistice he proposes (3.2) answers no decision:
either leaves them held, the game waiting on the moderator."""

from __future__ import annotations

import json

from mailboxes import write_maildir
from test_held_orders_stand import held_view, records
from test_waits_on_moderator import held_for_dice
from ticklines import problem_text


def order_key(cli, j, side: str) -> str:
    return {p["side"]: p["key"] for p in json.loads(
        cli("players", j, "--keys", "--format", "json").stdout)["players"] if "key" in p}[side]


def mail_as_entente(cli, j, box, text: str) -> None:
    write_maildir(box, [(f"From: e@example.org\nSubject: more\nMessage-ID: <m2@example.org>"
                         f"\n\n{text}\n\nOrder key: {order_key(cli, j, 'entente')}\n"
                         ).encode()])


def _held_still_after(cli, j, box, line: str) -> None:
    """The Entente, his orders held, mails line: it is recorded, his orders are still held
    at the same record, and the pass still says the game waits on the moderator."""
    [at] = [h["record"] for h in held_view(cli, j)]
    mail_as_entente(cli, j, box, line)
    r = cli("tick", j, "--no-map")
    assert [(x["actor"], x["order"]) for x in records(j)[at + 1:]] == [
        ("entente", line)]
    assert [(h["side"], h["record"], h["lines"]) for h in held_view(cli, j)] == [
        ("entente", at, ["done", "done"])]
    assert r.exit_code != 0 and "the game waits on the moderator: the Entente player's orders" in \
        problem_text(r), r.output


def test_a_players_extend_leaves_his_orders_held(tmp_path, cli):
    """The Entente's orders are held; he then mails `extend 24h`. The extension is kept,
    but his orders are still held and every pass still says the game waits on the
    moderator: they were dropped without a word, tick saying all was handled."""
    j, box, out = held_for_dice(tmp_path, cli)
    assert cli("deadline", j, "--set", "24h").exit_code == 0
    assert cli("tick", j, "--no-map").exit_code != 0            # held; he is told
    _held_still_after(cli, j, box, "extend 24h")


def test_an_armistice_the_player_proposes_leaves_his_orders_held(tmp_path, cli):
    """The Entente's battle orders are held; he then mails 'propose armistice', which any
    side may do at any time (3.2). It is recorded, and his battle orders are still held:
    the proposal answers nothing he was asked."""
    j, box, out = held_for_dice(tmp_path, cli)
    assert cli("tick", j, "--no-map").exit_code != 0            # held; he is told
    _held_still_after(cli, j, box, "propose armistice")
    # Accepted, the armistice ends the game (3.2): nothing is held any more.
    assert cli("order", j, "--as", "german", "accept armistice").exit_code == 0
    assert held_view(cli, j) == []
