"""Every mail that asks a side for the same decision gives him the same worked example of
one mail's orders (game/ahead.py makes it from his legal orders): his report, the reminder
before his deadline and the mail at his missed deadline. The example follows the answers
his standing orders give (a decision they answer is not asked, and a line for it in his
mail would fall to the other side's decision); the reminder and the late mail made theirs
as if he had none, so with 'no combat cards' they asked a 'done' for the combat cards his
report rightly left out.

The game is test_unattended.py's (Monday 23 November 2026 18:00 UTC, 48h deadlines,
reminders 24h and 2h before), its policy set to wait: the German's first decision, card
or pass (2.0 II.1), is due Wednesday 25 November at 18:00 UTC.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from forging import fixed_key
from mailservers import route_through
from test_unattended import ADDRESSES, GAME_ID, START, Post, Table, text_of, words

import gamecalls as g
from referee.engine import legal_orders
from referee.engine.order_text import format_order
from referee.game.ahead import ahead

H = timedelta(hours=1)
SECRET = "5e" * 32            # the fixed secret of conftest.py
DUE = START + 48 * H
EXAMPLE = re.compile(r"For example[^:]*: (.*?) Reply with one order per line")


@pytest.fixture
def post(servers, monkeypatch, tmp_path) -> Post:
    return route_through(servers, monkeypatch, tmp_path / "user", Post)


def new_game(cli, folder, post: Post):
    """The 1916 scenario, its reinforcements placed at START (2.0 I): the German asked to
    play an Offensive-type card or pass (2.0 II.1), with a battle his example starts. The
    dice secret is fixed: the hands it deals hold the combat cards whose 'done' the
    standing order 'no combat cards' leaves out."""
    folder.mkdir(parents=True, exist_ok=True)
    journal = folder / f"{GAME_ID}.jsonl"
    secret = folder / "fixed.secret"
    secret.write_text(SECRET + "\n")
    r = cli("new", journal, "--scenario", "1916", "--game-id", GAME_ID, "--secret-file", secret,
            "--signing-key", fixed_key(folder.parent / "keys"),
            *[a for side, address in ADDRESSES.items()
              for a in ("--player", f"{side}={address}")],
            "--mail-in", post.source, "--mail-out", post.target, "--deadline", "48h",
            "--reminders", "24h,2h", "--missed", "wait", "--extensions", "1")
    assert r.exit_code == 0, r.output
    for side in ("german", "entente"):
        game = g.open_game(journal)
        legal = [format_order(o) for o in legal_orders(game.state, game.data, side)]
        plan = ahead(game.state, game.data, side, legal).example
        r = cli("order", journal, "--as", side, *plan)
        assert r.exit_code == 0, r.output
    return journal


def example_of(mail) -> str:
    found = EXAMPLE.search(words(text_of(mail)))
    assert found is not None, text_of(mail)
    return found[1]


@pytest.mark.parametrize("standing", [None, "no combat cards"])
def test_the_report_the_reminder_and_the_late_mail_give_one_example(
        cli, post, tmp_path, clock, monkeypatch, standing):
    journal = new_game(cli, tmp_path / "games", post)
    if standing:
        r = cli("standing", journal, "--as", "german", "--add", standing)
        assert r.exit_code == 0, r.output
    table = Table(cli, journal, post, monkeypatch)
    table.tick_at(START)
    table.tick_at(DUE - 23 * H)                     # the reminder 24h before
    monkeypatch.setenv("REFEREE_NOW", (DUE + timedelta(minutes=20)).strftime(
        "%Y-%m-%dT%H:%M:%SZ"))
    cli("tick", journal, "--no-map")                # missed: the game waits
    mails = [m for m in post.mails_to("german") if "Reply with one order per line"
             in text_of(m)]
    firsts = [words(text_of(m))[:40] for m in mails]
    assert len(mails) == 3, firsts
    examples = [example_of(m) for m in mails]
    assert examples[1:] == examples[:1] * 2, examples
    game = g.open_game(journal)
    kept = {"german": [{"text": standing, "turn": None}]} if standing else {}
    legal = [format_order(o) for o in legal_orders(game.state, game.data, "german")]
    want = ahead(game.state, game.data, "german", legal, kept).example
    assert examples[0] == " ".join(want), (examples[0], want)
    if standing:        # his combat cards are answered for him: one 'done' fewer
        plain = ahead(game.state, game.data, "german", legal, {}).example
        assert len(want) < len(plain), (want, plain)
