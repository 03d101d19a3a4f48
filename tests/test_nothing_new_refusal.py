"""A mail of which nothing was applied, answered when nothing has happened since the
player's last report: the reply repeated the whole report (board, score: over a hundred
lines); it now says that nothing has happened and what he is asked, with the orders open."""

from __future__ import annotations

import re

from test_hostile_mail import (
    ADDRESSES,
    KEYS,
    eml,
    handled,
    mail,
    new_game,
    not_applied_reply,
    replies_to,
)

KEY_LINE = f"Order key: {KEYS['german']}"


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def test_a_refusal_with_nothing_new_tells_the_decision_not_the_board(tmp_path, cli):
    journal = new_game(cli, tmp_path / "game")
    first = mail(body=f"play offensive\n\n{KEY_LINE}\n")
    out = handled(cli, journal, eml(tmp_path / "in1", first), outbox=tmp_path / "out1")
    assert out[0]["status"] == "applied", out
    (report,) = replies_to(tmp_path / "out1", ADDRESSES["german"])
    second = mail(body=f"pass\n\n{KEY_LINE}\n", mid="<m2@potsdam.example.org>",
                  headers=f"In-Reply-To: {report['Message-ID']}\n")
    out = handled(cli, journal, eml(tmp_path / "in2", second), outbox=tmp_path / "out2")
    assert out[0]["status"] == "rejected", out
    text = not_applied_reply(tmp_path / "out2", "german").get_body(
        preferencelist=("plain",)).get_content()
    said = flat(text)
    assert "Nothing has happened since your last report." in said, said
    assert "Your decision: movement phase" in said, said
    assert "Reply with one order per line" in said, said
    assert "Victory points" not in text and "\nBoard\n" not in text, text
    assert "; your card or pass (2.0 II.1) opens your next player turn" in said, said
